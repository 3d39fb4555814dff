"""``inbound_messages``: every mail received at the reply address, so a reply is applied at
most once. ``message_key`` is the SHA-256 of the reply's Message-ID (or, lacking
one, of the message itself): a replayed or re-polled mail finds its row and is skipped."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db


def utcnow() -> datetime:
    return datetime.now(UTC)


class InboundMessage(db.Model):  # type: ignore[name-defined,misc]
    """One received mail and what came of it (``outcome``: applied, refused, ignored…)."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_key: Mapped[str] = mapped_column(String(64), unique=True)
    message_id: Mapped[str] = mapped_column(String(255))
    game_id: Mapped[int | None] = mapped_column(Integer, index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    outcome: Mapped[str] = mapped_column(String(32))
    # The game's wait when the mail came (its open deadline rows' ``turn_key``): answers to
    # mails carrying no move stop after three in a row of the same wait (docs/mail.md).
    wait_key: Mapped[str | None] = mapped_column(String(64))
    # The seat, the wait its mail was sent for and the reply's lines, hashed
    # (``pbem.services.reply_waits``): the same reply re-sent under another Message-ID, or
    # none, is not played twice.
    reply_key: Mapped[str | None] = mapped_column(String(64), index=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
