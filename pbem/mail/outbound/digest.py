"""The daily digest: one mail a day to each seat whose ``notify`` is ``digest``.

It goes out at the seat's local morning (the end of its quiet hours, 08:00 by default) and
lists the other players' steps logged since the seat's last digest (``digest_seq``). The
scheduler step ``digest`` runs every tick and is idempotent: a seat's ``digest_at`` is moved
by a conditional UPDATE in the same transaction that enqueues its mail, so a repeated or
concurrent tick sends nothing twice (style habit 9).
"""

from __future__ import annotations

import logging
from datetime import datetime, time, timedelta

from sqlalchemy import select, update

from pbem import clock, shutdown
from pbem.extensions import db
from pbem.mail.outbound import compose, notify
from pbem.mail.outbound.outbox import enqueue
from pbem.models.game import ActionLog, Game, Seat

log = logging.getLogger(__name__)

LIVE = ("active", "paused")


def last_morning(now: datetime, timezone: str | None, wake_minute: int | None) -> datetime:
    """The latest local morning (``wake_minute`` after midnight) at or before ``now``, UTC."""
    zone = clock.zone(timezone)
    minute = clock.DEFAULT_QUIET_END if wake_minute is None else wake_minute
    local = clock.as_utc(now).astimezone(zone)
    morning = datetime.combine(local.date(), time(minute // 60, minute % 60), tzinfo=zone)
    if morning > local:
        morning = datetime.combine(local.date() - timedelta(days=1), morning.timetz())
    return clock.as_utc(morning)


def due(seat: Seat, game: Game, now: datetime) -> bool:
    """True when ``seat`` has had no digest since its latest morning, and it is not quiet."""
    since = seat.digest_at or game.created_at
    if since is not None and clock.as_utc(since) >= last_morning(now, seat.timezone,
                                                                  seat.quiet_end):
        return False
    local = clock.as_utc(now).astimezone(clock.zone(seat.timezone)).time()
    quiet = clock.quiet_hours(seat.quiet_start, seat.quiet_end)
    return not clock.in_quiet_hours(local, *quiet)  # a late tick waits for the morning


def send_digests(now: datetime | None = None) -> int:
    """Mail every due digest; returns how many mails were enqueued."""
    now = clock.as_utc(now) if now is not None else clock.now()
    rows = db.session.execute(
        select(Seat.id, Game.id).join(Game, Seat.game_id == Game.id)
        .where(Seat.notify == "digest", Game.status.in_(LIVE))
    ).all()
    db.session.commit()
    sent = 0
    for seat_id, game_id in rows:
        if shutdown.requested():  # stopping: the next process mails the digests left
            break
        try:
            sent += _one(seat_id, game_id, now)
        except Exception:
            log.exception("digest of seat %s failed; it is tried again next tick", seat_id)
            db.session.rollback()
    return sent


def _one(seat_id: int, game_id: int, now: datetime) -> int:
    game = db.session.get(Game, game_id, populate_existing=True)
    seat = db.session.get(Seat, seat_id, populate_existing=True)
    if game is None or seat is None or not notify.mailable(seat) or not due(seat, game, now):
        db.session.rollback()
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
    ).values(digest_at=now, digest_seq=last_seq)
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


def run_step() -> None:
    """The scheduler step: mail every digest due now."""
    sent = send_digests()
    if sent:
        log.info("digest: %s mail(s)", sent)
