"""Corex Conglomerated (ruling F15).

Facility: pay 2 fuel to the supply, gain 1 ore per territory you control at the time of
docking. Owner: at the start of the turn, before the roll, gain 1 fuel plus 1 per territory
controlled (in `flow.start_turn`)."""

from __future__ import annotations

from ..actions import Dock
from ..events import Event
from ..facilities.spec import FacilitySpec
from ..ids import FACILITY_NAMES, Faction
from ..payments import gain, pay
from ..state import GameState
from . import common

ID = Faction.COREX_CONGLOMERATED
FUEL = 2


def controlled(state: GameState, seat: int) -> int:
    return sum(1 for c in state.controllers.values() if c == seat)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return common.refuse(state, seat, ID, fuel=FUEL)


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    pay(state, seat, FUEL, 0, events, why=ID)
    gain(state, seat, 0, controlled(state, seat), events, why=ID)


# Ruling F5: one port, any value.
FACILITY = FacilitySpec(
    ID, FACILITY_NAMES[ID], shape="single", group_size=1, groups=(1, 1, 1),
    refuse=refuse, dock=dock, value_free=True,
)
