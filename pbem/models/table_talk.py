"""``table_messages``: a game's table talk, the one public message board of its players.

A message is only what a person typed (never a move, a card or anything the server knows):
``text`` is stored as written and escaped wherever it is shown. A player may delete their own
message for a short while (``deleted_at``: the text is dropped, the row stays so the seat's
rate limit still counts it); the host may hide one (``hidden_at``: shown as "hidden by the
host"). The reads the board, the mail and the export share are here; the changes are
``pbem.services.table_talk``'s.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BindParameter,
    ColumnElement,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Row,
    Text,
    bindparam,
    func,
    select,
)
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db
from pbem.models.game import ActionLog


class TableMessage(db.Model):  # type: ignore[name-defined,misc]
    """One message of a game's table talk, by the seat that posted it."""

    __tablename__ = "table_messages"
    __table_args__ = (Index("ix_table_messages_game_id_posted_at", "game_id", "posted_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    # The game's last logged step (``action_log.seq``, 0 before any) when it was posted: the
    # messages "since your last turn" are those posted at or after the seat's last step.
    log_seq: Mapped[int] = mapped_column(Integer)
    posted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    hidden_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None


def _shown(game_id: int) -> list[ColumnElement[bool]]:
    return [TableMessage.game_id == game_id, TableMessage.deleted_at.is_(None)]


def latest(game_id: int | None, limit: int, after_id: int = 0) -> list[TableMessage]:
    """The newest ``limit`` messages not deleted (after ``after_id``), oldest first."""
    if game_id is None:
        return []
    rows = db.session.scalars(
        select(TableMessage).where(*_shown(game_id), TableMessage.id > after_id)
        .order_by(TableMessage.id.desc()).limit(limit)).all()
    return list(reversed(rows))


def count(game_id: int | None) -> int:
    """How many messages the board shows (not deleted)."""
    if game_id is None:
        return 0
    return int(db.session.scalar(
        select(func.count(TableMessage.id)).where(*_shown(game_id))) or 0)


def every_message(game_id: int) -> list[TableMessage]:
    """Every message not deleted, oldest first (the export)."""
    return list(db.session.scalars(
        select(TableMessage).where(*_shown(game_id)).order_by(TableMessage.id)))


_messages = TableMessage.__table__
_log = ActionLog.__table__
_GAME: BindParameter[int] = bindparam("game_id")
# The mail's read, once per seat mail inside a hand-over's transaction: prebuilt in Core, as
# the log reads of ``pbem.models.history`` (building it and the ORM cost more than the query).
_SINCE_OWN_LAST = (
    select(_messages.c.id, _messages.c.seat, _messages.c.text, _messages.c.posted_at,
           _messages.c.hidden_at)
    .where(_messages.c.game_id == _GAME, _messages.c.deleted_at.is_(None),
           _messages.c.log_seq >= select(func.coalesce(func.max(_log.c.seq), 0)).where(
               _log.c.game_id == _GAME, _log.c.seat == bindparam("seat")).scalar_subquery())
    .order_by(_messages.c.id.desc()).limit(bindparam("limit"))
)
_COUNT_SINCE_OWN_LAST = (
    select(func.count()).select_from(_SINCE_OWN_LAST.limit(None).order_by(None).subquery())
)


def since_own_last_turn(game_id: int | None, seat: int,
                        limit: int) -> tuple[list[Row[Any]], int]:
    """The messages posted since ``seat``'s last logged step (all of them before its first):
    the newest ``limit`` (rows of id, seat, text, posted_at, hidden_at), oldest first, and
    how many there are in all."""
    if game_id is None:
        return [], 0
    values = {"game_id": game_id, "seat": seat, "limit": limit}
    rows = list(db.session.execute(_SINCE_OWN_LAST, values).all())
    total = len(rows) if len(rows) < limit else int(
        db.session.execute(_COUNT_SINCE_OWN_LAST, values).scalar_one())
    return list(reversed(rows)), total


def last_seq(game_id: int) -> int:
    """The game's last logged step (0 before any): a new message's ``log_seq``."""
    return int(db.session.scalar(select(func.coalesce(func.max(ActionLog.seq), 0))
                                 .where(ActionLog.game_id == game_id)) or 0)


def posted_since(game_id: int, seat: int, moment: datetime) -> int:
    """How many messages ``seat`` posted at or after ``moment``, deleted ones too (the rate
    limit)."""
    return int(db.session.scalar(
        select(func.count(TableMessage.id)).where(
            TableMessage.game_id == game_id, TableMessage.seat == seat,
            TableMessage.posted_at >= moment)) or 0)
