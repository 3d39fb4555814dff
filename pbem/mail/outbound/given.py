"""What a game mail is given: the one place a mail reads the rows, the state and the clock.

``gather(game, seat)`` copies what the mails say out of the ``Game`` and ``Seat`` rows into
plain frozen records, takes the recipient's ``engine.view`` (style habit 4: no mail sees the
raw state), signs its links and reads the clock once. What the engine works out on the state
itself is gathered here too, only for the mails that show it: the previews of the menu and
the engine's ranking of it (``turn=True``), the reply example checked on a copy of the game
(``reply=True``), and "Since your last turn" (``since=True``, from ``pbem.models.history``).
The context builders (``pbem.mail.outbound.context``) then turn a ``Given`` into words
without reading anything else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from flask import current_app

from pbem import clock
from pbem.clock import TimeBank
from pbem.engine import GameState, GameView, Preview, menu_previews, view
from pbem.engine.bots.levels import DEFAULT_LEVEL
from pbem.mail.outbound import links, suggestions
from pbem.mail.outbound.decisions import is_decision
from pbem.mail.outbound.reply_example import reply_example
from pbem.mail.outbound.table_talk import TALK_LIMIT, TableTalk, talk_block
from pbem.models import history
from pbem.models import table_talk as board
from pbem.models.game import Game, Seat
from pbem.models.season import season_games
from pbem.words import since as since_words
from pbem.words.describe import describe
from pbem.words.result import SeasonGame
from pbem.words.since import SINCE_LIMIT


@dataclass(frozen=True)
class SeatFacts:
    """One seat as the mails name it (never its address)."""

    index: int
    name: str
    timezone: str
    notify: str
    is_bot: bool
    level: str | None
    absent: bool
    consecutive_timeouts: int | None
    resigned: bool = False
    bank: timedelta | None = None  # a time bank game: what it held when its last wait began

    @classmethod
    def of(cls, seat: Seat, bank: TimeBank | None = None) -> SeatFacts:
        held = None if bank is None else (
            bank.initial if seat.bank_seconds is None else timedelta(seconds=seat.bank_seconds))
        return cls(seat.index, seat.name, seat.timezone or "UTC", seat.notify, bool(seat.is_bot),
                   seat.level, bool(seat.absent), seat.consecutive_timeouts,
                   bool(seat.resigned), held)


@dataclass(frozen=True)
class GameFacts:
    """The game row's facts the mails say."""

    name: str
    options: Mapping[str, Any]
    time_per_move_hours: int
    host_seat: int | None
    seats: tuple[SeatFacts, ...]
    autopilot_level: str = DEFAULT_LEVEL  # the level that plays a resigned or absent seat
    finished_at: datetime | None = None  # when it finished or was cancelled
    bank: TimeBank | None = None  # the game's time bank (None: a fixed time per move)

    @classmethod
    def of(cls, game: Game) -> GameFacts:
        bank = game.time_bank
        seats = tuple(SeatFacts.of(s, bank) for s in sorted(game.seats, key=lambda s: s.index))
        return cls(game.name, dict(game.options or {}), game.time_per_move_hours,
                   game.host_seat, seats, game.autopilot_level or DEFAULT_LEVEL,
                   game.finished_at, bank)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    @property
    def score_names(self) -> list[str]:
        """The names of the score lines: a computer player's with its level, "HAL (computer,
        Strong)", and a player who resigned marked so, "Ana (resigned)"."""
        return [f"{s.name} (computer, {(s.level or '').capitalize()})" if s.is_bot
                else f"{s.name} (resigned)" if s.resigned else s.name for s in self.seats]

    @property
    def factions(self) -> bool:
        return bool(self.options.get("factions"))


