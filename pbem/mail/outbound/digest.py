"""The daily digest: one mail a day to each seat whose ``notify`` is ``digest``.

It goes out at the seat's local morning (the end of its quiet hours, 08:00 by default) and
lists the other players' steps logged since the seat's last digest (``digest_seq``). The
scheduler step ``digest`` runs every tick and is idempotent: a seat's ``digest_at`` is moved
by a conditional UPDATE in the same transaction that enqueues its mail, so a repeated or
concurrent tick sends nothing twice (style habit 9).

A tick reads only the seats whose ``next_digest_at`` has come (an index range scan): a tick
with no digest due costs one query, however many digest seats there are. The claim moves
``next_digest_at`` to the seat's next morning; a seat looked at but not mailed (quiet hours
after a late tick, an address that bounced) moves there too, and a seat of a game that is
over loses it. Every ten minutes a repair pass gives any digest seat of a live game left
without one (a write that bypassed ``pbem.models.digest_due``) a look at the next tick.
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from flask import current_app
from sqlalchemy import select, update

from pbem import clock, shutdown
from pbem.extensions import db
from pbem.mail.outbound import compose, notify
from pbem.mail.outbound.outbox import enqueue
from pbem.models.game import ActionLog, Game, Seat

log = logging.getLogger(__name__)

LIVE = ("active", "paused")
BATCH = 500  # due seats read per query
CATCH_UP_BATCHES = 20  # queries per tick at most; the rest waits for the next tick
REPAIR_EVERY = timedelta(minutes=10)
_REPAIRED_AT = "pbem.digest.repaired_at"  # app.extensions key: the last repair pass's time


def last_morning(now: datetime, timezone: str | None, wake_minute: int | None) -> datetime:
    """The latest local morning (``wake_minute`` after midnight) at or before ``now``, UTC."""
    zone = clock.zone(timezone)
    minute = clock.DEFAULT_QUIET_END if wake_minute is None else wake_minute
    local = clock.as_utc(now).astimezone(zone)
    morning = datetime.combine(local.date(), time(minute // 60, minute % 60), tzinfo=zone)
    if morning > local:
        morning = datetime.combine(local.date() - timedelta(days=1), morning.timetz())
    return clock.as_utc(morning)


def due(seat: Seat, now: datetime) -> bool:
    """True when ``seat`` has had no digest since its latest morning, and it is not quiet.
    (When a seat without one is first due is ``next_digest_at``'s: its first morning after
    it chose the digest.)"""
    since = seat.digest_at
    if since is not None and clock.as_utc(since) >= last_morning(now, seat.timezone,
                                                                  seat.quiet_end):
        return False
    local = clock.as_utc(now).astimezone(clock.zone(seat.timezone)).time()
    quiet = clock.quiet_hours(seat.quiet_start, seat.quiet_end)
    return not clock.in_quiet_hours(local, *quiet)  # a late tick waits for the morning


def send_digests(now: datetime | None = None) -> int:
    """Mail every due digest; returns how many mails were enqueued."""
    now = clock.as_utc(now) if now is not None else clock.now()
    sent = 0
    for _ in range(CATCH_UP_BATCHES):
        rows = db.session.execute(
            select(Seat.id, Seat.game_id, Game.status).join(Game, Seat.game_id == Game.id)
            .where(Seat.next_digest_at <= now).order_by(Seat.next_digest_at).limit(BATCH)
        ).all()
        over = [seat_id for seat_id, _, status in rows if status not in LIVE]
        if over:  # the game ended: no more digests, and no more looks at the seat
            db.session.execute(update(Seat).where(Seat.id.in_(over))
                               .values(next_digest_at=None))
        db.session.commit()
        for seat_id, game_id, status in rows:
            if shutdown.requested():  # stopping: the next process mails the digests left
                return sent
            if status not in LIVE:
                continue
            try:
                sent += _one(seat_id, game_id, now)
            except Exception:
                log.exception("digest of seat %s failed; it is tried again next tick", seat_id)
                db.session.rollback()
        if len(rows) < BATCH:
            break
    return sent


def _one(seat_id: int, game_id: int, now: datetime) -> int:
    game = db.session.get(Game, game_id, populate_existing=True)
    seat = db.session.get(Seat, seat_id, populate_existing=True)
    if game is None or seat is None:
        db.session.rollback()
        return 0
    if seat.notify != "digest" or not notify.mailable(seat) or not due(seat, now):
        # Not now: looked at again at its next morning (a seat that left the digest: never).
        # Conditional on the time read, so a concurrent change of settings is kept.
        later = None if seat.notify != "digest" else clock.next_morning(now, seat.timezone,
                                                                          seat.quiet_end)
        db.session.execute(update(Seat).where(
            Seat.id == seat.id, Seat.next_digest_at == seat.next_digest_at,
        ).values(next_digest_at=later), execution_options={"synchronize_session": False})
        db.session.commit()
        return 0
    before = seat.digest_at
    covered = seat.digest_seq or 0
    steps = db.session.scalars(
        select(ActionLog).where(ActionLog.game_id == game.id, ActionLog.seq > covered)
        .order_by(ActionLog.seq)
    ).all()
    last_seq = max((row.seq for row in steps), default=covered)
    claim = update(Seat).where(
        Seat.id == seat.id,
        Seat.digest_at.is_(None) if before is None else Seat.digest_at == before,
    ).values(digest_at=now, digest_seq=last_seq,
             next_digest_at=clock.next_morning(now, seat.timezone, seat.quiet_end))
    if db.session.execute(claim, execution_options={"synchronize_session": False}) \
            .rowcount != 1:  # type: ignore[attr-defined]
        db.session.rollback()  # another tick took it
        return 0
    mailed = 0
    others = [row for row in steps if row.seat != seat.index]
    if others and seat.email:
        enqueue(to_addr=seat.email, mail=compose.digest(game, seat, others), game=game,
                seat=seat.index)
        mailed = 1
    db.session.commit()
    return mailed


def repair(now: datetime) -> int:
    """Give every digest seat of a live game that has no ``next_digest_at`` one (``now``: the
    next tick looks at it and mails it if due); returns how many. One statement, read from
    the partial index ``ix_seats_digest_unset``; finds none unless a write bypassed the ORM."""
    live = select(Game.id).where(Game.status.in_(LIVE))
    result = db.session.execute(
        update(Seat).where(Seat.notify == "digest", Seat.next_digest_at.is_(None),
                           Seat.game_id.in_(live))
        .values(next_digest_at=now), execution_options={"synchronize_session": False})
    db.session.commit()
    return int(result.rowcount)  # type: ignore[attr-defined]


def run_step() -> None:
    """The scheduler step: the repair pass every ``REPAIR_EVERY`` (per app), then mail every
    digest due now."""
    now = clock.now()
    if clock.every(current_app.extensions, _REPAIRED_AT, REPAIR_EVERY, now):
        repaired = repair(now)
        if repaired:
            log.warning("digest: %s digest seat(s) had no next digest time; set", repaired)
    sent = send_digests(now)
    if sent:
        log.info("digest: %s mail(s)", sent)
