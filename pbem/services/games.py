"""Game use cases, one transaction each (docs/architecture.md, "Services").

Each function locks the game row, checks the version the caller saw, lets the engine decide,
stores state + log + deadline rows (``pbem.services.deadlines``) + mail
(``pbem.mail.outbound.notify``) together and commits; on any refusal it rolls back, so a
refused request changes nothing.
``game_id`` is a ``GameRef``: the primary key (int) or the public id (str) that URLs and
tokens carry.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import sqlalchemy as sa

from pbem import clock, engine
from pbem.engine import GameState
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVELS, is_level
from pbem.extensions import db
from pbem.mail.outbound import notify, outbox
from pbem.models import ActionLog, Game, Seat
from pbem.models.game import new_public_id
from pbem.schemas.forms import SeatSpec
from pbem.services import deadlines, resignation, turns
from pbem.services.archive import export_game, import_game, verify_replay
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, Step
from pbem.services.undo import undo_refusal
from pbem.services.validation import (
    clean_email,
    clean_hours,
    clean_name,
    clean_time_bank,
    clean_timezone,
)

__all__ = [
    "SeatSpec", "StepResult", "cancel_game", "create_game", "export_game", "import_game",
    "resign", "set_autopilot_level", "submit_action", "undo_step", "verify_replay",
]

T = TypeVar("T")
RESIGN_KIND = resignation.RESIGN_KIND


@dataclass
class StepResult:
    """What a call changed: the game after it and the steps applied (the caller's, then the
    autopilot's); ``undone`` is the step an undo removed."""

    game: Game | turns.LockedGame  # a LockedGame after a move inside a turn (the hot path)
    steps: list[Step] = field(default_factory=list)
    undone: Step | None = None
    state: GameState | None = None  # the engine state ``game.state`` holds, already parsed

    @property
    def version(self) -> int:
        return self.game.version

    @property
    def events(self) -> list[dict[str, Any]]:
        return [event for step in self.steps for event in step["events"]]


def _in_transaction(work: Callable[[], T], *, keep_loaded: bool = False) -> T:
    with transaction(keep_loaded=keep_loaded):
        return work()


# -- create ---------------------------------------------------------------------------------


def _clean_level(level: str | None, *, what: str = "A computer player's level") -> str:
    """A bot level (``engine.bots.levels``); None is the default level."""
    if level is None:
        return DEFAULT_LEVEL
    chosen = level.strip().lower()
    if not is_level(chosen):
        raise BadInput(f"{what} '{level}' is not one of {', '.join(LEVELS)}.")
    return chosen


def _clean_seats(seats: list[SeatSpec]) -> list[SeatSpec]:
    cleaned = []
    for n, spec in enumerate(seats, start=1):
        name = clean_name(spec.name, what=f"Player {n}'s name")
        if spec.is_bot:
            level = _clean_level(spec.level, what=f"{name}'s level")
            cleaned.append(SeatSpec(name, None, True, "UTC", level))
            continue
        email = clean_email(spec.email or "", what=f"{name}'s email address")
        cleaned.append(SeatSpec(name, email, False, clean_timezone(spec.timezone)))
    return cleaned


def create_game(
    *, name: str, host_email: str, seats: list[SeatSpec], options: dict[str, Any],
    time_per_move_hours: int = 48, timeout_policy: dict[str, Any] | None = None,
    seed: int | None = None, fixed_order: bool = False, autopilot_level: str | None = None,
    rematch_of: int | None = None, time_bank: clock.TimeBank | None = None,
) -> Game:
    """Create a game, seat the players (in random order unless ``fixed_order``: ruling B21),
    mail the invitations and let computer players take their first turns. Each computer
    seat plays at its ``SeatSpec.level``; ``autopilot_level`` plays for timed-out, absent
    and resigned players (both default to ``engine.bots.levels.DEFAULT_LEVEL``).
    ``rematch_of``: the finished game this one is the rematch of (``services.rematch``).
    ``time_bank``: each seat's clock is a bank of hours instead of ``time_per_move_hours``
    (``clock.TimeBank``); it is kept in the timeout policy, so rematches and exports carry it."""
    game_name = clean_name(name, what="Game name", limit=80)
    host = clean_email(host_email, what="Host email address")
    specs = _clean_seats(seats)
    autopilot = _clean_level(autopilot_level, what="The autopilot's level")
    hours = clean_hours(time_per_move_hours)
    if time_bank is not None:
        timeout_policy = {**(timeout_policy or {}), "bank": clean_time_bank(time_bank).to_json()}
    if seed is None:
        seed = secrets.randbits(63)  # server-side secret: every roll and shuffle follows from it
    try:  # the engine decides which seat counts and options exist (5 seats with Factions)
        state = engine.new_game(len(specs), seed, options)
    except engine.RulesError as exc:
        raise BadInput(exc.message) from None
    if not fixed_order:
        secrets.SystemRandom().shuffle(specs)
    colours = [s["colour"] for s in engine.view(state, None)["seats"]]
    host_seat = next(
        (i for i, s in enumerate(specs) if s.email and s.email.lower() == host.lower()), None
    )
    with transaction():
        game = Game(
            public_id=new_public_id(), name=game_name, status="active",
            players=len(specs), options=dict(state.options), seed=seed, state=state.to_json(),
            version=1, turn_start_state=state.to_json(), turn_steps=[], host_email=host,
            host_seat=host_seat, time_per_move_hours=hours, timeout_policy=timeout_policy,
            autopilot_level=autopilot, rematch_of=rematch_of,
        )
        game.seats = [
            Seat(index=i, name=s.name, email=s.email, is_bot=s.is_bot, bot_level=s.level,
                 colour=colours[i], timezone=s.timezone, notify="every_turn", link_counter=0,
                 resigned=False, absent=False, consecutive_timeouts=0, email_failing=False)
            for i, s in enumerate(specs)
        ]
        db.session.add(game)
        db.session.flush()
        notify.invitations(game)
        first = engine.awaited(state)
        if first is not None and game.seat(first).autopilot:
            turns.run_autopilot(game, state)  # up to the first seat that is not the server's
        turns.announce(game, state, deadlines.schedule_for(game))  # the first wait's clock
    return game


# -- play -----------------------------------------------------------------------------------


def _seat(game: Game | turns.LockedGame, seat_index: int) -> Seat | turns.ActingSeat:
    try:
        return game.seat(seat_index)
    except LookupError:
        raise NotAllowed("There is no such seat in this game.") from None


def submit_action(
    game_id: GameRef, seat_index: int, expected_version: int, action: engine.Action,
    *, by: str = "player",
) -> StepResult:
    """Apply one action of ``seat_index``, then any autopilot turns that follow."""

    def work() -> StepResult:
        locked = turns.lock_for_step(game_id, seat_index)
        turns.expect(locked, expected_version)
        actor = _seat(locked, seat_index)
        if by == "player" and actor.autopilot:
            raise NotAllowed("This seat is played by the computer now.")
        if action.seat != seat_index:
            raise NotAllowed("This action names another player's seat.")
        state = GameState.from_json(locked.state)
        played = turns.take_step(state, action, by)
        if _only_the_game_row_changes(locked, state, played, by):
            turns.store_step(locked, state, played.step)  # the hot path: one UPDATE
            return StepResult(locked, [played.step], state=state)
        game = turns.load_locked(locked)
        game.version += 1
        turns.record(game, state, played)
        autopiloted = turns.run_autopilot(game, state)
        if by == "player":  # a move of one's own ends a timeout streak
            seat = game.seat(seat_index)
            seat.consecutive_timeouts = 0
            seat.absent = False  # and brings an absent player back: no autopilot from now on
        deadline = deadlines.schedule_for(game)  # keeps the clock or starts the next one
        if played.hands_over or autopiloted:  # the turn reached a new seat: tell it
            turns.announce(game, state, deadline)
        return StepResult(game, [played.step, *autopiloted], state=state)

    return _in_transaction(work, keep_loaded=True)


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


def _only_the_game_row_changes(
    locked: turns.LockedGame, state: GameState, played: turns.Played, by: str,
) -> bool:
    """True when ``submit_action``'s step writes nothing but the games row: no hand-over (log,
    mail), no autopilot step after it, no seat row to update (a Faction board: every step
    copies them to the seat rows, so only a step that chooses one changes them; the end of a
    timeout streak) and the same wait goes on, so ``schedule_for`` would keep every
    deadline row as it is."""
    actor = locked.seat(played.step["seat"])
    ends_timeout_streak = by == "player" and bool(actor.consecutive_timeouts or actor.absent)
    return (
        not played.hands_over and not played.factions_changed and not actor.autopilot
        and not ends_timeout_streak and deadlines.keeps_wait(locked.open_wait, state, actor)
    )


def undo_step(game_id: GameRef, seat_index: int, expected_version: int) -> StepResult:
    """Take back the seat's last step of this turn, unless it revealed dice or cards."""

    def work() -> StepResult:
        game = turns.lock_game(game_id)
        turns.expect(game, expected_version)
        steps = list(game.turn_steps)
        refusal = undo_refusal(steps, seat_index)
        if refusal is not None:
            raise NotAllowed(refusal)
        state = GameState.from_json(game.turn_start_state)
        for step in steps[:-1]:  # same seed and counter: the replay is exact
            engine.apply_in_place(state, engine.action_from_json(step["action"]))
        game.state = state.to_json()
        turns.sync_seats(game, state)
        game.turn_steps = steps[:-1]
        game.version += 1
        return StepResult(game, [], undone=steps[-1], state=state)

    return _in_transaction(work, keep_loaded=True)


def resign(game_id: GameRef, seat_index: int, *, by: str = "player",
           expected_version: int | None = None) -> StepResult:
    """The seat leaves; the computer plays it from now on (the autopilot), logged, and
    everyone is mailed once (``pbem.services.resignation``). ``expected_version``: refuse a
    stale request (the API's); None takes the game as it is (the confirmed page form)."""

    def work() -> StepResult:
        game = turns.lock_game(game_id)
        if expected_version is not None:
            turns.expect(game, expected_version, active=False)
        steps = resignation.resign_locked(game, seat_index, by=by)
        return StepResult(game, steps)

    return _in_transaction(work)


def set_autopilot_level(game_id: GameRef, level: str) -> Game:
    """The host chooses the level that plays for timed-out, absent and resigned players from
    the next autopilot step on (steps already played stay in the log as they were)."""

    def work() -> Game:
        chosen = _clean_level(level, what="The autopilot's level")
        game = turns.lock_game(game_id)
        if game.status in ("finished", "cancelled"):
            raise GameNotActive(f"This game is {game.status}.")
        game.autopilot_level = chosen
        game.version += 1
        return game

    return _in_transaction(work)


def cancel_game(game_id: GameRef, *, now: datetime | None = None) -> Game:
    """The host calls the game off (the caller has checked that it is the host, and that
    the host confirmed it): no deadline runs after it, the game's mail that has not left yet
    is dropped, and every player is mailed once, in the same transaction."""

    def work() -> Game:
        game = turns.lock_game(game_id)
        if game.status in ("finished", "cancelled"):
            raise GameNotActive(f"This game is already {game.status}.")
        game.status = "cancelled"
        game.finished_at = clock.as_utc(now) if now is not None else clock.now()
        game.version += 1
        deadlines.clear_for(game)
        outbox.drop_pending(game)
        notify.game_cancelled(game)
        return game

    return _in_transaction(work)
