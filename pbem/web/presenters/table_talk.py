"""What the pages show of a game's table talk: the newest messages, in the reader's time
zone, each marked the reader's own and still deletable, or hidden by the host (read-only).

The turn page shows the newest ``PAGE_LIMIT`` with the form to post; the spectator page and
the host page show the newest ``BOARD_LIMIT`` (the host page with a "hide" button on each).
The text is given as written: the templates escape it, and a link in it stays text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbem import clock
from pbem.models import Game, Seat, TableMessage
from pbem.models import table_talk as board
from pbem.services.table_talk import DELETE_MINUTES, MAX_CHARS
from pbem.words.table_talk import HIDDEN, TalkLine, short_time

PAGE_LIMIT = 20
BOARD_LIMIT = 200


@dataclass
class TableBoard:
    """The messages shown (oldest first), how many the table holds, and the form's state."""

    lines: list[TalkLine]
    total: int
    open: bool  # the table takes messages (not a cancelled game)
    max_chars: int = MAX_CHARS
    hidden_words: str = HIDDEN
    delete_minutes: int = DELETE_MINUTES
    refused: str = ""  # why the reader's last message was refused
    typed: str = ""  # what they typed, given back to the form

    @property
    def earlier(self) -> int:
        return max(0, self.total - len(self.lines))


def table_board(game: Game, reader: Seat | None, *, limit: int = PAGE_LIMIT,
                timezone: str | None = None, now: datetime | None = None,
                refused: str = "", typed: str = "") -> TableBoard:
    """The table as ``reader`` (None: a spectator or the host) sees it."""
    moment = clock.as_utc(now) if now is not None else clock.now()
    names = {s.index: s.name for s in game.seats}
    zone = timezone or (reader.timezone if reader is not None else None) or "UTC"
    lines = []
    for row in board.latest(game.id, limit):
        mine = reader is not None and row.seat == reader.index
        fresh = moment - clock.as_utc(row.posted_at) <= timedelta(minutes=DELETE_MINUTES)
        lines.append(TalkLine(
            id=row.id, seat=row.seat, name=names.get(row.seat, "?"),
            when=short_time(row.posted_at, zone), text="" if row.hidden else row.text,
            hidden=row.hidden, mine=mine, deletable=mine and fresh and not row.hidden))
    return TableBoard(lines, board.count(game.id), open=game.status != "cancelled",
                      refused=refused, typed=typed)


def message_json(row: TableMessage, names: Mapping[int, str]) -> dict[str, Any]:
    """One message in the API: ``text`` is null once the host hid it (``hidden``)."""
    return {"id": row.id, "seat": row.seat, "name": names.get(row.seat, "?"),
            "text": None if row.hidden else row.text, "hidden": row.hidden,
            "posted_at": clock.as_utc(row.posted_at).isoformat()}
