"""Due deadline rows handled: the reminder mailed, or the timed-out turn played.

The scheduler's sweep (``pbem.scheduler.deadlines``) claims a due row and hands it here. A
reminder is sent once and only once: its row is marked done by a conditional UPDATE in the
same transaction as the mail it enqueues. A timeout or autoplay row is taken under a lease
(the autopilot commits step by step through ``submit_action``); the hand-over of the turn
replaces the row in the very transaction that hands it over, so a rerun after a crash goes
on with the turn where it stopped and never plays a step twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import update

from pbem import clock
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.mail import notify
from pbem.models.deadline import TIMEOUT, Deadline
from pbem.models.game import Game
from pbem.services import games
from pbem.services.deadlines import due, policy_of, turn_key
from pbem.services.errors import StaleVersion
from pbem.services.turns import bot_action

LEASE = timedelta(minutes=10)  # how long a claimed autopilot turn is left to its sweeper
MAX_AUTOPILOT_STEPS = 200  # a turn is far shorter; this only stops a runaway loop

Reminded = Literal["sent", "stale", "taken"]


def remind(row: Deadline, now: datetime) -> Reminded:
    """Mail the reminder of a claimed row and mark it done, in one transaction: "sent"; the
    wait is over (row marked done, no mail): "stale"; another sweeper had it: "taken"."""
    row_id, seat, deadline = row.id, row.seat, clock.as_utc(row.deadline_at)
    current = _current(row)
    if not _mark(row_id, now, done_at=now):
        db.session.rollback()
        return "taken"
    outcome: Reminded = "stale"
    if current is not None:
        notify.reminder(current, seat, deadline)
        outcome = "sent"
    db.session.commit()
    return outcome


def play_timed_out(row: Deadline, now: datetime) -> int | None:
    """Play the turn of a claimed timeout or autoplay row; returns the steps the autopilot
    submitted, or None when the row is no longer due (another sweeper, or the wait is over)."""
    row_id, seat_index, kind, first = row.id, row.seat, row.kind, row.attempts == 0
    game = _current(row)
    if game is None:
        _mark(row_id, now, done_at=now)
        db.session.commit()
        return None
    if not _mark(row_id, now, lease_until=now + LEASE, attempts=Deadline.attempts + 1):
        db.session.rollback()
        return None
    seat = game.seat(seat_index)
    if kind == TIMEOUT and first:  # counted in the claim's transaction: once per timeout
        seat.consecutive_timeouts = (seat.consecutive_timeouts or 0) + 1
        if seat.consecutive_timeouts >= policy_of(game).absent_after:
            seat.absent = True
    by = "bot" if seat.is_bot or seat.resigned else "timeout"
    db.session.commit()
    steps = autopilot(game.id, seat_index, by)
    db.session.execute(
        update(Deadline).where(Deadline.id == row_id, Deadline.done_at.is_(None))
        .values(done_at=now, lease_until=None)
    )
    db.session.commit()
    return steps


def autopilot(game_id: int, seat_index: int, by: str) -> int:
    """Play ``seat_index``'s turn (or decision) with the greedy bot, through the same service
    path as a player, until the game waits for someone else; returns the steps submitted.

    The greedy bot sees only the seat's own knowledge (``bots.redacted``, via
    ``turns.bot_action``); its tie-breaks are seeded by the game and step, so a rerun after a
    crash chooses the same.
    """
    steps = 0
    while steps < MAX_AUTOPILOT_STEPS:
        game = db.session.get(Game, game_id, populate_existing=True)
        if game is None or game.status != "active":
            break
        state = GameState.from_json(game.state)
        if awaited(state) != seat_index:
            break
        action = bot_action(game, state, seat_index)
        try:
            games.submit_action(game_id, seat_index, game.version, action, by=by)
        except StaleVersion:
            db.session.rollback()  # the player moved meanwhile: look again
            continue
        steps += 1
    return steps


def _mark(row_id: int, now: datetime, **values: Any) -> bool:
    """Update the row only if it is still due: the claim that two sweepers cannot both win."""
    result = db.session.execute(
        update(Deadline).where(Deadline.id == row_id, *due(now)).values(**values),
        execution_options={"synchronize_session": False},
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _current(row: Deadline) -> Game | None:
    """The game, if ``row`` still belongs to the wait the game is in."""
    game = db.session.get(Game, row.game_id, populate_existing=True)
    if game is None or game.status != "active":
        return None
    state = GameState.from_json(game.state)
    if awaited(state) != row.seat or turn_key(state, game.seat(row.seat)) != row.turn_key:
        return None
    return game
