"""Scavenger Fleet (ruling F11).

Facility: later in the same turn you may use the Shipyard once with two unequal ships
(`shipyard.unequal_pair_allowed`). Owner: a ship you build, or the Relic Ship you buy, is
rolled at once and is unplaced, usable this turn (`shipyard.roll_at_once`)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..facilities import shipyard
from ..ids import Faction
from ..state import GameState
from . import common
from .spec import BoardFacility, FactionSpec, worth

ID: Final[str] = str(Faction.SCAVENGER_FLEET)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return common.refuse(state, seat, ID)


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    if state.turn.facts.get(shipyard.SCAVENGER) != "used":
        state.turn.facts[shipyard.SCAVENGER] = "open"


FACTION: Final = FactionSpec(
    id=ID,
    name="Scavenger Fleet",
    aliases=("scavenger", "scavengers"),
    facility=BoardFacility(effect="Use the Shipyard with two unequal ships this turn.",
                           refuse=refuse, dock=dock, bot_worth=worth(2.0)),
    owner="New ships and the Relic Ship are rolled at once (usable this turn).",
    bot_preference=7.0,
)
