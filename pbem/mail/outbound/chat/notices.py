"""The notice rows: written in the caller's session, in the transaction of the change they
tell, like the outbox's mail (``notify`` calls these hooks). Nothing here commits or posts.

A seat's channels get its "your turn" (or decision), reminder and game-over notices; with
escalation on (``Seat.escalate_hours``) the "your turn" goes to its channels one at a time
instead (``escalation``). The game's table channel gets each hand-off (one post, mentioning
the seat whose turn it is), the result, and whatever the table talk posts
(``post_to_table``). A paused channel gets nothing until its owner resumes it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa

from pbem import clock
from pbem.engine import GameState, view
from pbem.extensions import db
from pbem.mail.outbound import links, preheaders
from pbem.mail.outbound.chat import words
from pbem.models.game import Game, Seat
from pbem.models.notice import Notice, NoticeChannel, NoticeEscalation
from pbem.models.outbox import PENDING
from pbem.words.result import standings
from pbem.words.when import time_left

TALK_LIMIT = 1000


_LIVE = (sa.select(NoticeChannel)
         .where(NoticeChannel.game_id == sa.bindparam("game_id"),
                NoticeChannel.paused_at.is_(None))
         .order_by(NoticeChannel.position, NoticeChannel.id))


def live_channels(game: Game) -> list[NoticeChannel]:
    """The game's channels that are not paused, each seat's in its escalation order: one
    indexed query per hook, built once (a game without channels costs a hand-over no more
    than that: benchmarks/notices.py)."""
    return list(db.session.scalars(_LIVE, {"game_id": game.id}))


def seat_channels(game: Game, seat_index: int) -> list[NoticeChannel]:
    """The seat's channels that are not paused, in its escalation order."""
    return [c for c in live_channels(game) if c.seat == seat_index]


def table_channel(game: Game) -> NoticeChannel | None:
    """The game's table channel when it has one that is not paused."""
    return next((c for c in live_channels(game) if c.seat is None), None)


def enqueue(channel: NoticeChannel, kind: str, body: str, *, game: Game,
            seat: int | None, now: datetime | None = None) -> Notice:
    """One post for ``channel``, added to the caller's session."""
    now = now or clock.now()
    row = Notice(channel_id=channel.id, game_id=game.id, seat=seat, kind=kind,
                 title=words.title(channel.service, game.name)[:255], body=body,
                 status=PENDING, attempts=0, next_attempt_at=now, created_at=now)
    db.session.add(row)
    return row


def _state(game: Game) -> GameState:
    return GameState.from_json(game.state)


def turn_started(game: Game, seat: Seat, deadline: datetime | None, *,
                 decision: bool = False, hand_off: bool = False) -> None:
    """``seat`` is awaited (its turn, or a decision): its channels, at once or one at a
    time (escalation); with ``hand_off``, the table channel's post too. One query when the
    game has no channel."""
    channels = live_channels(game)
    table = next((c for c in channels if c.seat is None), None)
    if hand_off and table is not None:
        _hand_off(game, seat, deadline, table)
    mine = [] if seat.is_bot else [c for c in channels if c.seat == seat.index]
    now = clock.now()
    if seat.escalate_hours:
        if mine or table is not None:
            start_escalation(game, seat, now)
        return
    if not mine:
        return  # a game without channels pays one query, no more
    body = words.your_turn(_state(game).turn.round, time_left(deadline, now),
                           links.game_url(game), decision="your choice" if decision else None)
    for channel in mine:
        enqueue(channel, "your_turn", body, game=game, seat=seat.index, now=now)


def start_escalation(game: Game, seat: Seat, now: datetime) -> None:
    """Open (or restart) the seat's escalation: its first channel is told when
    ``escalate_hours`` pass with no visit or move."""
    assert seat.escalate_hours
    db.session.execute(sa.delete(NoticeEscalation).where(
        NoticeEscalation.game_id == game.id, NoticeEscalation.seat == seat.index))
    due = clock.as_utc(now) + timedelta(hours=seat.escalate_hours)
    db.session.add(NoticeEscalation(game_id=game.id, seat=seat.index, step=0, started_at=now,
                                    due_at=due))


