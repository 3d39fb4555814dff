""""Since your last turn" is built once (pbem.words.since, from pbem.models.history's rows):
the turn page says what the turn mail says, the autopilot's notes and "you" included."""

from __future__ import annotations

import html
import re

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from pbem import engine
from pbem.engine import GameState, bots
from pbem.extensions import db
from pbem.models import Outbox
from pbem.services import play, timeouts
from tests.web.conftest import EVIL, Table, fresh


def _page_lines(page: str) -> list[str]:
    section = page[page.index('id="since-title"'):]
    section = section[:section.index("</section>")]
    return [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", section, re.S)]


def _mail_lines(game_id: int, seat: int) -> list[str]:
    row = db.session.execute(
        sa.select(Outbox).where(Outbox.game_id == game_id, Outbox.seat == seat,
                                Outbox.kind == "your_turn").order_by(Outbox.id.desc())
    ).scalars().first()
    assert row is not None
    text = row.text_body.split("Since your last turn\n", 1)[1]
    return [line[2:] for line in text.split("\n\n", 1)[0].splitlines()]


def _play_turn(game_id: int, seat: int) -> None:
    while True:
        game = fresh(game_id)
        state = GameState.from_json(game.state)
        if engine.awaited(state) != seat:
            return
        action = bots.greedy_bot(bots.redacted(state, seat), seat, [seat, state.step])
        play.play(game_id, seat, game.version, action)


def test_the_turn_page_and_the_turn_mail_say_the_same_since_your_last_turn(
        ctx: Flask, client: FlaskClient, table: Table) -> None:
    _play_turn(table.id, 0)
    timeouts.autopilot(table.id, 1, "timeout")  # Ben's turn played by the autopilot
    mail = _mail_lines(table.id, 2)
    page = _page_lines(client.get(f"/play/{table.links[2]}").get_data(as_text=True))
    assert page == mail
    assert any("ran out of time; the autopilot played for them:" in line for line in page)
    assert any(line.startswith("Ana docked") for line in page)


def test_after_your_own_turn_only_the_next_roll_has_happened_since_it(
        ctx: Flask, client: FlaskClient, table: Table) -> None:
    _play_turn(table.id, 0)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    (line,) = _page_lines(page)
    assert line.startswith(f"{EVIL} rolled ")


def test_each_players_turn_since_yours_begins_with_their_roll(
        ctx: Flask, client: FlaskClient, table: Table) -> None:
    """Issue 26: the roll (and start-of-turn income) of the player after you is logged with
    your own end of turn; "Since your last turn" still opens with it, and every other
    player's part begins with their roll."""
    for seat in (0, 1, 2):
        _play_turn(table.id, seat)
    mail = _mail_lines(table.id, 0)
    page = _page_lines(client.get(f"/play/{table.links[0]}").get_data(as_text=True))
    assert page == mail
    assert page[0].startswith(f"{EVIL} rolled ")
    firsts = [line for i, line in enumerate(page)
              if i == 0 or line.split(" ")[0] != page[i - 1].split(" ")[0]]
    assert [line.split(" rolled ")[0] for line in firsts] == [EVIL, "Cy", "You"], page
