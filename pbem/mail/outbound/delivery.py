"""Send what is due in the outbox: at-least-once, never dropped, safe with several workers.

``deliver_pending`` works in three short transactions per batch (docs/mail.md):

1. **claim** due rows — ``pending`` rows whose ``next_attempt_at`` has come, and ``sending``
   rows whose lease ran out (a worker died mid-send) — by setting ``status='sending'``, a
   ``lease_until`` and ``attempts + 1`` (``pbem.models.claims``: PostgreSQL picks rows with
   ``FOR UPDATE SKIP LOCKED``, so every process sends its own batch; SQLite, one writer at
   a time, claims each row with a conditional UPDATE);
2. **send** them over one backend connection;
3. **mark** accepted rows ``sent`` — in small groups (``MARK_EVERY`` rows or
   ``MARK_SECONDS``, whichever comes first), so a crash re-sends at most one group — or
   back to ``pending`` with an exponential backoff, or ``failed`` after a 5xx refusal or
   ``MAX_ATTEMPTS``.

A row belongs to the claim that set its ``attempts`` (every claim raises it): only that worker
settles it. While a batch is sent, its lease is extended whenever less than half of it is
left, so no send outlives its lease and two workers (a rolling deploy runs two clocks) never
send one row both. The duplicate window is between the server accepting a message and step
3's commit (a worker killed there). A re-sent message has the same Message-ID, so mail
clients show it once.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app

from pbem import shutdown
from pbem.extensions import db
from pbem.mail.outbound import backends, message, notify
from pbem.models import claims
from pbem.models.game import Game
from pbem.models.notice import Notice
from pbem.models.outbox import FAILED, PENDING, SENDING, SENT, Outbox

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8  # 1 + 2 + 4 + … minutes: about four hours of retries, then ``failed``
BACKOFF_BASE = timedelta(minutes=1)
BACKOFF_CAP = timedelta(hours=2)
LEASE = timedelta(minutes=5)
# Mails claimed at once: a backlog is shared by every process that sends (each claims its
# own batch and sends it over one connection).
BATCH = 50
# Accepted rows are marked sent together, at most this many or this late: a crash re-sends at
# most one such group (each message with its own Message-ID, so clients show it once).
MARK_EVERY = 20
MARK_SECONDS = 0.5
_ADDRESS = re.compile(r"[^\s<>@\"',;]+@[^\s<>@\"',;]+")
# The queues this claim, lease and marking serve: the mail outbox, and the chat notices
# (``notices``, the same delivery columns; ``pbem.mail.outbound.chat.delivery``).
Queue = type[Outbox] | type[Notice]


@dataclass
class DeliveryReport:
    """What one ``deliver_pending`` call did, by outbox id."""

    sent: list[int] = field(default_factory=list)
    retrying: list[int] = field(default_factory=list)
    failed: list[int] = field(default_factory=list)


def backoff(attempts: int) -> timedelta:
    """Wait before attempt ``attempts + 1``: 1, 2, 4 … minutes, at most two hours."""
    return min(BACKOFF_BASE * (1 << max(0, attempts - 1)), BACKOFF_CAP)


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)  # SQLite hands back naive UTC
    return value


def _due(now: datetime, table: Queue = Outbox) -> sa.ColumnElement[bool]:
    return sa.or_(
        sa.and_(table.status == PENDING, table.next_attempt_at <= now),
        sa.and_(table.status == SENDING, table.lease_until < now),
    )


def lease_length() -> timedelta:
    """How long a claim holds: ``LEASE``, or ``MAIL_LEASE_SECONDS`` when set (the fault tests
    shorten it so that a slow server outlasts it within seconds)."""
    seconds = current_app.config.get("MAIL_LEASE_SECONDS")
    return timedelta(seconds=float(seconds)) if seconds else LEASE


def claim(now: datetime, limit: int, table: Queue = Outbox) -> list[int]:
    """Claim up to ``limit`` due rows of ``table`` for this worker and commit; returns their
    ids."""
    values = {"status": SENDING, "lease_until": now + lease_length(),
              "attempts": table.attempts + 1}
    return claims.claim(table, [_due(now, table)], values, order_by=[table.id], limit=limit)


def deliver_pending(app: Flask | None = None, now: datetime | None = None,
                    limit: int = BATCH, backend: Any = None) -> DeliveryReport:
    """Send up to ``limit`` due messages; see the module docstring for the guarantee."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    with app.app_context():
        now = now or datetime.now(UTC)
        report = DeliveryReport()
        ids = claim(now, limit)
        if not ids:
            return report
        backend = backend or backends.from_config(app.config)
        rows = db.session.scalars(sa.select(Outbox).where(Outbox.id.in_(ids))
                                  .order_by(Outbox.id)).all()
        for row in rows:
            db.session.expunge(row)  # plain data from here on: no reload after each commit
        batch = LeasedBatch(now, _aware(rows[0].lease_until), rows)
        try:
            with backend.open() as conn:
                for row in rows:
                    if shutdown.requested():  # stopping: the next process sends the rest
                        batch.release()
                        break
                    if not batch.holds(row):
                        continue  # our lease lapsed and another worker has it now
                    if _deliver_one(app, conn, row, now, report):
                        batch.accepted.append(row)
                    if len(batch.accepted) >= MARK_EVERY or batch.mark_is_due():
                        batch.settle(report)
        finally:
            if batch.accepted:  # even when something else failed: what was accepted is sent
                batch.settle(report)
        return report


