"""A player who resigns hands the seat to the autopilot: the computer plays it, logged."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import engine
from pbem.extensions import db
from pbem.models import ActionLog
from pbem.services import games
from pbem.services.errors import NotAllowed

from .conftest import auth, fresh, link, play_through_api, snapshot, start


def _log(game_id: int) -> list[tuple[int, str, str]]:
    return [tuple(row) for row in db.session.execute(
        sa.select(ActionLog.seat, ActionLog.by, ActionLog.notation)
        .where(ActionLog.game_id == game_id).order_by(ActionLog.seq))]


def test_resigning_on_your_turn_lets_the_autopilot_finish_it(server: Flask) -> None:
    game = start(2)
    games.submit_action(game.id, 0, 1, engine.parse_action("dock 1 solar_converter", 0))
    result = games.resign(game.id, 0)
    assert result.steps and all(step["by"] == "bot" for step in result.steps)
    log = _log(game.id)
    assert log[0] == (0, "player", "dock 1 solar_converter")
    assert log[1] == (0, "player", "resign")
    assert {by for seat, by, _ in log[2:]} == {"bot"}
    after = fresh(game.id)
    assert after.seat(0).resigned
    assert after.state["turn"]["seat"] == 1


def test_the_autopilot_plays_the_resigned_seat_to_the_end(server: Flask) -> None:
    game = start(2)
    games.resign(game.id, 1)  # not its turn: it takes over from the next turn
    assert fresh(game.id).state["turn"]["seat"] == 0
    play_through_api(server.test_client(), game.id)
    assert fresh(game.id).status == "finished"
    assert (1, "bot") in {(seat, by) for seat, by, _ in _log(game.id)}
    assert games.verify_replay(game.id) == []


def test_a_resigned_seat_cannot_move_or_resign_again(server: Flask) -> None:
    game = start(3)
    games.resign(game.id, 2)
    before = snapshot(game.id)
    with pytest.raises(NotAllowed):
        games.resign(game.id, 2)
    response = server.test_client().post(
        f"/api/games/{fresh(game.id).public_id}/actions", headers=auth(link(game.id, 2)),
        json={"version": before["version"], "notation": "end"})
    assert response.status_code == 403
    assert snapshot(game.id) == before
