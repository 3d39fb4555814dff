"""Orbital Market: a pair of equal values; while docked, trade fuel = the pair's value for 1
ore, any number of times this turn (ruling B7); Heinlein Plains makes the rate 1 : 1."""

from __future__ import annotations

from typing import Final

from ..actions import Dock, Trade
from ..events import Event, event
from ..ids import FACILITY_NAMES, Facility, Territory
from ..lookup import commander, ships_at
from ..payments import gain, pay
from ..state import GameState
from ..territories import has_bonus
from .spec import FacilitySpec

# A plain str: a dict finds it several times faster than the StrEnum member.
_HEINLEIN_PLAINS: Final = str(Territory.HEINLEIN_PLAINS)

ID: Final[str] = str(Facility.ORBITAL_MARKET)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    state.turn.market_rates.append(action.values[0])


def pairs_left(state: GameState) -> None:
    """Ships of the active seat's pairs have left the Market (Teleporter, Servo discard): each
    pair that left takes its rate with it, so no trade or Agenda draw uses it (rulings B7,
    A1a). Pairs of one value are interchangeable, so a rate stays while a pair of its value
    is still docked (docs/rulings-log.md L-A7)."""
    seat = state.turn.seat
    rates = state.turn.market_rates
    for value in sorted(set(rates)):
        while rates.count(value) > _docked_pairs(state, seat, value):
            rates.remove(value)


def _docked_pairs(state: GameState, seat: int, value: int) -> int:
    slots: dict[int, int] = {}
    for ship in ships_at(state, ID):
        if commander(state, ship) == seat and ship.value == value:
            slots[ship.slot] = slots.get(ship.slot, 0) + 1
    return sum(1 for n in slots.values() if n == 2)


def rates(state: GameState, seat: int) -> list[int]:
    """Fuel prices for one ore open to `seat` now: the docked pairs' values, or 1."""
    if not state.turn.market_rates:
        return []
    if has_bonus(state, seat, _HEINLEIN_PLAINS):
        return [1]
    return sorted(set(state.turn.market_rates))


def trade_refusal(state: GameState, action: Trade) -> str | None:
    open_rates = rates(state, action.seat)
    if not open_rates:
        return "Orbital Market: dock a pair there first to trade."
    if action.rate not in open_rates:
        shown = " or ".join(str(r) for r in open_rates)
        return f"Orbital Market: your rate is {shown} fuel for 1 ore, not {action.rate}."
    if state.seats[action.seat].fuel < action.rate:
        return f"Orbital Market: a trade costs {action.rate} fuel; you have less."
    return None


def trade(state: GameState, action: Trade, events: list[Event]) -> None:
    pay(state, action.seat, action.rate, 0, events, why=ID)
    gain(state, action.seat, 0, 1, events, why=ID)
    events.append(event("traded", action.seat, fuel=action.rate, ore=1))


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="pair", group_size=2, groups=(1, 1, 2),
    refuse=refuse, dock=dock, value_free=True,
)
