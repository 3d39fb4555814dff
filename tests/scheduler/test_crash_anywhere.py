"""The sweep killed between any two statements, then restarted: every deadline is handled
exactly once (issue 13).

One scenario holds every kind of row: game A has a due reminder; game B has two due
reminders, passed over unsent (issue 25, point 3), and a due timeout that marks the seat
absent (``absent_after`` 1) and makes the autopilot play a whole turn of several steps. An
uninterrupted sweep gives the expected outcome. Then, for every N, a fresh copy of the
scenario is swept by a process that dies just before its Nth statement or commit reaches the
database; a new sweeper, once the dead one's leases have passed, sweeps until there is
nothing left. The log, the mail, the seats and the waits must be exactly the baseline's: no
reminder twice, no step twice, no timeout counted twice, no deadline lost (the game still has
its clock, without any repair).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import Connection, event, select

from pbem.extensions import db
from pbem.models import ActionLog, Deadline, Game, Outbox
from pbem.scheduler.deadlines import repair, sweep
from pbem.services import games, timeouts
from pbem.services.timeouts import LEASE
from tests.conftest import _delete_all_rows
from tests.scheduler.conftest import FakeClock, awaited_seat, finish_draft, new_game, open_rows

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

TWO = [("Ana", "ana@example.org", "UTC"), ("Ben", "ben@example.org", "UTC")]
SWEEP_AT_HOURS = 72  # B's reminders and timeout are due, and A's first (quiet hours: 71 h)


class Killed(BaseException):
    """The process dies here (not an error the sweep may catch and carry on from)."""


def _scenario(app: Flask, clock: FakeClock) -> tuple[int, int]:
    _delete_all_rows(app)
    clock.at(0)
    late = new_game(TWO, seed=11, timeout_policy={"absent_after": 1})
    finish_draft(late)  # a real turn waits: the autopilot plays several steps of it
    clock.at(40)
    early = new_game(TWO, seed=12)
    finish_draft(early)
    clock.at(SWEEP_AT_HOURS)
    return early, late


def _outcome(game_ids: tuple[int, int]) -> dict[str, Any]:
    """Everything the sweep decides, with each game named by its place in ``game_ids`` (the
    ids differ between runs on PostgreSQL, whose sequences never go back)."""
    outcome = _outcome_by_id(game_ids)
    name = {game_id: n for n, game_id in enumerate(game_ids)}
    return {
        "log": [(name[g], *rest) for g, *rest in outcome["log"]],
        "mail": Counter({(name[g], *rest): n for (g, *rest), n in outcome["mail"].items()}),
        "seats": [(name[g], *rest) for g, *rest in outcome["seats"]],
        "waits": [(name[g], *rest) for g, *rest in outcome["waits"]],
    }


def _outcome_by_id(game_ids: tuple[int, int]) -> dict[str, Any]:
    db.session.expire_all()
    log = [(r.game_id, r.seq, r.by, repr(r.action)) for r in db.session.scalars(
        select(ActionLog).where(ActionLog.game_id.in_(game_ids))
        .order_by(ActionLog.game_id, ActionLog.seq))]
    mail = Counter((m.game_id, m.kind, m.to_addr) for m in db.session.scalars(select(Outbox)))
    seats = [(s.game_id, s.index, s.consecutive_timeouts, s.absent)
             for game_id in game_ids for s in db.session.get(Game, game_id).seats]  # type: ignore[union-attr]
    waits = [(game_id, awaited_seat(game_id),
              sorted((r.kind, r.seat, r.turn_key) for r in open_rows(game_id)))
             for game_id in game_ids]
    return {"log": log, "mail": mail, "seats": seats, "waits": waits}


def _sweep_until_quiet(app: Flask, clock: FakeClock) -> None:
    for _ in range(5):
        report = sweep(app, clock())
        assert not report.failed, report
        if not (report.reminders or report.turns):
            return
    raise AssertionError("the sweep never ran out of work")


@contextmanager
def _dies_before(statement: int) -> Iterator[list[int]]:
    """Raise ``Killed`` just before the ``statement``-th statement or commit of the engine."""
    seen = [0]

    def hit(conn: Connection, *_: object, **__: object) -> None:
        seen[0] += 1
        if seen[0] == statement:
            conn.invalidate()  # its connection dies with it: the server rolls back
            raise Killed()

    engine = db.engine
    event.listen(engine, "before_cursor_execute", hit)
    event.listen(engine, "commit", hit)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", hit)
        event.remove(engine, "commit", hit)


@pytest.mark.slow
def test_a_sweep_killed_before_any_statement_handles_every_deadline_once(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_ids = _scenario(clock_app, clock)
    with _dies_before(0) as seen:  # never dies: counts the statements of a whole sweep
        _sweep_until_quiet(clock_app, clock)
    statements = seen[0]
    expected = _outcome(game_ids)
    reminded = Counter(game for (game, kind, _), n in expected["mail"].items()
                       for _ in range(n) if kind == "reminder")
    assert reminded == {0: 1}  # B's timeout supersedes its reminders
    assert any(by == "timeout" for _, _, by, _ in expected["log"])
    assert statements > 20
    for n in range(1, statements + 1):
        game_ids = _scenario(clock_app, clock)
        try:
            with _dies_before(n):
                sweep(clock_app, clock())
        except Killed:
            pass
        clock.advance(seconds=LEASE.total_seconds() + 1)  # the dead sweeper's leases pass
        _sweep_until_quiet(clock_app, clock)
        assert _outcome(game_ids) == expected, f"killed before statement {n}"
        for game_id in game_ids:
            assert games.verify_replay(game_id) == [], n
        assert timeouts.repair_missing(clock()) == [], n  # nothing was left without a clock


def test_the_repair_step_gives_a_game_left_without_rows_its_clock_again(
    clock_app: Flask, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    early, late = _scenario(clock_app, clock)
    before = {game_id: sorted((r.kind, r.seat, r.turn_key) for r in open_rows(game_id))
              for game_id in (early, late)}
    db.session.execute(Deadline.__table__.delete())
    db.session.commit()
    with caplog.at_level(logging.WARNING, logger="pbem.scheduler.deadlines"):
        assert repair(clock_app, clock()) == sorted([early, late])
    assert [f"game {g} waited with no deadline row" in caplog.text for g in (early, late)] == [
        True, True]
    for game_id in (early, late):
        rows = open_rows(game_id)
        assert sorted((r.kind, r.seat, r.turn_key) for r in rows) == before[game_id]
        assert all(r.due_at.replace(tzinfo=None) > clock().replace(tzinfo=None) for r in rows)
    assert timeouts.repair_missing(clock() + timedelta(minutes=1)) == []  # once, not per tick
