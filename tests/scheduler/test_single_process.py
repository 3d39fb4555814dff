"""Single-process mode (issue 17): three web processes, each running the scheduler thread
(``SCHEDULER_MODE=web``, the default), share one database with due deadlines and pending
mail. On SQLite the tick lock lets one of them tick at a time; on PostgreSQL they tick at
once, each claiming other rows: either way every due deadline is handled once and every mail
reaches the SMTP server once."""

from __future__ import annotations

import time
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.models import Deadline, Game, Outbox
from pbem.models.outbox import SENT
from pbem.services import games
from pbem.services.games import SeatSpec, create_game
from tests.conftest import MakeApp, days_ago_at_noon
from tests.live_server import serving
from tests.slow_smtp import slow_smtp

# quiet_hours: .ci/run runs it again at five hours of the day
pytestmark = [pytest.mark.quiet_hours, pytest.mark.slow]

GAMES = 6
PROCESSES = 3
QUIET_SECONDS = 120


def _due_work(make_app: MakeApp, days: int) -> list[int]:
    """Games begun ``days`` days ago at noon; their first seat's reminders fall at 12:00 the
    next day and 08:00 the day after (23:24 is in the quiet hours), the timeout at midnight
    that day. Four days ago: the reminders and the timeout are due; the timeout marks the
    seat absent and the autopilot plays its turn. Two days ago: one or both reminders are
    due (by the hour of the run), the timeout is not."""
    began = days_ago_at_noon(days)
    app = make_app(PBEM_CLOCK=lambda: began)
    ids = []
    with app.app_context():
        for n in range(GAMES):
            game = create_game(
                name=f"Sleepy {days}-{n}", host_email="host@example.org",
                seats=[SeatSpec("Ana", "ana@example.org"), SeatSpec("Ben", "ben@example.org")],
                options={"factions": False}, seed=100 + n, fixed_order=True,
                timeout_policy={"absent_after": 1})
            ids.append(int(game.id))
        db.session.remove()
        db.engine.dispose()
    return ids


def _quiet(app: Flask) -> bool:
    now = datetime.now(UTC)
    with app.app_context():
        due = db.session.scalar(sa.select(sa.func.count()).select_from(Deadline).where(
            Deadline.done_at.is_(None), Deadline.due_at <= now))
        unsent = db.session.scalar(sa.select(sa.func.count()).select_from(Outbox).where(
            Outbox.status != SENT))
        db.session.rollback()
    return due == 0 and unsent == 0


def test_three_web_processes_handle_each_deadline_and_mail_once(
    make_app: MakeApp, app: Flask, db_url: str, tmp_path: Path
) -> None:
    game_ids = _due_work(make_app, days=4)
    reminded_ids = _due_work(make_app, days=2)
    started = datetime.now(UTC)
    with slow_smtp(delay=0.02) as (port, server), ExitStack() as stack:
        env = {"MAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(port),
               "SMTP_SECURITY": "none", "MAIL_FROM": "pbem@pbem.test",
               "SCHEDULER_TICK_SECONDS": "0.5"}
        for n in range(PROCESSES):
            directory = tmp_path / f"web{n}"
            directory.mkdir()
            stack.enter_context(serving(db_url, directory, workers=1 + (n == 0), env=env))
        deadline = time.monotonic() + QUIET_SECONDS
        while not _quiet(app) and time.monotonic() < deadline:
            time.sleep(0.5)
        time.sleep(1.5)  # a few more ticks of every process: they must find nothing
        assert _quiet(app)
        ended = datetime.now(UTC)
    with app.app_context():
        rows = db.session.scalars(sa.select(Outbox)).all()
        assert server.duplicated == 0, server.copies
        assert server.received == len(rows)
        reminders = [r.game_id for r in rows if r.kind == "reminder"]
        # Of a wait's overdue reminders only the latest is mailed, and none beside a due
        # timeout (issue 25, point 3): one reminder per game begun two days ago, once. A
        # reminder that falls due while the test runs (its 08:00 one, in a run just before
        # 08:00) is a new reminder, mailed in its turn, unless a process reached the game
        # after it fell due: then one mail or two are both right.
        fell_due_during_run = set(db.session.scalars(sa.select(Deadline.game_id).where(
            Deadline.game_id.in_(reminded_ids), Deadline.kind == "reminder",
            Deadline.due_at > started, Deadline.due_at <= ended)))
        assert set(reminders) == set(reminded_ids)
        for game_id in reminded_ids:
            mailed = reminders.count(game_id)
            assert mailed == 1 or (mailed == 2 and game_id in fell_due_during_run), (
                game_id, mailed)
        for game_id in game_ids:
            game = db.session.get(Game, game_id)
            assert game is not None
            assert [s.consecutive_timeouts for s in game.seats] == [1, 0]
            assert game.seat(0).absent
            assert games.verify_replay(game_id) == []
            waits = db.session.scalars(sa.select(Deadline).where(
                Deadline.game_id == game_id, Deadline.done_at.is_(None))).all()
            assert waits and {w.seat for w in waits} == {1}  # Ben's clock runs