class LeasedBatch:
    """One claimed batch on its way out: which rows this worker still holds, and until when.

    A row is this worker's while it is ``sending`` with the ``attempts`` of this worker's
    claim: every claim raises ``attempts``, so a row claimed again by another worker (after
    this one's lease ran out) is never settled here. Before each send the lease is extended
    if less than half of ``LEASE`` is left, so the lease always outlives the send (2.5
    minutes, against the backends' 30 s timeouts): a second worker never finds the row due
    while this one may still be sending it.
    """

    def __init__(self, claimed_at: datetime, lease: datetime | None,
                 rows: Sequence[Outbox] | Sequence[Notice], table: Queue = Outbox) -> None:
        self.table = table
        self.length = lease_length()
        self.claimed_at, self.lease = claimed_at, lease or claimed_at + self.length
        self.started = self.last_mark = time.monotonic()
        self.unsent = {row.id: row.attempts for row in rows}
        self.accepted: list[Outbox] = []

    def elapsed_now(self) -> datetime:
        """The claim's time plus the time since: the clock the lease is measured on."""
        return self.claimed_at + timedelta(seconds=time.monotonic() - self.started)

    def mark_is_due(self) -> bool:
        return time.monotonic() - self.last_mark > MARK_SECONDS

    def holds(self, row: Outbox | Notice) -> bool:
        """True when ``row`` is still this worker's, with a lease that outlives its send."""
        if row.id not in self.unsent:
            return False
        if self.lease - self.elapsed_now() < self.length / 2:
            self.renew()
        return row.id in self.unsent

    def renew(self) -> None:
        """Extend the lease of every unsent row still held; forget the ones that are not."""
        lease = self.elapsed_now() + self.length
        pairs = list(self.unsent.items())
        table = self.table
        db.session.execute(sa.update(table).where(mine(pairs, table)).values(lease_until=lease))
        held = set(db.session.scalars(sa.select(table.id).where(mine(pairs, table))))
        db.session.commit()
        self.unsent = {row_id: n for row_id, n in pairs if row_id in held}
        self.lease = lease

    def release(self) -> None:
        """Give the rows this worker claimed and has not sent back to the queue, due at once
        (a process that stops cleanly; a dead one's rows wait for their lease to run out).
        The claim's attempt stays counted: ``attempts`` names the claim (``mine``), and
        lowering it again would give the next claim a number an earlier one had."""
        accepted = {row.id for row in self.accepted}
        pairs = [(row_id, n) for row_id, n in self.unsent.items() if row_id not in accepted]
        if pairs:
            db.session.execute(sa.update(self.table).where(mine(pairs, self.table))
                               .values(status=PENDING, lease_until=None))
            db.session.commit()
        for row_id, _ in pairs:
            del self.unsent[row_id]

    def settle(self, report: DeliveryReport) -> None:
        mark_sent([(row.id, row.attempts) for row in self.accepted], datetime.now(UTC),
                  self.table)
        report.sent += [row.id for row in self.accepted]
        for row in self.accepted:
            self.unsent.pop(row.id, None)
        self.accepted, self.last_mark = [], time.monotonic()


