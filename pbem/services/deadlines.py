"""Deadline rows: the reminders and autopilot turns of the wait a game is in.

Services write them inside their transaction, like the outbox rows, and before the mail that
states the deadline: ``schedule_for`` returns the deadline it wrote, and the service hands it
to the mail hook. The time arithmetic is ``pbem.clock``; the scheduler's sweep
(``pbem.scheduler.deadlines``) finds the due rows and calls ``pbem.services.timeouts``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import (
    ColumnElement,
    Row,
    ScalarSelect,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)

from pbem import clock
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.models.deadline import AUTOPLAY, REMINDER, TIMEOUT, Deadline
from pbem.models.game import Game, Seat


class Waiter(Protocol):
    """What a wait's key needs of the awaited seat: a seat row, or the hot path's copy."""

    @property
    def is_bot(self) -> bool: ...

    @property
    def resigned(self) -> bool: ...

    @property
    def absent(self) -> bool: ...


class AwaitedSeat(Waiter, Protocol):
    """A ``Waiter`` that knows which seat it is (``keeps_wait`` compares it)."""

    @property
    def index(self) -> int: ...


def turn_key(state: GameState, seat: Waiter) -> str:
    """Names one wait: a later step in the same wait keeps the clock; a new wait restarts it."""
    mode = "auto" if autopilot_waits(seat) else "clock"
    return f"{state.turn.round}:{state.turn.seat}:{awaited(state)}:{mode}"


def schedule_for(game: Game, now: datetime | None = None) -> datetime | None:
    """Replace ``game``'s open rows by those of the seat it now waits for (if that changed).

    Returns the deadline of that seat's wait, for the mail that tells the seat; None when no
    clock runs for it (the game is not active, or the autopilot plays the seat).
    """
    now = clock.as_utc(now) if now is not None else clock.now()
    if game.status != "active":
        clear_for(game, now)
        return None
    state = GameState.from_json(game.state)
    seat_index = awaited(state)
    if seat_index is None:
        clear_for(game, now)
        return None
    if game.id is None:
        db.session.flush()
    seat = game.seat(seat_index)
    key = turn_key(state, seat)
    rows = _open_waits(game.id)
    if rows and all(row.turn_key == key for row in rows):
        return _resume(rows, now)  # the same wait goes on (after a pause: where it stopped)
    policy = policy_of(game)
    if policy.bank is not None:
        _spend_bank(game, policy.bank, state, rows, now)
    db.session.execute(_DROP_OPEN, {"game_id": game.id})
    if autopilot_waits(seat):
        _add(game, seat_index, key, [(AUTOPLAY, now, now)])
        return None
    start = clock.clock_start(now, seat.vacation_until)
    times = clock.schedule(start, wait_hours(game, seat), policy, seat.timezone, quiet_of(seat))
    _add(game, seat_index, key, [*((REMINDER, due, times.deadline) for due in times.reminders),
                                 (TIMEOUT, times.timeout, times.deadline)])
    return times.deadline


def wait_hours(game: Game, seat: Seat) -> float:
    """How long ``seat``'s clock runs for its current wait: the game's time per move, or
    what the seat's time bank held when the wait began (``clock.TimeBank``)."""
    bank = policy_of(game).bank
    if bank is None:
        return game.time_per_move_hours or clock.DEFAULT_HOURS_PER_MOVE
    return bank.hours if seat.bank_seconds is None else seat.bank_seconds / 3600


def bank_left(game: Game, seat: Seat) -> timedelta | None:
    """What ``seat``'s time bank held when its current (or next) wait began; None when the
    game has a fixed time per move."""
    bank = policy_of(game).bank
    if bank is None:
        return None
    return timedelta(hours=wait_hours(game, seat))


