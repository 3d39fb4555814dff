"""Colony Constructor: three ships of equal value and 3 ore (2 on Bradbury Plateau) land one
colony at once."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..ids import CONSTRUCTOR_ORE, CONSTRUCTOR_ORE_BRADBURY, FACILITY_NAMES, Facility, Territory
from ..payments import pay
from ..state import GameState
from ..territories import has_bonus
from .landing import colony_source, start_landing
from .spec import FacilitySpec

ID: Final[str] = str(Facility.COLONY_CONSTRUCTOR)


def ore_cost(state: GameState, seat: int) -> int:
    if has_bonus(state, seat, _BRADBURY_PLATEAU):
        return CONSTRUCTOR_ORE_BRADBURY
    return CONSTRUCTOR_ORE


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    if colony_source(state, seat) is None:
        return "Colony Constructor: you have no colony left to land."
    ore = ore_cost(state, seat)
    if state.seats[seat].ore < ore:
        return f"Colony Constructor: it costs {ore} ore; you have {state.seats[seat].ore}."
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    pay(state, seat, 0, ore_cost(state, seat), events, why=ID)
    start_landing(state, seat, ID)


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="triple", group_size=3, groups=(1, 2, 2),
    refuse=refuse, dock=dock, value_free=True,
)

# A plain str: a dict finds it several times faster than the StrEnum member.
_BRADBURY_PLATEAU: Final = str(Territory.BRADBURY_PLATEAU)
