"""Try play by reply locally (issue 24, point 9): with ``pbem serve`` alone (the README's
first command: the dev backend, no inbound setting), every mail with a reply address has a
reply box in /dev/mailbox, and what is typed there is read as a mail is read from IMAP."""

from __future__ import annotations

import re
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

import pbem.cli as pbem_cli
from pbem.extensions import db
from pbem.models import InboundMessage, Outbox
from pbem.services import inbox
from pbem.services.games import SeatSpec, create_game

from .conftest import fresh
from .test_attacks import _dock

FORM = re.compile(r'<form class="mail-reply" method="post" action="([^"]+)">')
CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


def _mail_page(client: FlaskClient, row: Outbox) -> str:
    page = client.get(f"/dev/mailbox/{row.id}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def _reply(client: FlaskClient, row: Outbox, text: str) -> str:
    """Type ``text`` into the mail's reply box and send it; returns the outcome shown."""
    page = _mail_page(client, row)
    form, token = FORM.search(page), CSRF.search(page)
    assert form and token, "the mail has a reply box"
    sent = client.post(form.group(1), data={"text": text, "csrf_token": token.group(1)})
    assert sent.status_code == 303
    shown = client.get(sent.headers["Location"]).get_data(as_text=True)
    outcome = re.search(r"Your reply was received: <b>([^<]+)</b>", shown)
    assert outcome, shown[:500]
    return outcome.group(1)


def _newest(to: str, kind: str | None = None) -> Outbox:
    query = sa.select(Outbox).where(Outbox.to_addr == to).order_by(Outbox.id.desc())
    if kind:
        query = query.where(Outbox.kind == kind)
    row = db.session.scalars(query).first()
    assert row is not None
    return row


def test_play_by_reply_from_the_dev_mailbox_with_pbem_serve_alone(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    assert not app.config.get("INBOUND_ADDRESS") and app.config["MAIL_BACKEND"] == "dev"
    seen: dict[str, Any] = {}

    class NoScheduler:
        def shutdown(self, wait: bool) -> None:
            pass

    def serving(host: str, port: int, served: Flask, **_: Any) -> None:
        with served.app_context():
            game = create_game(name="Local", host_email="host@example.org",
                               seats=[SeatSpec("Ana", "ana@example.org"),
                                      SeatSpec("Bo", "bo@example.org")],
                               options={"factions": False}, seed=3, fixed_order=True)
            client = served.test_client()
            client.get("/dev/mailbox/")  # delivers what is due
            turn = _newest("ana@example.org")
            assert turn.headers["Reply-To"].startswith("play+")
            dock = _dock(game.id)
            first = _reply(client, turn, dock)
            client.get("/dev/mailbox/")  # the answer, which names the position now
            seen["outcomes"] = [first, _reply(client, _newest("ana@example.org", "reply_answer"),
                                              "dock 9 9")]
            seen["steps"] = [s["notation"] for s in fresh(game.id).turn_steps]
            seen["dock"] = dock
            answer = _newest("ana@example.org", "reply_answer")
            seen["answer"] = _mail_page(client, answer)
            seen["keys"] = list(db.session.scalars(sa.select(InboundMessage.message_id)))
            seen["counts"] = inbox.counts()

    monkeypatch.setattr(pbem_cli, "run_simple", serving)
    monkeypatch.setattr(pbem_cli, "start_background", lambda app: NoScheduler())
    result = app.test_cli_runner().invoke(args=["pbem", "serve"])
    assert result.exit_code == 0, result.output
    assert seen["outcomes"] == ["applied", "refused"]
    assert seen["steps"] == [seen["dock"]]
    assert "one line of your reply was refused" in seen["answer"]
    assert FORM.search(seen["answer"]), "the answer has a reply box too"
    assert all(key.endswith("@dev-mailbox.localhost>") for key in seen["keys"])
    assert seen["counts"] == {"applied": 1, "refused": 1}


def test_a_mail_without_a_reply_address_has_no_reply_box(app: Flask) -> None:
    with app.app_context():
        create_game(name="Local", host_email="host@example.org",
                    seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Bo", "bo@example.org")],
                    options={"factions": False}, seed=3, fixed_order=True)
        client = app.test_client()
        client.get("/dev/mailbox/")
        row = _newest("ana@example.org")
        assert "Reply-To" not in row.headers
        assert not FORM.search(_mail_page(client, row))
        assert client.post(f"/dev/mailbox/{row.id}/reply", data={"text": "end"}).status_code \
            in (400, 404)  # no reply address (or no CSRF token): nothing read
        assert inbox.counts() == {}
