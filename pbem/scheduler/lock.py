"""Who ticks when several processes and machines share the database.

Every web worker may run the scheduler thread (``SCHEDULER_MODE=web``), ``pbem clock`` may run
beside them during a rolling deploy, and a cron may ``POST /tasks/tick``.

- PostgreSQL: no lock around the tick. Every process runs the steps that claim their rows
  (``pbem.models.claims``: deadlines, mail, notices, ...), so N processes drain due work N
  at a time. The few steps that must run in one process at a time (``single``: polling the
  IMAP mailbox, pruning) each take ``step_lock``: ``pg_try_advisory_xact_lock`` in a
  transaction of their own connection, held while the step runs and released when that
  transaction ends -- by the step's end, or by the server when the process dies. A lock of
  the transaction, never of the session, so it works behind PgBouncer in transaction mode
  (a session lock would stay on whichever server connection the pooler handed out).
- SQLite: one writer at a time anyway; ``tick_lock`` is an ``fcntl.flock`` on a file beside
  the database (``<database>.tick.lock``) around the whole tick, which the kernel releases
  when the holder exits. An in-memory database lives in one process: a thread lock is enough.

Within one process a thread lock comes first: one tick at a time per process.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import sqlalchemy as sa

from pbem.extensions import db

# The first half of every step lock's two-part key: any 32-bit number the application owns,
# "pbem" in ASCII, so its locks are recognisable in pg_locks (classid).
ADVISORY_CLASS = int.from_bytes(b"pbem", "big") & 0x7FFF_FFFF
_in_process = threading.Lock()  # the threads of one process: the cheap check first


def shares_steps() -> bool:
    """True when every process runs the claiming steps at once (PostgreSQL); False when one
    tick at a time holds the whole database (SQLite). Needs an app context."""
    return bool(db.engine.dialect.name == "postgresql")


@contextmanager
def tick_lock() -> Iterator[bool]:
    """Yield True while this process may tick, False when it may not: another thread of it
    is ticking, or (SQLite) another process holds the file lock.

    Needs an app context (the lock lives where the app's database is)."""
    if not _in_process.acquire(blocking=False):
        yield False
        return
    try:
        engine = db.engine
        if shares_steps():
            yield True  # the steps claim their rows; ``single`` steps take ``step_lock``
        else:
            with _file_lock(engine.url.database) as held:
                yield held
    finally:
        _in_process.release()


@contextmanager
def step_lock(name: str) -> Iterator[bool]:
    """Yield True while this process alone runs the step ``name`` (PostgreSQL), False when
    another one does. The key is the step's name and the ``current_schema()``: two
    installations in two schemas of one database do not hold each other up."""
    with db.engine.connect() as conn:
        held = bool(conn.execute(
            sa.text("SELECT pg_try_advisory_xact_lock(CAST(:cls AS integer), "
                    "hashtext(current_schema() || '/' || CAST(:name AS text)))"),
            {"cls": ADVISORY_CLASS, "name": name}).scalar())
        try:
            yield held
        finally:
            conn.rollback()  # ends the transaction, and with it the lock


def lock_path(database: str | None) -> Path | None:
    """The lock file of a SQLite database file; None for an in-memory database."""
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    return Path(database).with_name(Path(database).name + ".tick.lock")


@contextmanager
def _file_lock(database: str | None) -> Iterator[bool]:
    path = lock_path(database)
    if path is None:
        yield True  # one process: the thread lock already holds
        return
    import fcntl  # POSIX only, like gunicorn; imported here so the module loads anywhere

    handle: IO[bytes] = open(path, "ab")  # noqa: SIM115 - closed below, after the unlock
    try:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
    finally:
        handle.close()
