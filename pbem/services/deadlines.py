"""Deadlines: reminders, timeouts and autopilot turns, written with the move and swept later.

Services call ``schedule_for`` / ``clear_for`` inside their transaction (docs/architecture.md,
"Deadlines hook"); the scheduler step ``deadlines`` runs ``sweep`` over the due rows.

A reminder is sent once and only once: its row is marked done by a conditional UPDATE in the
same transaction as the mail it enqueues. A timeout or autoplay row is claimed under a lease
(the autopilot commits step by step through ``submit_action``); the handover of the turn
replaces the row in the very transaction that hands it over, so a rerun after a crash
continues the turn where it stopped and never plays a step twice.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from flask import Flask, current_app
from sqlalchemy import (
    ColumnElement,
    Row,
    ScalarSelect,
    Select,
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

from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.mail import notify
from pbem.models.deadline import AUTOPLAY, REMINDER, TIMEOUT, Deadline
from pbem.models.game import Game, Seat
from pbem.scheduler import clock, register_step

log = logging.getLogger(__name__)

LEASE = timedelta(minutes=10)  # how long a claimed autopilot turn is left to its sweeper
BATCH = 500  # due rows read per sweep; the rest wait for the next tick
MAX_AUTOPILOT_STEPS = 200  # a turn is far shorter; this only stops a runaway loop


@dataclass
class SweepReport:
    """What one sweep did; ``failed`` rows stay due and are retried on a later tick."""

    reminders: int = 0
    turns: int = 0  # timeout and autoplay rows handled
    steps: int = 0  # actions the autopilot submitted
    skipped: int = 0  # taken by another sweeper, or no longer due
    failed: list[int] = field(default_factory=list)


# -- writing rows (inside the caller's transaction) ------------------------------------------

def turn_key(state: GameState, seat: Seat) -> str:
    """Names one wait: a later step in the same wait keeps the clock; a new wait restarts it."""
    mode = "auto" if _autopilot(seat) else "clock"
    return f"{state.turn.round}:{state.turn.seat}:{awaited(state)}:{mode}"


def schedule_for(game: Game, now: datetime | None = None) -> None:
    """Replace ``game``'s open rows by those of the seat it now waits for (if that changed)."""
    now = clock.as_utc(now) if now is not None else clock.now()
    if game.status != "active":
        clear_for(game, now)
        return
    state = GameState.from_json(game.state)
    seat_index = awaited(state)
    if seat_index is None:
        clear_for(game, now)
        return
    if game.id is None:
        db.session.flush()
    seat = game.seat(seat_index)
    key = turn_key(state, seat)
    rows = _open_waits(game.id)
    if rows and all(row.turn_key == key for row in rows):
        _resume(rows, now)  # the same wait goes on (after a pause: from where it stopped)
        return
    db.session.execute(_DROP_OPEN, {"game_id": game.id})
    if _autopilot(seat):
        _add(game, seat_index, key, [(AUTOPLAY, now, now)])
        return
    start = clock.clock_start(now, seat.vacation_until)
    times = clock.schedule(start, game.time_per_move_hours or clock.DEFAULT_HOURS_PER_MOVE,
                           policy_of(game), seat.timezone, _quiet(seat))
    _add(game, seat_index, key, [*((REMINDER, due, times.deadline) for due in times.reminders),
                                 (TIMEOUT, times.timeout, times.deadline)])


def open_wait(game_id: ColumnElement[int]) -> ScalarSelect[str | None]:
    """The turn key that every open row of the game shares, if none of them is paused; NULL
    when there are no open rows, rows of two waits, or a paused clock.

    The submission hot path reads it in the same statement that locks the game (issue #6):
    with ``keeps_wait`` it tells, without reading the rows, that ``schedule_for`` has nothing
    to do.
    """
    same_wait = func.min(Deadline.turn_key) == func.max(Deadline.turn_key)
    running = func.count(Deadline.paused_at) == 0
    return (
        select(case((and_(same_wait, running), func.min(Deadline.turn_key))))
        .where(Deadline.game_id == game_id, Deadline.done_at.is_(None))
        .scalar_subquery()
    )


def keeps_wait(wait_key: str | None, state: GameState, seat: Any) -> bool:
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
            due = clock.out_of_quiet_hours(due, seat.timezone, *_quiet(seat))
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
    per_move = timedelta(hours=game.time_per_move_hours or clock.DEFAULT_HOURS_PER_MOVE)
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
        moved = clock.out_of_quiet_hours(max(earlier), seat.timezone, *_quiet(seat))
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


