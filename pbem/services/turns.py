"""The mechanics every game-changing service shares: lock the row, apply a step, hand the
turn over, let the autopilot play. Services compose these inside one transaction.

A *step* is one applied action, stored as plain JSON::

    {"seat", "action", "notation", "events", "barrier", "by", "round"}

Steps of the turn in progress live in ``games.turn_steps`` (so undo can drop them); they are
written to ``action_log`` only when the turn is handed over, i.e. when the seat the engine
awaits changes or the game ends. Handing over is also when mail is composed.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.orm import joinedload

from pbem import engine
from pbem.engine import GameState, bots
from pbem.extensions import db
from pbem.mail import notify
from pbem.models import ActionLog, Game
from pbem.services.errors import GameNotActive, GameNotFound, StaleVersion

log = logging.getLogger(__name__)

GameRef = int | str  # a primary key, or the public id used in URLs and tokens
Step = dict[str, Any]
AUTOPILOT_STEP_LIMIT = 5000  # a whole game is a few hundred steps: more means a bot is stuck
_BOT_SALT = 0xB07_5EED


def _key(ref: GameRef) -> Any:
    return Game.id == ref if isinstance(ref, int) else Game.public_id == ref


def find_game(ref: GameRef) -> Game:
    """The game, without a lock (for reads)."""
    game = db.session.execute(select(Game).where(_key(ref))).scalar_one_or_none()
    if game is None:
        raise GameNotFound()
    return game


def lock_game(ref: GameRef) -> Game:
    """The game row, locked until commit, with every attribute re-read after the lock.

    PostgreSQL: ``SELECT … FOR UPDATE``. SQLite ignores FOR UPDATE, so a no-op UPDATE comes
    first: it makes pysqlite open the transaction and take SQLite's write lock (waiting out
    the busy timeout) before anything is read, so two writers never both read version n.
    """
    db.session.expire_all()  # objects loaded before the lock (e.g. by token checks) are stale
    if db.session.get_bind().dialect.name == "sqlite":
        db.session.execute(
            update(Game).where(_key(ref)).values(version=Game.version),
            execution_options={"synchronize_session": False},
        )
    game = db.session.execute(  # one round trip: the seats come along, only the game is locked
        select(Game).where(_key(ref)).options(joinedload(Game.seats)).with_for_update(of=Game)
    ).unique().scalar_one_or_none()
    if game is None:
        raise GameNotFound()
    return game


def expect(game: Game, expected_version: int, *, active: bool = True) -> None:
    """Refuse a stale version first (a double submit is stale), then an inactive game."""
    if expected_version != game.version:
        raise StaleVersion(game.version)
    if active and game.status != "active":
        raise GameNotActive(f"This game is {game.status}: it takes no more moves.")


def make_step(state: GameState, action: engine.Action, by: str) -> Step:
    """Apply ``action`` to ``state`` in place; the engine refuses before changing anything."""
    round_ = state.turn.round
    events = engine.apply_in_place(state, action)
    return {
        "seat": action.seat,
        "action": engine.action_to_json(action),
        "notation": engine.format_action(action),
        "events": events,
        "barrier": engine.crosses_barrier(events),
        "by": by,
        "round": round_,
    }


def play(game: Game, state: GameState, action: engine.Action, by: str) -> Step:
    """One step: apply it, store it, and hand the turn over if the awaited seat changed, or
    the Faction draft ended (seat 0 chooses last and then plays first: its turn starts)."""
    before, drafting = engine.awaited(state), state.phase == "draft"
    step = make_step(state, action, by)
    game.turn_steps = [*game.turn_steps, step]  # a new list: JSON columns track assignment
    game.state = state.to_json()
    sync_seats(game, state)
    draft_ended = drafting and state.phase != "draft"
    if state.phase == "over" or engine.awaited(state) != before or draft_ended:
        hand_over(game, state, step["seat"])
    return step


def sync_seats(game: Game, state: GameState) -> None:
    """Copy public per-seat facts the pages list without reading the state (the Faction
    board chosen in the draft, ruling F3) onto the seat rows."""
    for seat in game.seats:
        chosen = state.seats[seat.index].faction
        if seat.faction != chosen:
            seat.faction = chosen


def next_seq(game: Game) -> int:
    last = db.session.execute(
        select(func.coalesce(func.max(ActionLog.seq), 0)).where(ActionLog.game_id == game.id)
    ).scalar_one()
    return int(last) + 1


def append_log(game: Game, steps: list[Step]) -> None:
    seq = next_seq(game)
    for offset, step in enumerate(steps):
        db.session.add(ActionLog(
            game_id=game.id, seq=seq + offset, seat=step["seat"], action=step["action"],
            notation=step["notation"], events=step["events"], by=step["by"],
            round=step["round"],
        ))


def hand_over(game: Game, state: GameState, seat: int) -> None:
    """Write the turn's steps to the log, start a new undo base, and send the mail."""
    steps = list(game.turn_steps)
    game.turn_steps = []  # before append_log's query flushes: one UPDATE of the game row
    game.turn_start_state = state.to_json()
    append_log(game, steps)
    notify.turn_ended(game, seat, steps)
    if state.phase == "over":
        game.status = "finished"
        game.finished_at = datetime.now(UTC)
        notify.game_over(game)
    else:
        announce(game, state)


def announce(game: Game, state: GameState) -> None:
    """Tell the awaited seat: a decision inside someone else's turn, or its own turn."""
    seat = engine.awaited(state)
    if seat is None:
        return
    if state.turn.pending is not None and (seat != state.turn.seat or state.phase == "draft"):
        notify.decision_needed(game, seat)  # the draft is a decision for every seat, 0 too
    else:
        notify.turn_started(game, seat)


def bot_action(game: Game, state: GameState, seat: int) -> engine.Action:
    """The greedy bot's choice, made from what the seat may know (never the deck order)."""
    rng = [(game.seed ^ _BOT_SALT) & ((1 << 63) - 1), state.step]
    action = bots.greedy_bot(bots.redacted(state, seat), seat, rng)
    try:
        engine.check(state, action)
    except engine.RulesError as exc:  # the redacted state misled the bot: decide on the real one
        log.warning("bot choice %s refused in game %s: %s", action, game.public_id, exc)
        action = bots.greedy_bot(state, seat, rng)
    return action


def run_autopilot(game: Game, state: GameState) -> list[Step]:
    """Play every step the server owes: while the awaited seat is a bot or resigned."""
    steps: list[Step] = []
    while state.phase != "over":
        seat = engine.awaited(state)
        if seat is None or not game.seat(seat).autopilot:
            break
        if len(steps) >= AUTOPILOT_STEP_LIMIT:
            raise RuntimeError(f"autopilot of game {game.public_id} did not finish its turn")
        steps.append(play(game, state, bot_action(game, state, seat), "bot"))
    return steps
