"""Homesteader's Union (ruling F9).

Facility: one Colonist Hub advance (it starts a colony on circle 1 if none is in progress; it
is no ship docked at the Hub, so it does not count for Asimov Crater). Like any advance it
follows ruling B8: past the launch circle it is kept only with a launch in the same docking
(`dock 4 homesteaders_union launch`). Owner: launch from circle 6 as well as 7
(`colonist_hub.launch_circle`)."""

from __future__ import annotations

from ..actions import Dock
from ..events import Event
from ..facilities import colonist_hub
from ..ids import HUB_LAUNCH_COST, Faction
from ..state import GameState
from . import common

ID = Faction.HOMESTEADERS_UNION
VALUE_FREE = True  # `refuse` never reads the ship values (facilities._module_refusal)
LAUNCHES = True  # the advance may end in a launch (ruling B8)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    cost = HUB_LAUNCH_COST if action.launch else (0, 0)  # the fee and a launch together
    reason = common.refuse(state, seat, ID, *cost)
    if reason is None:
        reason = colonist_hub.move_refusal(state, seat, 1, action.launch, on_track=False)
    return reason


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    colonist_hub.move(state, seat, 1, action.launch, events)
