"""Coarse rate limits on the token pages, game creation and magic links (issue #6)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem.app import create_app
from pbem.extensions import db
from pbem.models import Game
from pbem.models.outbox import Outbox
from tests.conftest import MakeApp

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
    assert client.post("/games/new", data=data).status_code == 303
    assert client.get("/games/new").status_code == 200  # showing the form is free
    assert client.post("/games/new", data=data).status_code == 429
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Game)) == 1


def test_magic_link_requests_are_limited_and_a_refused_one_mails_nothing(
        app: Flask, table: Table) -> None:
    app.config.update(MAGIC_RATE_LIMIT=1, MAGIC_RATE_WINDOW=3600)
    client = app.test_client()
    form = client.get("/me").get_data(as_text=True)
    data = {"csrf_token": hidden(form, "csrf_token"), "email": "ana@example.org"}
    assert client.post("/me", data=data).status_code == 303
    assert client.post("/me", data=data).status_code == 429
    mails = db.session.scalars(sa.select(Outbox).where(Outbox.kind == "magic_link")).all()
    assert len(mails) == 1


def test_a_limit_of_zero_turns_the_guard_off(app: Flask, table: Table) -> None:
    app.config.update(TOKEN_RATE_LIMIT=0)
    client = app.test_client()
    assert {client.get(f"/play/{table.links[0]}").status_code for _ in range(5)} == {200}


def _new_game_form(client: FlaskClient) -> dict[str, str]:
    form = client.get("/games/new").get_data(as_text=True)
    return {"csrf_token": hidden(form, "csrf_token"), "name": "Lunch", "host_email":
            "host@example.net", "hours": "24", "seat-0-name": "Ana",
            "seat-0-email": "ana@example.net", "seat-1-name": "Robo", "seat-1-computer": "on"}


def test_a_request_in_one_bucket_does_not_reset_another(app: Flask, table: Table) -> None:
    """The old limiter kept one window for every bucket: a seat page opened between two
    creations started a new window and forgot the creation already counted."""
    app.config.update(NEW_GAME_RATE_LIMIT=1, NEW_GAME_RATE_WINDOW=3600,
                      TOKEN_RATE_LIMIT=300, TOKEN_RATE_WINDOW=60)
    client = app.test_client()
    data = _new_game_form(client)
    assert client.post("/games/new", data=data).status_code == 303
    assert client.get(f"/play/{table.links[0]}").status_code == 200  # another bucket
    assert client.post("/games/new", data=data).status_code == 429
    games = db.session.scalar(sa.select(sa.func.count()).select_from(Game))
    assert games == 2  # the table's game and one created


def test_the_documented_settings_are_read_from_the_environment(
        monkeypatch: pytest.MonkeyPatch, app: Flask, table: Table) -> None:
    monkeypatch.setenv("TOKEN_RATE_LIMIT", "2")
    monkeypatch.setenv("TOKEN_RATE_WINDOW", "600")
    # build_app passes TOKEN_RATE_LIMIT=0 itself: the factory alone reads only the environment
    from_env = create_app({"TESTING": True, "SECRET_KEY": app.config["SECRET_KEY"],
                           "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"]},
                          instance_path=app.instance_path)
    assert (from_env.config["TOKEN_RATE_LIMIT"], from_env.config["TOKEN_RATE_WINDOW"]) == (2, 600)
    client = from_env.test_client()
    answers = [client.get(f"/play/{table.links[0]}").status_code for _ in range(3)]
    assert answers == [200, 200, 429]
    with from_env.app_context():
        db.session.remove()
        db.engine.dispose()


def test_forwarded_addresses_count_only_behind_a_configured_proxy(
        make_app: MakeApp, app: Flask, table: Table) -> None:
    url = f"/play/{table.links[0]}"
    direct = make_app(TOKEN_RATE_LIMIT=1, TOKEN_RATE_WINDOW=60)  # PROXY_HOPS 0: not behind one
    client = direct.test_client()
    assert client.get(url, headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 200
    # a visitor cannot escape the limit by naming another address
    assert client.get(url, headers={"X-Forwarded-For": "198.51.100.2"}).status_code == 429

    behind = make_app(TOKEN_RATE_LIMIT=1, TOKEN_RATE_WINDOW=60, PROXY_HOPS=1)
    client = behind.test_client()
    for visitor in ("198.51.100.1", "198.51.100.2"):  # the proxy's two visitors: one each
        assert client.get(url, headers={"X-Forwarded-For": visitor}).status_code == 200
    assert client.get(url, headers={"X-Forwarded-For": "198.51.100.1"}).status_code == 429
    # with one hop trusted, only the address the proxy appended counts, not one made up before
    spoof = {"X-Forwarded-For": "10.9.9.9, 198.51.100.2"}
    assert client.get(url, headers=spoof).status_code == 429
