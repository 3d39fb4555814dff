"""Ports per facility and player count (base-game.md §1.3, ids.toml [facilities]).

Covered ports are simply absent: blockers never move, so they are not modelled as ships.
"""

from __future__ import annotations

from .ids import FACTION_NAMES, HUB_PORTS_PER_TRACK, Facility
from .lookup import remembered
from .state import GameState

# facility -> (group shape, ships per group, groups at [2, 3, 4] players); 5 players use 4's.
LAYOUT: dict[str, tuple[str, int, tuple[int, int, int]]] = {
    Facility.SOLAR_CONVERTER: ("single", 1, (7, 7, 8)),
    Facility.LUNAR_MINE: ("single", 1, (3, 4, 5)),
    Facility.ORBITAL_MARKET: ("pair", 2, (1, 1, 2)),
    Facility.SHIPYARD: ("pair", 2, (1, 2, 3)),
    Facility.ALIEN_ARTIFACT: ("single", 1, (4, 4, 4)),
    Facility.COLONIST_HUB: ("track", HUB_PORTS_PER_TRACK, (4, 4, 4)),
    Facility.COLONY_CONSTRUCTOR: ("triple", 3, (1, 2, 2)),
    Facility.TERRAFORMING_STATION: ("six", 1, (1, 1, 1)),
    Facility.RAIDERS_OUTPOST: ("run", 3, (1, 1, 1)),
    # ruling F5: each Faction board's facility has one port for any value
    **{faction: ("single", 1, (1, 1, 1)) for faction in FACTION_NAMES},
}


def group_count(state: GameState, facility: str) -> int:
    counts = LAYOUT[facility][2]
    return counts[min(state.players, 4) - 2]


def group_size(facility: str) -> int:
    return LAYOUT[facility][1]


def shape(facility: str) -> str:
    return LAYOUT[facility][0]


def occupied_slots(state: GameState, facility: str) -> dict[int, int]:
    """slot -> ships docked in it."""
    return dict(_occupied(state).get(facility, {}))


def free_slot(state: GameState, facility: str) -> int | None:
    """The first slot whose ports are all empty (ruling B15), or None."""
    used = _occupied(state).get(facility, {})
    for slot in range(group_count(state, facility)):
        if slot not in used:
            return slot
    return None


def free_slots(state: GameState, facility: str) -> int:
    used = _occupied(state).get(facility, {})
    return sum(1 for slot in range(group_count(state, facility)) if slot not in used)


def _occupied(state: GameState) -> dict[str, dict[int, int]]:
    """facility -> slot -> ships docked in it, for every facility, in one pass over the
    ships (once while the state is steady: the menu asks about every facility)."""
    return remembered(state, "occupied", lambda: _scan_occupied(state))


def _scan_occupied(state: GameState) -> dict[str, dict[int, int]]:
    used: dict[str, dict[int, int]] = {}
    for ship in state.ships:
        if ship.slot < 0:  # not in a facility's group: the stock, unplaced, the Bay, ...
            continue
        slots = used.get(ship.loc)
        if slots is None:
            slots = used[ship.loc] = {}
        slots[ship.slot] = slots.get(ship.slot, 0) + 1
    return used
