"""Escalation: a "your turn" not followed by a visit or a move within the seat's hours is
told on the seat's next channel, and after the last one, on the game's table channel.

The scheduler step ``escalations`` finds the due rows with one indexed query
(``ix_notice_escalations_due``) and takes each in its own transaction: a conditional UPDATE
moves the row on (``step + 1``, the next ``due_at``) only if no one else did, and the
notice is written in that same transaction, so a repeated or concurrent tick tells each
channel once. A row ends (is deleted) when the seat visits its turn page (``visited``), when
the wait is over or the seat has moved in it (checked here, from the game row: no cost on
the move's hot path), and after the table channel was told. A visit is told by the turn
page's script (``POST /play/<link>/seen``), never by the GET itself: a mail scanner that
fetches the link is not the player, and a GET changes nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import sqlalchemy as sa

from pbem import clock
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.mail.outbound.chat import notices
from pbem.models.game import Game
from pbem.models.notice import NoticeEscalation

log = logging.getLogger(__name__)
BATCH = 100


def _of(game_id: int, seat_index: int) -> sa.ColumnElement[bool]:
    return sa.and_(NoticeEscalation.game_id == game_id, NoticeEscalation.seat == seat_index)


def pending(game_id: int, seat_index: int) -> bool:
    """The seat has an escalation open (its turn page then asks to end it once shown)."""
    found = sa.select(NoticeEscalation.id).where(_of(game_id, seat_index)).limit(1)
    return db.session.scalar(found) is not None


def visited(game_id: int, seat_index: int) -> int:
    """The seat opened its turn page: its escalation ends (in the caller's session)."""
    result = db.session.execute(sa.delete(NoticeEscalation).where(_of(game_id, seat_index)))
    return int(getattr(result, "rowcount", 0) or 0)


def due_ids(now: datetime, limit: int = BATCH) -> list[int]:
    """The escalations due at ``now``, oldest first (an index range scan on ``due_at``)."""
    return list(db.session.scalars(
        sa.select(NoticeEscalation.id).where(NoticeEscalation.due_at <= now)
        .order_by(NoticeEscalation.due_at).limit(limit)))


def run_step() -> None:
    """The scheduler step: every due escalation moves one step."""
    escalate_due(clock.now())


def escalate_due(now: datetime) -> int:
    """Every escalation due at ``now`` moves one step; returns the notices written."""
    now = clock.as_utc(now)
    ids = due_ids(now)
    db.session.commit()
    told = 0
    for row_id in ids:
        try:
            told += escalate(row_id, now)
            db.session.commit()
        except Exception:  # one broken game never stops the others' escalations
            db.session.rollback()
            log.exception("escalation %s failed", row_id)
    return told


def escalate(row_id: int, now: datetime) -> int:
    """One due escalation, in the caller's transaction; returns the notices written (0/1)."""
    row = db.session.get(NoticeEscalation, row_id)
    if row is None or clock.as_utc(row.due_at) > now:
        return 0
    game = db.session.get(Game, row.game_id)
    if game is None or not _still_waiting(game, row.seat):
        db.session.delete(row)
        return 0
    seat = game.seat(row.seat)
    hours = seat.escalate_hours
    if game.status != "active" or not hours:  # paused, or escalation turned off: wait on
        _move(row, row.step, now + timedelta(hours=hours or 24))
        return 0
    channels = notices.seat_channels(game, seat.index)
    waited = int((now - clock.as_utc(row.started_at)) // timedelta(hours=1))
    if row.step < len(channels):
        if not _move(row, row.step + 1, now + timedelta(hours=hours)):
            return 0
        notices.still_waiting(game, seat, channels[row.step], waited)
        return 1
    table = notices.table_channel(game)
    gone = db.session.execute(sa.delete(NoticeEscalation).where(
        NoticeEscalation.id == row.id, NoticeEscalation.step == row.step))
    if table is None or getattr(gone, "rowcount", 0) != 1:
        return 0
    notices.nudge_table(game, seat, table, waited)
    return 1


def _move(row: NoticeEscalation, step: int, due: datetime) -> int:
    """Move ``row`` on, only if it is still as read (another tick may have moved it)."""
    result = db.session.execute(
        sa.update(NoticeEscalation)
        .where(NoticeEscalation.id == row.id, NoticeEscalation.step == row.step,
               NoticeEscalation.due_at == row.due_at)
        .values(step=step, due_at=due),
        execution_options={"synchronize_session": False})
    return int(getattr(result, "rowcount", 0) or 0)


def _still_waiting(game: Game, seat_index: int) -> bool:
    """The game still waits on the seat, and the seat has not moved in this wait."""
    if game.status not in ("active", "paused"):
        return False
    if awaited(GameState.from_json(game.state)) != seat_index:
        return False
    return not any(step.get("seat") == seat_index for step in game.turn_steps or ())
