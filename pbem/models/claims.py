"""Lease claims: a worker takes a batch of due rows for itself, so that many workers share
the due work instead of queueing behind one lock.

``claim`` picks up to ``limit`` rows that match ``due`` and writes ``values`` (a lease: a
``lease_until`` in the future, which the ``due`` condition of every queue excludes) in one
short transaction, then commits: from then on the rows are the claimer's until the lease
passes, and no transaction stays open while they are worked on.

- PostgreSQL: ``SELECT ... FOR UPDATE SKIP LOCKED LIMIT n``: two workers that claim at the
  same moment each get other rows, and neither waits for the other.
- SQLite: one writer at a time; each picked row is claimed by a conditional UPDATE that
  repeats ``due``, so a row another worker claimed since the pick is left to it.

Used by the mail outbox and chat notices (``pbem.mail.outbound.delivery``) and by the
deadlines (``pbem.scheduler.deadlines``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sqlalchemy as sa

from pbem.extensions import db


def claim(table: Any, due: Sequence[sa.ColumnElement[bool]], values: Mapping[str, Any], *,
          order_by: Sequence[Any], limit: int) -> list[int]:
    """Claim up to ``limit`` rows of ``table`` (a model with an ``id``) matching ``due``,
    oldest by ``order_by`` first, by writing ``values`` to them; commits. Returns the ids
    claimed (those another worker holds are skipped, not waited for)."""
    pick = sa.select(table.id).where(*due).order_by(*order_by).limit(limit)
    if db.session.get_bind().dialect.name == "postgresql":
        ids = list(db.session.scalars(pick.with_for_update(skip_locked=True)))
        if ids:
            db.session.execute(sa.update(table).where(table.id.in_(ids)).values(dict(values)),
                               execution_options={"synchronize_session": False})
    else:
        ids = []
        for row_id in db.session.scalars(pick).all():
            result = db.session.execute(
                sa.update(table).where(table.id == row_id, *due).values(dict(values)),
                execution_options={"synchronize_session": False})
            if result.rowcount == 1:  # type: ignore[attr-defined]
                ids.append(row_id)
    db.session.commit()
    return ids
