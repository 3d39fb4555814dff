"""A tick after a long sleep (a free host woken by a cron) catches up on everything due, in
the order it fell due, once (the timeouts; the reminders they supersede are closed unsent);
the next tick finds nothing."""

from __future__ import annotations

from datetime import datetime

import pytest
from flask import Flask

from pbem import clock as pbem_clock
from pbem.scheduler import deadlines as sweep_module
from pbem.scheduler import tick
from pbem.services import games, timeouts
from tests.scheduler.conftest import FakeClock, finish_draft, game_of, mails, new_game

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

TWO = [("Ana", "ana@example.org", "UTC"), ("Ben", "ben@example.org", "UTC")]


def test_one_tick_after_a_long_sleep_handles_every_due_row_in_order_once(
    clock_app: Flask, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_ids = []
    for n in range(8):  # games that began hours apart: their rows interleave in time
        clock.at(n * 7)
        game_ids.append(new_game(TWO, seed=n, timeout_policy={"absent_after": 1}))
        finish_draft(game_ids[-1])
    handled: list[tuple[datetime, int]] = []
    real_remind, real_play = timeouts.remind, timeouts.play_timed_out

    def remind(row: object, now: datetime) -> timeouts.Reminded:
        handled.append((pbem_clock.as_utc(row.due_at), row.id))  # type: ignore[attr-defined]
        return real_remind(row, now)  # type: ignore[arg-type]

    def play(row: object, now: datetime) -> int | None:
        handled.append((pbem_clock.as_utc(row.due_at), row.id))  # type: ignore[attr-defined]
        return real_play(row, now)  # type: ignore[arg-type]

    monkeypatch.setattr(timeouts, "remind", remind)
    monkeypatch.setattr(timeouts, "play_timed_out", play)
    monkeypatch.setattr(sweep_module, "BATCH", 5)  # more due rows than one sweep reads
    clock.at(24 * 7)  # the host slept a week
    report = tick(clock_app)
    assert report.ran and not report.failed and not report.busy
    assert len(handled) > 2 * sweep_module.BATCH
    assert handled == sorted(handled)  # in due order
    assert len({row_id for _, row_id in handled}) == len(handled)  # each row once
    for game_id in game_ids:
        game = game_of(game_id)
        assert [s.consecutive_timeouts for s in game.seats].count(1) == 1  # one timeout each
        assert games.verify_replay(game_id) == []
    # Every wait's timeout fell due in the sleep: it supersedes the wait's reminders, which
    # are closed unsent (issue 25, point 3).
    assert mails("reminder") == []
    handled.clear()
    tick(clock_app)
    assert handled == [] and mails("reminder") == []
