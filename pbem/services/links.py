"""Seat links against the database: the game and seat a link opens, and revoking them.

The signature and age of a link are checked by ``pbem.tokens`` (no database); here the link
is matched with the seat's ``link_counter``, so bumping the counter revokes every link of
that seat without a table of issued tokens. Unsubscribe links carry the same counter.
"""

from __future__ import annotations

from sqlalchemy import and_, bindparam, select
from sqlalchemy.orm import joinedload

from pbem.extensions import db
from pbem.models import ActionLog, Game, Seat
from pbem.tokens import (
    BadToken,
    SeatLink,
    read_calendar_token,
    read_seat_link,
    read_unsubscribe_token,
)
from pbem.words.when import local_time


def resolve_seat_link(token: str | None, public_id: str | None = None) -> tuple[Game, Seat]:
    """The game and seat a link opens; ``public_id`` is the game the URL names, if any."""
    return _resolve(read_seat_link(token), public_id)


def resolve_unsubscribe_link(token: str | None) -> tuple[Game, Seat]:
    """The game and seat a mail-settings (unsubscribe) link opens; like a seat link, it
    stops working when the seat's links are revoked (a substitution)."""
    return _resolve(read_unsubscribe_token(token), None)


def resolve_calendar_link(token: str | None) -> tuple[Game, Seat]:
    """The game and seat a deadlines feed (iCalendar) link opens; revoked with the seat's
    links."""
    return _resolve(read_calendar_token(token), None)


def _resolve(link: SeatLink, public_id: str | None) -> tuple[Game, Seat]:
    if public_id is not None and link.public_id != public_id:
        raise BadToken("other_game")
    game = db.session.execute(  # the seats in the same round trip: every caller reads them
        select(Game).where(Game.public_id == link.public_id).options(joinedload(Game.seats))
    ).unique().scalar_one_or_none()
    if game is None:
        raise BadToken("revoked")  # the game was deleted; the link cannot work any more
    try:
        seat = game.seat(link.seat)
    except LookupError:
        raise BadToken("forged") from None
    if seat.link_counter != link.counter:
        raise _revoked(game, seat, link.counter)
    return game, seat


def _revoked(game: Game, seat: Seat, counter: int) -> BadToken:
    """Why a link of ``seat`` with an older ``counter`` no longer works: the seat was handed
    over to another player (its substitution record says when), or its links were renewed."""
    rows = db.session.execute(
        select(ActionLog.created_at, ActionLog.events).where(
            ActionLog.game_id == game.id, ActionLog.seat == seat.index,
            ActionLog.notation == "substitute").order_by(ActionLog.seq))
    for when, events in rows:
        handed = next((e for e in events or () if e.get("kind") == "substituted"), None)
        if handed is not None and int(handed.get("counter", 0)) > counter:
            on = local_time(when, "UTC") if when is not None else "a later day"
            return BadToken("handed_over", f"The host handed this seat of {game.name} over to "
                            f"another player on {on}: this link no longer opens it.")
    return BadToken("revoked")


_games, _seats = Game.__table__, Seat.__table__
# Built once, in SQLAlchemy Core: it runs on every API submission, where building the
# statement and the ORM's handling of it cost more than the query itself.
_LINK_CHECK = (
    select(_games.c.players, _seats.c.link_counter)
    .select_from(_games.outerjoin(_seats, and_(
        _seats.c.game_id == _games.c.id, _seats.c.index == bindparam("seat"))))
    .where(_games.c.public_id == bindparam("public_id"))
)


def check_seat_link(token: str | None, public_id: str) -> tuple[SeatLink, int]:
    """``resolve_seat_link`` without loading the game: the link, checked against the
    database (same refusals), and the game's number of seats. For a caller that locks and
    reads the game next (an API submission), so the game row is read only once."""
    link = read_seat_link(token)
    if link.public_id != public_id:
        raise BadToken("other_game")
    row = db.session.execute(
        _LINK_CHECK, {"public_id": link.public_id, "seat": link.seat}
    ).one_or_none()
    if row is None:
        raise BadToken("revoked")  # the game was deleted; the link cannot work any more
    if row.link_counter is None:
        raise BadToken("forged")
    if row.link_counter != link.counter:
        raise BadToken("revoked")
    return link, int(row.players)


def revoke_seat_links(seat: Seat) -> None:
    """Invalidate every link issued for ``seat``, its unsubscribe links too (the caller
    commits)."""
    seat.link_counter += 1
