"""Shipyard: a pair of equal values builds one ship from your stock, at the escalating cost
of your 4th, 5th or 6th ship (ruling B11: your colour only); Herbert Valley takes 1 fuel and
1 ore off. The new ship waits in the Maintenance Bay until your next turn.

Factions (ruling F11): after docking at the Scavenger Fleet you may dock two unequal ships
here once that turn; the Scavenger Fleet's owner rolls a new ship at once, unplaced."""

from __future__ import annotations

from typing import Final

from .. import dice
from ..actions import Dock
from ..events import Event, event
from ..ids import FACILITY_NAMES, SHIPS_MAX, SHIPYARD_COST, Facility, Faction, Territory
from ..lookup import colour_indices, colour_ships
from ..payments import can_pay, pay
from ..state import BAY, STOCK, UNPLACED, GameState
from ..territories import has_bonus
from .spec import FacilitySpec

# A plain str: a dict finds it several times faster than the StrEnum member.
_HERBERT_VALLEY: Final = str(Territory.HERBERT_VALLEY)

ID: Final[str] = str(Facility.SHIPYARD)
SCAVENGER: Final = "scavenger_shipyard"  # Turn.facts key: "open" after a Scavenger Fleet docking


def scavenger_open(state: GameState) -> bool:
    return state.turn.facts.get(SCAVENGER) == "open"


def unequal_pair_allowed(state: GameState, action: Dock) -> bool:
    """Ruling F11: two unequal ships may dock here once after a Scavenger Fleet docking."""
    values = action.values
    return (action.facility == ID and scavenger_open(state) and isinstance(values, tuple)
            and len(values) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6
                    for v in values) and values[0] != values[1])


def ships_in_play(state: GameState, seat: int) -> int:
    """Ships of the seat's colour not in the stock (B20: Terraforming ships count)."""
    in_play = 0
    for s in colour_ships(state, seat):  # a plain loop: the menu asks at every docking step
        if s.loc != STOCK:
            in_play += 1
    return in_play


def cost(state: GameState, seat: int) -> tuple[int, int]:
    return _cost_of(state, seat, ships_in_play(state, seat) + 1)


def _cost_of(state: GameState, seat: int, nth: int) -> tuple[int, int]:
    """The cost of the seat's `nth` ship, Herbert Valley's discount taken off."""
    fuel, ore = SHIPYARD_COST[nth]
    if has_bonus(state, seat, _HERBERT_VALLEY):
        fuel, ore = max(0, fuel - 1), max(0, ore - 1)
    return fuel, ore


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    nth = ships_in_play(state, seat) + 1
    if nth > SHIPS_MAX:
        return "Shipyard: all six of your ships are already in play."
    fuel, ore = _cost_of(state, seat, nth)
    if not can_pay(state, seat, fuel, ore):
        return f"Shipyard: your {nth}th ship costs {fuel} fuel and {ore} ore; you cannot pay."
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    fuel, ore = cost(state, seat)
    nth = ships_in_play(state, seat) + 1
    pay(state, seat, fuel, ore, events, why=ID)
    if action.values[0] != action.values[1]:
        state.turn.facts[SCAVENGER] = "used"  # ruling F11: once per turn
    built = next(i for i in colour_indices(seat) if state.ships[i].loc == STOCK)
    new = state.ships[built]
    new.loc, new.slot, new.value = BAY, -1, 0
    events.append(event("built_ship", seat, ship=new.id, nth=nth))
    if state.seats[seat].faction == Faction.SCAVENGER_FLEET:
        roll_at_once(state, built, events)


def roll_at_once(state: GameState, index: int, events: list[Event]) -> None:
    """Ruling F11: the Scavenger Fleet's owner rolls a new ship (or the Relic Ship) at once;
    it is unplaced and usable this turn."""
    ship = state.ships[index]
    ship.loc, ship.slot, ship.value = UNPLACED, -1, dice.roll(state)
    events.append(event("rolled_ship", state.turn.seat, ship=ship.id, value=ship.value,
                        why=Faction.SCAVENGER_FLEET))


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="pair", group_size=2, groups=(1, 2, 3),
    refuse=refuse, dock=dock, value_free=True,
)
