"""Whole games played through the JSON API, by scripts deciding from their seat's view,
end with a clean replay, a complete log and mail sent along the way."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import ActionLog, Outbox
from pbem.services import games

from .conftest import fresh, play_through_api, start


@pytest.mark.parametrize("players", [2, pytest.param(3, marks=pytest.mark.slow),
                                     pytest.param(4, marks=pytest.mark.slow)])
def test_a_whole_game_through_the_api_replays_exactly(server: Flask, players: int) -> None:
    game = start(players, seed=100 + players)
    posted = play_through_api(server.test_client(), game.id)
    finished = fresh(game.id)
    assert finished.status == "finished"
    assert finished.finished_at is not None
    assert finished.turn_steps == []
    assert games.verify_replay(game.id) == []
    logged = db.session.execute(
        sa.select(sa.func.count()).select_from(ActionLog).where(ActionLog.game_id == game.id)
    ).scalar_one()
    assert logged == posted
    assert db.session.execute(sa.select(sa.func.count()).select_from(Outbox)).scalar_one() > 0


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5])
def test_a_factions_game_with_its_draft_through_the_api(server: Flask, players: int) -> None:
    game = start(players, seed=200 + players, options={"factions": True})
    play_through_api(server.test_client(), game.id)
    finished = fresh(game.id)
    assert finished.status == "finished"
    assert all(seat.faction for seat in finished.seats), "the draft gave every seat a board"
    assert games.verify_replay(game.id) == []


def test_humans_and_computers_share_a_game(server: Flask) -> None:
    game = start(3, bot_seats=(0, 2), seed=7)
    opening = fresh(game.id)
    assert opening.state["turn"]["seat"] == 1, "the computer in seat 0 took its turn at once"
    play_through_api(server.test_client(), game.id)
    finished = fresh(game.id)
    assert finished.status == "finished"
    bys = set(db.session.execute(
        sa.select(ActionLog.by).where(ActionLog.game_id == game.id)).scalars())
    assert bys == {"player", "bot"}
    assert games.verify_replay(game.id) == []
