"""A player's own seat: mail settings, time zone and quiet hours, and coming back from absence.

One transaction each, like every service; a refusal rolls back and changes nothing. The
caller (the turn page) has checked the seat's link and form token. ``now`` is passed in by
tests; otherwise ``pbem.clock.now()``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from pbem import clock
from pbem.engine import GameState, awaited
from pbem.extensions import db
from pbem.models import Game, Seat
from pbem.models.deadline import REMINDER, Deadline
from pbem.models.game import NOTIFY_CHOICES
from pbem.services import deadlines
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, lock_game
from pbem.services.validation import clean_timezone

LIVE = ("active", "paused")


def _now(now: datetime | None) -> datetime:
    return clock.as_utc(now) if now is not None else clock.now()


def _locked_seat(game_id: GameRef, seat_index: int) -> tuple[Game, Seat]:
    game = lock_game(game_id)
    if game.status not in LIVE:
        raise GameNotActive(f"This game is {game.status}.")
    try:
        seat = game.seat(seat_index)
    except LookupError:
        raise NotAllowed("There is no such seat in this game.") from None
    if seat.is_bot:
        raise NotAllowed("This seat is played by the computer.")
    return game, seat


def _hour(value: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 23:
        raise BadInput(f"{what} is a whole hour from 0 to 23.")
    return value * 60  # stored in minutes after local midnight (Seat.quiet_start)


def update_settings(
    game_id: GameRef, seat_index: int, *, notify: str, timezone: str, quiet_start: int,
    quiet_end: int, table_talk_mail: bool | None = None,
) -> Seat:
    """Set which mails the seat gets, its time zone and its quiet hours (whole local hours;
    equal start and end mean none). Open reminders move to fit the new hours.
    ``table_talk_mail``: whether its mails show the table talk (None: as it is)."""
    if notify not in NOTIFY_CHOICES:
        raise BadInput("Choose every turn, only my turn or a daily digest.")
    zone = clean_timezone(timezone)
    start = _hour(quiet_start, "The start of your quiet hours")
    end = _hour(quiet_end, "The end of your quiet hours")
    with transaction():
        game, seat = _locked_seat(game_id, seat_index)
        if table_talk_mail is not None:
            seat.table_talk_mail = table_talk_mail
        before = (seat.notify, seat.timezone, seat.quiet_start, seat.quiet_end)
        if before != (notify, zone, start, end):
            seat.notify = notify
            if (seat.timezone, seat.quiet_start, seat.quiet_end) != (zone, start, end):
                seat.timezone, seat.quiet_start, seat.quiet_end = zone, start, end
                deadlines.requiet_seat(game, seat_index)
            # no version bump: the game's state is unchanged, and a bump would make every
            # open form of the player whose turn it is "out of date"
    return seat


def choose_mails(game_id: GameRef, seat_index: int, notify: str) -> Seat:
    """Set which mails the seat gets, whatever the game's state: an unsubscribe link's
    one-click POST comes from a mail client, which cannot read a page that refuses it."""
    if notify not in NOTIFY_CHOICES:
        raise BadInput("Choose one of the mail settings offered.")
    with transaction():
        seat = lock_game(game_id).seat(seat_index)  # the link named an existing seat
        seat.notify = notify
    return seat


def remembered_timezone(seat: Seat) -> str | None:
    """The time zone this seat's address set in its most recent other seat, to offer for a
    new game (asked once per address). None when the seat has its own zone already (not the
    default UTC), or the address never set one."""
    if not seat.email or (seat.timezone or "UTC") != "UTC":
        return None
    zone = db.session.scalars(
        select(Seat.timezone)
        .where(Seat.email == seat.email, Seat.id != seat.id, Seat.timezone != "UTC")
        .order_by(Seat.id.desc()).limit(1)
    ).first()
    return zone or None


def come_back(game_id: GameRef, seat_index: int, *, now: datetime | None = None) -> Seat:
    """An absent player plays again: the autopilot stops, the timeout streak ends, and if the
    game waits for the seat its turn gets a normal clock (reminders, timeout) from now."""
    moment = _now(now)
    with transaction():
        game, seat = _locked_seat(game_id, seat_index)
        if seat.resigned:
            raise NotAllowed("You resigned from this game: the computer plays your seat.")
        if not seat.absent:
            raise NotAllowed("You are not marked absent: your seat is already yours to play.")
        if _autopilot_playing(game, seat_index, moment):
            raise NotAllowed("The autopilot is playing your turn right now. "
                             "Try again in a few minutes.")
        seat.absent = False
        seat.consecutive_timeouts = 0
        if awaited(GameState.from_json(game.state)) == seat_index:
            # the wait's key changes from "auto" to "clock": the AUTOPLAY row is replaced
            deadlines.schedule_for(game, moment)
        game.version += 1
    return seat


def _autopilot_playing(game: Game, seat_index: int, now: datetime) -> bool:
    """A sweeper holds this seat's turn under a lease (it commits step by step)."""
    leases = db.session.scalars(
        select(Deadline.lease_until).where(
            Deadline.game_id == game.id, Deadline.seat == seat_index,
            Deadline.done_at.is_(None), Deadline.lease_until.is_not(None),
            Deadline.kind != REMINDER)  # a claimed reminder is a mail, not a turn
    )
    return any(lease is not None and clock.as_utc(lease) > now for lease in leases)
