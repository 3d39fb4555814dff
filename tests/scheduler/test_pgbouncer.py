"""The scheduler behind a real PgBouncer in transaction mode (issue 25, point 2).

A pooler in transaction mode hands every transaction whichever server connection is free:
a session advisory lock would stay on a server connection after its client is gone, and a
prepared statement would be missing on the next one. The scheduler holds only
transaction-scoped locks (``pg_try_advisory_xact_lock``) and ``DATABASE_POOLER=transaction``
turns psycopg's prepared statements off, so two processes ticking through PgBouncer (with
fewer server connections than clients) do the due work once, and no lock stays held.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.scheduler.lock import ADVISORY_CLASS, step_lock
from tests import pgbouncer
from tests.conftest import (
    PG_URL_ENV,
    _drop_postgres_schema,
    build_app,
    migrate_to_head,
    postgres_schema_url,
)
from tests.programs import PGBOUNCER
from tests.scheduler import shared_work
from tests.scheduler.conftest import FakeClock
from tests.slow_smtp import slow_smtp

SCHEMA = f"pbem_bouncer_{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"
PROCESSES = 2
SECONDS = 90  # a bound on a failure only: the processes stop once nothing is due


@pytest.fixture
def bounced(tmp_path: Path) -> Iterator[tuple[pgbouncer.Bouncer, str]]:
    """A migrated schema of its own, and a PgBouncer in front of it: (bouncer, direct URL)."""
    PGBOUNCER.require()
    if not os.environ.get(PG_URL_ENV):
        pytest.skip(f"{PG_URL_ENV} is not set: PgBouncer stands in front of PostgreSQL only")
    direct = postgres_schema_url(SCHEMA)
    migrate_to_head(direct, tmp_path / "migrate")
    try:
        with pgbouncer.pgbouncer(tmp_path, sa.make_url(os.environ[PG_URL_ENV]),
                                 SCHEMA) as bouncer:
            yield bouncer, direct
    finally:
        _drop_postgres_schema(SCHEMA)


def _advisory_locks(direct: str) -> int:
    """The step locks held in this test's schema (other runs on the database hold theirs)."""
    engine = sa.create_engine(direct)
    try:
        with engine.connect() as conn:
            return int(conn.execute(sa.text(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = :cls "
                "AND objid::bigint IN (SELECT hashtext(current_schema() || '/' || name)::bigint"
                " & 4294967295 FROM unnest(CAST(:names AS text[])) AS name)"),
                {"cls": ADVISORY_CLASS, "names": ["replies", "retention"]}).scalar() or 0)
    finally:
        engine.dispose()


def test_a_step_lock_taken_through_pgbouncer_is_released_with_its_transaction(
    bounced: tuple[pgbouncer.Bouncer, str], tmp_path: Path
) -> None:
    bouncer, direct = bounced
    pooled = {"DATABASE_POOLER": "transaction"}
    one = build_app(bouncer.url, tmp_path / "one", SQLALCHEMY_ENGINE_OPTIONS={
        "pool_pre_ping": True, "connect_args": {"prepare_threshold": None}}, **pooled)
    two = build_app(bouncer.url, tmp_path / "two", SQLALCHEMY_ENGINE_OPTIONS={
        "pool_pre_ping": True, "connect_args": {"prepare_threshold": None}}, **pooled)
    with one.app_context(), step_lock("replies") as held:
        assert held
        with two.app_context(), step_lock("replies") as also:
            assert not also  # another client, another server connection: still exclusive
        assert _advisory_locks(direct) == 1
    assert _advisory_locks(direct) == 0  # not left on the server connection the pooler keeps
    for _ in range(2 * pgbouncer.SERVER_CONNECTIONS):  # whichever connection it hands out
        with two.app_context(), step_lock("replies") as held:
            assert held
    for app in (one, two):
        with app.app_context():
            db.engine.dispose()


def test_two_processes_ticking_through_pgbouncer_do_the_due_work_once(
    bounced: tuple[pgbouncer.Bouncer, str], tmp_path: Path
) -> None:
    bouncer, direct = bounced
    clock = FakeClock()
    app: Flask = build_app(direct, tmp_path / "parent", PBEM_CLOCK=clock,
                           SERVER_NAME="pbem.test", MAIL_MESSAGE_ID_DOMAIN="pbem.test")
    with app.app_context():
        work = shared_work.build(app, clock, reminded=6, timed_out=4)
        with slow_smtp(delay=0.01) as (port, server):
            env = {"DATABASE_URL": bouncer.url, "DATABASE_POOLER": "transaction",
                   "MAIL_BACKEND": "smtp", "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(port),
                   "SMTP_SECURITY": "none"}
            ref = time.time()
            processes = [
                shared_work.tick_loop(tmp_path / f"p{n}", env, work.base, ref, speed=1,
                                      seconds=SECONDS, log=tmp_path / f"p{n}.log")
                for n in range(PROCESSES)]
            codes = [process.wait(timeout=SECONDS + 30) for process in processes]
            logs = "\n".join((tmp_path / f"p{n}.log").read_text() for n in range(PROCESSES))
            assert codes == [0] * PROCESSES, logs + bouncer.output()
        shared_work.check(work, clock)
        sent = db.session.scalar(sa.select(sa.func.count()).select_from(sa.table("outbox")))
        db.session.rollback()
        assert server.duplicated == 0, server.copies
        assert server.received == sent
    assert _advisory_locks(direct) == 0
    with app.app_context():
        db.engine.dispose()
