"""The dockings a hand of ships allows by shape alone, cut into runs: pure tables, built once
per hand and kept for the life of the process.

Their entries share one copy of each docking, shape and run: those are finite sets (five
seats, fixed facilities, values 1-6), so a long-running web worker's memory stays small
however many hands it meets.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Final, TypeVar

from ..actions import Dock
from ..facilities import FACILITIES, Token, hands, shape_refusal
from ..ids import FACTION_NAMES

T = TypeVar("T")

Group = tuple[str, int, bool, bool]  # facility, ship count, launch, no Relic Ship
Run = tuple[Group, tuple[Dock, ...]]
Runs = tuple[Run, ...]
Block = tuple[str, Runs]  # one facility's runs, in menu order
Shape = tuple[str, tuple[int, ...], int | None, bool]  # facility, values, relic, launch

_SHARED: Final[dict[Any, Any]] = {}
_DOCKINGS: Final[dict[tuple[int, Shape], Dock]] = {}


@lru_cache(maxsize=1024)
def unchosen(chosen: tuple[str, ...]) -> frozenset[str]:
    """The Faction facilities of the boards not chosen: their runs are skipped (ruling F3)."""
    return frozenset(f for f in FACTION_NAMES if f not in chosen)


@lru_cache(maxsize=4096)
def facility_blocks(seat: int, tokens: tuple[Token, ...]) -> tuple[Block, ...]:
    """The dockings a hand of ships allows, by shape only, cut into runs and the runs into one
    block per facility (the menu asks a facility's own questions once for its block): those of
    every Faction facility and with launches too; the menu skips the blocks of `unchosen`
    boards and the launches a colony cannot reach as it goes (a table filtered per game would
    be built again for every game and hand)."""
    blocks: list[Block] = []
    facility = ""
    runs: list[Run] = []
    for group, shapes in _shape_runs(tokens):
        if group[0] != facility:
            if runs:
                blocks.append((facility, tuple(runs)))
            facility, runs = group[0], []
        runs.append((group, _run_docks(seat, shapes)))
    if runs:
        blocks.append((facility, tuple(runs)))
    return tuple(blocks)


@lru_cache(maxsize=8192)
def _run_docks(seat: int, shapes: tuple[Shape, ...]) -> tuple[Dock, ...]:
    """The seat's dockings of a run of shapes: one copy for every hand that has this run
    (keyed by the shapes, whose hash is cheap, not by the dockings)."""
    return tuple([_docking(seat, shape) for shape in shapes])


ShapeRun = tuple[Group, tuple[Shape, ...]]
NO_LAUNCH, LAUNCH_TOO = (False,), (False, True)


@lru_cache(maxsize=4096)
def _shape_runs(tokens: tuple[Token, ...]) -> tuple[ShapeRun, ...]:
    """(facility, values, relic, launch) of every docking a hand of ships allows, by shape
    only, in menu order, cut into runs of one group: a pure table, built once per hand for
    every seat. A group is one facility and ship count, so its runs are cut within each."""
    by_size = {k: [(_shared(values), relic) for values, relic in hands(tokens, k)]
               for k in (1, 2, 3)}
    out: list[ShapeRun] = []
    for key, spec in FACILITIES.items():
        # The id as a plain str, not its StrEnum member: a tuple of plain values is one the
        # garbage collector stops tracking, and these tables are most of a long run's objects.
        facility = str(key)
        launches = LAUNCH_TOO if spec.launches else NO_LAUNCH
        for k in spec.sizes:
            group: Group | None = None
            run: list[Shape] = []
            for values, relic in by_size[k]:
                if not _takes(facility, values):
                    continue
                for launch in launches:
                    if group is None or group[2] != launch or group[3] != (relic is None):
                        if group is not None:
                            out.append((group, tuple(run)))
                        group, run = _shared((facility, k, launch, relic is None)), []
                    run.append(_shared((facility, values, relic, launch)))
            if group is not None:
                out.append((group, tuple(run)))
    return tuple(out)


@lru_cache(maxsize=4096)
def _takes(facility: str, values: tuple[int, ...]) -> bool:
    """Whether the facility takes a group of these values, by shape (a finite table)."""
    return shape_refusal(facility, values) is None


def _shared(value: T) -> T:
    """The one stored copy of an immutable value equal to `value`."""
    stored: T = _SHARED.setdefault(value, value)
    return stored


def _docking(seat: int, shape: Shape) -> Dock:
    found = _DOCKINGS.get((seat, shape))
    if found is None:
        found = _DOCKINGS[(seat, shape)] = Dock(seat, *shape)
    return found
