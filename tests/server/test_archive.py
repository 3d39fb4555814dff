"""A game is its creation record plus its log: export → import rebuilds it exactly, and a
file whose moves were changed is refused."""

from __future__ import annotations

import json

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import engine
from pbem.extensions import db
from pbem.models import ActionLog, Game
from pbem.services import games, play
from pbem.services.errors import BadInput
from pbem.services.games import SeatSpec

from .conftest import bot_choice, fresh, start, state_of


def _play(game_id: int, steps: int) -> None:
    """Scripted steps for the humans (mid-turn at the end, so a turn is in progress)."""
    for _ in range(steps):
        game = fresh(game_id)
        if game.status != "active":
            return
        state = state_of(game_id)
        seat = engine.awaited(state)
        assert seat is not None
        play.play(game_id, seat, game.version, bot_choice(state, seat))


def _roundtrip(game_id: int) -> Game:
    data = json.loads(json.dumps(games.export_game(game_id)))  # what a file would hold
    return games.import_game(data)


@pytest.mark.parametrize("steps", [0, 41, 10_000])
def test_export_then_import_gives_the_same_game(server: Flask, steps: int) -> None:
    game = start(3, bot_seats=(2,), seed=5)
    _play(game.id, steps)
    original = fresh(game.id)
    copy = _roundtrip(game.id)
    assert copy.public_id != original.public_id
    for name in ("state", "turn_start_state", "turn_steps", "status", "players", "seed",
                 "options"):
        assert getattr(copy, name) == getattr(original, name), name
    assert [(s.name, s.email, s.is_bot) for s in copy.seats] == [
        (s.name, s.email, s.is_bot) for s in original.seats]
    assert games.verify_replay(copy.id) == []


def test_the_export_holds_no_link_secrets(server: Flask) -> None:
    data = games.export_game(start(2).id)
    assert all("link_counter" not in seat for seat in data["seats"])
    assert "version" not in data


def test_an_export_with_a_changed_move_is_refused(server: Flask) -> None:
    game = start(2, seed=5)
    _play(game.id, 60)
    data = games.export_game(game.id)
    data["seed"] += 1
    count = db.session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one()
    with pytest.raises(BadInput, match="does not replay"):
        games.import_game(data)
    db.session.rollback()
    assert db.session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one() == count


def test_an_export_of_something_else_is_refused(server: Flask) -> None:
    with pytest.raises(BadInput, match="not a pbem game export"):
        games.import_game({"format": "chess"})


def test_verify_replay_finds_a_changed_log_row(server: Flask) -> None:
    game = start(2, seed=5)
    _play(game.id, 60)
    assert games.verify_replay(game.id) == []
    row = db.session.execute(
        sa.select(ActionLog).where(ActionLog.game_id == game.id, ActionLog.seq == 1)
    ).scalar_one()
    row.notation = "launch"
    db.session.commit()
    problems = games.verify_replay(game.id)
    assert problems and "notation" in problems[0]


def test_the_bot_levels_travel_with_the_export(server: Flask) -> None:
    game = games.create_game(
        name="Levels", host_email="ana@example.org",
        seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("HAL", None, True, level="strong"),
               SeatSpec("Eve", None, True, level="easy")],
        options={"factions": False}, seed=5, fixed_order=True, autopilot_level="easy")
    copy = _roundtrip(game.id)
    assert [s.level for s in copy.seats] == [None, "strong", "easy"]
    assert copy.autopilot_level == "easy"


def test_an_export_from_before_levels_plays_its_bots_at_the_default(server: Flask) -> None:
    data = json.loads(json.dumps(games.export_game(start(3, bot_seats=(2,), seed=5).id)))
    del data["autopilot_level"]
    for seat in data["seats"]:
        del seat["bot_level"]
    copy = games.import_game(data)
    assert [s.level for s in copy.seats] == [None, None, "greedy"]
    assert copy.autopilot_level == "greedy"


def test_an_export_naming_an_unknown_level_is_refused(server: Flask) -> None:
    data = json.loads(json.dumps(games.export_game(start(3, bot_seats=(2,), seed=5).id)))
    data["seats"][2]["bot_level"] = "godlike"
    before = db.session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one()
    with pytest.raises(BadInput, match="unknown bot level"):
        games.import_game(data)
    db.session.rollback()
    assert db.session.execute(sa.select(sa.func.count()).select_from(Game)).scalar_one() == before
