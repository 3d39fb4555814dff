"""Corex Conglomerated (ruling F15).

Facility: pay 2 fuel to the supply, gain 1 ore per territory you control at the time of
docking. Owner: at the start of the turn, before the roll, gain 1 fuel plus 1 per territory
controlled (in `flow.start_turn`)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..ids import Faction
from ..payments import gain, pay
from ..state import GameState
from . import common
from .spec import BoardFacility, FactionSpec

ID: Final[str] = str(Faction.COREX_CONGLOMERATED)
FUEL: Final = 2


def controlled(state: GameState, seat: int) -> int:
    return list(state.controllers.values()).count(seat)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return common.refuse(state, seat, ID, fuel=FUEL)


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    pay(state, seat, FUEL, 0, events, why=ID)
    gain(state, seat, 0, controlled(state, seat), events, why=ID)


def bot_dock_worth(state: GameState, seat: int, action: Dock) -> float:
    """The greedy bot: the ore is worth it from two territories."""
    return 3.0 * controlled(state, seat) - 3.0


FACTION: Final = FactionSpec(
    id=ID,
    name="Corex Conglomerated",
    aliases=("corex",),
    facility=BoardFacility(effect="Pay 2 fuel: gain 1 ore per territory you control.",
                           refuse=refuse, dock=dock, bot_worth=bot_dock_worth),
    owner="At the start of your turn: 1 fuel, plus 1 per territory you control.",
    bot_preference=9.0,
)
