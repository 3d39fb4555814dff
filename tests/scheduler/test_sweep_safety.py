"""The sweep under stress: two sweepers at once, and a sweeper killed half-way."""

from __future__ import annotations

import threading

import pytest
from flask import Flask
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.models import ActionLog
from pbem.scheduler.deadlines import CLAIM_LEASE, SweepReport, sweep
from pbem.services import games, play
from pbem.services.timeouts import LEASE
from tests.scheduler.conftest import (
    FakeClock,
    awaited_seat,
    finish_draft,
    game_of,
    log_by,
    mails,
    new_game,
    tick,
)

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


class Killed(BaseException):
    """The process dies here (not an error the sweep may catch and carry on from)."""


def test_two_sweeps_racing_handle_each_row_once(clock_app: Flask, clock: FakeClock) -> None:
    game_ids = [new_game(seed=n) for n in range(12)]
    clock.at(24)
    reports: list[SweepReport] = []
    start = threading.Barrier(2)

    def sweeper() -> None:
        start.wait()
        reports.append(sweep(clock_app, clock()))  # its own app context: its own session

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.reminders for r in reports) == len(game_ids)
    assert all(not r.failed for r in reports)
    sent = [m.game_id for m in mails("reminder")]
    assert sorted(sent) == sorted(game_ids)  # one each: none twice, none lost


def test_two_sweeps_racing_play_each_timeout_once(clock_app: Flask, clock: FakeClock) -> None:
    game_ids = [new_game(seed=n) for n in range(4)]
    clock.at(60)
    reports: list[SweepReport] = []
    start = threading.Barrier(2)

    def sweeper() -> None:
        start.wait()
        reports.append(sweep(clock_app, clock()))

    threads = [threading.Thread(target=sweeper) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(r.turns for r in reports) == len(game_ids)
    for game_id in game_ids:
        assert sum(s.consecutive_timeouts for s in game_of(game_id).seats) == 1
        assert games.verify_replay(game_id) == []


def test_a_sweep_killed_midway_sends_no_reminder_twice(
    clock_app: Flask, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_ids = [new_game(seed=n) for n in range(3)]
    real = notify.reminder
    calls: list[int] = []

    def dies_on_the_second(game: object, seat: int, due: object) -> None:
        calls.append(seat)
        if len(calls) == 2:
            raise Killed()
        real(game, seat, due)  # type: ignore[arg-type]

    monkeypatch.setattr(notify, "reminder", dies_on_the_second)
    clock.at(24)
    with pytest.raises(Killed):
        sweep(clock_app, clock())
    assert len(mails("reminder")) == 1
    monkeypatch.setattr(notify, "reminder", real)
    assert tick(clock_app, clock).reminders == 0  # the dead sweeper's claim still holds them
    clock.advance(seconds=CLAIM_LEASE.total_seconds())
    assert tick(clock_app, clock).reminders == 2
    assert tick(clock_app, clock).reminders == 0
    assert sorted(m.game_id for m in mails("reminder")) == sorted(game_ids)


def test_a_sweep_killed_midway_applies_no_timeout_twice(
    clock_app: Flask, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = new_game()
    finish_draft(game_id)  # a real turn: several steps, so there is a second one to die in
    lazy = awaited_seat(game_id)
    assert lazy is not None
    real = play.play
    calls: list[int] = []

    def dies_after_the_first_step(*args: object, **kwargs: object) -> object:
        if calls:
            raise Killed()
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(play, "play", dies_after_the_first_step)
    clock.at(60)
    with pytest.raises(Killed):
        sweep(clock_app, clock())
    monkeypatch.setattr(play, "play", real)
    db.session.expire_all()
    first = len(log_by(game_id, "timeout")) + len(game_of(game_id).turn_steps)
    assert first == 1  # the one step committed before the crash
    assert tick(clock_app, clock).turns == 0  # the lease still holds the row
    clock.advance(seconds=LEASE.total_seconds())
    report = tick(clock_app, clock)
    assert report.turns == 1
    game = game_of(game_id)
    assert game.seat(lazy).consecutive_timeouts == 1  # counted once, not per attempt
    seqs = list(db.session.scalars(
        select(ActionLog.seq).where(ActionLog.game_id == game_id).order_by(ActionLog.seq)))
    assert seqs == list(range(1, len(seqs) + 1))
    assert games.verify_replay(game_id) == []
    total = db.session.scalar(select(func.count()).select_from(ActionLog).where(
        ActionLog.game_id == game_id, ActionLog.by == "timeout"))
    assert total == first + report.steps
