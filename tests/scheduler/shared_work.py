"""Due work for several ticking processes (``tests.tick_loop``) and what they must leave.

``build`` writes, on the fake clock of ``tests.scheduler.conftest``, two kinds of games: in
the ``reminded`` ones one reminder is due at ``BASE_HOURS``; in the ``timed_out`` ones the
timeout of the awaited seat is due (their reminders were sent before): its autopilot turn
is played and the timeout counted once. Every game's mail so far (invitations, turns,
reminders) waits in the outbox, unsent. ``check`` asserts the outcome after the processes
stopped: every due row handled, no reminder mailed twice, no timeout counted twice, every
mail sent.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from flask import Flask
from sqlalchemy import select

from pbem.extensions import db
from pbem.models import Deadline, Game, Outbox
from pbem.models.outbox import SENT
from pbem.scheduler.deadlines import sweep
from pbem.services import games, timeouts
from tests.scheduler.conftest import START, FakeClock, new_game

BASE_HOURS = 61  # the reminded games' first reminder (59 h) and the others' timeout (60 h)
REPO = Path(__file__).resolve().parent.parent.parent


@dataclass
class Work:
    reminded: list[int]
    timed_out: list[int]
    reminders_before: Counter[int]  # reminder mails per game before BASE_HOURS
    due_rows: list[int]  # the rows due at BASE_HOURS

    @property
    def base(self) -> str:
        return (START + timedelta(hours=BASE_HOURS)).isoformat()


def build(app: Flask, clock: FakeClock, *, reminded: int, timed_out: int) -> Work:
    """The games, created through ``app`` (in its app context) on ``clock``."""
    clock.at(0)
    late = [new_game(seed=100 + n) for n in range(timed_out)]
    clock.at(35)
    early = [new_game(seed=200 + n) for n in range(reminded)]
    clock.at(50)  # the timed-out games' reminders, before the test
    while sweep(app, clock()).seen:
        pass
    clock.at(BASE_HOURS)
    before = Counter(m.game_id for m in db.session.scalars(
        select(Outbox).where(Outbox.kind == "reminder")))
    due_rows = list(db.session.scalars(select(Deadline.id).where(
        Deadline.done_at.is_(None), Deadline.due_at <= clock())))
    db.session.commit()
    assert len(due_rows) == reminded + timed_out  # one row each: the scenario is as meant
    return Work(early, late, before, due_rows)


def tick_loop(instance: Path, env: dict[str, str], base: str, ref: float, *, speed: float,
              seconds: float, log: Path, busy_until: float = 0.0) -> subprocess.Popen[bytes]:
    """Start one ``tests.tick_loop`` process."""
    environ = dict(os.environ)
    environ.update(SECRET_KEY="shared-work-test", SERVER_NAME="pbem.test",
                   MAIL_MESSAGE_ID_DOMAIN="pbem.test", MAIL_FROM="pbem@pbem.test",
                   SCHEDULER_MODE="off", HOME=str(instance))
    environ.update(env)
    instance.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "tests.tick_loop", "--instance", str(instance),
            "--base", base, "--ref", str(ref), "--speed", str(speed), "--seconds", str(seconds),
            "--busy-until", str(busy_until)]
    with log.open("ab") as out:
        return subprocess.Popen(argv, cwd=REPO, env=environ, stdout=out,
                                stderr=subprocess.STDOUT)


def check(work: Work, clock: FakeClock) -> None:
    """Every due row handled once, every mail sent (in an app context on the same database)."""
    db.session.expire_all()
    rows = db.session.scalars(select(Deadline).where(Deadline.id.in_(work.due_rows))).all()
    # handled: done, or (a timeout) replaced by the next wait's rows when its turn was played
    assert all(row.done_at is not None for row in rows), [r.id for r in rows if not r.done_at]
    reminders = Counter(m.game_id for m in db.session.scalars(
        select(Outbox).where(Outbox.kind == "reminder")))
    for game_id in work.reminded:
        assert reminders[game_id] - work.reminders_before[game_id] == 1, game_id
    for game_id in work.timed_out:
        assert reminders[game_id] == work.reminders_before[game_id], game_id
        game = db.session.get(Game, game_id)
        assert game is not None
        assert sorted(s.consecutive_timeouts for s in game.seats) == [0, 0, 1], game_id
    for game_id in work.reminded + work.timed_out:
        assert games.verify_replay(game_id) == [], game_id
    unsent = db.session.scalars(select(Outbox.id).where(Outbox.status != SENT)).all()
    assert unsent == []
    assert timeouts.repair_missing(clock()) == []  # no game was left without its clock
    db.session.rollback()
