"""The ``deadlines`` step: sweep the due deadline rows and hand each to its service.

Services write the rows with the move (``pbem.services.deadlines``); this sweep claims a
batch of those due under a lease (``pbem.models.claims``: ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL, so every process that sweeps at the same time takes other rows and N processes
drain N batches at once), then calls ``pbem.services.timeouts`` for each row to mail the
reminder or play the timed-out turn. A row is handled only while it still holds this sweep's
lease (``timeouts.held``); a sweeper that dies leaves its unhandled rows to be claimed again
once ``CLAIM_LEASE`` has passed. Safe to run in many processes at the same time, and again
after a crash.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask import Flask, current_app
from sqlalchemy import Select, select, update

from pbem import clock, shutdown
from pbem.extensions import db
from pbem.models import claims
from pbem.models.deadline import REMINDER, Deadline
from pbem.services import timeouts
from pbem.services.deadlines import due

log = logging.getLogger(__name__)

# Due rows claimed per sweep: small enough that a backlog is shared by every process that
# sweeps (each claims its own batch), large enough that claiming costs little per row.
BATCH = 100
CATCH_UP_BATCHES = 100  # sweeps per tick at most; anything beyond waits for the next tick
# How long a claimed batch is left to its sweeper: far longer than a batch takes (a reminder
# is one short transaction; an autopilot turn takes its own, longer lease when it starts).
CLAIM_LEASE = timedelta(seconds=300)
REPAIR_EVERY = timedelta(minutes=10)
_REPAIRED_AT = "pbem.deadlines.repaired_at"  # app.extensions key: the last repair's time


@dataclass
class SweepReport:
    """What one sweep did; ``failed`` rows stay due and are retried on a later tick."""

    seen: int = 0  # due rows read: BATCH of them means more may be due
    reminders: int = 0
    superseded: int = 0  # reminders closed unsent: a later row of their wait was due too
    turns: int = 0  # timeout and autoplay rows handled
    steps: int = 0  # actions the autopilot submitted
    skipped: int = 0  # taken by another sweeper, or no longer due
    failed: list[int] = field(default_factory=list)
    stopped: bool = False  # the process is stopping: rows were left due for the next one


def due_rows_query(now: datetime, limit: int = BATCH) -> Select[int]:
    """The ids of the rows due at ``now``, oldest first (a range scan of ix_deadlines_due)."""
    return select(Deadline.id).where(*due(now)).order_by(Deadline.due_at).limit(limit)


def claim_due(now: datetime, limit: int = BATCH) -> list[int]:
    """Claim up to ``limit`` rows due at ``now``, oldest first, under ``CLAIM_LEASE``; commits.
    Rows another sweeper holds are skipped, not waited for."""
    return claims.claim(Deadline, due(now), {"lease_until": now + CLAIM_LEASE},
                        order_by=[Deadline.due_at, Deadline.id], limit=limit)


def sweep(app: Flask, now: datetime, *, limit: int = BATCH) -> SweepReport:
    """Claim a batch of the rows due at ``now`` and handle each once; safe to run in many
    processes at the same time."""
    now = clock.as_utc(now)
    report = SweepReport()
    with app.app_context():
        lease = now + CLAIM_LEASE
        ids = claim_due(now, limit)
        report.seen = len(ids)
        for done, row_id in enumerate(ids):
            if shutdown.requested():  # stopping: the rows not yet taken go back, due at once
                report.stopped = True
                _release(ids[done:], lease)
                break
            try:
                _handle(row_id, lease, now, report)
            except Exception:
                log.exception("deadline %s failed; it stays due", row_id)
                db.session.rollback()
                _release([row_id], lease)
                report.failed.append(row_id)
            except BaseException:
                db.session.rollback()  # as a dead process's connection would
                raise
    return report


def _claim(row_id: int, lease: datetime, now: datetime) -> Deadline | None:
    """The row, locked, if it still holds this sweep's lease and is still due, else None
    (another sweeper took it after the lease passed, or the wait moved on)."""
    query = select(Deadline).where(Deadline.id == row_id, *timeouts.held(lease, now))
    if db.session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return db.session.scalars(query).first()


def _release(row_ids: list[int], lease: datetime) -> None:
    """Give rows back at once (a failed row: the next tick tries it again; the rows a stopping
    process had not reached: the next process takes them), those that are still ours."""
    db.session.execute(
        update(Deadline).where(Deadline.id.in_(row_ids), Deadline.lease_until == lease)
        .values(lease_until=None), execution_options={"synchronize_session": False})
    db.session.commit()


def _handle(row_id: int, lease: datetime, now: datetime, report: SweepReport) -> None:
    row = _claim(row_id, lease, now)
    if row is None:
        db.session.rollback()
        report.skipped += 1
        return
    if row.kind == REMINDER:
        outcome = timeouts.remind(row, now)
        report.reminders += outcome == "sent"
        report.superseded += outcome == "superseded"
        report.skipped += outcome == "taken"
        return
    steps = timeouts.play_timed_out(row, now)
    if steps is None:
        report.skipped += 1
        return
    report.steps += steps
    report.turns += 1


def repair(app: Flask, now: datetime) -> list[int]:
    """Re-create the rows of every active game left with none (logged: it means a bug)."""
    with app.app_context():
        repaired = timeouts.repair_missing(clock.as_utc(now))
    for game_id in repaired:
        log.warning("deadlines: game %s waited with no deadline row; its rows are re-created",
                    game_id)
    return repaired


def run_step() -> None:
    """The scheduler step: repair games left without a clock (every ``REPAIR_EVERY``), then
    sweep until nothing due at ``now`` is left (a tick after a long sleep catches up, oldest
    first, once)."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    now = clock.now()
    # The repair reads every active game (an anti-join with the open rows): it finds nothing
    # unless a bug lost a clock, so it runs every ten minutes, not at every tick.
    if clock.every(app.extensions, _REPAIRED_AT, REPAIR_EVERY, now):
        repair(app, now)
    for _ in range(CATCH_UP_BATCHES):  # after a long sleep: every due row, oldest first
        report = sweep(app, now)
        if report.reminders or report.turns or report.failed:
            log.info("deadlines: %s", report)
        if report.seen < BATCH or report.failed or report.stopped:
            return
