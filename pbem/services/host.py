"""Host actions on the clock and the seats: pause, resume, extend a deadline, substitute.

One transaction each, like every service. The caller (host page, CLI) has checked that it
acts for the host. ``now`` is passed in by tests; otherwise ``pbem.clock.now()``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem import clock, engine
from pbem.engine import GameState
from pbem.extensions import db
from pbem.mail.outbound import compose, notify
from pbem.mail.outbound.outbox import enqueue
from pbem.models import Game, Seat
from pbem.services import deadlines
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.links import revoke_seat_links
from pbem.services.turns import GameRef, lock_game
from pbem.services.validation import clean_email, clean_name

MAX_EXTENSION_HOURS = 24 * 14


def _now(now: datetime | None) -> datetime:
    return clock.as_utc(now) if now is not None else clock.now()


def _commit(game: Game) -> Game:
    game.version += 1
    db.session.commit()
    return game


def _locked(game_id: GameRef, *statuses: str) -> Game:
    try:
        game = lock_game(game_id)
        if game.status not in statuses:
            raise GameNotActive(f"This game is {game.status}.")
    except BaseException:
        db.session.rollback()
        raise
    return game


def pause_game(game_id: GameRef, *, now: datetime | None = None) -> Game:
    """Stop the game's clock: no reminder, no timeout and no move until it is resumed. Every
    player is mailed (in the same transaction)."""
    game = _locked(game_id, "active")
    game.status = "paused"
    when = _now(now)
    deadlines.clear_for(game, when)
    notify.game_paused(game, when)
    return _commit(game)


def resume_game(game_id: GameRef, *, now: datetime | None = None) -> Game:
    """Start the clock again where it stopped: the awaited seat keeps the time it had left."""
    game = _locked(game_id, "paused")
    game.status = "active"
    due = deadlines.schedule_for(game, _now(now))
    notify.game_resumed(game, due)
    return _commit(game)


def extend_deadline(game_id: GameRef, hours: int, *, now: datetime | None = None) -> datetime:
    """Give the awaited seat ``hours`` more (its reminders move too); returns the deadline."""
    if not 1 <= hours <= MAX_EXTENSION_HOURS:
        db.session.rollback()
        raise BadInput(f"An extension is 1 to {MAX_EXTENSION_HOURS} hours.")
    game = _locked(game_id, "active")
    seat = engine.awaited(GameState.from_json(game.state))
    if seat is None or deadlines.deadline_for(game) is None:
        db.session.rollback()
        raise NotAllowed("No player's clock is running in this game.")
    deadlines.shift_seat(game, seat, timedelta(hours=hours))
    db.session.flush()
    due = deadlines.deadline_for(game)
    assert due is not None
    notify.deadline_extended(game, seat, hours, due)
    _commit(game)
    return due


def substitute_seat(
    game_id: GameRef, seat_index: int, email: str, *, name: str | None = None,
    now: datetime | None = None,
) -> Seat:
    """A new player takes over a seat: same colour, cards, colonies and score; the old
    player's links stop working; the newcomer is invited and gets a fresh clock."""
    game = _locked(game_id, "active", "paused")
    try:
        seat = game.seat(seat_index)
        if seat.is_bot:
            raise NotAllowed("A computer player's seat cannot be handed to a person.")
        seat.email = clean_email(email, what="The new player's email address")
        if name:
            seat.name = clean_name(name)
    except (LookupError, BadInput, NotAllowed) as exc:
        db.session.rollback()
        if isinstance(exc, LookupError):
            raise NotAllowed("There is no such seat in this game.") from None
        raise
    seat.absent = False
    seat.resigned = False
    seat.consecutive_timeouts = 0
    seat.email_failing = False
    revoke_seat_links(seat)
    enqueue(to_addr=seat.email, mail=compose.invitation(game, seat), game=game, seat=seat_index)
    deadlines.schedule_for(game, _now(now))
    _commit(game)
    return seat