def _hand_off(game: Game, seat: Seat, deadline: datetime | None,
              table: NoticeChannel) -> None:
    """The turn passed to ``seat``: one post to the table channel, mentioning it."""
    who = words.mention(table.service, seat.chat_handle, seat.name)
    body = words.hand_off(who, _state(game).turn.round, time_left(deadline, clock.now()),
                          links.game_url(game))
    enqueue(table, "hand_off", body, game=game, seat=None)


def reminder(game: Game, seat: Seat, due: datetime) -> None:
    """The deadline of ``seat``'s turn is close: every channel of the seat."""
    mine = seat_channels(game, seat.index)
    if not mine:
        return
    body = words.reminder(_state(game).turn.round, time_left(due, clock.now()),
                          links.game_url(game))
    for channel in mine:
        enqueue(channel, "reminder", body, game=game, seat=seat.index)


def game_over(game: Game) -> None:
    """The result: every person's channels, and the table channel."""
    db.session.execute(sa.delete(NoticeEscalation).where(NoticeEscalation.game_id == game.id))
    channels = live_channels(game)
    if not channels:
        return
    state = _state(game)
    names = [s.name for s in sorted(game.seats, key=lambda s: s.index)]
    ranking = standings(view(state, None), names)
    winners = [row["name"] for row in ranking if row["won"]]
    top = max((row["total"] for row in ranking), default=None)
    url = links.game_url(game)
    for channel in channels:
        line = preheaders.game_over([words.plain(channel.service, w) for w in winners], top)
        enqueue(channel, "game_over" if channel.seat is not None else "result",
                words.result(line, url), game=game, seat=channel.seat)


def seat_handed_over(game: Game, seat: Seat) -> None:
    """The host handed ``seat`` to a new player: the old player's channels, handle and
    escalation go (their webhook must not hear the newcomer's turns), with what waited."""
    db.session.execute(sa.delete(Notice).where(
        Notice.game_id == game.id, Notice.seat == seat.index, Notice.status == PENDING))
    db.session.execute(sa.delete(NoticeChannel).where(
        NoticeChannel.game_id == game.id, NoticeChannel.seat == seat.index))
    db.session.execute(sa.delete(NoticeEscalation).where(
        NoticeEscalation.game_id == game.id, NoticeEscalation.seat == seat.index))
    seat.chat_handle, seat.escalate_hours = None, None


def game_cancelled(game: Game) -> None:
    """The host cancelled the game: nothing of it is posted after (as ``outbox.drop_pending``
    for its mail); a post already being sent is past recall."""
    db.session.execute(sa.delete(Notice).where(
        Notice.game_id == game.id, Notice.status == PENDING))
    db.session.execute(sa.delete(NoticeEscalation).where(NoticeEscalation.game_id == game.id))


def post_to_table(game: Game, author: str, text: str, *, kind: str = "talk") -> Notice | None:
    """The hook for table talk: post ``author``'s ``text`` (what a person typed: made inert,
    cut to 1,000 characters) to the game's table channel, in the caller's transaction.
    Returns the row, or None when the game has no table channel (or it is paused)."""
    table = table_channel(game)
    if table is None:
        return None
    body = words.talk(words.plain(table.service, author),
                      words.plain(table.service, text[:TALK_LIMIT]))
    return enqueue(table, kind, body, game=game, seat=None)


def still_waiting(game: Game, seat: Seat, channel: NoticeChannel, hours: int) -> Notice:
    """An escalation step: the seat's next channel is told its turn still waits."""
    return enqueue(channel, "escalation", words.still_waiting(hours, links.game_url(game)),
                   game=game, seat=seat.index)


def nudge_table(game: Game, seat: Seat, table: NoticeChannel, hours: int) -> Notice:
    """The last escalation step: the table channel is told, mentioning the seat."""
    who = words.mention(table.service, seat.chat_handle, seat.name)
    return enqueue(table, "escalation", words.nudge(who, hours, links.game_url(game)),
                   game=game, seat=None)
