"""Host actions on the clock and the seats: pause, resume, extend a deadline, substitute.

One transaction each, like every service. The caller (host page, CLI) has checked that it
acts for the host. ``now`` is passed in by tests; otherwise ``pbem.clock.now()``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem import clock, engine
from pbem.engine import GameState
from pbem.extensions import db
from pbem.mail.outbound import notify
from pbem.models import Game, Seat
from pbem.services import deadlines
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.links import revoke_seat_links
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, announce, append_log, lock_game
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


SUBSTITUTE_KIND = "substitute"  # a server record in action_log, not an engine action


def substitute_seat(
    game_id: GameRef, seat_index: int, email: str, *, name: str | None = None,
    now: datetime | None = None,
) -> Seat:
    """A new player takes over a seat: same colour, cards, colonies and score. In one
    transaction: the old player's links stop working (their pages then say the seat was
    handed over), the handover is logged, the newcomer gets an invitation saying what
    happened with a private recap of the seat, the old player is told, and if the game waits
    for the seat (its turn or a decision) the newcomer's turn or decision mail goes out at
    once, with a fresh clock."""
    with transaction():
        game = _locked_live(game_id)
        try:
            seat = game.seat(seat_index)
        except LookupError:
            raise NotAllowed("There is no such seat in this game.") from None
        if seat.is_bot:
            raise NotAllowed("A computer player's seat cannot be handed to a person.")
        address = clean_email(email, what="The new player's email address")
        new_name = clean_name(name or address.partition("@")[0][:40])  # not the old name
        if _same_player(seat, address) and not seat.resigned:
            raise BadInput(f"{address} plays this seat already: give the new player's address.")
        old_name, old_email = seat.name, seat.email
        state = GameState.from_json(game.state)
        waits_for_seat = engine.awaited(state) == seat_index
        if waits_for_seat and game.turn_steps:  # the log stays in time order
            append_log(game, list(game.turn_steps))
            game.turn_steps = []
            game.turn_start_state = state.to_json()
        _hand_over_seat(seat, address, new_name)
        append_log(game, [{
            "seat": seat_index, "action": {"kind": SUBSTITUTE_KIND, "seat": seat_index},
            "notation": SUBSTITUTE_KIND, "by": "host", "round": state.turn.round,
            "events": [{"kind": "substituted", "seat": seat_index, "from": old_name,
                        "to": new_name, "counter": seat.link_counter}],
        }])
        game.version += 1
        when = _now(now)
        if waits_for_seat and game.status == "active":
            deadlines.clear_for(game, when)  # the newcomer's clock starts now
        deadline = deadlines.schedule_for(game, when)
        notify.seat_substituted(game, seat_index, old_name=old_name, old_email=old_email)
        if waits_for_seat and game.status == "active":
            announce(game, state, deadline)
    return seat


def _locked_live(game_id: GameRef) -> Game:
    game = lock_game(game_id)
    if game.status not in ("active", "paused"):
        raise GameNotActive(f"This game is {game.status}.")
    return game


def _same_player(seat: Seat, address: str) -> bool:
    return bool(seat.email) and str(seat.email).lower() == address.lower()


def _hand_over_seat(seat: Seat, address: str, name: str) -> None:
    """The seat row as a newcomer's: their address and name, a human player again, nothing
    of the old player's clock or mail settings, and new links (the old ones are revoked)."""
    seat.email, seat.name = address, name
    seat.absent = seat.resigned = seat.email_failing = False
    seat.consecutive_timeouts = 0
    seat.notify, seat.timezone = "every_turn", "UTC"
    seat.quiet_start, seat.quiet_end = clock.DEFAULT_QUIET_START, clock.DEFAULT_QUIET_END
    seat.digest_at = seat.digest_seq = None
    revoke_seat_links(seat)
