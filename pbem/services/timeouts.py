"""Due deadline rows handled: the reminder mailed, or the timed-out turn played.

The scheduler's sweep (``pbem.scheduler.deadlines``) claims due rows under a lease and hands
each here; every write below is conditional on the row still holding that lease (``held``),
so a sweeper whose lease passed and whose row another one claimed writes nothing. A
reminder is sent once and only once: its row is marked done by such a conditional UPDATE in
the same transaction as the mail it enqueues. A timeout or autoplay row is taken under a lease
(the autopilot commits step by step through ``play.play``, the one play path); the hand-over
of the turn replaces the row in the very transaction that hands it over, so a rerun after a
crash goes on with the turn where it stopped and never plays a step twice.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import and_, delete, exists, or_, select, update

from pbem import clock
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.models.deadline import TIMEOUT, Deadline
from pbem.models.game import Game, Seat
from pbem.services import play
from pbem.services.deadlines import due, policy_of, schedule_for, turn_key
from pbem.services.errors import StaleVersion
from pbem.services.turns import bot_action, lock_game

REPAIR_BATCH = 100  # games given their rows again per tick (there should be none)
LEASE = timedelta(minutes=10)  # how long a claimed autopilot turn is left to its sweeper
MAX_AUTOPILOT_STEPS = 200  # a turn is far shorter; this only stops a runaway loop

Reminded = Literal["sent", "stale", "superseded", "taken"]

_WITHOUT_OPEN_ROWS = (
    select(Game.id)
    .where(Game.status == "active",
           ~exists().where(Deadline.game_id == Game.id, Deadline.done_at.is_(None)))
    .order_by(Game.id)
)


def remind(row: Deadline, now: datetime) -> Reminded:
    """Mail the reminder of a claimed row and mark it done, in one transaction: "sent"; the
    wait is over (row marked done, no mail): "stale"; a later row of the same wait is due
    too (row marked done, no mail): "superseded"; another sweeper had it: "taken".

    When a sweep finds several rows of one wait overdue at once (the clock was down, quiet
    hours ended), only the latest is acted on: the last reminder, or the timeout alone when
    it is due too. Mailing each overdue reminder would send two at once, or a "your deadline
    is close" beside the mail that says the turn was played for the seat.
    """
    row_id, seat, deadline = row.id, row.seat, clock.as_utc(row.deadline_at)
    lease = row.lease_until
    current = _current(row)
    superseded = current is not None and _later_row_due(row, now)
    if not _mark(row_id, lease, now, done_at=now):
        db.session.rollback()
        return "taken"
    outcome: Reminded = "stale"
    if superseded:
        outcome = "superseded"
    elif current is not None:
        notify.reminder(current, seat, deadline)
        outcome = "sent"
    db.session.commit()
    return outcome


def play_timed_out(row: Deadline, now: datetime) -> int | None:
    """Play the turn of a claimed timeout or autoplay row; returns the steps the autopilot
    submitted, or None when the row is no longer due (another sweeper, or the wait is over)."""
    row_id, seat_index, kind, first = row.id, row.seat, row.kind, row.attempts == 0
    lease = row.lease_until
    game = _current(row)
    if game is None:
        _mark(row_id, lease, now, done_at=now)
        db.session.commit()
        return None
    if not _mark(row_id, lease, now, lease_until=now + LEASE,
                 attempts=Deadline.attempts + 1):
        db.session.rollback()
        return None
    seat = game.seat(seat_index)
    if kind == TIMEOUT and first:  # counted in the claim's transaction: once per timeout
        seat.consecutive_timeouts = (seat.consecutive_timeouts or 0) + 1
        if seat.consecutive_timeouts >= policy_of(game).absent_after:
            seat.absent = True
            _rekey(game, seat, row_id)
    by = "bot" if seat.is_bot or seat.resigned else "timeout"
    db.session.commit()
    steps = autopilot(game.id, seat_index, by)
    db.session.execute(
        update(Deadline).where(Deadline.id == row_id, Deadline.done_at.is_(None))
        .values(done_at=now, lease_until=None)
    )
    db.session.commit()
    return steps


def repair_missing(now: datetime, limit: int = REPAIR_BATCH) -> list[int]:
    """Give every active game that waits for a seat but has no open deadline row its rows
    again (``deadlines.schedule_for``), one transaction per game; returns the games repaired.

    Every hand-over writes the next wait's rows, so this finds nothing unless a bug or a
    lost write left a game with no clock: without it nobody would ever be reminded or timed
    out there. Paused and finished games have no running clock and are left alone.
    """
    repaired: list[int] = []
    for game_id in db.session.scalars(_WITHOUT_OPEN_ROWS.limit(limit)).all():
        game = lock_game(game_id)  # then look again: a hand-over may have written them since
        has_rows = db.session.scalar(select(exists().where(
            Deadline.game_id == game_id, Deadline.done_at.is_(None))))
        if game.status != "active" or has_rows or awaited(GameState.from_json(game.state)) is None:
            db.session.rollback()
            continue
        schedule_for(game, now)
        db.session.commit()
        repaired.append(game_id)
    db.session.rollback()
    return repaired


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
            play.play(game_id, seat_index, game.version, action, by=by)
        except StaleVersion:
            db.session.rollback()  # the player moved meanwhile: look again
            continue
        steps += 1
    return steps


def held(lease: datetime | None, now: datetime) -> tuple[Any, ...]:
    """The conditions of a row still due at ``now`` and still held by the sweeper that claimed
    it with ``lease`` (a row read with no lease: still due, and claimed by no one since)."""
    if lease is None:
        return due(now)
    return (Deadline.done_at.is_(None), Deadline.due_at <= now, Deadline.paused_at.is_(None),
            Deadline.lease_until == lease)


def _mark(row_id: int, lease: datetime | None, now: datetime, **values: Any) -> bool:
    """Update the row only if it is still due and still ours: the claim that two sweepers
    cannot both win."""
    result = db.session.execute(
        update(Deadline).where(Deadline.id == row_id, *held(lease, now)).values(**values),
        execution_options={"synchronize_session": False},
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _later_row_due(row: Deadline, now: datetime) -> bool:
    """True when another row of the same wait falls due after ``row`` (the next reminder, or
    the timeout) and at or before ``now``, open or already done.

    Done rows count too: two sweepers may take the rows of one wait at the same time, and
    the one that holds the earlier reminder must not mail it after the other has mailed the
    later one. Rows falling due at the same moment (quiet hours push both to their end) are
    ordered by id, the order ``schedule_for`` wrote them in.
    """
    due_at = row.due_at
    later = or_(Deadline.due_at > due_at, and_(Deadline.due_at == due_at, Deadline.id > row.id))
    return bool(db.session.scalar(select(exists().where(
        Deadline.game_id == row.game_id, Deadline.seat == row.seat,
        Deadline.turn_key == row.turn_key, Deadline.id != row.id,
        Deadline.due_at <= now, later,
    ))))


def _rekey(game: Game, seat: Seat, row_id: int) -> None:
    """Give the claimed row the key of the wait the absent seat is now in, in the claim's
    transaction, and drop the wait's other open rows (reminders for a seat no one reads).

    Marking the seat absent changes the wait's key (the autopilot now plays it). Without this,
    a sweeper that died after the claim would find, after a restart, a row that no longer
    matches the wait: it would close it, and the game would keep no deadline at all.
    """
    key = turn_key(GameState.from_json(game.state), seat)
    db.session.execute(
        delete(Deadline).where(Deadline.game_id == game.id, Deadline.done_at.is_(None),
                               Deadline.id != row_id),
        execution_options={"synchronize_session": False},
    )
    db.session.execute(
        update(Deadline).where(Deadline.id == row_id).values(turn_key=key),
        execution_options={"synchronize_session": False},
    )


def _current(row: Deadline) -> Game | None:
    """The game, if ``row`` still belongs to the wait the game is in."""
    game = db.session.get(Game, row.game_id, populate_existing=True)
    if game is None or game.status != "active":
        return None
    state = GameState.from_json(game.state)
    if awaited(state) != row.seat or turn_key(state, game.seat(row.seat)) != row.turn_key:
        return None
    return game
