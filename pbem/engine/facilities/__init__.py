"""Orbital facilities: the shared docking procedure and one module per facility.

Each facility module names its `ID` and provides `refuse(state, seat, action)` (its own
requirement and cost, as a sentence, or None) and `dock(state, seat, ships, action, events)`
(pay and gain). Everything common — group shapes, free ports, finding the ships by value —
lives here, so the must-dock rule (B9) and `legal_actions` see exactly what `check` sees.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations, groupby
from types import ModuleType
from typing import Any, TypeVar

from ..actions import Dock
from ..board import LAYOUT, free_slot, group_size, shape
from ..events import Event, event
from ..ids import FACILITY_NAMES, FACTION_NAMES, HUB_CIRCLES_LAUNCH_EARLY, Facility
from ..lookup import commander, memo, unplaced_indices
from ..state import UNPLACED, GameState
from . import (
    alien_artifact,
    colonist_hub,
    colony_constructor,
    lunar_mine,
    orbital_market,
    raiders_outpost,
    shipyard,
    solar_converter,
    terraforming_station,
)

MODULES: dict[str, ModuleType] = {
    m.ID: m
    for m in (solar_converter, lunar_mine, orbital_market, shipyard, alien_artifact,
              colonist_hub, colony_constructor, terraforming_station, raiders_outpost)
}  # the factions package adds each Faction board's facility here (ruling F5)

# Three ports on a track plus Asimov Crater's one extra advance (ruling B2).
MAX_HUB_ADVANCES = 4

SHAPE_WORDS = {
    "pair": "a pair of ships of equal value",
    "triple": "three ships of equal value",
    "run": "three ships of consecutive values (1-2-3 up to 4-5-6)",
    "six": "exactly one ship showing 6",
    "single": "one ship at a time",
    "track": "one to three ships",
}


def name(facility: str) -> str:
    return FACILITY_NAMES.get(facility, facility)


def match_ships(state: GameState, seat: int, values: tuple[int, ...],
                relic: int | None) -> list[int] | str:
    """Indices of this seat's unplaced ships showing `values` (the Relic Ship for `relic`)."""
    chosen: list[int] = []
    wanted = list(values)
    if relic is not None:
        r = state.ships[-1]
        if commander(state, r) != seat or r.loc != UNPLACED or r.value != relic:
            return f"You have no unplaced Relic Ship showing {relic}."
        if relic not in wanted:
            return "The Relic Ship's value must be one of the docked values."
        wanted.remove(relic)
        chosen.append(len(state.ships) - 1)
    free = _free_by_value(state, seat)
    taken: dict[int, int] = {}
    for v in wanted:
        found = free.get(v, ())
        n = taken.get(v, 0)
        if n >= len(found):
            return f"You have no unplaced ship showing {v} left to dock."
        chosen.append(found[n])
        taken[v] = n + 1
    return chosen


def _free_by_value(state: GameState, seat: int) -> dict[int, list[int]]:
    """value -> indices of the seat's unplaced ships showing it, lowest index first."""
    answers = memo(state)
    key = ("free", seat)
    if answers is not None and key in answers:
        known: dict[int, list[int]] = answers[key]
        return known
    free: dict[int, list[int]] = {}
    ships = state.ships
    for i in unplaced_indices(state, seat):
        free.setdefault(ships[i].value, []).append(i)
    if answers is not None:
        answers[key] = free
    return free


def shape_refusal(facility: str, values: tuple[int, ...]) -> str | None:
    key = (facility, values)
    try:
        return _SHAPES[key]
    except KeyError:
        pass
    except TypeError:  # unhashable values: a malformed action, judged without the table
        return _shape_refusal(facility, values)
    found = _shape_refusal(facility, values)
    if len(_SHAPES) < _SHAPES_MAX:  # players' typos must not grow the table without end
        _SHAPES[key] = found
    return found


_SHAPES: dict[tuple[str, tuple[int, ...]], str | None] = {}  # a pure function's answers
_SHAPES_MAX = 5000


