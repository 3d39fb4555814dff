"""``deadlines``: the timed work of a game, one row per reminder or autopilot turn due.

``pbem.services.deadlines.schedule_for`` writes the rows in the transaction that changes the
game; the scheduler's ``sweep`` hands the due ones to ``pbem.services.timeouts``. A row is due
when ``done_at`` is null, it is not paused and ``due_at`` has passed: the index on ``due_at``
over the rows whose ``done_at`` is null makes finding them a range scan. ``turn_key`` names
the wait the row belongs to (round, turn seat, awaited seat, mode), so a later step in the
same turn keeps the clock running instead of restarting it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Index, Integer, String, text
from sqlalchemy.orm import Mapped, mapped_column

from pbem.extensions import db

REMINDER = "reminder"  # mail the awaited seat that its deadline is close
TIMEOUT = "timeout"  # deadline + grace passed: the autopilot plays the seat's turn
AUTOPLAY = "autoplay"  # a computer, resigned or absent seat: play it on the next tick
KINDS = (REMINDER, TIMEOUT, AUTOPLAY)


def utcnow() -> datetime:
    return datetime.now(UTC)


class Deadline(db.Model):  # type: ignore[name-defined,misc]
    """One reminder or autopilot turn of one seat, due at ``due_at`` (UTC)."""

    __tablename__ = "deadlines"
    __table_args__ = (
        # Partial: only open rows, ordered by due_at, so "due now, oldest first, LIMIT n" is
        # an index range scan that stops after n rows (a (done_at, due_at) index is not read
        # in due_at order: IS NULL does not fix the first column for the planner).
        Index("ix_deadlines_due", "due_at", postgresql_where=text("done_at IS NULL"),
              sqlite_where=text("done_at IS NULL")),
        CheckConstraint(f"kind IN ({', '.join(repr(k) for k in KINDS)})", name="kind"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    turn_key: Mapped[str] = mapped_column(String(64))
    deadline_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))  # shown in mail
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # game paused
    # An autopilot turn is claimed under a lease (it commits step by step): a sweep that
    # dies mid-turn leaves the row to be taken again once the lease has passed.
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    lease_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    def __repr__(self) -> str:
        return f"<Deadline {self.id} game={self.game_id} seat={self.seat} {self.kind}>"
