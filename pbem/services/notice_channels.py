"""Where a seat's notices also go (its chat channels, their order, its handle and escalation
hours) and the game's table channel (the host's). One transaction each; a refusal changes
nothing. The channel's URL is checked (``targets.check_target``: a supported service, https,
a public host) before the game is locked, so a slow name lookup never holds the lock.
"""

from __future__ import annotations

import sqlalchemy as sa

from pbem.extensions import db
from pbem.mail.outbound.chat import escalation, targets, words
from pbem.models.game import Game, Seat
from pbem.models.notice import NoticeChannel
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.transaction import transaction
from pbem.services.turns import lock_game

MAX_SEAT_CHANNELS = 4
ESCALATE_HOURS = range(1, 73)
LIVE = ("active", "paused")


def _checked(url: str) -> targets.Target:
    """``url`` read and checked; a refusal is the person's bad input."""
    try:
        return targets.check_target(url)
    except targets.BadTarget as exc:
        raise BadInput(exc.message) from None


def _seat(game_id: int, seat_index: int) -> tuple[Game, Seat]:
    game = lock_game(game_id)
    if game.status not in LIVE:
        raise GameNotActive(f"This game is {game.status}.")
    try:
        seat = game.seat(seat_index)
    except LookupError:
        raise NotAllowed("There is no such seat in this game.") from None
    if seat.is_bot or seat.resigned:
        raise NotAllowed("The computer plays this seat.")
    return game, seat


def _channel(game: Game, seat_index: int | None, channel_id: int) -> NoticeChannel:
    channel = db.session.get(NoticeChannel, channel_id)
    if channel is None or channel.game_id != game.id or channel.seat != seat_index:
        raise NotAllowed("There is no such channel.")
    return channel


def seat_channels(game: Game, seat_index: int | None) -> list[NoticeChannel]:
    """Every channel of the seat (or the table's, ``seat_index`` None), paused ones too, in
    order: what the settings page lists."""
    owner = (NoticeChannel.seat.is_(None) if seat_index is None
             else NoticeChannel.seat == seat_index)
    return list(db.session.scalars(sa.select(NoticeChannel).where(
        NoticeChannel.game_id == game.id, owner)
        .order_by(NoticeChannel.position, NoticeChannel.id)))


def add_channel(game_id: int, seat_index: int, url: str) -> NoticeChannel:
    """Add a channel at the end of the seat's order."""
    target = _checked(url)
    with transaction():
        game, _ = _seat(game_id, seat_index)
        have = seat_channels(game, seat_index)
        if len(have) >= MAX_SEAT_CHANNELS:
            raise BadInput(f"A seat has at most {MAX_SEAT_CHANNELS} channels: remove one "
                           "first.")
        channel = _new(game, seat_index, target, 1 + max((c.position for c in have),
                                                         default=0))
    return channel


def _new(game: Game, seat_index: int | None, target: targets.Target,
         position: int) -> NoticeChannel:
    channel = NoticeChannel(game_id=game.id, seat=seat_index, service=target.service,
                            url=target.url, shown=target.shown[:160], position=position,
                            failures=0)
    db.session.add(channel)
    return channel


def remove_channel(game_id: int, seat_index: int | None, channel_id: int) -> None:
    """Remove a channel; its waiting notices go with it."""
    with transaction():
        game = lock_game(game_id) if seat_index is None else _seat(game_id, seat_index)[0]
        db.session.delete(_channel(game, seat_index, channel_id))


def move_up(game_id: int, seat_index: int, channel_id: int) -> None:
    """Move a channel one place earlier in the seat's escalation order."""
    with transaction():
        game, _ = _seat(game_id, seat_index)
        order = seat_channels(game, seat_index)
        channel = _channel(game, seat_index, channel_id)
        at = order.index(channel)
        if at > 0:
            order[at - 1], order[at] = order[at], order[at - 1]
        for position, each in enumerate(order, start=1):
            each.position = position


def resume(game_id: int, seat_index: int | None, channel_id: int) -> None:
    """Post to a paused channel again (its failure count starts over)."""
    with transaction():
        game = lock_game(game_id) if seat_index is None else _seat(game_id, seat_index)[0]
        channel = _channel(game, seat_index, channel_id)
        channel.paused_at, channel.paused_reason, channel.failures = None, None, 0


def set_options(game_id: int, seat_index: int, *, handle: str,
                escalate_hours: int | None) -> None:
    """The seat's handle on the table channel's service, and its escalation hours (None:
    every channel gets the notices at once)."""
    handle = handle.strip()
    if handle and words.handle_service(handle) is None:
        raise BadInput("Give your handle as the service knows you: a Discord user id (digits), "
                       "a Slack member id (U…), a Matrix id (@you:server) or a Telegram "
                       "@username.")
    if escalate_hours is not None and escalate_hours not in ESCALATE_HOURS:
        raise BadInput("Escalate after 1 to 72 hours, or never.")
    with transaction():
        _, seat = _seat(game_id, seat_index)
        seat.chat_handle = handle or None
        seat.escalate_hours = escalate_hours


def set_table_channel(game_id: int, url: str) -> NoticeChannel:
    """The host sets (or replaces) the game's table channel."""
    target = _checked(url)
    with transaction():
        game = lock_game(game_id)
        if game.status not in LIVE:
            raise GameNotActive(f"This game is {game.status}.")
        for old in seat_channels(game, None):
            db.session.delete(old)
        channel = _new(game, None, target, 0)
    return channel


def escalating(game: Game, seat_index: int) -> bool:
    """The seat's turn notice is escalating (its turn page, once opened, says so)."""
    return escalation.pending(game.id, seat_index)


def seat_visited(game_id: int, seat_index: int) -> None:
    """The seat opened its turn page: a pending escalation of its turn ends."""
    with transaction():
        escalation.visited(game_id, seat_index)
