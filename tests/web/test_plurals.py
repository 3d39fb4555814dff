"""Singular and plural are right everywhere (issue 26): "1 Agenda", "1 territory", never
"1 Agendas". A whole Factions game is played with every mail kept; its mails, each seat's
turn page along the way and the finished game's pages are read for a count of one with a
plural noun."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import tokens
from pbem.extensions import db
from pbem.models import Outbox
from pbem.words.result import standings
from tests.conftest import MakeApp
from tests.mail.conftest import new_game
from tests.mail.test_factions_mail import mail_app, play_step

PLAYERS = [("Ana", "ana@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org")]
PLURALS = ("territories", "colonies", "Agendas", "ships", "cards", "points", "games", "wins",
           "moves", "circles", "things", "turns", "hours", "minutes", "rounds", "players",
           "seats", "resources", "steps", "days", "lines", "fields", "tokens", "Alien Tech cards")
ONE_OF_MANY = re.compile(rf"(?<![\d.,])\b1 ({'|'.join(PLURALS)})\b")


def text_of(page: str) -> str:
    """A page's words as read: tags dropped, white space run together."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def test_one_point_of_a_kind_is_said_in_the_singular() -> None:
    view = {"options": {"factions": True}, "result": {"winners": [0], "scores": [
        {"total": 5, "colonies": 1, "territories": 1, "cards": 1, "positron": 1, "agendas": 1},
        {"total": 4, "colonies": 2, "territories": 0, "cards": 2, "positron": 0, "agendas": 0},
    ]}}
    one, more = standings(view, ["Ana", "Ben"])
    assert one["parts"] == [("colony", 1), ("territory", 1), ("Alien Tech card", 1),
                            ("Positron Field", 1), ("Agenda", 1)]
    assert more["parts"] == [("colonies", 2), ("territories", 0), ("Alien Tech cards", 2),
                             ("Positron Field", 0), ("Agendas", 0)]


@pytest.mark.slow
def test_no_mail_or_page_of_a_whole_game_says_one_of_a_plural(
    app: Flask, make_app: MakeApp
) -> None:
    web = mail_app(make_app)
    client = web.test_client()
    found: list[str] = []
    with web.app_context():
        game = new_game(PLAYERS, options={"factions": True}, seed=26)
        links = [tokens.make_seat_link(game, s) for s in game.seats]
        step = 0
        while game.status == "active":
            if step % 25 == 0:
                for link in links:
                    page = text_of(client.get(f"/play/{link}").get_data(as_text=True))
                    found += [m.group(0) + f" (turn page, step {step})"
                              for m in ONE_OF_MANY.finditer(page)]
            play_step(game)
            step += 1
        pages = [f"/play/{link}" for link in links] + [
            f"/games/{game.public_id}", f"/games/{game.public_id}/replay"]
        for path in pages:
            page = text_of(client.get(path).get_data(as_text=True))
            found += [m.group(0) + f" ({path})" for m in ONE_OF_MANY.finditer(page)]
        for mail in db.session.scalars(sa.select(Outbox)):
            for body in (mail.text_body, text_of(mail.html_body or "")):
                found += [m.group(0) + f" ({mail.kind})" for m in ONE_OF_MANY.finditer(body)]
    assert not found, sorted(set(found))
