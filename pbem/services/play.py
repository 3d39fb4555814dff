"""The one play path: every step of a stored game is taken here, and every undo.

The turn page's form (and the confirm form a mail link opens), the JSON API, the timeouts'
autopilot, computer seats and replies by mail all come through this module, so a step is
checked, stored, logged and followed the same way whichever door it came in by:

1. the engine applies the action to the game's state (``_apply``: the only call of the
   engine's apply on a stored game; the engine refuses before changing anything);
2. the step joins the turn's steps, and if the awaited seat changed (or the game ended) the
   turn is handed over: its steps are logged and the other players mailed (``turns.hand_over``);
3. what follows (``after_steps``): the autopilot plays what the server owes (computer and
   resigned seats), a player's own step ends a timeout streak, the clock is set for the next
   wait (``deadlines.schedule_for``) and the seat the turn reached is told (``turns.announce``).

``play`` and ``undo`` are the use cases, one transaction each; ``step_locked`` (1 and 2),
``undo_locked`` and ``after_steps`` (3) are their parts, for a caller that already holds the
game's lock in its own transaction (a reply by mail applies all its lines in one). A step
and an undo answer with one type, ``Outcome``; ``run_autopilot`` (inside 3, and at a game's
creation or a resignation) plays the computer's steps by 1 and 2 too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

import sqlalchemy as sa

from pbem import engine
from pbem.engine import GameState
from pbem.extensions import db
from pbem.models import ActionLog, Game
from pbem.services import deadlines, turns
from pbem.services.errors import NotAllowed
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, Step

__all__ = [
    "GameFacts", "Outcome", "SeatFacts", "after_steps", "already_applied", "play",
    "run_autopilot", "step_locked", "undo", "undo_locked", "undo_refusal",
]

T = TypeVar("T")
AUTOPILOT_STEP_LIMIT = 5000  # a whole game is a few hundred steps: more means a bot is stuck


class SeatFacts(Protocol):
    """What an answer reads of a seat: a seat row, or the hot path's copy of the acting one."""

    @property
    def index(self) -> int: ...

    @property
    def name(self) -> str: ...

    @property
    def colour(self) -> str: ...

    @property
    def autopilot(self) -> bool: ...


class GameFacts(Protocol):
    """What an answer reads of the game after a step: the ORM row, or, after a move inside a
    turn (the hot path, which writes the games row alone), the columns read with its lock."""

    @property
    def id(self) -> int: ...

    @property
    def public_id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def turn_steps(self) -> list[Step]: ...

    def seat(self, index: int) -> SeatFacts: ...


@dataclass
class Outcome:
    """What a call changed: the game and its state after it, the steps applied (the caller's,
    then the autopilot's), the step an undo took back, and whether the turn was handed over
    (the awaited seat changed, or the game ended)."""

    game: GameFacts
    state: GameState
    steps: list[Step] = field(default_factory=list)
    undone: Step | None = None
    handed_over: bool = False

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def step(self) -> Step:
        """The caller's own step (the first applied)."""
        return self.steps[0]

    @property
    def events(self) -> list[dict[str, Any]]:
        return [event for step in self.steps for event in step["events"]]


# -- the use cases, one transaction each ------------------------------------------------------


def _in_transaction(work: Callable[[], T]) -> T:
    with transaction(keep_loaded=True):  # the answer is built from what was just written
        return work()


def play(game_id: GameRef, seat_index: int, expected_version: int, action: engine.Action,
         *, by: str = "player") -> Outcome:
    """Take one step of ``seat_index`` (``by``: "player", or the server's "timeout" / "bot"),
    then what follows it; refuses a stale version, an inactive game, another seat's action and
    a player's step on a seat the computer plays, changing nothing."""

    def work() -> Outcome:
        locked = turns.lock_for_step(game_id, seat_index)
        turns.expect(locked, expected_version)
        try:
            actor = locked.seat(seat_index)
        except LookupError:
            raise NotAllowed("There is no such seat in this game.") from None
        if by == "player" and actor.autopilot:
            raise NotAllowed("This seat is played by the computer now.")
        if action.seat != seat_index:
            raise NotAllowed("This action names another player's seat.")
        state = GameState.from_json(locked.state)
        played = _take(state, action, by)
        if _only_the_game_row_changes(locked, state, played, by):
            turns.store_step(locked, state, played.step)  # the hot path: one UPDATE
            return Outcome(locked, state, [played.step])
        game = turns.load_locked(locked)
        _record(game, state, played)
        autopiloted = after_steps(game, state, seat_index, by, handed_over=played.hands_over)
        return Outcome(game, state, [played.step, *autopiloted],
                       handed_over=played.hands_over or bool(autopiloted))

    return _in_transaction(work)


