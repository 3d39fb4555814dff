"""The board by facility id: each facility's group shape and ports per player count, read
from the facility specs (`facilities.spec`, ids.toml [facilities]).

Covered ports are simply absent: blockers never move, so they are not modelled as ships.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from .facilities.ports import free_slot, free_slots, group_count, occupied_slots
from .facilities.table import FACILITIES

Layout = tuple[str, int, tuple[int, int, int]]


class _Layout(Mapping[str, Layout]):
    """facility -> (group shape, ships per group, groups at [2, 3, 4] players); 5 players
    use 4's. A view of the facility table, the Faction boards' facilities included."""

    def __getitem__(self, facility: str) -> Layout:
        spec = FACILITIES[facility]
        return spec.shape, spec.group_size, spec.groups

    def __contains__(self, facility: object) -> bool:
        return facility in FACILITIES

    def __iter__(self) -> Iterator[str]:
        return iter(FACILITIES)

    def __len__(self) -> int:
        return len(FACILITIES)


LAYOUT: Final[Mapping[str, Layout]] = _Layout()


def group_size(facility: str) -> int:
    return FACILITIES[facility].group_size


def shape(facility: str) -> str:
    return FACILITIES[facility].shape


__all__ = ["LAYOUT", "free_slot", "free_slots", "group_count", "group_size", "occupied_slots",
           "shape"]
