"""Ports per facility and player count (base-game.md §1.3), read from the facility specs.

Covered ports are simply absent: blockers never move, so they are not modelled as ships.
"""

from __future__ import annotations

from collections.abc import Container

from ..state import GameState
from .table import FACILITIES


def group_count(state: GameState, facility: str) -> int:
    return FACILITIES[facility].group_count(state.players)


def occupied_slots(state: GameState, facility: str) -> dict[int, int]:
    """slot -> ships docked in it."""
    used: dict[int, int] = {}
    for ship in state.ships:
        if ship.loc == facility and ship.slot >= 0:
            used[ship.slot] = used.get(ship.slot, 0) + 1
    return used


def free_slot(state: GameState, facility: str) -> int | None:
    """The first slot whose ports are all empty (ruling B15), or None."""
    taken = {ship.slot for ship in state.ships if ship.loc == facility and ship.slot >= 0}
    return first_free(state, facility, taken)


def first_free(state: GameState, facility: str, taken: Container[int]) -> int | None:
    """The first slot of `facility` not in `taken`, or None."""
    for slot in range(group_count(state, facility)):
        if slot not in taken:
            return slot
    return None


def free_slots(state: GameState, facility: str) -> int:
    taken = occupied_slots(state, facility)
    return sum(1 for slot in range(group_count(state, facility)) if slot not in taken)


def taken_groups(state: GameState) -> dict[str, list[int]]:
    """The group (slot) of every ship docked, by facility, in one pass over the ships: a
    facility is full when all of its `group_count` are among them, and a Colonist Hub track
    has as many ships as its number is listed."""
    taken: dict[str, list[int]] = {}
    for ship in state.ships:
        if ship.slot < 0:  # not in a facility's group: the stock, unplaced, the Bay, ...
            continue
        slots = taken.get(ship.loc)
        if slots is None:
            taken[ship.loc] = [ship.slot]
        else:
            slots.append(ship.slot)
    return taken
