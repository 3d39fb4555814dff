"""The HTTP-API mail backends against local fakes of each provider's API (fake_providers.py)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.config import ConfigError, load_config
from pbem.extensions import db
from pbem.mail.outbound import api_backends, backends, message
from pbem.mail.outbound.compose import Mail
from pbem.mail.outbound.delivery import deliver_pending
from pbem.mail.outbound.outbox import enqueue
from pbem.models.game import Game
from pbem.models.outbox import FAILED, SENT, Outbox
from tests.conftest import MakeApp
from tests.mail.conftest import new_game
from tests.mail.fake_providers import (
    API_KEY,
    IDEMPOTENT,
    MAILGUN_DOMAIN,
    PROVIDERS,
    FakeProvider,
    app_settings,
)

THREAD = "<thread-root@pbem.test>"
HEADERS = {
    "Message-ID": "<m-1@pbem.test>", "In-Reply-To": THREAD, "References": THREAD,
    "Date": "Tue, 01 Dec 2026 12:00:00 +0000", "Auto-Submitted": "auto-generated",
    "X-Auto-Response-Suppress": "All",
    "List-Unsubscribe": "<https://pbem.test/mail/unsubscribe/tok>",
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
}
REQUIRED = ("Message-ID", "In-Reply-To", "References", "List-Unsubscribe",
            "List-Unsubscribe-Post", "Auto-Submitted")


@pytest.fixture(params=PROVIDERS)
def fake(request: pytest.FixtureRequest) -> Iterator[FakeProvider]:
    server = FakeProvider(request.param)
    server.start()
    yield server
    server.stop()
    assert server.shape_errors == []


def backend_for(fake: FakeProvider, key: str = API_KEY,
                timeout: float = 1.0) -> api_backends.ApiBackend:
    settings = app_settings(fake, timeout)
    settings["MAIL_API_KEY"] = key
    backend = backends.from_config(settings)
    assert isinstance(backend, api_backends.PROVIDERS[fake.provider])
    return backend


def built(message_id: str = "<m-1@pbem.test>", html: str | None = "<p>Your turn</p>"
          ) -> EmailMessage:
    return message.build(mail_from="Alien Frontiers <pbem@pbem.test>", to_addr="ana@example.org",
                         subject="Alien Frontiers: Friday", text_body="Your turn, Ana.",
                         html_body=html, headers={**HEADERS, "Message-ID": message_id})


def send(fake: FakeProvider, msg: EmailMessage, **kwargs: object) -> str | None:
    with backend_for(fake, **kwargs).open() as conn:  # type: ignore[arg-type]
        return conn.send(msg)


def test_a_message_goes_out_in_the_documented_shape_with_every_header(
        fake: FakeProvider) -> None:
    provider_id = send(fake, built())
    [got] = fake.received
    assert provider_id == got.provider_id and provider_id
    assert got.to == "ana@example.org"
    assert got.sender == "Alien Frontiers <pbem@pbem.test>"
    assert got.subject == "Alien Frontiers: Friday"
    assert got.text.strip() == "Your turn, Ana."
    assert got.html is not None and got.html.strip() == "<p>Your turn</p>"
    for name in REQUIRED:
        assert got.headers[name] == HEADERS[name], name
    assert "Date" not in got.headers  # the provider stamps the time it sends


def test_a_text_only_mail_sends_no_html_part(fake: FakeProvider) -> None:
    send(fake, built(html=None))
    assert fake.received[0].html is None


@pytest.mark.parametrize("fault", ["429", "500"])
def test_busy_or_failing_provider_is_a_temporary_failure(fake: FakeProvider,
                                                         fault: str) -> None:
    fake.faults.append(fault)
    with pytest.raises(backends.TemporaryFailure) as caught:
        send(fake, built())
    assert caught.value.code == int(fault)
    assert str(caught.value).startswith(f"{fake.provider} {fault}: ")
    assert fake.received == []


def test_no_answer_within_the_timeout_is_a_temporary_failure(fake: FakeProvider) -> None:
    fake.faults.append("timeout")
    fake.stall_seconds = 300  # no answer until the test releases it, however slow the machine
    with pytest.raises(backends.TemporaryFailure, match="no answer within 0.5 s"):
        send(fake, built(), timeout=0.5)
    assert fake.stalls_answered == 0  # the client gave up while the provider still stalled
    fake.released.set()
    assert fake.received == []


def test_a_dropped_connection_is_a_temporary_failure(fake: FakeProvider) -> None:
    fake.faults.append("drop")
    with pytest.raises(backends.TemporaryFailure):
        send(fake, built())


def test_a_refusal_is_permanent_and_keeps_the_providers_words(fake: FakeProvider) -> None:
    fake.faults.append("4xx")
    with pytest.raises(backends.PermanentFailure) as caught:
        send(fake, built())
    words = {"resend": "Invalid `to` field. (validation_error)",
             "brevo": "email is not valid in to (invalid_parameter)",
             "postmark": "marked as inactive. (406)",
             "mailgun": "to parameter is not a valid address"}[fake.provider]
    assert words in str(caught.value)
    assert 400 <= (caught.value.code or 0) < 500


def test_a_wrong_key_is_retried_not_blamed_on_the_recipient(fake: FakeProvider) -> None:
    with pytest.raises(backends.TemporaryFailure) as caught:
        send(fake, built(), key="wrong-key")
    assert caught.value.code in api_backends.ACCOUNT_STATUSES
    assert fake.received == []


def test_postmark_sender_signature_errors_are_ours_but_inactive_recipients_are_not() -> None:
    fake = FakeProvider("postmark")
    fake.start()
    try:
        fake.faults.extend(["sender", "4xx"])
        with pytest.raises(backends.TemporaryFailure, match="Sender Signature"):
            send(fake, built())
        with pytest.raises(backends.PermanentFailure, match="inactive"):
            send(fake, built())
    finally:
        fake.stop()


def test_resend_s_request_in_progress_with_the_same_key_is_retried_later() -> None:
    fake = FakeProvider("resend")
    fake.start()
    try:
        fake.faults.append("409")
        with pytest.raises(backends.TemporaryFailure, match="concurrent_idempotent_requests"):
            send(fake, built())
    finally:
        fake.stop()


def test_an_answer_lost_after_acceptance(fake: FakeProvider) -> None:
    """Where the provider has an idempotency key, the retry is answered and not sent again;
    where it has none (Postmark, Mailgun) the retry sends a second copy with the same
    headers — the duplicate window docs/mail.md describes."""
    fake.faults.append("late")
    with pytest.raises(backends.TemporaryFailure):
        send(fake, built())
    send(fake, built())
    copies = 1 if fake.provider in IDEMPOTENT else 2
    assert fake.message_ids() == ["<m-1@pbem.test>"] * copies


# -- through the outbox ------------------------------------------------------------------

@pytest.fixture
def fake_app(make_app: MakeApp, fake: FakeProvider, app: Flask) -> Flask:
    return make_app(**app_settings(fake))


def outbox_rows(app: Flask) -> list[Outbox]:
    with app.app_context():
        found = list(db.session.scalars(sa.select(Outbox).order_by(Outbox.id)))
        db.session.expunge_all()
        return found


def test_a_game_s_mails_arrive_threaded_through_the_outbox(fake_app: Flask,
                                                           fake: FakeProvider) -> None:
    with fake_app.app_context():
        thread = new_game().thread_message_id
    report = deliver_pending(fake_app)
    rows = outbox_rows(fake_app)
    assert report.failed == [] and report.retrying == []
    assert {r.status for r in rows} == {SENT}
    assert sorted(fake.message_ids()) == sorted(r.message_id for r in rows)
    for got in fake.received:
        assert got.headers["Message-ID"] == thread or got.headers["References"] == thread
        assert got.sender == "Alien Frontiers <pbem@pbem.test>"
    turn = [g for g in fake.received if "List-Unsubscribe" in g.headers]
    assert turn and all(g.headers["List-Unsubscribe"].startswith(
        "<https://pbem.test/mail/unsubscribe/") for g in turn)
    assert all(g.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
               and g.headers["Auto-Submitted"] == "auto-generated" for g in turn)


def test_a_refusal_fails_the_row_with_the_providers_message(fake_app: Flask,
                                                            fake: FakeProvider) -> None:
    with fake_app.app_context():
        game_id = new_game([("Ana", "ana@example.org"), ("Bot", None)]).id
    first = outbox_rows(fake_app)[0]
    fake.faults.append("4xx")
    report = deliver_pending(fake_app)
    assert report.failed == [first.id]
    failed = outbox_rows(fake_app)[0]
    assert failed.status == FAILED and failed.attempts == 1
    assert (failed.last_error or "").startswith(f"{fake.provider} ")
    with fake_app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None and game.seat(0).email_failing


def test_a_retry_waits_for_the_back_off(fake_app: Flask, fake: FakeProvider) -> None:
    with fake_app.app_context():
        new_game([("Ana", "ana@example.org"), ("Bot", None)])
    total = len(outbox_rows(fake_app))
    fake.faults.extend(["429"] * total)
    now = datetime.now(UTC)
    assert len(deliver_pending(fake_app, now=now).retrying) == total
    assert all("429" in (r.last_error or "") for r in outbox_rows(fake_app))
    assert deliver_pending(fake_app, now=now + timedelta(seconds=30)).sent == []
    assert len(deliver_pending(fake_app, now=now + timedelta(minutes=2)).sent) == total


FAULT_MAILS = 40
QUICK_FAULTS = ("429", "500", "drop")  # answered at once
STALLS = 3  # "timeout" faults, each costing the client its 1 s timeout


def fault_plan(provider: str) -> list[str]:
    """A seeded plan, one entry per request: quick faults, stalls, and (where the provider
    has an idempotency key) answers lost after acceptance; "ok" answers normally."""
    rng = random.Random(17)
    plan = rng.choices(["ok", "ok", *QUICK_FAULTS], k=2 * FAULT_MAILS)
    slow = ["timeout"] * STALLS + (["late"] * 2 if provider in IDEMPOTENT else [])
    for kind in slow:
        plan.insert(rng.randrange(len(plan)), kind)
    return plan


@pytest.mark.slow
def test_faults_lose_nothing_and_duplicate_nothing(fake_app: Flask,
                                                   fake: FakeProvider) -> None:
    """N mails, a seeded mix of faults on the way; once they clear every message has reached
    the provider exactly once (figures: benchmarks/RESULTS.md, "Mail over HTTPS")."""
    with fake_app.app_context():
        for n in range(FAULT_MAILS):
            enqueue(to_addr=f"player{n}@example.org",
                    mail=Mail(kind="turn", subject="Alien Frontiers: Faults", text=f"mail {n}",
                              html=f"<p>mail {n}</p>"))
        db.session.commit()
    plan = fault_plan(fake.provider)
    fake.faults.extend(plan)
    now = datetime.now(UTC)
    for _ in range(8):
        deliver_pending(fake_app, now=now)
        now += timedelta(hours=3)
    rows = outbox_rows(fake_app)
    ids = fake.message_ids()
    by_kind = Counter(k for k in plan[:fake.requests] if k != "ok")
    injected = sum(by_kind.values())
    assert {r.status for r in rows} == {SENT}
    lost = {r.message_id for r in rows} - set(ids)
    duplicated = len(ids) - len(set(ids))
    print(f"\n{fake.provider}: mails {FAULT_MAILS}, faults injected {injected}, "
          f"delivered {len(set(ids))}, lost {len(lost)}, duplicated {duplicated} "
          f"({dict(sorted(by_kind.items()))})")
    assert injected >= FAULT_MAILS // 2
    assert lost == set() and duplicated == 0 and len(ids) == FAULT_MAILS


# -- settings ----------------------------------------------------------------------------

@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_api_backend_needs_its_key(provider: str) -> None:
    with pytest.raises(ConfigError, match="MAIL_API_KEY"):
        load_config({"MAIL_BACKEND": provider, "MAILGUN_DOMAIN": MAILGUN_DOMAIN})


def test_mailgun_needs_its_domain() -> None:
    with pytest.raises(ConfigError, match="MAILGUN_DOMAIN"):
        load_config({"MAIL_BACKEND": "mailgun", "MAIL_API_KEY": "k"})


def test_settings_reach_the_backend() -> None:
    config = load_config({"MAIL_BACKEND": "postmark", "MAIL_API_KEY": "k",
                          "MAIL_API_TIMEOUT": "4", "POSTMARK_API_URL": "http://127.0.0.1:9/",
                          "POSTMARK_MESSAGE_STREAM": "turns"})
    backend = backends.from_config(config)
    assert isinstance(backend, api_backends.PostmarkBackend)
    assert (backend.api_key, backend.timeout, backend.base_url, backend.message_stream) == (
        "k", 4.0, "http://127.0.0.1:9", "turns")
    default = backends.from_config(load_config({"MAIL_BACKEND": "resend", "MAIL_API_KEY": "k"}))
    assert default.base_url == "https://api.resend.com"  # type: ignore[attr-defined]


@pytest.mark.parametrize("raw", ["0", "-1", "soon"])
def test_a_bad_timeout_is_refused_by_name(raw: str) -> None:
    with pytest.raises(ConfigError, match="MAIL_API_TIMEOUT"):
        load_config({"MAIL_API_TIMEOUT": raw})
