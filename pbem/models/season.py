"""A group's season: the chain of rematches a game belongs to (``games.rematch_of``).

Reads only. A game has at most one rematch (the column is unique), so the chain has no
branches: walking ``rematch_of`` back from a game gives the games before it, oldest first.
"""

from __future__ import annotations

from sqlalchemy import select

from pbem.extensions import db
from pbem.models.game import Game, Seat
from pbem.words.result import SeasonGame

SEASON_LIMIT = 200  # a chain longer than this is a bug: stop walking


def season_of(game: Game) -> list[Game]:
    """The games of ``game``'s season up to it, oldest first (``game`` last)."""
    chain = [game]
    seen = {game.id}
    while chain[0].rematch_of is not None and len(chain) < SEASON_LIMIT:
        before = db.session.get(Game, chain[0].rematch_of)
        if before is None or before.id in seen:
            break
        seen.add(before.id)
        chain.insert(0, before)
    return chain


def rematch_of(game: Game) -> Game | None:
    """The rematch started from ``game``, if any."""
    if game.id is None:
        return None
    found: Game | None = db.session.scalars(
        select(Game).where(Game.rematch_of == game.id)).first()
    return found


def player_key(seat: Seat) -> str:
    """Names the same player in every game of a season: a person by address, a computer
    player by name and level. Never shown."""
    if seat.is_bot or not seat.email:
        return f"computer:{seat.name}:{seat.level}"
    return f"person:{seat.email.lower()}"


def season_games(game: Game) -> list[SeasonGame]:
    """The finished games of ``game``'s season up to it, oldest first, for the table."""
    games = []
    for each in season_of(game):
        result = (each.state or {}).get("result")
        if each.status != "finished" or not result:
            continue
        seats = sorted(each.seats, key=lambda s: s.index)
        games.append(SeasonGame([(player_key(s), s.name) for s in seats], result))
    return games
