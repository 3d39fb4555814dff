"""The tick lock: while one process ticks, no other process, thread or ``POST /tasks/tick``
ticks; the lock is free again once the tick ends."""

from __future__ import annotations

import subprocess
import sys

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import scheduler
from pbem.extensions import db
from pbem.scheduler.lock import ADVISORY_KEY, lock_path, tick_lock
from tests.conftest import MakeApp

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

_TRY_FLOCK = """
import fcntl, sys
with open(sys.argv[1], "ab") as f:
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        sys.exit(3)
"""


def _another_process_can_lock(app: Flask) -> bool:
    """Try the lock as a separate process (PostgreSQL: a separate session) would."""
    with app.app_context():
        engine = db.engine
        if engine.dialect.name == "postgresql":
            other = sa.create_engine(engine.url)
            try:
                with other.connect() as conn:
                    got = bool(conn.execute(sa.text("SELECT pg_try_advisory_lock(:k)"),
                                            {"k": ADVISORY_KEY}).scalar())
                    if got:
                        conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"),
                                     {"k": ADVISORY_KEY})
                    return got
            finally:
                other.dispose()
        path = lock_path(engine.url.database)
    assert path is not None
    done = subprocess.run([sys.executable, "-c", _TRY_FLOCK, str(path)], timeout=30)
    assert done.returncode in (0, 3)
    return done.returncode == 0


def test_while_one_tick_holds_the_lock_nobody_else_ticks(
    make_app: MakeApp, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticking = make_app(TICK_TOKEN="s3cret")
    calls: list[str] = []
    monkeypatch.setattr(scheduler, "_steps", {"probe": lambda: calls.append("probe")})
    assert _another_process_can_lock(ticking)
    with ticking.app_context(), tick_lock() as held:
        assert held
        assert not _another_process_can_lock(ticking)
        assert scheduler.tick(ticking).busy  # another thread of this process
        response = ticking.test_client().post(
            "/tasks/tick", headers={"Authorization": "Bearer s3cret"})
        assert response.status_code == 200 and response.get_json()["status"] == "busy"
        assert calls == []
    assert _another_process_can_lock(ticking)
    report = scheduler.tick(ticking)
    assert not report.busy and calls == ["probe"]


def test_the_scheduler_mode_setting(make_app: MakeApp) -> None:
    from pbem.config import ConfigError, load_config

    assert load_config({})["SCHEDULER_MODE"] == "web"
    assert load_config({"SCHEDULER_MODE": "Clock"})["SCHEDULER_MODE"] == "clock"
    with pytest.raises(ConfigError, match="SCHEDULER_MODE"):
        load_config({"SCHEDULER_MODE": "cron"})
    assert scheduler.runs_in_web(make_app())
    assert not scheduler.runs_in_web(make_app(SCHEDULER_MODE="off"))
