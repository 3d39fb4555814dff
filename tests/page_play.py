"""Playing a game the way a person does: read the turn page, press one of its buttons.

Shared by the tests that play whole games through the pages. The move pressed is the greedy
bot's when the page offers it (decided from that seat's view only), else the page's first
button, so games end in a reasonable number of steps.
"""

from __future__ import annotations

import html
import re

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem.engine import GameState, awaited, format_action
from pbem.engine.bots import greedy_bot, redacted
from pbem.extensions import db
from pbem.models.game import Game

BUTTON = re.compile(r'<button[^>]*name="action" value="([^"]+)"')
FORM_TOKEN = re.compile(r'name="form_token" value="([^"]+)"')
PAGE_STEPS = 3000


def greedy_choice(app: Flask, game_id: int, choices: list[str]) -> str:
    """The greedy bot's move if the page offers it, else the page's first button."""
    with app.app_context():
        game = db.session.get_one(Game, game_id)
        state = GameState.from_json(game.state)
        seat = awaited(state)
        assert seat is not None
        wanted = format_action(greedy_bot(redacted(state, seat), seat, [7, state.step]))
    return wanted if wanted in choices else choices[0]


def play_from_the_page(app: Flask, client: FlaskClient, link: str, game_id: int | None = None,
                       limit: int = PAGE_STEPS) -> int:
    """Press buttons on the turn page at `link` while it offers any; returns moves posted."""
    if game_id is None:
        with app.app_context():
            game_id = db.session.scalars(sa.select(Game.id)).one()
    posted = 0
    while posted < limit:
        page = client.get(link)
        assert page.status_code == 200
        body = page.get_data(as_text=True)
        choices = [html.unescape(v) for v in BUTTON.findall(body)]
        if not choices:
            return posted
        token = FORM_TOKEN.search(body)
        assert token is not None
        move = greedy_choice(app, game_id, choices)
        answer = client.post(f"{link}/act", data={"form_token": token.group(1),
                                                  "action": move})
        assert answer.status_code == 303, (move, answer.get_data(as_text=True)[:2000])
        posted += 1
    return posted
