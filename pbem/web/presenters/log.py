"""The public log folded by round: one line per round (its moves and who played them), each
opening to its moves. A finished game's log inline was 20,000-35,000 px tall on a phone; a
line per round keeps the page to a few screens. Pure: no database."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pbem import engine
from pbem.models import ActionLog
from pbem.words.describe import describe


def log_by_round(rows: Iterable[ActionLog], names: Sequence[str], *,
                 open_last: bool = False) -> list[dict[str, Any]]:
    """The log's rows grouped by round, oldest first; each entry has its replay ``step``
    (None for the server's records, which the replay skips). ``open_last``: a game still
    played shows its latest round open."""
    rounds: list[dict[str, Any]] = []
    step = 0
    for row in rows:
        if row.action.get("kind") in engine.ACTION_TYPES:
            step += 1
            replay_step: int | None = step
        else:
            replay_step = None
        who = names[row.seat] if 0 <= row.seat < len(names) else "?"
        if not rounds or rounds[-1]["round"] != row.round:
            rounds.append({"round": row.round, "entries": [], "who": [], "open": False})
        current = rounds[-1]
        current["entries"].append({"seq": row.seq, "step": replay_step, "who": who,
                                   "notation": row.notation,
                                   "words": describe(row.events or [], names)})
        if who not in current["who"]:
            current["who"].append(who)
    if rounds and open_last:
        rounds[-1]["open"] = True
    return rounds
