"""Coarse rate limits on the token pages, game creation and magic links (issue #6)."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import Game
from pbem.models.outbox import Outbox

from .conftest import Table, hidden


def test_a_seat_link_flood_gets_429_with_retry_after(app: Flask, table: Table) -> None:
    app.config.update(TOKEN_RATE_LIMIT=3, TOKEN_RATE_WINDOW=60)
    client = app.test_client()
    answers = [client.get(f"/play/{table.links[0]}").status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    refused = client.get(f"/play/{table.links[1]}")  # the limit is per client, not per link
    assert refused.status_code == 429 and refused.headers["Retry-After"]
    assert "Too many requests" in refused.get_data(as_text=True)


def test_game_creation_is_limited_per_client_and_a_refused_post_creates_nothing(
        app: Flask, ctx: object) -> None:
    app.config.update(NEW_GAME_RATE_LIMIT=1, NEW_GAME_RATE_WINDOW=3600)
    client = app.test_client()
    form = client.get("/games/new").get_data(as_text=True)
    data = {"csrf_token": hidden(form, "csrf_token"), "name": "Lunch", "host_email":
            "host@example.net", "hours": "24", "seat-0-name": "Ana",
            "seat-0-email": "ana@example.net", "seat-1-name": "Robo", "seat-1-computer": "on"}
    assert client.post("/games/new", data=data).status_code == 201
    assert client.get("/games/new").status_code == 200  # showing the form is free
    assert client.post("/games/new", data=data).status_code == 429
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1


def test_magic_link_requests_are_limited_and_a_refused_one_mails_nothing(
        app: Flask, table: Table) -> None:
    app.config.update(MAGIC_RATE_LIMIT=1, MAGIC_RATE_WINDOW=3600)
    client = app.test_client()
    form = client.get("/me").get_data(as_text=True)
    data = {"csrf_token": hidden(form, "csrf_token"), "email": "ana@example.org"}
    assert client.post("/me", data=data).status_code == 200
    assert client.post("/me", data=data).status_code == 429
    mails = db.session.scalars(sa.select(Outbox).where(Outbox.kind == "magic_link")).all()
    assert len(mails) == 1


def test_a_limit_of_zero_turns_the_guard_off(app: Flask, table: Table) -> None:
    app.config.update(TOKEN_RATE_LIMIT=0)
    client = app.test_client()
    assert {client.get(f"/play/{table.links[0]}").status_code for _ in range(5)} == {200}
