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

from .conftest import fresh, inbound_rows, mails_to, start, turn_mail

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
