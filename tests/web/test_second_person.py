"""The own turn page speaks to its player in the second person, as the mails do (issue 26):
"You docked 3 3 at the Shipyard, … built your 4th ship.", never the seat's own name and
"their"."""

from __future__ import annotations

import html
import re

from flask.testing import FlaskClient

from pbem.engine.scenarios import build_state
from pbem.extensions import db
from tests.web.conftest import Table, fresh, post_move


def _this_turn(page: str) -> list[str]:
    section = page[page.index('id="this-turn-title"'):]
    section = section[:section.index("</section>")]
    return [html.unescape(line) for line in re.findall(r"<li>(.*?)</li>", section, re.S)]


def test_this_turn_so_far_says_you_and_your(client: FlaskClient, table: Table) -> None:
    game = fresh(table.id)
    state = build_state({"players": 3, "turn": "red", "seats": {
        "red": {"fuel": 4, "ore": 2, "unplaced": [3, 3, 6]}}})
    game.state = game.turn_start_state = state.to_json()
    game.turn_steps = []
    db.session.commit()
    assert post_move(client, table.links[0], "dock 3 3 shipyard").status_code == 303
    assert post_move(client, table.links[0], "dock 6 solar_converter").status_code == 303
    lines = _this_turn(client.get(f"/play/{table.links[0]}").get_data(as_text=True))
    assert lines == ["You docked 3 3 at the Shipyard, paid 1 fuel and 1 ore and built your 4th "
                     "ship.",
                     "You docked 6 at the Solar Converter and took 3 fuel."], lines
    assert not any("Ana" in line or "their" in line for line in lines)
