"""The dockings a hand of ships allows by shape alone, cut into runs: pure tables, built once
per hand and kept for the life of the process.

Their entries share one copy of each docking, shape and run: those are finite sets (five
seats, fixed facilities, values 1-6), so a long-running web worker's memory stays small
however many hands it meets.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import groupby
from typing import Any, Final, TypeVar

from ..actions import Dock
from ..facilities import FACILITIES, Token, hands, shape_refusal
from ..ids import FACTION_NAMES

T = TypeVar("T")

# How a run of candidates is judged once its group passed (see `pbem.engine.menu`): WHOLE (a
# value-free facility: the group's answer is theirs), EACH (the facility's `refuse` reads the
# values), FULL (`dock_refusal`, for candidates made outside the shape table).
WHOLE, EACH, FULL = "whole", "each", "full"
Group = tuple[str, int, bool, bool]  # facility, ship count, launch, no Relic Ship
Run = tuple[Group, tuple[Dock, ...], str]
Runs = tuple[Run, ...]
Shape = tuple[str, tuple[int, ...], int | None, bool]  # facility, values, relic, launch

_SHARED: Final[dict[Any, Any]] = {}
_DOCKINGS: Final[dict[tuple[int, Shape], Dock]] = {}


def cut(docks: Iterable[Dock], judge: str | None = None) -> Runs:
    """Consecutive candidates of one group make a run."""
    runs: list[Run] = []
    for group, same in groupby(docks, key=lambda d: (d.facility, len(d.values), d.launch,
                                                     d.relic is None)):
        kind = judge or (WHOLE if FACILITIES[group[0]].value_free else EACH)
        runs.append(_shared((_shared(group), _shared(tuple(same)), kind)))
    return tuple(runs)


@lru_cache(maxsize=1024)
def unchosen(chosen: tuple[str, ...]) -> frozenset[str]:
    """The Faction facilities of the boards not chosen: their runs are skipped (ruling F3)."""
    return frozenset(f for f in FACTION_NAMES if f not in chosen)


@lru_cache(maxsize=4096)
def runs(seat: int, tokens: tuple[Token, ...]) -> Runs:
    """The dockings a hand of ships allows, by shape only, cut into runs: those of every
    Faction facility and with launches too; the menu skips the runs of `unchosen` boards and
    the launches a colony cannot reach as it goes (a table filtered per game would be built
    again for every game and hand)."""
    return tuple([(group, _run_docks(seat, shapes), judge)
                  for group, shapes, judge in _shape_runs(tokens)])


@lru_cache(maxsize=8192)
def _run_docks(seat: int, shapes: tuple[Shape, ...]) -> tuple[Dock, ...]:
    """The seat's dockings of a run of shapes: one copy for every hand that has this run
    (keyed by the shapes, whose hash is cheap, not by the dockings)."""
    return tuple([_docking(seat, shape) for shape in shapes])


ShapeRun = tuple[Group, tuple[Shape, ...], str]
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
        judge = WHOLE if spec.value_free else EACH
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
                            out.append((group, tuple(run), judge))
                        group, run = _shared((facility, k, launch, relic is None)), []
                    run.append(_shared((facility, values, relic, launch)))
            if group is not None:
                out.append((group, tuple(run), judge))
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
