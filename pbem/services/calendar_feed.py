"""A person's deadlines, for their private calendar feed (issue 27, point 3).

One entry per current deadline across every game the seat's address plays: the games that
wait for that person now, with a running clock (an active game, the seat awaited and played
by the person, its timeout row open). Each entry carries the deadline the mail states
(``deadlines.deadline_at``), the reminder times of the same wait (the alarms) and the time
zone of the seat in that game. Read-only: the rows are ``pbem.services.deadlines``'.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from pbem import clock
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.mail.addresses import address_key
from pbem.models import Game, Seat
from pbem.models.deadline import REMINDER, TIMEOUT, Deadline
from pbem.services.deadlines import policy_of
from pbem.services.magic_links import seats_of_address


@dataclass(frozen=True)
class DeadlineEntry:
    """One game's current deadline for the person: when, and when to be reminded."""

    public_id: str
    game_name: str
    seat: int
    timezone: str
    round: int
    wait: str  # the wait's key: the same wait keeps its event
    deadline: datetime  # UTC
    grace_hours: float
    reminders: tuple[datetime, ...]  # UTC, the wait's reminder times


def deadlines_of(seat: Seat) -> list[DeadlineEntry]:
    """The current deadlines of every game played from ``seat``'s address, soonest first."""
    if not seat.email:
        return []
    entries = [entry for game, own in seats_of_address(address_key(seat.email))
               if (entry := _entry(game, own)) is not None]
    return sorted(entries, key=lambda e: (e.deadline, e.public_id))


def _entry(game: Game, seat: Seat) -> DeadlineEntry | None:
    if game.status != "active" or seat.autopilot or seat.absent:
        return None
    state = GameState.from_json(game.state)
    if awaited(state) != seat.index:
        return None
    rows = db.session.scalars(select(Deadline).where(
        Deadline.game_id == game.id, Deadline.seat == seat.index,
        Deadline.kind.in_((TIMEOUT, REMINDER)))).all()
    timeout = next((r for r in rows if r.kind == TIMEOUT and r.done_at is None), None)
    if timeout is None:
        return None
    return DeadlineEntry(
        public_id=game.public_id, game_name=game.name, seat=seat.index,
        timezone=seat.timezone or "UTC", round=state.turn.round, wait=timeout.turn_key,
        deadline=clock.as_utc(timeout.deadline_at),
        grace_hours=policy_of(game).grace_hours,
        reminders=tuple(sorted(clock.as_utc(r.due_at) for r in rows
                               if r.kind == REMINDER and r.turn_key == timeout.turn_key)))
