"""Post what is due in ``notices``: the outbox's guarantee, for chat channels.

The same claim, lease and back-off as mail (``pbem.mail.outbound.delivery``: ``claim``,
``LeasedBatch``, ``mine``, ``backoff``): due rows are claimed (``sending``, a lease,
``attempts + 1``) and committed, posted one by one while the lease is held, and each is then
marked in its own commit. A failed post goes back to ``pending`` with the back-off (1, 2, 4 …
minutes), and counts against its channel: the fifth failure in a row pauses the channel, keeps
its waiting notices as ``failed`` with the reason, and mails its owner why (the seat, or the
host for the table channel). A post that succeeds clears the channel's count. The duplicate
window is between the service accepting a post and its mark's commit: at most one post per
crash is sent again when the lease runs out. Posted rows are deleted after
``MAIL_RETENTION_DAYS`` (``prune_sent``).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import Flask, current_app

from pbem import clock, shutdown
from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.mail.outbound.chat import post
from pbem.mail.outbound.delivery import (
    MAX_ATTEMPTS,
    DeliveryReport,
    LeasedBatch,
    backoff,
    claim,
    mine,
)
from pbem.mail.outbound.retention import retention_days
from pbem.models.game import Game
from pbem.models.notice import PAUSE_AFTER_FAILURES, Notice, NoticeChannel
from pbem.models.outbox import FAILED, PENDING, SENT

log = logging.getLogger(__name__)
BATCH = 20


def deliver_notices(app: Flask | None = None, now: datetime | None = None,
                    limit: int = BATCH) -> DeliveryReport:
    """Post up to ``limit`` due notices."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    with app.app_context():
        now = clock.as_utc(now) if now is not None else clock.now()
        report = DeliveryReport()
        ids = claim(now, limit, Notice)
        if not ids:
            return report
        rows = db.session.scalars(sa.select(Notice).where(Notice.id.in_(ids))
                                  .order_by(Notice.id)).all()
        for row in rows:
            db.session.expunge(row)
        batch = LeasedBatch(now, clock.as_utc(rows[0].lease_until) if rows[0].lease_until
                            else None, rows, Notice)
        for row in rows:
            if shutdown.requested():  # stopping: the next process posts the rest
                batch.release()
                break
            if batch.holds(row):
                _post_one(row, now, report)
                batch.unsent.pop(row.id, None)
        return report


def _live_url(channel_id: int) -> str | None:
    """The channel's URL, read at the post (None: removed or paused since the claim, e.g. by
    an earlier row of the same batch)."""
    found = db.session.execute(sa.select(NoticeChannel.url, NoticeChannel.paused_at).where(
        NoticeChannel.id == channel_id)).first()
    db.session.commit()
    return found.url if found is not None and found.paused_at is None else None


def _post_one(row: Notice, now: datetime, report: DeliveryReport) -> None:
    claim_of = (row.id, row.attempts)
    url = _live_url(row.channel_id)
    if url is None:
        db.session.execute(sa.update(Notice).where(mine(claim_of, Notice)).values(
            status=FAILED, lease_until=None, last_error="the channel is paused or removed"))
        db.session.commit()
        report.failed.append(row.id)
        return
    result = post.send(url, row.title, row.body)
    if result.ok:
        done = db.session.execute(sa.update(Notice).where(mine(claim_of, Notice)).values(
            status=SENT, sent_at=clock.now(), lease_until=None, last_error=None))
        if getattr(done, "rowcount", 0) == 1:
            db.session.execute(sa.update(NoticeChannel).where(
                NoticeChannel.id == row.channel_id).values(failures=0))
        db.session.commit()
        report.sent.append(row.id)
        return
    _failed(row, claim_of, result.error, now, report)


def _failed(row: Notice, claim_of: tuple[int, int], error: str, now: datetime,
            report: DeliveryReport) -> None:
    """Back off, count the failure against the channel, pause it at the fifth in a row."""
    give_up = row.attempts >= MAX_ATTEMPTS
    values = ({"status": FAILED} if give_up else
              {"status": PENDING, "next_attempt_at": now + backoff(row.attempts)})
    result = db.session.execute(sa.update(Notice).where(mine(claim_of, Notice)).values(
        lease_until=None, last_error=error[:2000], **values))
    if getattr(result, "rowcount", 0) != 1:
        db.session.rollback()  # another worker holds it now
        return
    channel = db.session.get(NoticeChannel, row.channel_id, with_for_update=True)
    if channel is not None and channel.paused_at is None:
        channel.failures = (channel.failures or 0) + 1
        if channel.failures >= PAUSE_AFTER_FAILURES:
            _pause(channel, error, now)
    db.session.commit()
    (report.failed if give_up else report.retrying).append(row.id)
    log.info("notice %s to channel %s failed (attempt %s): %s", row.id, row.channel_id,
             row.attempts, error)


def _pause(channel: NoticeChannel, error: str, now: datetime) -> None:
    """Pause ``channel``: its waiting notices are kept as failed, its owner is mailed why."""
    channel.paused_at, channel.paused_reason = now, error[:2000]
    db.session.execute(sa.update(Notice).where(
        Notice.channel_id == channel.id, Notice.status == PENDING).values(
        status=FAILED, last_error=f"channel paused after {PAUSE_AFTER_FAILURES} failures"))
    game = db.session.get(Game, channel.game_id)
    if game is not None:
        notify.notice_channel_paused(game, channel.seat, channel.shown, error)
    log.warning("notice channel %s of game %s paused: %s", channel.id, channel.game_id, error)


def status_counts() -> tuple[dict[str, int], int]:
    """The notices by state, and how many channels are paused (``pbem status``)."""
    rows = db.session.execute(sa.select(Notice.status, sa.func.count()).group_by(Notice.status))
    paused = db.session.scalar(sa.select(sa.func.count()).select_from(NoticeChannel).where(
        NoticeChannel.paused_at.is_not(None)))
    return {str(status): int(count) for status, count in rows}, int(paused or 0)


def prune_sent(now: datetime, days: int) -> int:
    """Delete the notices posted more than ``days`` ago (the mail's retention: a posted
    notice is in the chat app, nobody reads the row); failed ones stay, with their reason."""
    result = db.session.execute(sa.delete(Notice).where(
        Notice.status == SENT, Notice.sent_at < now - timedelta(days=days)))
    db.session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


def notices_step() -> None:
    """The scheduler step: post what is due, batch after batch, within one tick; then drop
    the rows posted longer ago than ``MAIL_RETENTION_DAYS``."""
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    for _ in range(10):
        if shutdown.requested():
            return
        report = deliver_notices(app)
        if len(report.sent) + len(report.retrying) + len(report.failed) < BATCH:
            break
    prune_sent(clock.now(), retention_days())
