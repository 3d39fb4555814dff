"""Fixtures for the pages: a three-seat game made through the services, its seat links, and
helpers to read the tokens out of a page and to snapshot a game (refusals change nothing)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem import tokens
from pbem.extensions import db
from pbem.models import Game
from pbem.services import games
from pbem.services.games import SeatSpec

EVIL = "<script>alert(1)</script>"
EMAILS = ("ana@example.org", "evil@example.org", "cy@example.org")
HOST = "host@example.org"


@dataclass
class Table:
    """One game: its id, public id and the seat links, seat i first."""

    id: int
    public_id: str
    links: list[str]


@pytest.fixture
def ctx(app: Flask) -> Iterator[Flask]:
    with app.app_context():
        yield app


@pytest.fixture
def table(ctx: Flask) -> Table:
    game = games.create_game(
        name="Friday <i>Frontier</i>", host_email=HOST,
        seats=[SeatSpec("Ana", EMAILS[0]), SeatSpec(EVIL, EMAILS[1]), SeatSpec("Cy", EMAILS[2])],
        options={"factions": False}, seed=20240601, fixed_order=True,
    )
    return Table(game.id, game.public_id, [tokens.make_seat_link(game, s) for s in game.seats])


def fresh(game_id: int) -> Game:
    db.session.rollback()
    db.session.expire_all()
    return db.session.get_one(Game, game_id)


def snapshot(game_id: int) -> dict[str, Any]:
    game = fresh(game_id)
    return {"version": game.version, "state": game.state, "steps": game.turn_steps,
            "status": game.status}


def hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]+)"', page)
    assert found, f"no hidden {name} in the page"
    return found.group(1)


def post_move(client: FlaskClient, link: str, action: str, page: str | None = None) -> Any:
    """Post `action` from the turn page as a browser would (tokens read from the page)."""
    page = page if page is not None else client.get(f"/play/{link}").get_data(as_text=True)
    return client.post(f"/play/{link}/act", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        "action": action,
    })


def choices(page: str) -> list[str]:
    """The actions offered as buttons, in page order."""
    return re.findall(r'name="action" value="([^"]+)"', page)


def magic_key(app: Flask, email: str) -> str:
    """A committed "my games" key for ``email``, as ``POST /me`` mails one."""
    from pbem.mail.addresses import address_key
    from pbem.services import magic_links

    with app.app_context():
        key = magic_links.issue_key(address_key(email))
        db.session.commit()
    return key