def _shape_refusal(facility: str, values: tuple[int, ...]) -> str | None:
    kind = shape(facility)
    size = group_size(facility)
    if any(not isinstance(v, int) or v < 1 or v > 6 for v in values):
        return "Ship values are 1 to 6."
    ok = len(values) == size
    if kind == "track":
        ok = 1 <= len(values) <= size
    elif kind in ("pair", "triple"):
        ok = ok and len(set(values)) == 1
    elif kind == "run":
        s = sorted(values)
        ok = ok and s[1] == s[0] + 1 and s[2] == s[1] + 1
    elif kind == "six":
        ok = ok and values[0] == 6
    if not ok:
        return f"{name(facility)} takes {SHAPE_WORDS[kind]}."
    return None


def dock_refusal(state: GameState, action: Dock) -> str | None:
    answers = memo(state)  # the menu and the must-dock test (B9) ask the same questions
    if answers is None or not isinstance(action.values, tuple):
        return _dock_refusal(state, action)
    if any(action is offered for offered in answers.get(("offered", action.seat), ())):
        return None  # this very docking came from the menu (`legal_docks`) of this state
    found = answers.get(action, answers)  # the table itself stands for 'not asked yet'
    if found is answers:
        found = answers[action] = _dock_refusal(state, action)
    return None if found is None else str(found)


def _dock_refusal(state: GameState, action: Dock) -> str | None:
    facility = action.facility
    module = MODULES.get(facility)
    if module is None:
        if facility == Facility.MAINTENANCE_BAY:
            return ("Ships go to the Maintenance Bay only when they cannot dock anywhere; "
                    "it is not a docking choice.")
        return f"There is no facility called '{facility}'."
    reason = shape_refusal(facility, action.values)
    if reason and not shipyard.unequal_pair_allowed(state, action):  # ruling F11
        return reason
    if action.launch and not getattr(module, "LAUNCHES", False):
        return "Only a Colonist Hub docking can launch a colony."
    ships = match_ships(state, action.seat, action.values, action.relic)
    if isinstance(ships, str):
        return ships
    if LAYOUT[facility][0] not in ("track", "run") and free_slot(state, facility) is None:
        return f"{name(facility)}: every port is taken."
    return _module_refusal(state, module, action)


def _module_refusal(state: GameState, module: ModuleType, action: Dock) -> str | None:
    """The facility's own requirement and cost. A module marked VALUE_FREE reads only the
    seat, the number of ships, the launch and whether the Relic Ship is among them, so the
    menu asks it once per such shape while the state is steady."""
    answers = memo(state) if getattr(module, "VALUE_FREE", False) else None
    if answers is None:
        reason = module.refuse(state, action.seat, action)
        return str(reason) if reason else None
    key = ("refuse", action.facility, action.seat, len(action.values), action.launch,
           action.relic is None)
    found = answers.get(key, answers)
    if found is answers:
        reason = module.refuse(state, action.seat, action)
        found = answers[key] = str(reason) if reason else None
    return None if found is None else str(found)


def legal_docks(state: GameState, seat: int) -> list[Dock]:
    """The dockings `seat` may make now, in menu order: the candidates `dock_refusal`
    accepts. Inside `steady` the answer also settles the must-dock question (`dockable`)."""
    docks: list[Dock] = []
    for legal in _legal(state, seat):
        docks.extend(legal)
    answers = memo(state)
    if answers is not None:
        answers[("dockable", seat)] = docks[0] if docks else None
        answers[("offered", seat)] = docks  # `check` of the one chosen from this menu
    return docks


def dockable(state: GameState, seat: int) -> Dock | None:
    """Ruling B9: the first docking `seat` may still make, or None; it stops at the first."""
    answers = memo(state)
    key = ("dockable", seat)
    if answers is not None and key in answers:
        known: Dock | None = answers[key]
        return known
    found = next((legal[0] for legal in _legal(state, seat) if legal), None)
    if answers is not None:
        answers[key] = found
    return found


