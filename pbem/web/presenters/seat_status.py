"""The sentences the pages of a game show about how it stands for everyone: a seat that
resigned, a game the host cancelled. Read-only, like the other presenters."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVEL_NAMES
from pbem.extensions import db
from pbem.models import ActionLog, Game, Seat
from pbem.words.when import local_time

RESIGN_NOTATION = "resign"  # the server's record of a resignation (services.resignation)


def level_words(game: Game) -> str:
    level = game.autopilot_level or DEFAULT_LEVEL
    return LEVEL_NAMES.get(level, level.capitalize())


def resigned_at(game: Game, seat: Seat) -> datetime | None:
    """When ``seat`` resigned (its record in the log), or None."""
    return db.session.execute(
        select(ActionLog.created_at).where(
            ActionLog.game_id == game.id, ActionLog.seat == seat.index,
            ActionLog.notation == RESIGN_NOTATION)
        .order_by(ActionLog.seq.desc()).limit(1)
    ).scalar_one_or_none()


def resigned_words(game: Game, seat: Seat, tz_name: str | None = None) -> str | None:
    """ "You resigned on …; the computer plays your seat" for the seat's own pages."""
    if not seat.resigned:
        return None
    when = resigned_at(game, seat)
    on = f" on {local_time(when, tz_name)}" if when is not None else ""
    return (f"You resigned from this game{on}. The computer plays your seat at the host’s "
            f"level ({level_words(game)}); you get one more mail, when the game ends.")


def cancelled_on(game: Game, tz_name: str | None = None) -> str | None:
    """ "cancelled by the host on …" (a list's line), or None if the game is not cancelled."""
    if game.status != "cancelled":
        return None
    when = game.finished_at or game.updated_at
    return "cancelled by the host" + (f" on {local_time(when, tz_name)}" if when else "")


def cancelled_words(game: Game, tz_name: str | None = None) -> str | None:
    """ "This game was cancelled by the host on …" for every page of a cancelled game."""
    short = cancelled_on(game, tz_name)
    if short is None:
        return None
    host = next((s.name for s in game.seats if s.index == game.host_seat), None)
    if host:
        short = short.replace("by the host", f"by the host ({host})", 1)
    return f"This game was {short}. No more moves are made and no more mail is sent about it."
