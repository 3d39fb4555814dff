"""Four processes share the due work, and SIGKILL at random points loses none of it
(issue 25, point 2).

Four ``tests.tick_loop`` processes tick against one PostgreSQL schema full of due reminders,
due timeouts and unsent mail, each claiming its own batches (``FOR UPDATE SKIP LOCKED``).
The test kills one of them with SIGKILL at a random moment, again and again, and starts a
new one in its place (they all keep ticking while the kills go on), until the kills stop and
the processes run out of work. Their clock
runs 60 times faster than the wall clock, so a dead process's leases pass within seconds.

Afterwards every due row has been handled, each reminder mailed once and each timeout played
and counted once, every mail sent; a mail reached the SMTP server twice only inside the
documented window (docs/architecture.md, "Shared work"): a sender killed after the server
accepted a message and before its group was marked sent, at most ``MARK_EVERY`` per kill.
The seed of the random kills is printed, so a failing run can be replayed
(``PBEM_TEST_KILL_SEED``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from pbem.extensions import db
from pbem.mail.outbound.delivery import MARK_EVERY
from tests.conftest import (
    PG_URL_ENV,
    _drop_postgres_schema,
    build_app,
    migrate_to_head,
    postgres_schema_url,
)
from tests.scheduler import shared_work
from tests.scheduler.conftest import FakeClock
from tests.slow_smtp import slow_smtp

pytestmark = pytest.mark.slow

SCHEMA = f"pbem_shared_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"
PROCESSES = 4
KILL_SECONDS = 15.0  # how long the kills go on
SPEED = 60  # the processes' clock: the 300 s deadline lease passes in 5 s
SECONDS = 90  # a bound on a failure only: the processes stop once nothing is due


@pytest.fixture
def direct_url(tmp_path: Path) -> Iterator[str]:
    if not os.environ.get(PG_URL_ENV):
        pytest.skip(f"{PG_URL_ENV} is not set: work is shared between processes on "
                    "PostgreSQL (SQLite runs one tick at a time)")
    url = postgres_schema_url(SCHEMA)
    migrate_to_head(url, tmp_path / "migrate")
    try:
        yield url
    finally:
        _drop_postgres_schema(SCHEMA)


def test_four_processes_killed_at_random_lose_nothing_and_do_nothing_twice(
    direct_url: str, tmp_path: Path
) -> None:
    seed = int(os.environ.get("PBEM_TEST_KILL_SEED") or time.time_ns() % 1_000_000)
    print(f"\nkill seed {seed} (PBEM_TEST_KILL_SEED={seed} replays it)")
    chance = random.Random(seed)
    clock = FakeClock()
    app = build_app(direct_url, tmp_path / "parent", PBEM_CLOCK=clock,
                    SERVER_NAME="pbem.test", MAIL_MESSAGE_ID_DOMAIN="pbem.test")
    with app.app_context():
        work = shared_work.build(app, clock, reminded=40, timed_out=12)
        mails = db.session.scalar(sa.select(sa.func.count()).select_from(sa.table("outbox")))
        db.session.rollback()
        with slow_smtp(delay=0.04) as (port, server):
            env = {"DATABASE_URL": direct_url, "MAIL_BACKEND": "smtp",
                   "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(port), "SMTP_SECURITY": "none",
                   "MAIL_LEASE_SECONDS": "3"}
            ref = time.time()
            started = [0]

            def start() -> subprocess.Popen[bytes]:
                n = started[0]
                started[0] += 1
                return shared_work.tick_loop(tmp_path / f"p{n}", env, work.base, ref,
                                             speed=SPEED, seconds=SECONDS,
                                             log=tmp_path / f"p{n}.log",
                                             busy_until=ref + KILL_SECONDS)

            processes = [start() for _ in range(PROCESSES)]
            kills = 0
            while True:
                time.sleep(chance.uniform(0.2, 1.5))
                if time.time() > ref + KILL_SECONDS - 1:  # a margin before they may stop
                    break
                victim = chance.choice(processes)  # they all tick till the kills end
                assert victim.poll() is None, "a process stopped before the kills ended"
                victim.send_signal(signal.SIGKILL)
                victim.wait(timeout=30)
                kills += 1
                processes[processes.index(victim)] = start()
            codes = [p.wait(timeout=SECONDS + 30) for p in processes]
            logs = "\n".join(f"--- p{n}\n" + (tmp_path / f"p{n}.log").read_text()
                             for n in range(started[0]))
            assert codes == [0] * PROCESSES, logs
        print(f"{kills} kills, {started[0]} processes, {mails} mails, "
              f"{server.duplicated} sent twice")
        shared_work.check(work, clock)
        sent = db.session.scalar(sa.select(sa.func.count()).select_from(sa.table("outbox")))
        db.session.rollback()
        assert len(server.copies) == sent  # every mail reached the server
        assert server.duplicated <= kills * MARK_EVERY, server.copies  # the mail window
        db.engine.dispose()