def _spend_bank(game: Game, bank: clock.TimeBank, state: GameState, rows: list[Row[Any]],
                now: datetime) -> None:
    """The wait of ``rows`` ends now: its seat keeps the time it did not spend, plus the
    increment when the wait was its own turn and that turn is over."""
    timeout = next((row for row in rows if row.kind == TIMEOUT), None)
    if timeout is None:
        return  # no clock ran (an autopilot wait): nothing was spent
    ended = clock.as_utc(timeout.paused_at) if timeout.paused_at is not None else now
    round_, turn_seat, awaited_seat = timeout.turn_key.split(":")[:3]
    own_turn = turn_seat == awaited_seat == str(timeout.seat)
    turn_over = state.phase == "over" or (round_, turn_seat) != (
        str(state.turn.round), str(state.turn.seat))
    left = bank.after_wait(timeout.deadline_at, ended, own_turn and turn_over)
    game.seat(timeout.seat).bank_seconds = int(left.total_seconds())


def open_wait(game_id: ColumnElement[int]) -> ScalarSelect[str | None]:
    """The turn key that every open row of the game shares, if none of them is paused; NULL
    when there are no open rows, rows of two waits, or a paused clock.

    The submission hot path reads it in the same statement that locks the game, so that
    with ``keeps_wait`` it tells, without another round trip for the rows, that
    ``schedule_for`` has nothing to do.
    """
    same_wait = func.min(Deadline.turn_key) == func.max(Deadline.turn_key)
    running = func.count(Deadline.paused_at) == 0
    return (
        select(case((and_(same_wait, running), func.min(Deadline.turn_key))))
        .where(Deadline.game_id == game_id, Deadline.done_at.is_(None))
        .scalar_subquery()
    )


def keeps_wait(wait_key: str | None, state: GameState, seat: AwaitedSeat) -> bool:
    """True when ``schedule_for`` would leave an active game's rows as they are: the game
    still waits for ``seat`` and ``wait_key`` (``open_wait``) names this very wait."""
    return (wait_key is not None and awaited(state) == seat.index
            and wait_key == turn_key(state, seat))


def clear_for(game: Game, now: datetime | None = None) -> None:
    """Drop the open rows of a finished or cancelled game; stop the clock of a paused one."""
    if game.id is None:
        return
    if game.status == "paused":
        now = clock.as_utc(now) if now is not None else clock.now()
        db.session.execute(
            update(Deadline)
            .where(*_open(game.id), Deadline.paused_at.is_(None))
            .values(paused_at=now)
        )
        return
    db.session.execute(_DROP_OPEN, {"game_id": game.id})


def shift_seat(game: Game, seat_index: int, by: timedelta) -> int:
    """Move the open rows of one seat ``by`` later (vacation, host extension); returns them."""
    seat = game.seat(seat_index)
    rows = [row for row in _open_rows(game.id) if row.seat == seat_index]
    for row in rows:
        row.deadline_at = clock.as_utc(row.deadline_at) + by
        due = clock.as_utc(row.due_at) + by
        if row.kind == REMINDER:
            due = clock.out_of_quiet_hours(due, seat.timezone, *quiet_of(seat))
        row.due_at = due
    return len(rows)


def requiet_seat(game: Game, seat_index: int) -> int:
    """Move the seat's open reminders to fit its (new) time zone and quiet hours.

    A reminder row keeps no record of where quiet hours pushed it from, so its nominal time
    is found again: the latest ``start + fraction x time per move`` at or before it (quiet
    hours only ever push a reminder later). One that the new hours push past the deadline is
    dropped, as ``schedule`` drops it. Returns the rows moved or dropped.
    """
    seat = game.seat(seat_index)
    per_move = timedelta(hours=wait_hours(game, seat))
    fractions = policy_of(game).reminders
    changed = 0
    for row in _open_rows(game.id):
        if row.seat != seat_index or row.kind != REMINDER:
            continue
        deadline, due = clock.as_utc(row.deadline_at), clock.as_utc(row.due_at)
        nominal = [deadline - per_move + per_move * f for f in fractions]
        earlier = [moment for moment in nominal if moment <= due]
        if not earlier:
            continue  # not a reminder this policy would write: leave it alone
        moved = clock.out_of_quiet_hours(max(earlier), seat.timezone, *quiet_of(seat))
        if moved >= deadline:
            db.session.delete(row)
        elif moved != due:
            row.due_at = moved
        else:
            continue
        changed += 1
    return changed


