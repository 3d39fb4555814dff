"""The dockings a hand of ships allows by shape alone, one row per facility and number of
ships: pure tables, built once per hand and kept for the life of the process.

Their entries share one copy of each docking and row: those are finite sets (five seats,
fixed facilities, values 1-6), so a long-running web worker's memory stays small however
many hands it meets.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, TypeVar

from ..actions import Dock
from ..facilities import FACILITIES, FacilitySpec, Token, hand_tokens, hands, shape_refusal
from ..ids import FACTION_NAMES

T = TypeVar("T")

Hand = tuple[tuple[int, ...], int | None]  # the ships' values, and the Relic Ship's among them
# One facility's dockings of one number of ships, in menu order: that number; all of them
# (each hand's launch after its docking without one); those that do not launch; those that
# launch (none at a facility that never launches); and the first docking of each group
# (with or without the Relic Ship, launching or not), which a value-free facility's `refuse`
# answers for its whole group.
Row = tuple[int, tuple[Dock, ...], tuple[Dock, ...], tuple[Dock, ...], tuple[Dock, ...]]
Rows = tuple[Row, ...]
Block = tuple[str, FacilitySpec, Rows]  # one facility, its spec and its rows, in menu order

_SHARED: Final[dict[Any, Any]] = {}
_DOCKINGS: Final[dict[tuple[int, str, Hand, bool], Dock]] = {}


@lru_cache(maxsize=1024)
def unchosen(chosen: tuple[str, ...]) -> frozenset[str]:
    """The Faction facilities of the boards not chosen: their rows are skipped (ruling F3)."""
    return frozenset(f for f in FACTION_NAMES if f not in chosen)


@lru_cache(maxsize=4096)
def facility_blocks(seat: int, values: tuple[int, ...], relic: int | None, boards: bool
                    ) -> tuple[Block, ...]:
    """The dockings a hand of ships (a `ship_hand`: its values, and the Relic Ship's value
    among them) allows, by shape only, in one block of rows per facility
    (the menu asks a facility's own questions once for its block): with launches too, and,
    when `boards` (some Faction board is chosen), those of every Faction facility; the menu
    skips the blocks of `unchosen` boards and the launches a colony cannot reach as it goes
    (a table filtered per game would be built again for every game and hand)."""
    return tuple([(facility, FACILITIES[facility], tuple([_row(seat, facility, taken)
                                                          for taken in rows]))
                  for facility, rows in _hand_rows(hand_tokens(values, relic), boards) if rows])


@lru_cache(maxsize=4096)
def _hand_rows(tokens: tuple[Token, ...], boards: bool
               ) -> tuple[tuple[str, tuple[tuple[Hand, ...], ...]], ...]:
    """Every facility, in menu order (the Faction facilities only if `boards`), with the
    hands it takes by shape, one row per number of ships: a pure table, built once per hand
    of ships for every seat. Facilities of one shape and size take the same hands, so they
    share their rows."""
    by_size = {k: [(_shared(values), relic) for values, relic in hands(tokens, k)]
               for k in (1, 2, 3)}
    by_shape: dict[tuple[str, int], tuple[tuple[Hand, ...], ...]] = {}
    out: list[tuple[str, tuple[tuple[Hand, ...], ...]]] = []
    for key, spec in FACILITIES.items():
        if not boards and key in FACTION_NAMES:
            continue
        # The id as a plain str, not its StrEnum member: a tuple of plain values is one the
        # garbage collector stops tracking, and these tables are most of a long run's objects.
        facility = str(key)
        shape = (spec.shape, spec.group_size)
        rows = by_shape.get(shape)
        if rows is None:
            found = [tuple([hand for hand in by_size[k] if _takes(facility, hand[0])])
                     for k in spec.sizes]
            rows = by_shape[shape] = tuple([row for row in found if row])
        out.append((facility, rows))
    return tuple(out)


@lru_cache(maxsize=8192)
def _row(seat: int, facility: str, taken: tuple[Hand, ...]) -> Row:
    """The seat's dockings of these hands (of one number of ships) at a facility: one copy
    for every hand of ships that has this row."""
    stays = tuple([_docking(seat, facility, hand, False) for hand in taken])
    launches: tuple[Dock, ...] = ()
    every = stays
    if FACILITIES[facility].launches:
        launches = tuple([_docking(seat, facility, hand, True) for hand in taken])
        every = tuple([dock for pair in zip(stays, launches, strict=True) for dock in pair])
    firsts: dict[tuple[bool, bool], Dock] = {}
    for dock in every:
        firsts.setdefault((dock.relic is None, dock.launch), dock)
    return len(taken[0][0]), every, stays, launches, tuple(firsts.values())


@lru_cache(maxsize=4096)
def _takes(facility: str, values: tuple[int, ...]) -> bool:
    """Whether the facility takes a group of these values, by shape (a finite table)."""
    return shape_refusal(facility, values) is None


def _shared(value: T) -> T:
    """The one stored copy of an immutable value equal to `value`."""
    stored: T = _SHARED.setdefault(value, value)
    return stored


def _docking(seat: int, facility: str, hand: Hand, launch: bool) -> Dock:
    key = (seat, facility, hand, launch)
    found = _DOCKINGS.get(key)
    if found is None:
        found = _DOCKINGS[key] = Dock(seat, facility, hand[0], hand[1], launch)
    return found