def expected_deadline(game: Game, seat_index: int, now: datetime | None = None
                      ) -> datetime | None:
    """The deadline of the wait ``game`` is in, as mail shows it to the awaited seat.

    The mail hooks run at the hand-over, before the service calls ``schedule_for``; so when
    no open row belongs to this wait yet, this computes the deadline ``schedule_for`` is
    about to write (same clock, vacation and policy). None: no clock runs for this seat.
    """
    state = GameState.from_json(game.state)
    if game.status != "active" or awaited(state) != seat_index:
        return None
    seat = game.seat(seat_index)
    if _autopilot(seat):
        return None
    now = clock.as_utc(now) if now is not None else clock.now()
    key = turn_key(state, seat)
    if game.id is not None:
        for row in _open_waits(game.id):
            if row.kind == TIMEOUT and row.turn_key == key:
                paused = now - clock.as_utc(row.paused_at) if row.paused_at else timedelta(0)
                return clock.as_utc(row.deadline_at) + paused
    start = clock.clock_start(now, seat.vacation_until)
    hours = game.time_per_move_hours or clock.DEFAULT_HOURS_PER_MOVE
    return clock.schedule(start, hours, policy_of(game), seat.timezone, _quiet(seat)).deadline


def policy_of(game: Game) -> clock.TimeoutPolicy:
    return clock.TimeoutPolicy.from_json(game.timeout_policy)


def _autopilot(seat: Seat) -> bool:
    return bool(seat.is_bot or seat.resigned or seat.absent)


def _quiet(seat: Seat) -> tuple[int, int]:
    start = clock.DEFAULT_QUIET_START if seat.quiet_start is None else seat.quiet_start
    end = clock.DEFAULT_QUIET_END if seat.quiet_end is None else seat.quiet_end
    return start, end


def _open(game_id: int) -> tuple[Any, ...]:
    return (Deadline.game_id == game_id, Deadline.done_at.is_(None))


def _open_rows(game_id: int) -> list[Deadline]:
    """The open rows as ORM objects, for the services that move them."""
    return list(db.session.scalars(select(Deadline).where(*_open(game_id))))