def _legal(state: GameState, seat: int) -> Iterator[Sequence[Dock]]:
    """The candidates that pass `_dock_refusal`, run by run, in order.

    A candidate is built from the seat's own unplaced ships with a shape its facility takes,
    so of `_dock_refusal`'s checks only two can still refuse it: a full facility and the
    facility's own requirement (`_module_refusal`). The first is shared by every candidate
    of a group (facility, ship count, launch, Relic Ship), and so is the second for a
    VALUE_FREE module: such a run is taken or left whole. Other modules judge each
    candidate, and the Scavenger Fleet's unequal Shipyard pairs (ruling F11), made outside
    the shape table, take the whole check. The invariant tests compare this menu with
    `refusal` over every candidate."""
    refused: dict[Group, bool] = {}
    for group, docks, judge in _runs(state, seat):
        surely = refused.get(group)
        if surely is None:
            surely = refused[group] = _surely_refused(state, docks[0])
        if surely:
            continue
        if judge == WHOLE:
            yield docks
        elif judge == EACH:
            refuse = MODULES[group[0]].refuse
            yield [d for d in docks if not refuse(state, seat, d)]
        else:
            yield [d for d in docks if _dock_refusal(state, d) is None]


def _surely_refused(state: GameState, dock: Dock) -> bool:
    facility = dock.facility
    if LAYOUT[facility][0] not in ("track", "run") and free_slot(state, facility) is None:
        return True
    module = MODULES[facility]
    return getattr(module, "VALUE_FREE", False) and bool(module.refuse(state, dock.seat, dock))


def do_dock(state: GameState, action: Dock, events: list[Event]) -> None:
    ships = match_ships(state, action.seat, action.values, action.relic)
    assert not isinstance(ships, str)
    module = MODULES[action.facility]
    choose_slot = getattr(module, "slot", None)
    slot = choose_slot(state, action.seat) if choose_slot else free_slot(state, action.facility)
    assert slot is not None
    events.append(event("docked", action.seat, facility=action.facility,
                        values=list(action.values), relic=action.relic))
    before = getattr(module, "before_dock", None)  # e.g. the Raiders' Outpost bump
    if before:
        before(state, action, events)
    for i in ships:
        ship = state.ships[i]
        ship.loc, ship.slot = action.facility, slot
    module.dock(state, action.seat, ships, action, events)


def ship_tokens(state: GameState, seat: int) -> tuple[tuple[int, bool], ...]:
    ships = state.ships
    tokens = [(ships[i].value, False) for i in unplaced_indices(state, seat)]
    r = state.ships[-1]
    if r.loc == UNPLACED and commander(state, r) == seat:  # the controller's, or borrowed
        tokens.append((r.value, True))
    tokens.sort()
    return tuple(tokens)


def candidates(state: GameState, seat: int) -> list[Dock]:
    """Every distinct docking this seat could try, by value; legality is checked after."""
    return [dock for _, docks, _ in _runs(state, seat) for dock in docks]


T = TypeVar("T")

# How `_legal` judges a run of candidates once their group passed: WHOLE (a VALUE_FREE
# facility: the group's answer is theirs), EACH (the facility's `refuse` reads the values),
# FULL (`_dock_refusal`, for candidates made outside the shape table).
WHOLE, EACH, FULL = "whole", "each", "full"
Group = tuple[str, int, bool, bool]  # facility, ship count, launch, no Relic Ship
Runs = tuple[tuple[Group, tuple[Dock, ...], str], ...]


