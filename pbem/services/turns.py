"""The mechanics under the play path (``pbem.services.play``, which alone applies steps):
lock the row, store a move inside a turn, hand the turn over, tell the awaited seat, choose
the autopilot's move. Services compose these inside one transaction.

A *step* is one applied action, stored as plain JSON::

    {"seat", "action", "notation", "events", "barrier", "by", "round"}

Steps of the turn in progress live in ``games.turn_steps`` (so undo can drop them); they are
written to ``action_log`` only when the turn is handed over, i.e. when the seat the engine
awaits changes or the game ends. Handing over is also when mail is composed: the other
players' at once, the awaited seat's (``announce``) once the service has scheduled the
deadline it states.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Select, and_, bindparam, func, insert, select, update
from sqlalchemy.orm import defer, joinedload

from pbem import engine
from pbem.engine import GameState, bots
from pbem.engine.bots.levels import DEFAULT_LEVEL, bot_for
from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.models import ActionLog, Game, Seat
from pbem.models.game import PlayedByServer
from pbem.services import deadlines
from pbem.services.errors import GameNotActive, GameNotFound, StaleVersion

log = logging.getLogger(__name__)

GameRef = int | str  # a primary key, or the public id used in URLs and tokens
Step = dict[str, Any]
_BOT_SALT = 0xB07_5EED


def _key(ref: GameRef) -> Any:
    return Game.id == ref if isinstance(ref, int) else Game.public_id == ref


def find_game(ref: GameRef) -> Game:
    """The game, without a lock (for reads)."""
    game = db.session.execute(select(Game).where(_key(ref))).scalar_one_or_none()
    if game is None:
        raise GameNotFound()
    return game


def _before_lock(ref: GameRef) -> None:
    """What every lock does before its ``SELECT … FOR UPDATE``.

    Objects loaded before the lock (e.g. by token checks) are stale: they are expired, so
    they are read again when next used. SQLite ignores FOR UPDATE, so a no-op UPDATE comes
    first: it makes pysqlite open the transaction and take SQLite's write lock (waiting out
    the busy timeout) before anything is read, so two writers never both read version n.
    """
    db.session.expire_all()
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(
            update(Game).where(_key(ref)).values(version=Game.version),
            execution_options={"synchronize_session": False},
        )


def lock_game(ref: GameRef) -> Game:
    """The game row, locked until commit, with every attribute re-read after the lock."""
    _before_lock(ref)
    game = db.session.execute(  # one round trip: the seats come along, only the game is locked
        select(Game).where(_key(ref)).options(joinedload(Game.seats)).with_for_update(of=Game)
    ).unique().scalar_one_or_none()
    if game is None:
        raise GameNotFound()
    return game


# -- the submission hot path ------------------------------------------------------------------
# A move inside a turn changes nothing but the games row. It is read with its lock and
# written back with SQLAlchemy Core, without ORM objects (loading them and the unit of work
# were the largest cost of a submission); ORM objects are loaded only when the step needs
# more (a hand-over with its log rows and mail, the autopilot, seat or deadline rows).

_games, _seats = Game.__table__, Seat.__table__


@dataclass
class ActingSeat(PlayedByServer):
    """The columns of the acting seat's row the hot path needs, read with the game's lock."""

    index: int
    name: str
    colour: str
    is_bot: bool
    resigned: bool
    absent: bool
    consecutive_timeouts: int


@dataclass
class LockedGame:
    """The columns of a games row a submission needs, read with its lock in one statement
    (``lock_for_step``). Answers are built from it as from a ``Game``."""

    id: int
    public_id: str
    name: str
    status: str
    players: int
    version: int
    state: dict[str, Any]
    turn_steps: list[Step]
    open_wait: str | None  # deadlines.open_wait: the wait the open deadline rows belong to
    actor: ActingSeat | None  # None: the game has no such seat

    def seat(self, index: int) -> ActingSeat:
        if self.actor is None or self.actor.index != index:
            raise LookupError(f"game {self.public_id} has no seat {index} loaded")
        return self.actor


def _lock_statement(key: Any) -> Select[Any]:
    """``SELECT … FOR UPDATE`` of one games row by ``key`` (the ``ref`` parameter), with the
    acting seat's row (``seat``) and the open deadline rows' wait; only the game is locked."""
    return (
        select(
            _games.c.id, _games.c.public_id, _games.c.name, _games.c.status, _games.c.players,
            _games.c.version, _games.c.state, _games.c.turn_steps,
            deadlines.open_wait(_games.c.id).label("open_wait"),
            _seats.c.index.label("seat_index"), _seats.c.name.label("seat_name"),
            _seats.c.colour, _seats.c.is_bot, _seats.c.resigned, _seats.c.absent,
            _seats.c.consecutive_timeouts,
        )
        .select_from(_games.outerjoin(_seats, and_(
            _seats.c.game_id == _games.c.id, _seats.c.index == bindparam("seat"))))
        .where(key == bindparam("ref"))
        .with_for_update(of=_games)
    )


_LOCK_BY_ID = _lock_statement(_games.c.id)
_LOCK_BY_PUBLIC_ID = _lock_statement(_games.c.public_id)
_STORE_STEP = (
    update(_games)
    .where(_games.c.id == bindparam("game_id"))
    .values(version=bindparam("new_version", type_=_games.c.version.type),
            state=bindparam("new_state", type_=_games.c.state.type),
            turn_steps=bindparam("new_steps", type_=_games.c.turn_steps.type))
)


def lock_for_step(ref: GameRef, seat_index: int) -> LockedGame:
    """The game row, locked until commit, with the acting seat: one ``SELECT … FOR UPDATE``."""
    _before_lock(ref)
    statement = _LOCK_BY_ID if isinstance(ref, int) else _LOCK_BY_PUBLIC_ID
    row = db.session.execute(statement, {"ref": ref, "seat": seat_index}).one_or_none()
    if row is None:
        raise GameNotFound()
    actor = None if row.seat_index is None else ActingSeat(
        row.seat_index, row.seat_name, row.colour, row.is_bot, row.resigned, row.absent,
        row.consecutive_timeouts)
    return LockedGame(row.id, row.public_id, row.name, row.status, row.players, row.version,
                      row.state, row.turn_steps, row.open_wait, actor)


def store_step(locked: LockedGame, state: GameState, step: Step) -> None:
    """Write a step that stays inside the turn: one ``UPDATE games`` (state, steps, version)."""
    locked.version += 1
    locked.turn_steps = [*locked.turn_steps, step]
    locked.state = state.to_json()
    db.session.execute(_STORE_STEP, {
        "game_id": locked.id, "new_version": locked.version, "new_state": locked.state,
        "new_steps": locked.turn_steps})


_LOAD_LOCKED = (
    select(Game).where(Game.id == bindparam("game_id"))
    .options(joinedload(Game.seats), defer(Game.state), defer(Game.turn_start_state))
)


def load_locked(locked: LockedGame) -> Game:
    """The ORM objects of a game this transaction has locked (``lock_for_step``), for a step
    that does more than a move inside a turn. The two states are not read again: the step
    replaces ``state`` (already in ``locked``) and only a hand-over writes
    ``turn_start_state``; either is loaded if something reads it first."""
    return db.session.execute(_LOAD_LOCKED, {"game_id": locked.id}).unique().scalar_one()


def expect(game: Game | LockedGame, expected_version: int, *, active: bool = True) -> None:
    """Refuse a stale version first (a double submit is stale), then an inactive game."""
    if expected_version != game.version:
        raise StaleVersion(game.version)
    if active and game.status != "active":
        raise GameNotActive(f"This game is {game.status}: it takes no more moves.")


def sync_seats(game: Game, state: GameState) -> None:
    """Copy public per-seat facts the pages list without reading the state (the Faction
    board chosen in the draft, ruling F3) onto the seat rows."""
    for seat in game.seats:
        chosen = state.seats[seat.index].faction
        if seat.faction != chosen:
            seat.faction = chosen


_log = ActionLog.__table__
_LAST_SEQ = select(func.coalesce(func.max(_log.c.seq), 0)).where(
    _log.c.game_id == bindparam("game_id"))


def next_seq(game: Game) -> int:
    return int(db.session.execute(_LAST_SEQ, {"game_id": game.id}).scalar_one()) + 1


def append_log(game: Game, steps: list[Step]) -> None:
    """Write ``steps`` to the log with one Core ``INSERT``. No ORM objects and their unit of
    work (a hand-over's largest cost): nothing reads log rows back as objects in the
    transaction that writes them (the mail reads them in Core, ``compose.since_last_turn``)."""
    if not steps:
        return  # an INSERT without rows would write one of defaults
    seq = next_seq(game)
    db.session.execute(insert(_log), [
        {"game_id": game.id, "seq": seq + offset, "seat": step["seat"],
         "action": step["action"], "notation": step["notation"], "events": step["events"],
         "by": step["by"], "round": step["round"]}
        for offset, step in enumerate(steps)
    ])


def hand_over(game: Game, state: GameState, seat: int) -> None:
    """Write the turn's steps to the log, start a new undo base, and tell the other players.

    The seat awaited next is told by the service (``announce``), after it has scheduled the
    deadline that mail states. Only the last hand-over of a service call can reach a seat
    that gets mail: the autopilot plays on only through computer and resigned seats.
    """
    steps = list(game.turn_steps)
    game.turn_steps = []
    game.turn_start_state = state.to_json()
    # What the hand-over reads (the log it writes in Core) does not depend on the pending ORM
    # changes (the game row, outbox rows): they are flushed once, later, not before each of
    # those reads (a flush per read was a large part of a hand-over's cost).
    with db.session.no_autoflush:
        append_log(game, steps)
        notify.turn_ended(game, seat, steps)
        if state.phase == "over":
            game.status = "finished"
            game.finished_at = datetime.now(UTC)
            notify.game_over(game)


def announce(game: Game, state: GameState, deadline: datetime | None) -> None:
    """Tell the awaited seat: a decision inside someone else's turn, or its own turn.

    ``deadline`` is the one ``deadlines.schedule_for`` has just written for this wait.
    """
    seat = engine.awaited(state)
    if seat is None:
        return
    with db.session.no_autoflush:  # as in ``hand_over``: the mail's reads need no flush
        if state.turn.pending is not None and (
                seat != state.turn.seat or state.phase == "draft"):
            notify.decision_needed(game, seat, deadline)  # the draft: every seat, 0 too
        else:
            notify.turn_started(game, seat, deadline)


def autopilot_level(game: Game, seat: int) -> str:
    """The level the server plays ``seat`` at: a computer player's own, else the game's
    autopilot level (a timed-out, absent or resigned player)."""
    row = game.seat(seat)
    return row.level or game.autopilot_level or DEFAULT_LEVEL


def bot_action(game: Game, state: GameState, seat: int) -> engine.Action:
    """The choice of the seat's bot level (``autopilot_level``), made from what the seat may
    know (never the deck order); the strong level searches with the game's budget
    (``bot_budget``, None: the strong bot's default). Its randomness is seeded by the game and
    the step, so a rerun chooses the same; ``pbem verify`` replays the logged actions, not the
    bot."""
    bot = bot_for(autopilot_level(game, seat), game.bot_budget)
    rng = [(game.seed ^ _BOT_SALT) & ((1 << 63) - 1), state.step]
    action = bot(bots.redacted(state, seat), seat, list(rng))
    try:
        engine.check(state, action)
    except engine.RulesError as exc:  # the redacted state misled the bot: decide on the real one
        log.warning("bot choice %s refused in game %s: %s", action, game.public_id, exc)
        action = bot(state, seat, list(rng))
    return action