@dataclass(frozen=True)
class Given:
    """Everything one game mail to one reader says, gathered once."""

    game: GameFacts
    seat: SeatFacts | None  # None: the host, when the host does not play
    picture: GameView  # the reader's view (a spectator's for the host)
    now: datetime
    game_url: str
    turn_url: str | None = None  # the reader's turn page (a seat's mail only)
    unsubscribe_url: str | None = None
    notation_url: str = ""  # how to write a move (the play-by-reply block links it)
    # turn=True: the engine's previews of the menu, by notation, and the menu in the order
    # the engine ranks it (best first), as JSON actions
    previews: Mapping[str, Preview] = field(default_factory=dict)
    ranked: tuple[dict[str, Any], ...] = ()
    since: tuple[str, ...] = ()  # since=True: "Since your last turn"
    # reply=True, with play by reply on: a reply the seat can send as written, each line
    # accepted on a copy of the game after the lines before it (``reply_example``)
    example: tuple[str, ...] = ()
    # end=True: how the game ended (the last turn in words) and the finished games of its
    # season so far (``pbem.models.season``)
    ended: tuple[str, ...] = ()
    season: tuple[SeasonGame, ...] = ()
    # recap_as=<the old player's name>: the last round in words, by that name for the seat
    recap: tuple[str, ...] = ()
    # every mail to a seat that keeps table talk in its mail: "At the table since your last
    # turn" (``pbem.mail.outbound.table_talk``)
    talk: TableTalk | None = None


def gather(game: Game, seat: Seat | None, *, turn: bool = False, reply: bool = False,
           since: bool = False, end: bool = False, recap_as: str | None = None) -> Given:
    """What a mail to ``seat`` (None: the host) of ``game`` is given. ``turn``: the menu's
    previews and ranking, for mails that suggest moves; ``reply``: the reply example, for
    mails with a play-by-reply block; ``since``: "Since your last turn"; ``end``: how the
    game ended and its season; ``recap_as``: the last round, the seat named so (a seat handed
    to a new player: the old player's moves)."""
    state = GameState.from_json(game.state)
    index = seat.index if seat is not None else None
    picture = view(state, index)
    extra: dict[str, Any] = {}
    if seat is not None:
        extra.update(turn_url=links.turn_url(game, seat),
                     unsubscribe_url=links.unsubscribe_url(game, seat),
                     notation_url=links.notation_help_url())
    if turn and seat is not None:
        legal = picture.get("legal") or []
        extra.update(previews=menu_previews(state, legal, picture.get("picks") or []),
                     ranked=suggestions.rank(state, seat.index, legal))
    if reply and seat is not None and current_app.config.get("INBOUND_ADDRESS"):
        extra["example"] = tuple(reply_example(  # the reply block shows only with an address
            state, seat.index, decision_only=is_decision(picture, seat.index)))
    if since and seat is not None:
        extra["since"] = tuple(since_last_turn(game, seat.index))
    if seat is not None and seat.table_talk_mail is not False:
        rows, total = board.since_own_last_turn(game.id, seat.index, TALK_LIMIT)
        extra["talk"] = talk_block(rows, total, [s.name for s in sorted(
            game.seats, key=lambda s: s.index)], seat.timezone or "UTC")
    names = [s.name for s in sorted(game.seats, key=lambda s: s.index)]
    if end:
        extra.update(ended=tuple(describe(history.last_turns(game.id, 1), names, viewer=index)),
                     season=tuple(season_games(game)))
    if recap_as is not None and seat is not None:
        then = list(names)
        then[seat.index] = recap_as
        extra["recap"] = tuple(describe(history.last_turns(game.id, game.players),
                                        then)[-SINCE_LIMIT:])
    return Given(GameFacts.of(game), SeatFacts.of(seat) if seat is not None else None, picture,
                 clock.now(), links.game_url(game), **extra)


def since_last_turn(game: Game, seat_index: int) -> list[str]:
    """ "Since your last turn" for ``seat_index`` (the page's words too)."""
    recent = history.since_own_last(game.id, seat_index)
    names = [s.name for s in sorted(game.seats, key=lambda s: s.index)]
    return since_words.since_last_turn(recent, game.seats,
                                       history.autopilot_runs_in(game.id, recent), names,
                                       seat_index, history.turn_opening(game.id, seat_index))


def digest_lines(game: Game, seat: Seat, rows: list[Any]) -> list[str]:
    """The digest's sentences of log ``rows`` (the others' steps since the last digest)."""
    names = [s.name for s in sorted(game.seats, key=lambda s: s.index)]
    return since_words.sentences(rows, game.seats, history.autopilot_runs_in(game.id, rows),
                                 names, seat.index)
