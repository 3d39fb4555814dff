"""What happened since a seat's own last step, in plain sentences: "Since your last turn" of
the turn mail and of the turn page, and the lines of the daily digest. Built once, here, for
both; the rows come from ``pbem.models.history``.

Each logged step reads as its own events' sentences (``describe.describe``, the reader's own
things as "you"). A wait the timeout autopilot played opens with why: "Cy ran out of time;
the autopilot played for them:", "… and is now marked absent", or "Cy is away".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pbem.words import describe

SINCE_LIMIT = 40  # sentences of "what happened since your last turn"


class Player(Protocol):
    """What the notes need of a seat (a ``Seat`` row, or a plain copy of one)."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def absent(self) -> bool: ...
    @property
    def consecutive_timeouts(self) -> int | None: ...


def autopilot_words(seat: Player, run: int) -> str:
    """Why the autopilot played ``seat``'s ``run``-th wait (1 = the first since its own last
    move): "Cy ran out of time", "… and is now marked absent", or "Cy is away" (absent)."""
    if seat.absent:
        timeouts = seat.consecutive_timeouts or 0
        if run > timeouts:
            return f"{seat.name} is away"
        if run == timeouts:
            return f"{seat.name} ran out of time and is now marked absent"
    return f"{seat.name} ran out of time"


def autopilot_notes(rows: Sequence[Any], players: Sequence[Player],
                    runs: Mapping[int, Sequence[int]]) -> dict[int, str]:
    """For log ``rows`` (``seq``, ``seat``, ``by``): the note opening each wait the timeout
    autopilot played, by the seq of its first row. ``runs``: each such seat's
    ``history.autopilot_runs``."""
    notes: dict[int, str] = {}
    seats = {s.index: s for s in players}
    previous: Any = None
    for row in rows:
        new_run = (previous is None or previous.seat != row.seat or previous.by != row.by
                   or row.seq != previous.seq + 1)
        previous = row
        if row.by != "timeout" or not new_run or row.seat not in seats:
            continue
        firsts = runs.get(row.seat, ())
        index = sum(1 for first in firsts if first <= row.seq)  # 0: before its own last move
        words = (autopilot_words(seats[row.seat], index) if index
                 else f"{seats[row.seat].name} ran out of time")
        notes[row.seq] = f"{words}; the autopilot played for them:"
    return notes


def sentences(rows: Sequence[Any], players: Sequence[Player], runs: Mapping[int, Sequence[int]],
              names: Sequence[str], viewer: int) -> list[str]:
    """Every sentence of log ``rows`` (with ``events``) for the reader ``viewer``, each wait
    the autopilot played opened by its note."""
    notes = autopilot_notes(rows, players, runs)
    lines: list[str] = []
    for row in rows:
        if row.seq in notes:
            lines.append(notes[row.seq])
        lines.extend(describe.describe(row.events or [], names, viewer=viewer))
    return lines


def since_last_turn(rows: Sequence[Any], players: Sequence[Player],
                    runs: Mapping[int, Sequence[int]], names: Sequence[str],
                    viewer: int, opening: Sequence[Mapping[str, Any]] = ()) -> list[str]:
    """ "Since your last turn": the sentences of the steps after the reader's own last one
    (``history.since_own_last``), the newest ``SINCE_LIMIT``. ``opening``: the events that
    began the next player's turn inside the reader's own last step (``history.turn_opening``:
    the roll and start-of-turn income), said first, so that every player's turn in the list
    begins with their roll and income."""
    opened = describe.describe([dict(ev) for ev in opening], names, viewer=viewer)
    return (opened + sentences(rows, players, runs, names, viewer))[-SINCE_LIMIT:]