# ``schedule_for`` and ``expected_deadline`` run at every hand-over (issue #6): they read and
# write the rows in Core, without the ORM's object loading and unit of work. No service loads
# the rows as ORM objects (``_open_rows``) in a transaction that reschedules them, so no
# loaded object goes stale.
_deadlines = Deadline.__table__
_OPEN_WAITS = select(
    _deadlines.c.id, _deadlines.c.kind, _deadlines.c.turn_key, _deadlines.c.due_at,
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
    """The open rows' columns ``schedule_for`` and ``expected_deadline`` read (a Core read:
    like an ORM query, it flushes pending changes first)."""
    return list(db.session.execute(_OPEN_WAITS, {"game_id": game_id}))


def _add(game: Game, seat: int, key: str, rows: list[tuple[str, datetime, datetime]]) -> None:
    """Write the rows of one wait, each ``(kind, due, deadline)``: one ``INSERT``."""
    db.session.execute(insert(_deadlines), [
        {"game_id": game.id, "seat": seat, "kind": kind, "turn_key": key, "due_at": due,
         "deadline_at": deadline, "attempts": 0}
        for kind, due, deadline in rows
    ])


def _resume(rows: list[Row[Any]], now: datetime) -> None:
    """Move paused rows later by the time their clock stood still, and start it again."""
    moved = []
    for row in rows:
        if row.paused_at is not None:
            stopped = now - clock.as_utc(row.paused_at)
            moved.append({"row_id": row.id, "new_due_at": clock.as_utc(row.due_at) + stopped,
                          "new_deadline_at": clock.as_utc(row.deadline_at) + stopped})
    if moved:
        db.session.execute(_RESUME, moved)


# -- the sweep ----------------------------------------------------------------------------

def _due(now: datetime) -> tuple[Any, ...]:
    return (
        Deadline.done_at.is_(None),
        Deadline.due_at <= now,
        Deadline.paused_at.is_(None),
        or_(Deadline.lease_until.is_(None), Deadline.lease_until <= now),
    )


def due_rows_query(now: datetime, limit: int = BATCH) -> Select[tuple[int]]:
    """The ids of the rows due at ``now``, oldest first (a range scan of ix_deadlines_due)."""
    return select(Deadline.id).where(*_due(now)).order_by(Deadline.due_at).limit(limit)


def sweep(app: Flask, now: datetime, *, limit: int = BATCH) -> SweepReport:
    """Handle every row due at ``now`` once; safe to run in two processes at the same time."""
    now = clock.as_utc(now)
    report = SweepReport()
    with app.app_context():
        ids = list(db.session.scalars(due_rows_query(now, limit)))
        db.session.commit()
        for row_id in ids:
            try:
                _handle(row_id, now, report)
            except Exception:
                log.exception("deadline %s failed; it stays due", row_id)
                db.session.rollback()
                report.failed.append(row_id)
            except BaseException:
                db.session.rollback()  # as a dead process's connection would
                raise
    return report


def _claim(row_id: int, now: datetime) -> Deadline | None:
    """Lock the row if it is still due and no other sweeper holds it, else None.

    PostgreSQL skips a row another sweeper has locked; SQLite serialises writers, and the
    conditional UPDATE that follows is the claim on both.
    """
    query = select(Deadline).where(Deadline.id == row_id, *_due(now))
    if db.session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return db.session.scalars(query).first()


def _handle(row_id: int, now: datetime, report: SweepReport) -> None:
    row = _claim(row_id, now)
    if row is None:
        db.session.rollback()
        report.skipped += 1
        return
    if row.kind == REMINDER:
        _remind(row, now, report)
    else:
        _play(row, now, report)


def _mark(row_id: int, now: datetime, **values: Any) -> bool:
    result = db.session.execute(
        update(Deadline).where(Deadline.id == row_id, *_due(now)).values(**values),
        execution_options={"synchronize_session": False},
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _current(row: Deadline) -> tuple[Game, GameState] | None:
    """The game and state if ``row`` still belongs to the wait the game is in."""
    game = db.session.get(Game, row.game_id, populate_existing=True)
    if game is None or game.status != "active":
        return None
    state = GameState.from_json(game.state)
    if awaited(state) != row.seat or turn_key(state, game.seat(row.seat)) != row.turn_key:
        return None
    return game, state


def _remind(row: Deadline, now: datetime, report: SweepReport) -> None:
    row_id, seat, deadline = row.id, row.seat, clock.as_utc(row.deadline_at)
    current = _current(row)
    if not _mark(row_id, now, done_at=now):
        db.session.rollback()
        report.skipped += 1
        return
    if current is not None:
        notify.reminder(current[0], seat, deadline)
        report.reminders += 1
    db.session.commit()


def _play(row: Deadline, now: datetime, report: SweepReport) -> None:
    row_id, seat_index, kind, first = row.id, row.seat, row.kind, row.attempts == 0
    current = _current(row)
    if current is None:
        _mark(row_id, now, done_at=now)
        db.session.commit()
        report.skipped += 1
        return
    game = current[0]
    if not _mark(row_id, now, lease_until=now + LEASE, attempts=Deadline.attempts + 1):
        db.session.rollback()
        report.skipped += 1
        return
    seat = game.seat(seat_index)
    if kind == TIMEOUT and first:  # counted in the claim's transaction: once per timeout
        seat.consecutive_timeouts = (seat.consecutive_timeouts or 0) + 1
        if seat.consecutive_timeouts >= policy_of(game).absent_after:
            seat.absent = True
    by = "bot" if seat.is_bot or seat.resigned else "timeout"
    db.session.commit()
    report.steps += autopilot(game.id, seat_index, by)
    db.session.execute(
        update(Deadline).where(Deadline.id == row_id, Deadline.done_at.is_(None))
        .values(done_at=now, lease_until=None)
    )
    db.session.commit()
    report.turns += 1


def autopilot(game_id: int, seat_index: int, by: str) -> int:
    """Play ``seat_index``'s turn (or decision) with the greedy bot, through the same service
    path as a player, until the game waits for someone else; returns the steps submitted.

    The greedy bot sees only the seat's own knowledge (``bots.redacted``, via
    ``turns.bot_action``); its tie-breaks are seeded by the game and step, so a rerun after a
    crash chooses the same.
    """
    from pbem.services.errors import StaleVersion  # services import this module
    from pbem.services.games import submit_action
    from pbem.services.turns import bot_action

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
            submit_action(game_id, seat_index, game.version, action, by=by)
        except StaleVersion:
            db.session.rollback()  # the player moved meanwhile: look again
            continue
        steps += 1
    return steps


def run_step() -> None:
    """The scheduler step: one sweep at the current time."""
    report = sweep(current_app._get_current_object(), clock.now())  # type: ignore[attr-defined]
    if report.reminders or report.turns or report.failed:
        log.info("deadlines: %s", report)


def register() -> None:
    """Add the ``deadlines`` step to every tick (the app factory calls this)."""
    register_step("deadlines", run_step)
