"""Lunar Mine: singles, each at least the highest ship docked there now; 1 ore per ship.

Van Vogt Mountains lets the first ship docked there each turn be any value.
"""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..ids import FACILITY_NAMES, Facility, Territory
from ..payments import gain
from ..state import GameState
from ..territories import has_bonus
from .spec import FacilitySpec

# A plain str: a ship's place compares with it about twice as fast as with the StrEnum member.
ID: Final[str] = str(Facility.LUNAR_MINE)
_VAN_VOGT: Final[str] = str(Territory.VAN_VOGT_MOUNTAINS)  # a module name: the Enum lookup is slow
DOCKED_STEP: Final = "lunar_mine_step"  # Turn.facts: the step of the last docking here (ruling T5)


def highest_docked(state: GameState) -> int:
    highest = 0
    for ship in state.ships:  # a plain loop: every menu asks it while ships are docked here
        if ship.loc == ID and ship.value > highest:
            highest = ship.value
    return highest


def lowest_value(state: GameState, seat: int) -> int:
    """The lowest value `seat` may dock here now: the highest ship docked here, or any value
    for the turn's first ship here with Van Vogt Mountains' bonus. All `refuse` reads of the
    state, so the menu asks it once for every single it offers here."""
    if state.turn.mine_ships == 0 and has_bonus(state, seat, _VAN_VOGT):
        return 1
    return highest_docked(state)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    value = action.values[0]
    lowest = lowest_value(state, seat)
    if value >= lowest:
        return None
    return (f"Lunar Mine: each ship must be at least {lowest}, the highest ship docked "
            f"there; your {value} is lower.")


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    state.turn.mine_ships += 1
    state.turn.facts[DOCKED_STEP] = state.step  # the Lunar Tunneler may follow (ruling T5)
    gain(state, seat, 0, 1, events, why=ID)


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="single", group_size=1, groups=(3, 4, 5),
    refuse=refuse, dock=dock,
)