def undo(game_id: GameRef, seat_index: int, expected_version: int) -> Outcome:
    """Take back the seat's last step of this turn, unless it revealed dice or cards."""

    def work() -> Outcome:
        game = turns.lock_game(game_id)
        turns.expect(game, expected_version)
        outcome = undo_locked(game, seat_index)
        game.version += 1
        return outcome

    return _in_transaction(work)


def already_applied(game_id: int, seat_index: int, version: int, action: engine.Action) -> bool:
    """True when a post of ``action`` from a page at ``version`` is a repeat of the step that
    page already made: the game moved on by exactly that one step, this seat's, with the same
    notation (a double click, or a reload of the answer). Reads only; changes nothing."""
    game = db.session.get(Game, game_id)
    if game is None or game.version != version + 1:
        return False
    notation = engine.format_action(action)
    steps = game.turn_steps or []
    if steps:
        last = steps[-1]
        return bool(last["seat"] == seat_index and last["notation"] == notation)
    logged = db.session.execute(  # the step handed the turn over: it is in the log now
        sa.select(ActionLog.seat, ActionLog.notation)
        .where(ActionLog.game_id == game.id, ActionLog.seat == seat_index,
               ActionLog.by == "player")
        .order_by(ActionLog.seq.desc()).limit(1)).first()
    return logged is not None and logged.notation == notation


# -- the same parts inside a caller's transaction (the game locked: ``turns.lock_game``) -----


def step_locked(game: Game, state: GameState, action: engine.Action,
                by: str = "player") -> Outcome:
    """Apply ``action`` to ``state`` (the locked ``game``'s, parsed) and store the step,
    handing the turn over if it does. The caller ends its steps with ``after_steps``."""
    played = _take(state, action, by)
    _record(game, state, played)
    return Outcome(game, state, [played.step], handed_over=played.hands_over)


def undo_locked(game: Game, seat_index: int) -> Outcome:
    """Take back ``seat_index``'s last step of the turn on the locked ``game``, or refuse
    (``NotAllowed``, with ``undo_refusal``'s sentence) changing nothing. The state is the
    turn's start with the turn's other steps replayed (same seed and counter: exact)."""
    steps = list(game.turn_steps)
    refusal = undo_refusal(steps, seat_index)
    if refusal is not None:
        raise NotAllowed(refusal)
    state = GameState.from_json(game.turn_start_state)
    for step in steps[:-1]:
        _apply(state, engine.action_from_json(step["action"]))
    game.state = state.to_json()
    turns.sync_seats(game, state)
    game.turn_steps = steps[:-1]
    return Outcome(game, state, [], undone=steps[-1])


def after_steps(game: Game, state: GameState, seat_index: int, by: str, *,
                handed_over: bool, tell_player: bool = True) -> list[Step]:
    """What follows a call's steps of ``seat_index`` on the locked ``game``; returns the
    steps the autopilot played.

    The version moves on (once per call), the autopilot plays what the server owes, a
    player's own step ends a timeout streak and brings an absent player back (no autopilot
    from now on; before the clock, whose wait depends on it), the clock keeps running or
    starts for the next wait, and a seat the turn reached is told. ``tell_player``: False
    when the caller answers the player itself (a reply's answer shows its new turn).
    """
    game.version += 1
    autopiloted = run_autopilot(game, state)
    if by == "player":
        seat = game.seat(seat_index)
        seat.consecutive_timeouts = 0
        seat.absent = False
    deadline = deadlines.schedule_for(game)
    reached = engine.awaited(state)
    if (handed_over or autopiloted) and (tell_player or reached != seat_index):
        turns.announce(game, state, deadline)
    return autopiloted


