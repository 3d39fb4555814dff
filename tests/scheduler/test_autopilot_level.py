"""A timed-out turn is played at the level the host set for the autopilot (issue #16)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import engine
from pbem.engine import bots
from pbem.engine.bots.levels import bot_for
from pbem.extensions import db
from pbem.models import ActionLog
from pbem.services.games import set_autopilot_level, verify_replay
from pbem.services.turns import _BOT_SALT

from .conftest import FakeClock, awaited_seat, game_of, new_game, tick

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def test_a_timed_out_turn_is_played_at_the_autopilot_level(
    clock_app: Flask, clock: FakeClock,
) -> None:
    game_id = new_game(autopilot_level="easy")
    set_autopilot_level(game_id, "strong")  # the host changes it before the timeout
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(60)
    assert tick(clock_app, clock).turns == 1
    game = game_of(game_id)
    rows = list(db.session.scalars(sa.select(ActionLog).where(ActionLog.game_id == game_id)
                                   .order_by(ActionLog.seq)))
    assert rows and {(row.seat, row.by) for row in rows} == {(first, "timeout")}
    state = engine.new_game(game.players, game.seed, dict(game.options))
    differs = False  # from the level set at creation: the host's change is what played
    for row in rows:
        seed = [(game.seed ^ _BOT_SALT) & ((1 << 63) - 1), state.step]
        strong = bot_for("strong")(bots.redacted(state, first), first, list(seed))
        easy = bot_for("easy")(bots.redacted(state, first), first, list(seed))
        assert engine.action_to_json(strong) == row.action
        differs = differs or easy != strong
        engine.apply_in_place(state, strong)
    assert differs
    assert verify_replay(game_id) == []
