"""Solar Converter: any value, singly; fuel = half the value rounded up (+1 on Lem Badlands)."""

from __future__ import annotations

from typing import Final

from ..actions import Dock
from ..events import Event
from ..ids import FACILITY_NAMES, Facility, Territory
from ..payments import gain
from ..state import GameState
from ..territories import has_bonus
from .spec import FacilitySpec

ID: Final[str] = str(Facility.SOLAR_CONVERTER)


def fuel_for(value: int, lem: bool) -> int:
    return (value + 1) // 2 + (1 if lem else 0)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    lem = has_bonus(state, seat, _LEM_BADLANDS)
    bonus = (Territory.LEM_BADLANDS.value, len(action.values)) if lem else None
    gain(state, seat, sum(fuel_for(v, lem) for v in action.values), 0, events, why=ID,
         bonus=bonus)


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="single", group_size=1, groups=(7, 7, 8),
    refuse=refuse, dock=dock, value_free=True,
)

# A plain str: a dict finds it several times faster than the StrEnum member.
_LEM_BADLANDS: Final = str(Territory.LEM_BADLANDS)
