"""Clean stops (issue 25, point 5): ``pbem clock`` and a gunicorn worker asked to stop
(SIGTERM) finish the item in hand, leave the rest for the next process and release what they
hold, then exit 0.

In-process, the sweep and the outbox are stopped by ``pbem.shutdown`` after their first item.
Then the real processes: ``pbem clock`` and gunicorn (``SCHEDULER_MODE=web``) sending a
queue of mail to a slow SMTP server (0.2 s a message) get SIGTERM mid-batch. Afterwards every
message the server accepted is marked sent, once (the one in hand was finished and marked);
none is left ``sending`` under a lease (the claimed rest is back in the queue, due at once);
and this process finds the rest due straight away and (SQLite) the tick lock free.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import shutdown
from pbem.extensions import db
from pbem.mail.outbound import delivery
from pbem.models import Outbox
from pbem.models.outbox import PENDING, SENDING, SENT
from pbem.scheduler.lock import tick_lock
from pbem.services import timeouts
from pbem.services.games import SeatSpec, create_game
from tests.conftest import MakeApp
from tests.live_server import BIN, REPO, SECRET_KEY, serving
from tests.scheduler.conftest import FakeClock, mails, new_game, tick
from tests.slow_smtp import SlowRecorder, slow_smtp

STOP_SECONDS = 10  # SIGTERM to exit: one message (0.2 s) and the tick's wind-down
SMTP_DELAY = 0.2


@pytest.fixture(autouse=True)
def no_stop_left_behind() -> Iterator[None]:
    """The flag is process-wide: a test that sets it must not stop the next test's ticks."""
    shutdown.reset()
    yield
    shutdown.reset()


# -- in-process: the loops stop between items -----------------------------------------------


def test_a_sweep_asked_to_stop_finishes_its_row_and_leaves_the_rest_due(
    clock_app: Flask, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(3):
        new_game(seed=seed)
    real = timeouts.remind

    def remind_then_stop(row: Any, now: datetime) -> timeouts.Reminded:
        outcome = real(row, now)
        shutdown.request()  # SIGTERM while this row was in hand
        return outcome

    monkeypatch.setattr(timeouts, "remind", remind_then_stop)
    clock.at(24)  # each game's first reminder is due
    report = tick(clock_app, clock)
    assert (report.reminders, report.stopped) == (1, True)
    assert len(mails("reminder")) == 1
    monkeypatch.setattr(timeouts, "remind", real)
    shutdown.reset()  # the next process
    assert tick(clock_app, clock).reminders == 2
    assert len(mails("reminder")) == 3


class _StoppingBackend:
    """A mail backend that accepts every message; the first send asks the process to stop."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def open(self) -> _StoppingBackend:
        return self

    def __enter__(self) -> _StoppingBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def send(self, msg: Any) -> None:
        self.sent.append(str(msg["Message-ID"]))
        shutdown.request()


def test_an_outbox_batch_asked_to_stop_marks_its_mail_sent_and_gives_back_the_rest(
    clock_app: Flask
) -> None:
    new_game()
    queued = len(mails())
    assert queued >= 3
    backend = _StoppingBackend()
    report = delivery.deliver_pending(clock_app, now=datetime.now(UTC), backend=backend)
    assert len(backend.sent) == len(report.sent) == 1
    statuses = [row.status for row in mails()]
    assert statuses.count(SENT) == 1 and statuses.count(PENDING) == queued - 1
    assert all(row.lease_until is None for row in mails() if row.status == PENDING)
    shutdown.reset()  # the next process: the rest is due at once, no lease to wait out
    assert len(delivery.claim(datetime.now(UTC), 1000)) == queued - 1


# -- real processes: SIGTERM mid-batch ------------------------------------------------------


def _queue_mail(make_app: MakeApp) -> int:
    """Games created now: their invitations and first "your turn" mails, all due."""
    app = make_app()
    with app.app_context():
        for n in range(6):
            create_game(
                name=f"Queue {n}", host_email="host@example.org",
                seats=[SeatSpec(name, f"{name.lower()}@example.org")
                       for name in ("Ana", "Ben", "Cy", "Dee")],
                options={"factions": False}, seed=500 + n, fixed_order=True)
        total = int(db.session.scalar(sa.select(sa.func.count()).select_from(Outbox)) or 0)
        db.session.remove()
        db.engine.dispose()
    return total


def _smtp_env(port: int) -> dict[str, str]:
    return {"MAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(port),
            "SMTP_SECURITY": "none", "MAIL_FROM": "pbem@pbem.test",
            "SCHEDULER_TICK_SECONDS": "0.3"}


def _wait_until_sending(server: SlowRecorder, process: subprocess.Popen[bytes], log: Path,
                        count: int = 3) -> None:
    deadline = time.monotonic() + 60
    while server.received < count:
        assert process.poll() is None, log.read_text(errors="replace")[-3000:]
        assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
        time.sleep(0.05)


def _stop(process: subprocess.Popen[bytes], log: Path) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        raise AssertionError("no exit within the bound:\n"
                             + log.read_text(errors="replace")[-3000:]) from None
    output = log.read_text(errors="replace")
    assert code == 0, output[-3000:]
    assert "Traceback" not in output, output[-3000:]


def _assert_stopped_cleanly(app: Flask, server: SlowRecorder, total: int) -> None:
    with app.app_context():
        statuses = dict(db.session.execute(
            sa.select(Outbox.status, sa.func.count()).group_by(Outbox.status)).all())
        db.session.rollback()
        assert server.duplicated == 0, server.copies
        assert statuses.get(SENDING, 0) == 0, statuses  # no claim left behind
        assert statuses.get(SENT, 0) == server.received  # the mail in hand was marked sent
        left = statuses.get(PENDING, 0)
        assert 0 < left < total, statuses  # stopped mid-batch: the rest is for the next one
        assert len(delivery.claim(datetime.now(UTC), 1000)) == left  # due at once
        if db.engine.dialect.name != "postgresql":
            # The lock file is this database's alone. PostgreSQL's advisory key is one for
            # the whole server database, which other test sessions (other schemas) tick on.
            with tick_lock() as held:
                assert held
        db.session.rollback()


@pytest.mark.slow
def test_pbem_clock_stops_cleanly_on_sigterm_mid_batch(
    make_app: MakeApp, app: Flask, db_url: str, tmp_path: Path
) -> None:
    total = _queue_mail(make_app)
    log = tmp_path / "clock.log"
    with slow_smtp(delay=SMTP_DELAY) as (port, server):
        environ = dict(os.environ)
        environ.update(DATABASE_URL=db_url, SECRET_KEY=SECRET_KEY, HOME=str(tmp_path),
                       PYTHONUNBUFFERED="1", **_smtp_env(port))
        with log.open("ab") as out:
            process = subprocess.Popen([str(BIN / "pbem"), "clock"], cwd=REPO, env=environ,
                                       stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_until_sending(server, process, log)
            _stop(process, log)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        _assert_stopped_cleanly(app, server, total)


@pytest.mark.slow
def test_a_gunicorn_worker_stops_its_scheduler_cleanly_on_sigterm_mid_batch(
    make_app: MakeApp, app: Flask, db_url: str, tmp_path: Path
) -> None:
    total = _queue_mail(make_app)
    with slow_smtp(delay=SMTP_DELAY) as (port, server), serving(
            db_url, tmp_path, workers=1, env=_smtp_env(port)) as live:
        _wait_until_sending(server, live.process, live.log)
        _stop(live.process, live.log)
    _assert_stopped_cleanly(app, server, total)
