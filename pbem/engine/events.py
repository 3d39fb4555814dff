"""What happened, as plain dicts: for the log, mail, pages and agenda conditions.

Every event has a `kind` and, where one applies, a `seat`. Events that reveal new random
information (a roll, a draw, a shuffle) carry `"barrier": True`: undo never crosses them.
"""

from __future__ import annotations

from typing import Any, Final

Event = dict[str, Any]

BARRIER_KINDS: Final = frozenset({"rolled", "cycled", "claimed", "drew", "reshuffled", "rerolled",
                          "rolled_ship", "drew_agendas", "agendas_reshuffled"})


def event(kind: str, seat: int | None = None, **data: Any) -> Event:
    # one dict built at once: every action makes a few of these
    ev: Event = {"kind": kind, **data} if seat is None else {"kind": kind, "seat": seat, **data}
    if kind in BARRIER_KINDS:
        ev["barrier"] = True
    return ev


def crosses_barrier(events: list[Event]) -> bool:
    """True when these events revealed random information, so they cannot be undone."""
    return any(ev.get("barrier") for ev in events)
