"""One tick at a time across every process and machine that shares the database.

Every web worker may run the scheduler thread (``SCHEDULER_MODE=web``), ``pbem clock`` may run
beside them during a rolling deploy, and a cron may ``POST /tasks/tick``: whoever takes this
lock ticks, the others skip the tick (the steps are sweeps: the next tick finds what is due).

- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection of its own,
  held for the tick and released after it; a process that dies loses its connection, and
  with it the lock.
- SQLite: ``fcntl.flock`` on a file beside the database (``<database>.tick.lock``); the kernel
  releases it when the holder exits. An in-memory database lives in one process: a thread
  lock is enough.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import sqlalchemy as sa

from pbem.extensions import db

# Any 64-bit number the application owns; "pbemtick" in ASCII, so it is recognisable in
# pg_locks (classid/objid halves).
ADVISORY_KEY = int.from_bytes(b"pbemtick", "big") & 0x7FFF_FFFF_FFFF_FFFF
_in_process = threading.Lock()  # the threads of one process: the cheap check first


@contextmanager
def tick_lock() -> Iterator[bool]:
    """Yield True while this process holds the tick lock, False when another one does.

    Needs an app context (the lock lives where the app's database is)."""
    if not _in_process.acquire(blocking=False):
        yield False
        return
    try:
        engine = db.engine
        if engine.dialect.name == "postgresql":
            with _advisory(engine) as held:
                yield held
        else:
            with _file_lock(engine.url.database) as held:
                yield held
    finally:
        _in_process.release()


@contextmanager
def _advisory(engine: sa.Engine) -> Iterator[bool]:
    with engine.connect() as conn:
        held = bool(conn.execute(sa.text("SELECT pg_try_advisory_lock(:key)"),
                                 {"key": ADVISORY_KEY}).scalar())
        conn.commit()  # no transaction stays open for the length of the tick
        try:
            yield held
        finally:
            if held:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": ADVISORY_KEY})
                conn.commit()


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
