"""The inbound webhook never answers 5xx (issue 24, point 4): hypothesis posts each
provider's shape with crafted tokens, JSON of any depth and size, fields of the wrong type
and fields missing, and every answer is 2xx or 4xx; nothing outside the rules is applied."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import hostile
from .conftest import fresh, start, turn_mail
from .hostile import CRAFTED_TOKENS
from .test_webhook import MAILGUN, SECRET, SENDGRID

SETTINGS = settings(max_examples=120, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner,
                                                                max_size=4),
    max_leaves=20)


def _addresses(reply_to: str) -> st.SearchStrategy[str]:
    """The seat's own reply address, one with a crafted token, or any text."""
    local, _, domain = reply_to.partition("@")
    base, _, token = local.partition("+")
    game, _, rest = token.partition("-")
    crafted = [f"{base}+{form.format(game=game, sig=rest.rsplit('-', 1)[-1])}@{domain}"
               for form in CRAFTED_TOKENS]
    return st.sampled_from([reply_to, *crafted]) | st.text(max_size=80)


def _deep(depth: int, opening: str = "[") -> bytes:
    closing = {"[": "]", "{": "}"}[opening]
    inner = '{"a":' * depth + "1" + "}" * depth if opening == "{" else \
        opening * depth + closing * depth
    return inner.encode()


def _postmark(reply_to: str) -> st.SearchStrategy[bytes]:
    fields = st.fixed_dictionaries({}, optional={
        "From": st.sampled_from(["ana@example.org", "Ana <ana@example.org>"]) | JSON,
        "To": _addresses(reply_to) | JSON, "OriginalRecipient": _addresses(reply_to) | JSON,
        "ToFull": st.lists(st.fixed_dictionaries({"Email": _addresses(reply_to) | JSON}),
                           max_size=3) | JSON,
        "TextBody": st.text(max_size=200) | JSON, "HtmlBody": st.text(max_size=200) | JSON,
        "Headers": st.lists(st.fixed_dictionaries({"Name": st.text(max_size=20) | JSON,
                                                   "Value": st.text(max_size=40) | JSON}),
                            max_size=4) | JSON,
        "MessageID": st.text(max_size=40) | JSON, "FromFull": JSON,
    })
    objects = st.builds(lambda data, extra: json.dumps({**data, **extra}).encode(), fields,
                        st.dictionaries(st.text(max_size=8), JSON, max_size=3))
    deep = st.builds(_deep, st.integers(1, 100_000), st.sampled_from(["[", "{"]))
    big = st.builds(lambda n: json.dumps({"TextBody": "x" * n}).encode(),
                    st.integers(200_000, 300_000))
    raw = st.binary(max_size=200) | st.builds(lambda d: json.dumps(d).encode(), JSON)
    return objects | deep | big | raw


def _form(reply_to: str, sample: dict[str, str], address_fields: tuple[str, ...]
          ) -> st.SearchStrategy[dict[str, str]]:
    any_text = st.text(max_size=200) | st.builds(json.dumps, JSON)
    chosen = st.dictionaries(st.sampled_from(sorted(sample)), any_text, max_size=6)
    addresses = st.dictionaries(st.sampled_from(address_fields), _addresses(reply_to),
                                max_size=len(address_fields))
    keep = st.sets(st.sampled_from(sorted(sample)))  # the sample's fields left in (or not)
    return st.builds(lambda kept, fields, at: {**{k: sample[k] for k in kept}, **fields, **at},
                     keep, chosen, addresses)


def test_no_body_gets_a_5xx(server: Flask) -> None:
    server.config.update(INBOUND_WEBHOOK_SECRET=SECRET, REPLY_ANSWERS_PER_HOUR=100_000,
                         INBOUND_RATE_LIMIT=0)
    game = start(2)
    reply_to = turn_mail(game.id, 0).headers["Reply-To"]
    client = server.test_client()
    statuses: set[int] = set()

    @SETTINGS
    @given(body=_postmark(reply_to),
           content_type=st.sampled_from(["application/json", "text/plain", ""]))
    def postmark(body: bytes, content_type: str) -> None:
        response = client.post(f"/inbound/postmark/{SECRET}", data=body,
                               content_type=content_type or None)
        statuses.add(response.status_code)
        assert response.status_code < 500, response.get_data(as_text=True)[:300]

    @SETTINGS
    @given(provider=st.sampled_from(["mailgun", "sendgrid"]), data=st.data())
    def forms(provider: str, data: st.DataObject) -> None:
        sample, fields = ((MAILGUN, ("recipient", "To", "from", "Message-Id"))
                          if provider == "mailgun" else
                          (SENDGRID, ("to", "from", "envelope", "headers")))
        form = data.draw(_form(reply_to, sample, fields))
        multipart = data.draw(st.booleans())
        response = client.post(f"/inbound/{provider}/{SECRET}", data=form,
                               content_type="multipart/form-data" if multipart else None)
        statuses.add(response.status_code)
        assert response.status_code < 500, response.get_data(as_text=True)[:300]

    postmark()
    forms()
    assert statuses <= {200, 400, 413}, statuses
    assert 200 in statuses and 400 in statuses
    state = fresh(game.id)
    assert all(step["seat"] == 0 for step in state.turn_steps)  # only the seat's legal moves


def test_a_post_of_any_shape_to_the_raw_mail_fields_gets_an_outcome(server: Flask) -> None:
    """The raw-mail fields (Mailgun's ``body-mime``, SendGrid's ``email``) take the IMAP path:
    the hostile kinds there too, within the request's size."""
    server.config.update(INBOUND_WEBHOOK_SECRET=SECRET, INBOUND_RATE_LIMIT=0)
    game = start(2)
    reply_to = turn_mail(game.id, 0).headers["Reply-To"]
    client = server.test_client()
    for kind in ("deep", "wide", "crafted_token", "broken_charset"):
        raw = hostile.KINDS[kind](reply_to, 1).decode("latin-1")
        for provider, field in (("mailgun", "body-mime"), ("sendgrid", "email")):
            response = client.post(f"/inbound/{provider}/{SECRET}", data={field: raw})
            assert response.status_code in (200, 413), (kind, provider, response.status_code)