def _deliver_one(app: Flask, conn: Any, row: Outbox, now: datetime,
                 report: DeliveryReport) -> bool:
    """Send one row; True when the server accepted it (the caller marks it sent)."""
    claim_of = (row.id, row.attempts)
    try:
        msg = message.build(mail_from=app.config["MAIL_FROM"], to_addr=row.to_addr,
                            subject=row.subject, text_body=row.text_body,
                            html_body=row.html_body, headers=row.headers or {})
        conn.send(msg)
    except message.BadHeader as exc:
        _fail(row, claim_of, f"refused to build: {exc}", report)
        return False
    except backends.PermanentFailure as exc:
        _fail(row, claim_of, str(exc), report, bounced=True)
        return False
    except backends.TemporaryFailure as exc:
        _retry(row, claim_of, now, str(exc), report)
        return False
    return True


Claim = tuple[int, int]  # (outbox id, attempts at the claim): who holds the row


def mine(claims: Claim | list[Claim], table: Queue = Outbox) -> sa.ColumnElement[bool]:
    """Only the worker holding the claim may settle the row (another may have re-claimed)."""
    pairs = claims if isinstance(claims, list) else [claims]
    return sa.and_(sa.tuple_(table.id, table.attempts).in_(pairs), table.status == SENDING)


def mark_sent(claims: list[Claim], when: datetime, table: Queue = Outbox) -> None:
    """Mark accepted rows sent in one commit (the end of the duplicate window)."""
    db.session.execute(sa.update(table).where(mine(claims, table)).values(
        status=SENT, sent_at=when, lease_until=None, last_error=None))
    db.session.commit()


def _retry(row: Outbox, claim_of: Claim, now: datetime, error: str,
           report: DeliveryReport) -> None:
    if row.attempts >= MAX_ATTEMPTS:
        _fail(row, claim_of, f"gave up after {row.attempts} attempts: {error}", report)
        return
    db.session.execute(sa.update(Outbox).where(mine(claim_of)).values(
        status=PENDING, lease_until=None, last_error=error[:2000],
        next_attempt_at=now + backoff(row.attempts)))
    db.session.commit()
    report.retrying.append(row.id)
    log.info("mail %s: attempt %s failed, will retry: %s", row.id, row.attempts, error)


def _fail(row: Outbox, claim_of: Claim, error: str, report: DeliveryReport,
          bounced: bool = False) -> None:
    """Mark the row failed (kept for ``pbem mail retry``); after a bounce, tell the host."""
    result = db.session.execute(sa.update(Outbox).where(mine(claim_of)).values(
        status=FAILED, lease_until=None, last_error=error[:2000]))
    if bounced and result.rowcount == 1:  # type: ignore[attr-defined]
        _seat_bounced(row, error)
    db.session.commit()
    report.failed.append(row.id)
    log.warning("mail %s to seat %s failed for good: %s", row.id, row.seat, error)


def _seat_bounced(row: Outbox, error: str) -> None:
    if row.game_id is None or row.seat is None:
        return
    game = db.session.get(Game, row.game_id)
    if game is None:
        return
    try:
        seat = game.seat(row.seat)
    except LookupError:
        return
    already = seat.email_failing
    seat.email_failing = True
    if not already:
        notify.host_email_failing(game, seat, _ADDRESS.sub("[address]", error))


def retry(ids: Sequence[int] | None = None, *, all_failed: bool = False,
          now: datetime | None = None) -> int:
    """Put failed rows back to ``pending`` now (``pbem mail retry``); returns how many."""
    now = now or datetime.now(UTC)
    query = sa.update(Outbox).where(Outbox.status == FAILED)
    if not all_failed:
        query = query.where(Outbox.id.in_(list(ids or [])))
    result = db.session.execute(query.values(status=PENDING, next_attempt_at=now, attempts=0,
                                             lease_until=None))
    db.session.commit()
    return int(result.rowcount)  # type: ignore[attr-defined]


def status_counts() -> dict[str, int]:
    rows = db.session.execute(sa.select(Outbox.status, sa.func.count()).group_by(Outbox.status))
    return {status: int(count) for status, count in rows}


def mail_step() -> None:
    """The scheduler step: deliver what is due, batch after batch, within one tick."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    for _ in range(40):  # up to 2,000 mails a tick
        if shutdown.requested():
            return
        report = deliver_pending(app)
        if len(report.sent) + len(report.retrying) + len(report.failed) < BATCH:
            return
