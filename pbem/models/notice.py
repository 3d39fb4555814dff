"""Notices in chat apps (issue 27): where they go, what waits to be posted, and escalations.

- ``notice_channels``: a seat's own channel (a Discord, Slack, Matrix or Telegram webhook, an
  ntfy topic), or the game's table channel (``seat`` None), as an apprise URL. ``url`` is a
  secret (it lets anyone post there) and is never shown back: pages show ``shown``.
  ``failures`` counts failed posts in a row; the fifth pauses the channel (``paused_at``).
- ``notices``: the outbox of chat posts, a sibling of ``outbox`` with the same delivery
  columns, claimed and leased by the same functions (``pbem.mail.outbound.delivery``).
- ``notice_escalations``: a seat's open "your turn" that was not yet followed by a visit or a
  move; ``due_at`` (indexed) is when the next channel is told.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db
from pbem.models.outbox import PENDING, UNSENT

SERVICES = ("discord", "slack", "matrix", "telegram", "ntfy")
PAUSE_AFTER_FAILURES = 5


def utcnow() -> datetime:
    return datetime.now(UTC)


class NoticeChannel(db.Model):  # type: ignore[name-defined,misc]
    """Where a seat's notices also go, or the game's table channel (``seat`` None)."""

    __tablename__ = "notice_channels"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    service: Mapped[str] = mapped_column(String(16))
    url: Mapped[str] = mapped_column(Text)  # secret: never rendered, never logged
    shown: Mapped[str] = mapped_column(String(160))  # what pages show: the secret cut
    position: Mapped[int] = mapped_column(Integer, default=0)  # the seat's escalation order
    failures: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_reason: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    @property
    def paused(self) -> bool:
        return self.paused_at is not None


class Notice(db.Model):  # type: ignore[name-defined,misc]
    """One post to one channel, written in the transaction of the change it tells."""

    __tablename__ = "notices"
    __table_args__ = (
        Index("ix_notices_due", "status", "next_attempt_at"),
        Index("ix_notices_unsent", "id", postgresql_where=text(UNSENT),
              sqlite_where=text(UNSENT)),  # as ix_outbox_unsent: the claim's ordered scan
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    channel_id: Mapped[int] = mapped_column(
        ForeignKey("notice_channels.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[int | None] = mapped_column(Integer, index=True)
    seat: Mapped[int | None] = mapped_column(Integer)  # the seat told; None: the table
    kind: Mapped[str] = mapped_column(String(32))
    title: Mapped[str] = mapped_column(String(255))
    body: Mapped[str] = mapped_column(Text)
    # the delivery columns, as ``outbox``'s (same claim, lease and back-off)
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class NoticeEscalation(db.Model):  # type: ignore[name-defined,misc]
    """A seat's "your turn" waiting for a visit or a move; one per seat at most."""

    __tablename__ = "notice_escalations"
    __table_args__ = (
        UniqueConstraint("game_id", "seat", name="uq_notice_escalations_game_id_seat"),
        Index("ix_notice_escalations_due", "due_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer, default=0)  # the seat's channels told so far
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
