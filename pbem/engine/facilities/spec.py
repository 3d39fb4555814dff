"""The one declaration of an orbital facility (base-game.md §1.3, ids.toml [facilities]).

Each facility module exports its `SPEC` (a Faction board module its `FACILITY`, ruling F5);
the facility table (`facilities.table`) is the list of them, and every part of the engine
that asks about a facility — the docking procedure, the ports, notation, the menu — reads
it from there.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from ..actions import Dock
from ..events import Event
from ..state import GameState

# single: one ship per port; pair / triple: equal values; run: three consecutive values;
# six: exactly one ship showing 6; track: one to three ships on the docking seat's track.
Shape = Literal["single", "pair", "triple", "run", "six", "track"]


class Refuse(Protocol):
    """The facility's own requirement and cost for this docking, as a sentence, or None."""

    def __call__(self, state: GameState, seat: int, action: Dock) -> str | None: ...


class DockEffect(Protocol):
    """Pay and gain for a docking `refuse` accepted; `ships` are the docked ships' indices."""

    def __call__(self, state: GameState, seat: int, ships: list[int], action: Dock,
                 events: list[Event]) -> None: ...


# The group the docking seat takes, when it is not the first one free (ruling B15).
ChooseSlot = Callable[[GameState, int], int]
# What happens before the ships arrive (the Raiders' Outpost bumps the ships there).
BeforeDock = Callable[[GameState, Dock, list[Event]], None]


@dataclass(frozen=True)
class FacilitySpec:
    id: str
    name: str
    shape: Shape
    group_size: int  # ships in one group; a Colonist Hub track's ports
    groups: tuple[int, int, int]  # groups (or single ports) at 2, 3, 4 players; 5 use 4's
    refuse: Refuse
    dock: DockEffect
    launches: bool = False  # a docking here may launch the seat's colony (ruling B8)
    # `refuse` reads only the seat, the number of ships, the launch and whether the Relic
    # Ship is among them, never the values: the menu asks it once per such group.
    value_free: bool = False
    slot: ChooseSlot | None = None
    before_dock: BeforeDock | None = None

    @property
    def sizes(self) -> tuple[int, ...]:
        """The numbers of ships one docking here may bring."""
        if self.shape == "track":
            return tuple(range(1, self.group_size + 1))
        return (self.group_size,)

    def group_count(self, players: int) -> int:
        return self.groups[min(players, 4) - 2]
