"""One use case, one transaction: commit on success, roll back on any exception."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from pbem.extensions import db


@contextmanager
def transaction(*, keep_loaded: bool = False) -> Iterator[None]:
    """Commit on success; roll back on any exception, so refusals leave no trace.

    ``keep_loaded``: the work locked the game row and wrote it, so the loaded objects hold
    exactly what is committed; they are not expired, and the caller's answer is built
    without reading the row again (a second read of the game was a large part of the cost
    of a submission).
    """
    session = db.session()
    expire = session.expire_on_commit
    try:
        yield
        session.expire_on_commit = expire and not keep_loaded
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.expire_on_commit = expire
