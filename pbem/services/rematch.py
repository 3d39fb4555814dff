"""Play again: the host starts the rematch of a finished game, a player asks the host for one.

A rematch is a new game with the same seats (each player at the address and time zone the
seat has at the end, a computer player at its level), the same options, time per move,
timeout policy, autopilot level, strong computer players' budget and host; the seat order is
drawn again (ruling B21). It names its game in ``rematch_of``, which is unique, so a game has
one rematch at most and the chain of rematches, the group's season, never branches. Everyone
gets an invitation.
"""

from __future__ import annotations

import re
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from pbem import clock
from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.models import Game, Outbox
from pbem.models.season import rematch_of, season_of
from pbem.services import games
from pbem.services.errors import GameNotActive, NotAllowed
from pbem.services.games import SeatSpec
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, find_game, lock_game

ASKED_KIND = "rematch_asked"  # the outbox row of a player's request: one per seat and game
_NUMBERED = re.compile(r"\s+—\s+game\s+\d+$")
NAME_LIMIT = 80


class RematchStarted(NotAllowed):
    """The game has its rematch already; ``rematch`` is it."""

    def __init__(self, rematch: Game) -> None:
        super().__init__(f"The rematch has started already: {rematch.name}. Every player "
                         "has an invitation to it.")
        self.rematch = rematch


def rematch_name(game: Game) -> str:
    """ "Friday Frontier — game 3": the first game's name and the rematch's place in the
    season."""
    number = len(season_of(game)) + 1
    base = _NUMBERED.sub("", game.name)
    suffix = f" — game {number}"
    return base[:NAME_LIMIT - len(suffix)] + suffix


def _checked(game: Game) -> None:
    if game.status != "finished":
        raise GameNotActive(f"This game is {game.status}: only a finished game has a rematch.")
    started = rematch_of(game)
    if started is not None:
        raise RematchStarted(started)


def start_rematch(game_id: GameRef, *, seed: int | None = None) -> Game:
    """The host starts the rematch of the finished game (the caller has checked it is the
    host); one transaction: the game, its seats and every invitation. ``seed``: tests only.
    A second start is refused with the rematch already started (``RematchStarted``)."""
    try:
        with transaction():
            old = lock_game(game_id)  # two hosts' taps at once: one waits, then is refused
            _checked(old)
            seats = [SeatSpec(s.name, None, True, "UTC", s.level) if s.is_bot
                     else SeatSpec(s.name, s.email, False, s.timezone or "UTC")
                     for s in sorted(old.seats, key=lambda s: s.index)]
            return games.create_game(
                name=rematch_name(old), host_email=old.host_email, seats=seats,
                options=dict(old.options or {}), time_per_move_hours=old.time_per_move_hours,
                timeout_policy=old.timeout_policy, seed=seed,
                autopilot_level=old.autopilot_level, bot_budget=old.bot_budget,
                rematch_of=old.id)
    except IntegrityError:  # the unique rematch_of: another process started it first
        db.session.rollback()
        started = rematch_of(find_game(game_id))
        if started is None:
            raise
        raise RematchStarted(started) from None


def asked_at(game: Game, seat_index: int) -> datetime | None:
    """When ``seat_index`` asked the host for a rematch of ``game``, if it did."""
    return db.session.scalar(
        sa.select(Outbox.created_at).where(Outbox.game_id == game.id, Outbox.kind == ASKED_KIND,
                                           Outbox.seat == seat_index)
        .order_by(Outbox.id).limit(1))


def ask_for_rematch(game_id: GameRef, seat_index: int) -> bool:
    """A player of the finished game asks the host for a rematch: the host is mailed once
    per player (a repeat changes nothing and returns False). The host's own seat starts it
    instead (``start_rematch``)."""
    with transaction():
        game = lock_game(game_id)
        _checked(game)
        try:
            seat = game.seat(seat_index)
        except LookupError:
            raise NotAllowed("There is no such seat in this game.") from None
        if seat.is_bot:
            raise NotAllowed("A computer player cannot ask for a rematch.")
        if asked_at(game, seat_index) is not None:
            return False
        notify.rematch_asked(game, seat_index, clock.now())
    return True
