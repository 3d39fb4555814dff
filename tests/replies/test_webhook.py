"""The provider path: Postmark's inbound JSON (its documented sample, with our addresses)
posted to ``/inbound/postmark/<secret>`` plays like a mail read from IMAP."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from flask import Flask

from pbem import engine
from pbem.engine import GameState

from .conftest import fresh, inbound_rows, mails_to, reply_to, start, turn_mail

SAMPLE = json.loads((Path(__file__).parent / "payloads" / "postmark_inbound.json").read_text())
SECRET = "s3cret-webhook-path-0123456789abcdef"  # 32 characters at least


def payload_for(game_id: int, seat: int, text: str, **changes: Any) -> dict[str, Any]:
    """The sample with the seat's reply address, its player's From and ``text``."""
    mail = turn_mail(game_id, seat)
    row = fresh(game_id).seat(seat)
    data = copy.deepcopy(SAMPLE)
    reply_to = mail.headers["Reply-To"]
    data.update(From=row.email, FromFull={"Email": row.email, "Name": row.name},
                To=reply_to, ToFull=[{"Email": reply_to, "Name": "", "MailboxHash": ""}],
                OriginalRecipient=reply_to, Subject="Re: " + mail.subject, TextBody=text,
                HtmlBody="", CcFull=[], Cc="")
    data["Headers"] = [*data["Headers"],
                       {"Name": "Message-ID", "Value": f"<pm-{len(text)}@client.test>"},
                       {"Name": "References", "Value": mail.headers["Message-ID"]}]
    data.update(changes)
    return data


def _dock(game_id: int) -> str:
    state = GameState.from_json(fresh(game_id).state)
    return next(engine.format_action(a) for a in engine.legal_actions(state, 0)
                if engine.format_action(a).startswith("dock"))


def test_the_sample_payload_alone_is_recorded_and_not_answered(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    start(2)
    response = server.test_client().post(f"/inbound/postmark/{SECRET}", json=SAMPLE)
    assert response.status_code == 200
    assert response.get_json()["outcome"] == "unknown_token"  # not our address: no backscatter


def test_a_postmark_reply_plays_and_is_answered(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    game = start(2)
    dock = _dock(game.id)
    before = len(mails_to(game.id, 0))
    data = payload_for(game.id, 0, f"{dock}\n\nOn Tue, Ana wrote:\n> old\n")
    client = server.test_client()
    response = client.post(f"/inbound/postmark/{SECRET}", json=data)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["outcome"] == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]
    assert len(mails_to(game.id, 0)) == before + 1
    again = client.post(f"/inbound/postmark/{SECRET}", json=data)  # Postmark retries
    assert again.get_json()["outcome"] == "duplicate"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]
    assert len(mails_to(game.id, 0)) == before + 1
    assert [row.outcome for row in inbound_rows()] == ["applied"]


def test_the_route_needs_its_secret(server: Flask) -> None:
    client = server.test_client()
    assert client.post(f"/inbound/postmark/{SECRET}", json=SAMPLE).status_code == 404
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    assert client.post("/inbound/postmark/wrong", json=SAMPLE).status_code == 404
    assert client.post(f"/inbound/postmark/{SECRET}", data="x").status_code == 400
    assert inbound_rows() == []


# -- Mailgun routes and SendGrid Inbound Parse: forms -----------------------------------------

MAILGUN = json.loads((Path(__file__).parent / "payloads" / "mailgun_route.json").read_text())
SENDGRID = json.loads((Path(__file__).parent / "payloads" / "sendgrid_parse.json").read_text())


def mailgun_for(game_id: int, seat: int, text: str, message_id: str) -> dict[str, str]:
    mail = turn_mail(game_id, seat)
    row = fresh(game_id).seat(seat)
    reply_to = mail.headers["Reply-To"]
    headers = [["From", f"{row.name} <{row.email}>"], ["To", reply_to],
               ["Message-Id", message_id], ["References", mail.headers["Message-ID"]],
               ["Content-Type", "text/plain"]]
    return {**MAILGUN, "recipient": reply_to, "sender": str(row.email),
            "from": f"{row.name} <{row.email}>", "body-plain": text, "stripped-text": text,
            "body-html": "", "Message-Id": message_id, "message-headers": json.dumps(headers)}


def sendgrid_for(game_id: int, seat: int, text: str, message_id: str) -> dict[str, str]:
    mail = turn_mail(game_id, seat)
    row = fresh(game_id).seat(seat)
    reply_to = mail.headers["Reply-To"]
    headers = (f"From: {row.name} <{row.email}>\nTo: {reply_to}\nSubject: Re: {mail.subject}\n"
               f"Message-ID: {message_id}\nReferences: {mail.headers['Message-ID']}\n"
               "Content-Type: text/plain; charset=UTF-8\n")
    return {**SENDGRID, "headers": headers, "to": reply_to, "from": f"{row.name} <{row.email}>",
            "text": text, "html": "",
            "envelope": json.dumps({"to": [reply_to], "from": row.email})}


def test_the_providers_samples_alone_are_recorded_and_not_answered(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    client = server.test_client()
    for provider, sample in (("mailgun", MAILGUN), ("sendgrid", SENDGRID)):
        response = client.post(f"/inbound/{provider}/{SECRET}", data=sample)
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.get_json()["outcome"] == "unknown_token"


def test_a_mailgun_route_post_plays_and_a_repost_is_a_duplicate(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    game = start(2)
    dock = _dock(game.id)
    before = len(mails_to(game.id, 0))
    data = mailgun_for(game.id, 0, f"{dock}\n\nOn Tue, Ana wrote:\n> old\n", "<mg-1@c.test>")
    client = server.test_client()
    for outcome in ("applied", "duplicate"):  # Mailgun retries a post it thinks failed
        response = client.post(f"/inbound/mailgun/{SECRET}", data=data)
        assert response.status_code == 200, response.get_data(as_text=True)
        assert response.get_json()["outcome"] == outcome
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]
    assert len(mails_to(game.id, 0)) == before + 1


def test_a_mailgun_raw_mime_post_is_read_as_the_mail_itself(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    game = start(2)
    dock = _dock(game.id)
    msg = reply_to(game, 0, dock, message_id="<mg-mime@c.test>")
    data = {"recipient": str(msg["To"]), "sender": "ana@example.org",
            "body-mime": msg.as_string(), "timestamp": "1", "token": "t", "signature": "s"}
    response = server.test_client().post(f"/inbound/mailgun/{SECRET}", data=data)
    assert response.get_json()["outcome"] == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]


def test_a_sendgrid_inbound_parse_post_plays(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    game = start(2)
    dock = _dock(game.id)
    data = sendgrid_for(game.id, 0, f"{dock}\n\nOn Tue, Ana wrote:\n> old\n", "<sg-1@c.test>")
    response = server.test_client().post(f"/inbound/sendgrid/{SECRET}", data=data)
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.get_json()["outcome"] == "applied"
    assert [s["notation"] for s in fresh(game.id).turn_steps] == [dock]
    assert mails_to(game.id, 0)[-1].headers["In-Reply-To"] == "<sg-1@c.test>"


def test_a_sendgrid_raw_post_and_an_auto_reply_by_form(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = SECRET
    game = start(2)
    client = server.test_client()
    msg = reply_to(game, 0, "status", message_id="<sg-raw@c.test>")
    raw = {"email": msg.as_string(), "envelope": json.dumps({"to": [str(msg["To"])]})}
    assert client.post(f"/inbound/sendgrid/{SECRET}", data=raw).get_json()["outcome"] \
        == "answered"
    auto = sendgrid_for(game.id, 0, "I am away.", "<sg-ooo@c.test>")
    auto["headers"] += "Auto-Submitted: auto-replied\n"
    assert client.post(f"/inbound/sendgrid/{SECRET}", data=auto).get_json()["outcome"] \
        == "automatic"


# -- the secret ------------------------------------------------------------------------------


def test_a_short_secret_never_opens_the_route(server: Flask) -> None:
    server.config["INBOUND_WEBHOOK_SECRET"] = "short-secret"  # set past the start-up check
    response = server.test_client().post("/inbound/postmark/short-secret", json=SAMPLE)
    assert response.status_code == 404


def test_wrong_secrets_are_rate_limited_and_the_right_one_never(server: Flask) -> None:
    server.config.update(INBOUND_WEBHOOK_SECRET=SECRET, INBOUND_RATE_LIMIT=5,
                         INBOUND_RATE_WINDOW=3600)
    client = server.test_client()
    for _ in range(8):
        assert client.post(f"/inbound/postmark/{SECRET}", json=SAMPLE).status_code == 200
    codes = [client.post(f"/inbound/postmark/guess-{n}", json=SAMPLE).status_code
             for n in range(7)]
    assert codes == [404] * 5 + [429] * 2
    assert client.post(f"/inbound/postmark/{SECRET}", json=SAMPLE).status_code == 200
    assert inbound_rows() and all(row.outcome == "unknown_token" for row in inbound_rows())
