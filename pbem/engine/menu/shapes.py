"""The dockings a hand of ships allows by shape alone, one row per facility and number of
ships: pure tables, built once per hand and kept for the life of the process.

Their entries share one copy of each docking, row and block: those are finite sets (five
seats, fixed facilities, values 1-6), so a long-running web worker's memory stays small
however many hands it meets. The hands and rows of hands are numbered once (`_number`) and
the tables keyed by those small ints: a nested tuple is hashed afresh at every look-up, and
a new hand's table looks up some hundred of them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, TypeVar

from ..actions import Dock
from ..facilities import FACILITIES, FacilitySpec, Token, hand_tokens, hands, shape_refusal
from ..ids import FACTION_NAMES, MAX_PLAYERS, Facility

T = TypeVar("T")

Hand = tuple[tuple[int, ...], int | None]  # the ships' values, and the Relic Ship's among them
# One facility's dockings of one number of ships, in menu order: that number; all of them
# (each hand's launch after its docking without one); those that do not launch; those that
# launch (none at a facility that never launches); and the first docking of each group
# (with or without the Relic Ship, launching or not), which a value-free facility's `refuse`
# answers for its whole group (none at the Colonist Hub, answered by count and launch).
Row = tuple[int, tuple[Dock, ...], tuple[Dock, ...], tuple[Dock, ...], tuple[Dock, ...]]
Rows = tuple[Row, ...]


class Block:
    """One facility, its spec and the seat's rows there, in menu order. A class, not a tuple:
    compiled, a fixed-size tuple is unpacked to a C struct when it comes out of a cache and
    packed anew when it goes into another, so the hands' tables would hold copies of blocks
    rather than share them."""

    __slots__ = ("facility", "spec", "rows")

    def __init__(self, facility: str, spec: FacilitySpec, rows: Rows) -> None:
        self.facility = facility
        self.spec = spec
        self.rows = rows


_SHARED: Final[dict[Any, Any]] = {}
_COLONIST_HUB: Final = str(Facility.COLONIST_HUB)
_DOCKINGS: Final[dict[int, Dock]] = {}
_NUMBERS: Final[dict[Any, int]] = {}
_NUMBERED: Final[list[Any]] = []  # the value of each `_number`
_TAKING: Final[dict[int, frozenset[str]]] = {}


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
    (a table filtered per game would be built again for every game and hand). Hands that
    take the same hands at a facility share its block: most of a new hand's blocks are
    found, not built."""
    return tuple([_block(seat, facility, rows)
                  for facility, rows in _hand_rows(hand_tokens(values, relic), boards)])


@lru_cache(maxsize=8192)
def _block(seat: int, facility: str, rows: int) -> Block:
    """The seat's block at a facility of the rows of hands numbered `rows` (`_number`)."""
    spec = FACILITIES[facility]
    place = _facility_table(len(FACILITIES))[1][facility]
    return Block(facility, spec, tuple([_row(seat, facility, place, spec.launches,
                                             _NUMBERED[taken]) for taken in _NUMBERED[rows]]))


FacilityEntry = tuple[str, FacilitySpec, tuple[str, int], bool]
_MAX_FACILITIES: Final = 64  # more than the table will ever hold: `_docking`'s keys


@lru_cache(maxsize=4)
def _facility_table(count: int) -> tuple[tuple[FacilityEntry, ...], dict[str, int]]:
    """The `count` facilities of the table (the Faction boards' join it once, on import of
    `pbem.engine.factions`), in menu order, each with its id as a plain str, not its StrEnum
    member (a tuple of plain values is one the garbage collector stops tracking, and these
    tables are most of a long run's objects; a plain str is a quicker key), its spec, its
    shape and size, and whether it is a Faction board's; and each id's place in that order."""
    assert count == len(FACILITIES) < _MAX_FACILITIES
    entries = tuple([(str(key), spec, (spec.shape, spec.group_size), key in FACTION_NAMES)
                     for key, spec in FACILITIES.items()])
    return entries, {entry[0]: place for place, entry in enumerate(entries)}