def _runs(state: GameState, seat: int) -> Runs:
    """The candidates in menu order, cut into runs of one group each (see `_legal`)."""
    tokens = ship_tokens(state, seat)
    chosen = tuple(sorted(s.faction for s in state.seats if s.faction))
    # A launch needs the colony on circle 6 or 7 by the end of the docking: without that
    # reach the launch variants are left out (they would all be refused anyway).
    reach = state.seats[seat].hub_circle + MAX_HUB_ADVANCES >= HUB_CIRCLES_LAUNCH_EARLY
    runs = _menu(seat, tokens, chosen, reach)
    if shipyard.scavenger_open(state):  # ruling F11: unequal pairs at the Shipyard
        runs += _cut((Dock(seat, str(shipyard.ID), (a[0], b[0]), a[0] if a[1] else
                           (b[0] if b[1] else None))
                      for a, b in combinations(sorted(set(tokens)), 2) if a[0] != b[0]),
                     FULL)
    return runs


def _cut(docks: Iterable[Dock], judge: str | None = None) -> Runs:
    """Consecutive candidates of one group make a run."""
    runs: list[tuple[Group, tuple[Dock, ...], str]] = []
    for group, same in groupby(docks, key=lambda d: (d.facility, len(d.values), d.launch,
                                                     d.relic is None)):
        module = MODULES[group[0]]
        kind = judge or (WHOLE if getattr(module, "VALUE_FREE", False) else EACH)
        runs.append(_shared((_shared(group), _shared(tuple(same)), kind)))
    return tuple(runs)


# The tables below are kept for thousands of hands. Their entries share one copy of each
# docking, shape and run: those are finite sets (five seats, fixed facilities, values 1-6),
# so a long-running web worker's memory stays small however many hands it meets.
_SHARED: dict[Any, Any] = {}
_DOCKINGS: dict[tuple[int, Shape], Dock] = {}


def _shared(value: T) -> T:
    """The one stored copy of an immutable value equal to `value`."""
    stored: T = _SHARED.setdefault(value, value)
    return stored


def _docking(seat: int, shape: Shape) -> Dock:
    found = _DOCKINGS.get((seat, shape))
    if found is None:
        found = _DOCKINGS[(seat, shape)] = Dock(seat, *shape)
    return found


@lru_cache(maxsize=4096)
def _menu(seat: int, tokens: tuple[tuple[int, bool], ...], chosen: tuple[str, ...],
          reach: bool) -> Runs:
    """`_all_runs` at the Faction facilities of the chosen boards only (ruling F3), and
    without launches when the colony cannot reach a launch circle."""
    return tuple(run for run in _all_runs(seat, tokens)
                 if (run[0][0] not in FACTION_NAMES or run[0][0] in chosen)
                 and (reach or not run[0][2]))


@lru_cache(maxsize=4096)
def _all_runs(seat: int, tokens: tuple[tuple[int, bool], ...]) -> Runs:
    """The dockings a hand of ships allows, by shape only, cut into runs."""
    return _cut(_docking(seat, shape) for shape in _shapes(tokens))


Shape = tuple[str, tuple[int, ...], int | None, bool]  # facility, values, relic, launch


@lru_cache(maxsize=4096)
def _shapes(tokens: tuple[tuple[int, bool], ...]) -> tuple[Shape, ...]:
    """(facility, values, relic, launch) of every docking a hand of ships allows, by shape
    only, in menu order: a pure table, built once per hand for every seat."""
    by_size: dict[int, set[tuple[tuple[int, ...], int | None]]] = {}
    for k in (1, 2, 3):
        combos: set[tuple[tuple[int, ...], int | None]] = set()
        for combo in combinations(tokens, k):
            values = tuple(v for v, _ in combo)
            relic = next((v for v, r in combo if r), None)
            combos.add((values, relic))
        by_size[k] = combos
    out: list[Shape] = []
    for facility, module in MODULES.items():
        kind = LAYOUT[facility][0]
        launches = getattr(module, "LAUNCHES", False)
        sizes = (1, 2, 3) if kind == "track" else (group_size(facility),)
        for k in sizes:
            for values, relic in sorted(by_size[k], key=lambda c: (c[0], c[1] or 0)):
                if shape_refusal(facility, values) is None:
                    out.append(_shared((str(facility), _shared(values), relic, False)))
                    if launches:
                        out.append(_shared((str(facility), _shared(values), relic, True)))
    return tuple(out)
