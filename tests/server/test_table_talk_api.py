"""Table talk in the JSON API (docs/api.md, "Table talk"): ``GET/POST
/api/games/<id>/messages`` with the seat link as the bearer token; refusals are JSON and
change nothing."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import TableMessage
from pbem.services import table_talk

from .conftest import auth, link, start


def _count() -> int:
    db.session.rollback()
    return int(db.session.scalar(sa.select(sa.func.count(TableMessage.id))) or 0)


def test_a_seat_posts_and_every_seat_reads_the_table(server: Flask) -> None:
    game = start(3)
    client = server.test_client()
    posted = client.post(f"/api/games/{game.public_id}/messages",
                         json={"text": "<b>gl hf</b> https://x.example"},
                         headers=auth(link(game.id, 1)))
    assert posted.status_code == 201
    message = posted.get_json()["message"]
    assert set(message) == {"id", "seat", "name", "text", "hidden", "posted_at"}  # only that
    assert message["seat"] == 1 and message["name"] == "Bo"
    assert message["text"] == "<b>gl hf</b> https://x.example" and message["hidden"] is False
    assert message["posted_at"].endswith("+00:00")
    read = client.get(f"/api/games/{game.public_id}/messages", headers=auth(link(game.id, 2)))
    assert read.status_code == 200
    body = read.get_json()
    assert body["game"] == game.public_id and body["total"] == 1
    assert body["messages"] == [message]
    assert "email" not in str(body) and "@example.org" not in str(body)


def test_after_gives_only_newer_messages_and_hidden_ones_have_no_text(server: Flask) -> None:
    game = start(2)
    first = table_talk.post(game.id, 0, "one")
    table_talk.post(game.id, 1, "two")
    table_talk.hide(game.id, first.id)
    client = server.test_client()
    every = client.get(f"/api/games/{game.public_id}/messages",
                       headers=auth(link(game.id, 0))).get_json()["messages"]
    assert [(m["text"], m["hidden"]) for m in every] == [(None, True), ("two", False)]
    newer = client.get(f"/api/games/{game.public_id}/messages?after={first.id}",
                       headers=auth(link(game.id, 0))).get_json()["messages"]
    assert [m["text"] for m in newer] == ["two"]


def test_refusals_are_json_and_change_nothing(server: Flask) -> None:
    game = start(2)
    other = start(2, seed=12)
    client = server.test_client()
    url = f"/api/games/{game.public_id}/messages"
    token = link(game.id, 0)
    cases = [
        (client.post(url, json={"text": ""}, headers=auth(token)), 400, "bad_input"),
        (client.post(url, json={"text": "x" * 1001}, headers=auth(token)), 400, "bad_input"),
        (client.post(url, json={"text": "hi", "seat": 1}, headers=auth(token)), 400,
         "bad_input"),
        (client.post(url, json={"text": 5}, headers=auth(token)), 400, "bad_input"),
        (client.post(url, data="hi", headers=auth(token)), 400, "bad_input"),
        (client.post(url, json={"text": "hi"}), 401, "bad_token"),
        (client.post(url, json={"text": "hi"}, headers=auth(link(other.id, 0))), 403,
         "bad_token"),
        (client.get(f"{url}?after=-1", headers=auth(token)), 400, "bad_input"),
    ]
    for response, status, code in cases:
        assert response.status_code == status, response.get_json()
        assert response.get_json()["error"] == code
    assert _count() == 0


def test_past_the_seats_limit_the_api_answers_429(server: Flask) -> None:
    server.config.update(TABLE_TALK_RATE_LIMIT=2)
    game = start(2)
    client = server.test_client()
    url = f"/api/games/{game.public_id}/messages"
    for text in ("a", "b"):
        assert client.post(url, json={"text": text},
                           headers=auth(link(game.id, 0))).status_code == 201
    refused = client.post(url, json={"text": "c"}, headers=auth(link(game.id, 0)))
    assert refused.status_code == 429
    assert refused.get_json()["error"] == "too_many_requests"
    assert _count() == 2
