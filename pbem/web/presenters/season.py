"""What the game-over pages show of the season and of playing again: the season's table
(from its second game on), and the rematch, if the host has started it. Read-only."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem import tokens
from pbem.models import Game, Seat
from pbem.models.season import rematch_of, season_games
from pbem.words.result import season_standings


@dataclass
class PlayAgain:
    rematch: Game | None  # the rematch the host started, if any
    season: list[dict[str, Any]] = field(default_factory=list)  # the table; [] for one game
    games: int = 0  # the finished games of the season so far
    my_seat_link: str | None = None  # the reader's own seat in the rematch, if it plays


def play_again(game: Game, seat: Seat | None = None) -> PlayAgain:
    """The season and the rematch of a finished ``game``, for ``seat``'s page (None: a
    spectator's)."""
    if game.status != "finished":
        return PlayAgain(None)
    games = season_games(game)
    rematch = rematch_of(game)
    mine = None
    if rematch is not None and seat is not None and seat.email:
        same = [s for s in rematch.seats if s.email and s.email.lower() == seat.email.lower()]
        mine = tokens.make_seat_link(rematch, same[0]) if same else None
    return PlayAgain(rematch, season_standings(games) if len(games) > 1 else [], len(games),
                     mine)
