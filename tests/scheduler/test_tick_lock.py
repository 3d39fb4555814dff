"""Who ticks: on SQLite one tick at a time (a file lock); on PostgreSQL every process runs
the steps at once, and a ``single`` step runs in one process at a time under a
transaction-scoped advisory lock that is free again once the step ends."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import scheduler
from pbem.config import ConfigError, load_config
from pbem.extensions import db
from pbem.scheduler.lock import ADVISORY_CLASS, lock_path, step_lock, tick_lock
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
_STEP_KEY = ("SELECT pg_try_advisory_xact_lock(CAST(:cls AS integer), "
             "hashtext(current_schema() || '/' || CAST(:name AS text)))")


def _another_process_can_lock(app: Flask) -> bool:
    """Try the SQLite tick lock as a separate process would."""
    with app.app_context():
        path = lock_path(db.engine.url.database)
    assert path is not None
    done = subprocess.run([sys.executable, "-c", _TRY_FLOCK, str(path)], timeout=30)
    assert done.returncode in (0, 3)
    return done.returncode == 0


def _another_session_can_take(app: Flask, step: str) -> bool:
    """Try a step's lock as a separate process (a separate session) would."""
    with app.app_context():
        other = sa.create_engine(db.engine.url)
        try:
            with other.connect() as conn:
                got = bool(conn.execute(sa.text(_STEP_KEY),
                                        {"cls": ADVISORY_CLASS, "name": step}).scalar())
                conn.rollback()
                return got
        finally:
            other.dispose()


def test_sqlite_ticks_one_at_a_time_and_postgresql_shares_the_steps(
    make_app: MakeApp, app: Flask, database_kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if database_kind == "sqlite":
        _sqlite_one_tick_at_a_time(make_app, monkeypatch)
    else:
        _postgresql_shares_the_steps(make_app, monkeypatch)


def _sqlite_one_tick_at_a_time(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """While one tick holds the file lock, no other process, thread or ``POST /tasks/tick``
    ticks; the lock is free again once the tick ends."""
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


def _postgresql_shares_the_steps(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes run a shared step at the same time; a ``single`` step runs in one of
    them, under a lock that is free again once the step ends."""
    ticking = make_app(TICK_TOKEN="s3cret")
    other = make_app()  # another process: its own engine and sessions
    calls: list[str] = []
    inside = threading.Event()
    release = threading.Event()

    def slow_single() -> None:
        calls.append("single")
        inside.set()
        release.wait(30)

    monkeypatch.setattr(scheduler, "_steps", {"shared": lambda: calls.append("shared"),
                                              "single": slow_single})
    monkeypatch.setattr(scheduler, "_single", {"single"})
    assert _another_session_can_take(ticking, "single")
    first = threading.Thread(target=scheduler.tick, args=(ticking,))
    first.start()
    try:
        assert inside.wait(30)
        assert not _another_session_can_take(ticking, "single")  # held while the step runs
        assert _another_session_can_take(ticking, "shared")  # shared steps hold no lock
        with other.app_context():
            report = scheduler._run_steps()
        assert report.ran == ("shared",) and report.elsewhere == ("single",)
        assert scheduler.tick(ticking).busy  # this process ticks already, in the other thread
    finally:
        release.set()
        first.join(30)
    assert _another_session_can_take(ticking, "single")  # the step's end released it
    assert calls == ["shared", "single", "shared"]
    report = scheduler.tick(ticking)
    assert report.ran == ("shared", "single") and not report.busy


def test_a_tick_whose_steps_raise_leaves_no_lock_held(
    make_app: MakeApp, app: Flask, database_kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticking = make_app()

    def boom() -> None:
        raise RuntimeError("the step failed")

    monkeypatch.setattr(scheduler, "_steps", {"boom": boom, "single": boom})
    monkeypatch.setattr(scheduler, "_single", {"single"})
    report = scheduler.tick(ticking)
    assert report.failed == ("boom", "single")
    if database_kind == "sqlite":
        assert _another_process_can_lock(ticking)
    else:
        assert _another_session_can_take(ticking, "single")
        with ticking.app_context(), step_lock("single") as held:
            assert held


def test_the_database_pooler_setting() -> None:
    url = "postgresql://u@db.example/pbem"
    assert load_config({})["DATABASE_POOLER"] == "none"
    plain = load_config({"DATABASE_URL": url})["SQLALCHEMY_ENGINE_OPTIONS"]
    assert "connect_args" not in plain
    pooled = load_config({"DATABASE_URL": url, "DATABASE_POOLER": "transaction"})
    # PgBouncer in transaction mode cannot keep a prepared statement for the client
    assert pooled["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"] == {"prepare_threshold": None}
    with pytest.raises(ConfigError, match="DATABASE_POOLER"):
        load_config({"DATABASE_POOLER": "transaction"})  # SQLite has no pooler
    with pytest.raises(ConfigError, match="DATABASE_POOLER"):
        load_config({"DATABASE_URL": url, "DATABASE_POOLER": "statement"})


def test_the_scheduler_mode_setting(make_app: MakeApp) -> None:
    assert load_config({})["SCHEDULER_MODE"] == "web"
    assert load_config({"SCHEDULER_MODE": "Clock"})["SCHEDULER_MODE"] == "clock"
    with pytest.raises(ConfigError, match="SCHEDULER_MODE"):
        load_config({"SCHEDULER_MODE": "cron"})
    assert scheduler.runs_in_web(make_app())
    assert not scheduler.runs_in_web(make_app(SCHEDULER_MODE="off"))