@lru_cache(maxsize=4096)
def _hand_rows(tokens: tuple[Token, ...], boards: bool) -> tuple[tuple[str, int], ...]:
    """Every facility that takes some of these ships, in menu order (the Faction facilities
    only if `boards`), with the number (`_number`) of its rows of hands: a tuple of the
    numbers of the rows, each a tuple of the numbers of the hands it takes by shape, one
    row per number of ships. A pure table, built once per hand of ships for every seat;
    facilities of one shape and size take the same hands, so they share their rows."""
    by_size: dict[int, list[tuple[int, frozenset[str]]]] = {}
    for k in (1, 2, 3):
        numbered = [(_number((_shared(values), relic)), values)
                    for values, relic in hands(tokens, k)]
        by_size[k] = [(hand, _taking(hand, values)) for hand, values in numbered]
    by_shape: dict[tuple[str, int], int | None] = {}
    out: list[tuple[str, int]] = []
    for facility, spec, shape, faction in _facility_table(len(FACILITIES))[0]:
        if faction and not boards:
            continue
        if shape in by_shape:
            rows = by_shape[shape]
        else:
            found = [tuple([hand for hand, taking in by_size[k] if facility in taking])
                     for k in spec.sizes]
            numbers = tuple([_number(row) for row in found if row])
            rows = by_shape[shape] = _number(numbers) if numbers else None
        if rows is not None:
            out.append((facility, rows))
    return tuple(out)


def _row(seat: int, facility: str, place: int, launching: bool, taken: tuple[int, ...]
         ) -> Row:
    """The seat's dockings at a facility (in `place` of `_facility_table`) of the hands (of
    one number of ships) numbered `taken` (`_number`), `launching` if the facility launches.
    Not kept apart from its block: a new block's rows are nearly all new."""
    stays = tuple([_docking(seat, facility, place, hand, False) for hand in taken])
    launches: tuple[Dock, ...] = ()
    every = stays
    if launching:
        launches = tuple([_docking(seat, facility, place, hand, True) for hand in taken])
        paired: list[Dock] = []
        for i in range(len(stays)):  # each hand's launch after its docking without one
            paired.append(stays[i])
            paired.append(launches[i])
        every = tuple(paired)
    if facility == _COLONIST_HUB:  # answered by count and launch (`menu._hub_docks`), not
        return len(every[0].values), every, stays, launches, ()  # by its groups' first
    # the first of each group, by (without the Relic Ship, launching) as an int: 0 to 3
    groups = [False, False, False, False]
    firsts: list[Dock] = []
    for dock in every:
        group = (2 if dock.relic is None else 0) + (1 if dock.launch else 0)
        if not groups[group]:
            groups[group] = True
            firsts.append(dock)
    # a row whose dockings are each the first of its group keeps one tuple, not two
    first = every if len(firsts) == len(every) else tuple(firsts)
    return len(every[0].values), every, stays, launches, first


def _taking(hand: int, values: tuple[int, ...]) -> frozenset[str]:
    """The facilities that take the hand numbered `hand` (`_number`), of these values, by
    shape: asked once for each hand (a finite set) rather than once per hand and facility at
    every new hand of ships."""
    count = len(FACILITIES)
    key = hand * _MAX_FACILITIES + count  # the Faction boards' facilities join once
    found = _TAKING.get(key)
    if found is None:
        found = _TAKING[key] = frozenset([
            facility for facility, _, _, _ in _facility_table(count)[0]
            if shape_refusal(facility, values) is None])
    return found


def _number(value: Any) -> int:
    """A serial number for an immutable value (a row of hands, the rows of a facility), the
    same for every equal value: the tables are keyed by it, a small int, rather than by the
    value, a nested tuple hashed afresh at every look-up."""
    number = _NUMBERS.get(value)
    if number is None:
        number = _NUMBERS[value] = len(_NUMBERED)
        _NUMBERED.append(value)
    return number


def _shared(value: T) -> T:
    """The one stored copy of an immutable value equal to `value`."""
    stored: T = _SHARED.setdefault(value, value)
    return stored


def _docking(seat: int, facility: str, place: int, hand: int, launch: bool) -> Dock:
    """The one copy of the seat's docking at `facility` (in `place` of `_facility_table`) of
    the hand numbered `hand` (`_number`), keyed by one int: a tuple is hashed afresh at
    every look-up."""
    key = ((hand * _MAX_FACILITIES + place) * MAX_PLAYERS + seat) * 2 + (1 if launch else 0)
    found = _DOCKINGS.get(key)
    if found is None:
        values, relic = _NUMBERED[hand]
        found = _DOCKINGS[key] = Dock(seat, facility, values, relic, launch)
    return found
