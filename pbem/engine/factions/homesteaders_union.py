"""Homesteader's Union (ruling F9).

Facility: one Colonist Hub advance (it starts a colony on circle 1 if none is in progress; it
is no ship docked at the Hub, so it does not count for Asimov Crater). Like any advance it
follows ruling B8: past the launch circle it is kept only with a launch in the same docking
(`dock 4 homesteaders_union launch`). Owner: launch from circle 6 as well as 7
(`colonist_hub.launch_circle`)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..facilities import colonist_hub
from ..ids import HUB_LAUNCH_COST, Faction
from ..state import GameState
from . import common
from .spec import BoardFacility, FactionSpec

ID: Final[str] = str(Faction.HOMESTEADERS_UNION)


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


def bot_dock_worth(state: GameState, seat: int, action: Dock) -> float:
    """The greedy bot: an advance, and far more when it launches a colony."""
    return 28.0 if action.launch else 5.0


FACTION: Final = FactionSpec(
    id=ID,
    name="Homesteader's Union",
    aliases=("homesteaders", "homesteader", "union"),
    facility=BoardFacility(effect="One Colonist Hub advance.", refuse=refuse, dock=dock,
                           launches=True, bot_worth=bot_dock_worth),
    owner="May launch a colony from circle 6 as well as 7.",
    bot_preference=8.0,
)