def deadline_for(game: Game) -> datetime | None:
    """The deadline of the seat ``game`` waits for, if its clock runs (for pages and mail)."""
    row = db.session.scalars(
        select(Deadline).where(*_open(game.id), Deadline.kind == TIMEOUT).limit(1)
    ).first()
    return clock.as_utc(row.deadline_at) if row is not None else None


def policy_of(game: Game) -> clock.TimeoutPolicy:
    """The game's timeout policy, every default filled in."""
    return clock.TimeoutPolicy.from_json(game.timeout_policy)


def autopilot_waits(seat: Waiter) -> bool:
    """True when no clock runs for ``seat``: the autopilot plays it on the next tick."""
    return bool(seat.is_bot or seat.resigned or seat.absent)


def quiet_of(seat: Seat) -> tuple[int, int]:
    return clock.quiet_hours(seat.quiet_start, seat.quiet_end)


def due(now: datetime) -> tuple[Any, ...]:
    """The conditions of a row due at ``now``: open, not paused, and not leased to a sweeper
    that is still within its lease."""
    return (
        Deadline.done_at.is_(None),
        Deadline.due_at <= now,
        Deadline.paused_at.is_(None),
        or_(Deadline.lease_until.is_(None), Deadline.lease_until <= now),
    )


def _open(game_id: int) -> tuple[Any, ...]:
    return (Deadline.game_id == game_id, Deadline.done_at.is_(None))


def _open_rows(game_id: int) -> list[Deadline]:
    """The open rows as ORM objects, for the services that move them."""
    return list(db.session.scalars(select(Deadline).where(*_open(game_id))))


# ``schedule_for`` runs at every hand-over: it reads and writes the rows in Core, without the
# ORM's object loading and unit of work (they were the largest cost of a hand-over). No
# service loads the rows as ORM objects (``_open_rows``) in a transaction that reschedules
# them, so no loaded object goes stale.
_deadlines = Deadline.__table__
_OPEN_WAITS = select(
    _deadlines.c.id, _deadlines.c.seat, _deadlines.c.kind, _deadlines.c.turn_key,
    _deadlines.c.due_at,
    _deadlines.c.deadline_at, _deadlines.c.paused_at,
).where(_deadlines.c.game_id == bindparam("game_id"), _deadlines.c.done_at.is_(None))
_DROP_OPEN = delete(_deadlines).where(
    _deadlines.c.game_id == bindparam("game_id"), _deadlines.c.done_at.is_(None))
_RESUME = (
    update(_deadlines).where(_deadlines.c.id == bindparam("row_id"))
    .values(due_at=bindparam("new_due_at"), deadline_at=bindparam("new_deadline_at"),
            paused_at=None)
)


def _open_waits(game_id: int) -> list[Row[Any]]:
    """The open rows' columns ``schedule_for`` reads (a Core read: like an ORM query, it
    flushes pending changes first)."""
    return list(db.session.execute(_OPEN_WAITS, {"game_id": game_id}))


def _add(game: Game, seat: int, key: str, rows: list[tuple[str, datetime, datetime]]) -> None:
    """Write the rows of one wait, each ``(kind, due, deadline)``: one ``INSERT``."""
    db.session.execute(insert(_deadlines), [
        {"game_id": game.id, "seat": seat, "kind": kind, "turn_key": key, "due_at": due,
         "deadline_at": deadline, "attempts": 0}
        for kind, due, deadline in rows
    ])


def _resume(rows: list[Row[Any]], now: datetime) -> datetime | None:
    """Move paused rows later by the time their clock stood still, and start it again;
    returns the wait's deadline (None for an autopilot wait: it has no timeout row)."""
    moved = []
    deadline = None
    for row in rows:
        stopped = now - clock.as_utc(row.paused_at) if row.paused_at else timedelta(0)
        if row.paused_at is not None:
            moved.append({"row_id": row.id, "new_due_at": clock.as_utc(row.due_at) + stopped,
                          "new_deadline_at": clock.as_utc(row.deadline_at) + stopped})
        if row.kind == TIMEOUT:
            deadline = clock.as_utc(row.deadline_at) + stopped
    if moved:
        db.session.execute(_RESUME, moved)
    return deadline


