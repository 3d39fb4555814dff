"""The sentence every page of a paused game shows: who paused it, since when, until when.

A paused game waits for nobody (it once told the awaited player "Waiting for Eve", to
Eve). The pause is the host's; it lasts until the host resumes the game, and the game row
is not written while it is paused, so its last update is when the pause began.
"""

from __future__ import annotations

from pbem.models import Game
from pbem.words.when import local_time


def paused_words(game: Game, tz_name: str | None = None) -> str | None:
    """The pause in one sentence for the pages of ``game``, or None when it is not paused."""
    if game.status != "paused":
        return None
    host = next((s.name for s in game.seats if s.index == game.host_seat), None)
    who = f"The host ({host})" if host else "The host"
    since = f" on {local_time(game.updated_at, tz_name)}" if game.updated_at else ""
    return (f"{who} paused the game{since}. No clock runs and no move can be made until the "
            "host resumes it; every player gets a mail then.")
