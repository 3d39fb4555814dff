"""Shipyard: a pair of equal values builds one ship from your stock, at the escalating cost
of your 4th, 5th or 6th ship (ruling B11: your colour only); Herbert Valley takes 1 fuel and
1 ore off. The new ship waits in the Maintenance Bay until your next turn."""

from __future__ import annotations

from ..actions import Dock
from ..events import Event, event
from ..ids import SHIPYARD_COST, Facility, Territory
from ..lookup import ships_at
from ..payments import can_pay, pay
from ..state import BAY, STOCK, GameState
from ..territories import has_bonus

ID = Facility.SHIPYARD


def ships_in_play(state: GameState, seat: int) -> int:
    """Ships of the seat's colour not in the stock (B20: Terraforming ships count)."""
    return sum(1 for s in state.ships if s.owner == seat and s.loc != STOCK)


def cost(state: GameState, seat: int) -> tuple[int, int]:
    nth = ships_in_play(state, seat) + 1
    fuel, ore = SHIPYARD_COST[nth]
    if has_bonus(state, seat, Territory.HERBERT_VALLEY):
        fuel, ore = max(0, fuel - 1), max(0, ore - 1)
    return fuel, ore


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    if not any(s.owner == seat for s in ships_at(state, STOCK)):
        return "Shipyard: all six of your ships are already in play."
    fuel, ore = cost(state, seat)
    if not can_pay(state, seat, fuel, ore):
        nth = ships_in_play(state, seat) + 1
        return f"Shipyard: your {nth}th ship costs {fuel} fuel and {ore} ore; you cannot pay."
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    fuel, ore = cost(state, seat)
    nth = ships_in_play(state, seat) + 1
    pay(state, seat, fuel, ore, events, why=ID)
    new = next(s for s in state.ships if s.owner == seat and s.loc == STOCK)
    new.loc, new.slot, new.value = BAY, -1, 0
    events.append(event("built_ship", seat, ship=new.id, nth=nth))
