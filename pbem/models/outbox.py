"""``outbox``: every mail, written in the same transaction as the change that causes it.

A row is the message itself (recipient, subject, both bodies, headers). Delivery moves it
``pending`` → ``sending`` (claimed under a lease) → ``sent``, or back to ``pending`` with a later
``next_attempt_at`` after a temporary failure, or to ``failed`` after a permanent refusal or too
many attempts. Rows are never deleted by delivery: a failed mail stays visible for
``pbem mail retry``. The dev backend reads sent rows as its mailbox.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Index, Integer, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db

PENDING = "pending"
SENDING = "sending"
SENT = "sent"
FAILED = "failed"
STATUSES = (PENDING, SENDING, SENT, FAILED)
UNSENT = "status IN ('pending', 'sending')"  # the rows a claim may take


def utcnow() -> datetime:
    return datetime.now(UTC)


class Outbox(db.Model):  # type: ignore[name-defined,misc]
    """One outgoing mail to exactly one recipient."""

    __tablename__ = "outbox"
    __table_args__ = (
        Index("ix_outbox_due", "status", "next_attempt_at"),
        # The claim reads the unsent rows in id order: this index holds only those, so a
        # claim never walks the (ever growing) sent rows (migration 0015_digest_due).
        Index("ix_outbox_unsent", "id", postgresql_where=text(UNSENT), sqlite_where=text(UNSENT)),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(Integer, index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    to_addr: Mapped[str] = mapped_column(String(320), index=True)
    subject: Mapped[str] = mapped_column(String(255))
    text_body: Mapped[str] = mapped_column(Text)
    html_body: Mapped[str | None] = mapped_column(Text)
    headers: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    status: Mapped[str] = mapped_column(String(16), default=PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # While ``sending``: until when the claim holds. A worker that dies mid-send leaves the row
    # claimed; once the lease has passed another worker may send it again (at-least-once).
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    @property
    def message_id(self) -> str:
        return str(self.headers.get("Message-ID", ""))

    def __repr__(self) -> str:
        return f"<Outbox {self.id} {self.kind} {self.status}>"
