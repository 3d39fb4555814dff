"""``seats.next_digest_at`` follows every ORM write of a seat's digest settings.

The digest step reads only the seats whose ``next_digest_at`` has come, so the column must be
right after anything that changes when a digest is due: the seat choosing (or leaving) the
digest, its time zone, the end of its quiet hours (its morning), or its last digest. A
``before_flush`` hook on every session sets it for each new or changed seat, whichever
service made the change; writes that bypass the ORM (the digest step's own claim, bulk SQL)
set it themselves, and the step's repair pass catches any digest seat left without one.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import InstanceState, Session

from pbem import clock
from pbem.models.game import Seat

# The seat columns that decide when its next digest is due.
WATCHED = ("notify", "timezone", "quiet_end", "digest_at")


def next_digest_at(seat: Seat, now: datetime) -> datetime | None:
    """When ``seat``'s next digest is due: the first local morning after its last digest (or,
    before its first, after ``now``: a seat that chooses the digest hears at its next
    morning); None when the seat takes no digest."""
    if seat.notify != "digest":
        return None
    return clock.next_morning(seat.digest_at or now, seat.timezone, seat.quiet_end)


def _changed(seat: Seat) -> bool:
    state: InstanceState[Seat] = inspect(seat)
    return state.pending or any(state.attrs[name].history.has_changes() for name in WATCHED)


@event.listens_for(Session, "before_flush")
def _follow_digest_settings(session: Session, _context: Any, _instances: Any) -> None:
    for obj in (*session.new, *session.dirty):
        if isinstance(obj, Seat) and _changed(obj):
            obj.next_digest_at = next_digest_at(obj, clock.now())
