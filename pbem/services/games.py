"""Game use cases, one transaction each (docs/architecture.md, "Services"): create,
resign, the autopilot's level, the strong computer players' budget, cancel. A step of the
game and its undo are taken by ``pbem.services.play``, the one play path.

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
from datetime import datetime
from typing import Any, TypeVar

from pbem import clock, engine
from pbem.engine import GameState
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVELS, check_budget, is_level
from pbem.extensions import db
from pbem.mail.outbound import notify, outbox
from pbem.models import Game, Seat
from pbem.models.game import new_public_id
from pbem.schemas.forms import SeatSpec
from pbem.services import deadlines, play, resignation, turns
from pbem.services.archive import export_game, import_game, verify_replay
from pbem.services.errors import BadInput, GameNotActive
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef
from pbem.services.validation import (
    clean_email,
    clean_hours,
    clean_name,
    clean_time_bank,
    clean_timezone,
)

__all__ = [
    "SeatSpec", "cancel_game", "create_game", "export_game", "import_game", "resign",
    "set_autopilot_level", "set_bot_budget", "verify_replay",
]

T = TypeVar("T")
RESIGN_KIND = resignation.RESIGN_KIND


def _in_transaction(work: Callable[[], T]) -> T:
    with transaction():
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


def _clean_budget(budget: int | None) -> int | None:
    """The strong computer players' rollouts per decision (``engine.bots.levels``: a whole
    number from ``MIN_BUDGET`` to ``MAX_BUDGET``); None is the default (``ROLLOUTS``)."""
    try:
        return check_budget(budget)
    except engine.RulesError as exc:  # InvalidAction, in the bot levels' words
        raise BadInput(exc.message) from None


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
    bot_budget: int | None = None,
) -> Game:
    """Create a game, seat the players (in random order unless ``fixed_order``: ruling B21),
    mail the invitations and let computer players take their first turns. Each computer
    seat plays at its ``SeatSpec.level``; ``autopilot_level`` plays for timed-out, absent
    and resigned players (both default to ``engine.bots.levels.DEFAULT_LEVEL``);
    ``bot_budget`` is the rollouts per decision of every seat the strong level plays (None:
    the strong bot's default, ``ROLLOUTS``, whatever it is when the bot decides).
    ``rematch_of``: the finished game this one is the rematch of (``services.rematch``).
    ``time_bank``: each seat's clock is a bank of hours instead of ``time_per_move_hours``
    (``clock.TimeBank``); it is kept in the timeout policy, so rematches and exports carry it."""
    game_name = clean_name(name, what="Game name", limit=80)
    host = clean_email(host_email, what="Host email address")
    specs = _clean_seats(seats)
    autopilot = _clean_level(autopilot_level, what="The autopilot's level")
    budget = _clean_budget(bot_budget)
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
            autopilot_level=autopilot, bot_budget=budget, rematch_of=rematch_of,
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
            play.run_autopilot(game, state)  # up to the first seat that is not the server's
        turns.announce(game, state, deadlines.schedule_for(game))  # the first wait's clock
    return game


# -- the seats' own choices ---------------------------------------------------------------
# (steps and undo: ``pbem.services.play``, the one play path)


def resign(game_id: GameRef, seat_index: int, *, by: str = "player",
           expected_version: int | None = None) -> play.Outcome:
    """The seat leaves; the computer plays it from now on (the autopilot), logged, and
    everyone is mailed once (``pbem.services.resignation``). ``expected_version``: refuse a
    stale request (the API's); None takes the game as it is (the confirmed page form)."""

    def work() -> play.Outcome:
        game = turns.lock_game(game_id)
        if expected_version is not None:
            turns.expect(game, expected_version, active=False)
        steps = resignation.resign_locked(game, seat_index, by=by)
        return play.Outcome(game, GameState.from_json(game.state), steps)

    return _in_transaction(work)


def set_autopilot_level(game_id: GameRef, level: str) -> Game:
    """The host chooses the level that plays for timed-out, absent and resigned players from
    the next autopilot step on (steps already played stay in the log as they were)."""

    return _set_setting(game_id, autopilot_level=_clean_level(
        level, what="The autopilot's level"))


def set_bot_budget(game_id: GameRef, budget: int | None) -> Game:
    """The host chooses the rollouts per decision of every seat the strong level plays (a
    strong computer player, or the autopilot at strong) from its next decision on; None
    goes back to the default (``ROLLOUTS``). Steps already played stay in the log."""

    return _set_setting(game_id, bot_budget=_clean_budget(budget))


def _set_setting(game_id: GameRef, **values: Any) -> Game:
    """The host's change of the game's settings (checked already), in one transaction that
    bumps the version; refused once the game is over."""

    def work() -> Game:
        game = turns.lock_game(game_id)
        if game.status in ("finished", "cancelled"):
            raise GameNotActive(f"This game is {game.status}.")
        for name, value in values.items():
            setattr(game, name, value)
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
