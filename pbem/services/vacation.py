"""Vacation: a player takes days off; their clock stops and the others are told.

Each seat has an allowance per game (``timeout_policy.vacation_days``, default 14 days in
all). A vacation starts now, or where the seat's current one ends; the seat's open deadlines
move back by its length, and any turn that reaches the seat meanwhile starts its clock when
the vacation ends.
"""

from __future__ import annotations

from datetime import datetime

from pbem import clock
from pbem.mail.outbound import notify
from pbem.services import deadlines
from pbem.services.errors import BadInput, GameNotActive, NotAllowed, StaleVersion
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, lock_game


def declare_vacation(
    game_id: GameRef, seat_index: int, days: int, *, now: datetime | None = None,
    expected_version: int | None = None,
) -> datetime:
    """Take ``days`` off in this game; returns when the vacation ends.

    ``expected_version`` (the turn page's form): a stale or repeated form is refused, so a
    double click cannot spend the allowance twice.
    """
    now = clock.as_utc(now) if now is not None else clock.now()
    with transaction():
        game = lock_game(game_id)
        if expected_version is not None and expected_version != game.version:
            raise StaleVersion(game.version)
        if game.status not in ("active", "paused"):
            raise GameNotActive(f"This game is {game.status}.")
        try:
            seat = game.seat(seat_index)
        except LookupError:
            raise NotAllowed("There is no such seat in this game.") from None
        if seat.is_bot or seat.resigned:
            raise NotAllowed("This seat is played by the computer.")
        current = seat.vacation_until
        start = clock.clock_start(now, current)
        try:
            until = clock.vacation_end(start, days, seat.vacation_days_used or 0,
                                       deadlines.policy_of(game).vacation_days)
        except ValueError as exc:
            raise BadInput(str(exc)) from None
        seat.vacation_until = until
        seat.vacation_days_used = (seat.vacation_days_used or 0) + days
        deadlines.shift_seat(game, seat_index, until - start)
        notify.vacation_started(game, seat_index, until)
        game.version += 1
    return until