def run_autopilot(game: Game, state: GameState) -> list[Step]:
    """Play every step the server owes: while the awaited seat is a bot or resigned."""
    steps: list[Step] = []
    while state.phase != "over":
        seat = engine.awaited(state)
        if seat is None or not game.seat(seat).autopilot:
            break
        if len(steps) >= AUTOPILOT_STEP_LIMIT:
            raise RuntimeError(f"autopilot of game {game.public_id} did not finish its turn")
        played = _take(state, turns.bot_action(game, state, seat), "bot")
        _record(game, state, played)
        steps.append(played.step)
    return steps


def undo_refusal(steps: Sequence[dict[str, Any]], seat: int) -> str | None:
    """Why ``seat`` may not undo the last of the turn's ``steps`` now, or None if it may: only
    its own last step, and not one that revealed something (a roll, a draw, a cycle: its
    events carry ``barrier``). The turn page and the API offer undo when it is None."""
    if not steps or steps[-1]["seat"] != seat:
        return "There is nothing of yours to undo in this turn."
    if steps[-1]["barrier"]:
        return f"'{steps[-1]['notation']}' revealed new dice or cards, so it cannot be undone."
    return None


# -- the mechanics --------------------------------------------------------------------------


def _apply(state: GameState, action: engine.Action) -> list[dict[str, Any]]:
    """The engine's apply on a stored game's state, in place: every step and every replay of
    an undo passes here (``tests/test_play_path.py`` holds every entry point to it)."""
    return engine.apply_in_place(state, action)


@dataclass
class _Played:
    """A step just applied to the state, and what else it changes."""

    step: Step
    hands_over: bool  # the awaited seat changed, the game ended, or the Faction draft ended
    factions_changed: bool  # a Faction board was chosen: the seat rows copy it (sync_seats)


def _take(state: GameState, action: engine.Action, by: str) -> _Played:
    """Apply ``action`` to ``state`` in place, as a step. The end of the Faction draft hands
    over too: seat 0 chooses last and then plays first, so its turn starts."""
    before, drafting = engine.awaited(state), state.phase == "draft"
    factions = [seat.faction for seat in state.seats]
    round_ = state.turn.round
    events = _apply(state, action)
    step = {
        "seat": action.seat,
        "action": engine.action_to_json(action),
        "notation": engine.format_action(action),
        "events": events,
        "barrier": engine.crosses_barrier(events),
        "by": by,
        "round": round_,
    }
    draft_ended = drafting and state.phase != "draft"
    return _Played(
        step,
        hands_over=state.phase == "over" or engine.awaited(state) != before or draft_ended,
        factions_changed=factions != [seat.faction for seat in state.seats],
    )


def _record(game: Game, state: GameState, played: _Played) -> None:
    """Store a step taken on ``game``'s state, and hand the turn over if it does."""
    game.turn_steps = [*game.turn_steps, played.step]  # a new list: JSON columns track assignment
    game.state = state.to_json()
    turns.sync_seats(game, state)
    if played.hands_over:
        turns.hand_over(game, state, played.step["seat"])


def _only_the_game_row_changes(
    locked: turns.LockedGame, state: GameState, played: _Played, by: str,
) -> bool:
    """True when ``play``'s step writes nothing but the games row: no hand-over (log, mail),
    no autopilot step after it, no seat row to update (a Faction board: every step copies
    them to the seat rows, so only a step that chooses one changes them; the end of a
    timeout streak) and the same wait goes on, so ``schedule_for`` would keep every
    deadline row as it is."""
    actor = locked.seat(played.step["seat"])
    ends_timeout_streak = by == "player" and bool(actor.consecutive_timeouts or actor.absent)
    return (
        not played.hands_over and not played.factions_changed and not actor.autopilot
        and not ends_timeout_streak and deadlines.keeps_wait(locked.open_wait, state, actor)
    )
