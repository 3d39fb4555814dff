"""Orbital facilities: the docking procedure, and one module per facility.

Each facility declares itself in one `FacilitySpec` (`spec.py`): its id, name, group shape
and ports, and its hooks — `refuse(state, seat, action)` (its own requirement and cost, as a
sentence, or None) and `dock(state, seat, ships, action, events)` (pay and gain). The table of
specs is `table.FACILITIES`. Everything common lives here: group shapes, free ports, finding
the ships by value, and the must-dock rule (B9). These are the rules as written, judged from
the state alone; the menu's accelerator (`pbem.engine.menu`) is apart, and `check` never
consults it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from itertools import combinations
from typing import Final

from ..actions import Dock
from ..events import Event
from ..ids import FACILITY_NAMES, SHIPS_MAX, Facility
from ..lookup import SERVO_SHIPS, commander, unplaced_indices
from ..state import UNPLACED, GameState
from . import shipyard
from .ports import free_slot
from .spec import FacilitySpec
from .table import FACILITIES, join

SHAPE_WORDS: Final = {
    "pair": "a pair of ships of equal value",
    "triple": "three ships of equal value",
    "run": "three ships of consecutive values (1-2-3 up to 4-5-6)",
    "six": "exactly one ship showing 6",
    "single": "one ship at a time",
    "track": "one to three ships",
}

Token = tuple[int, bool]  # a ship's value, and whether it is the Relic Ship


def name(facility: str) -> str:
    return FACILITY_NAMES.get(facility, facility)


def match_ships(state: GameState, seat: int, values: tuple[int, ...],
                relic: int | None) -> list[int] | str:
    """Indices of this seat's unplaced ships showing `values` (the Relic Ship for `relic`)."""
    chosen: list[int] = []
    wanted: tuple[int, ...] | list[int] = values  # copied only to take the Relic Ship's out
    if relic is not None:
        r = state.ships[-1]
        if commander(state, r) != seat or r.loc != UNPLACED or r.value != relic:
            return f"You have no unplaced Relic Ship showing {relic}."
        if relic not in wanted:
            return "The Relic Ship's value must be one of the docked values."
        wanted = list(values)
        wanted.remove(relic)
        chosen.append(len(state.ships) - 1)
    free = unplaced_indices(state, seat)
    ships = state.ships
    for v in wanted:
        for found in free:  # the first free ship showing v
            if ships[found].value == v:
                break
        else:
            return f"You have no unplaced ship showing {v} left to dock."
        chosen.append(found)
        free.remove(found)
    return chosen


def shape_refusal(facility: str, values: tuple[int, ...]) -> str | None:
    """Why these values do not make a group the facility takes (or None)."""
    spec = FACILITIES[facility]
    for v in values:
        if not isinstance(v, int) or v < 1 or v > 6:
            return "Ship values are 1 to 6."
    kind = spec.shape
    ok = len(values) == spec.group_size
    if kind == "track":
        ok = 1 <= len(values) <= spec.group_size
    elif kind in ("pair", "triple"):
        ok = ok and len(set(values)) == 1
    elif kind == "run":
        s = sorted(values)
        ok = ok and s[1] == s[0] + 1 and s[2] == s[1] + 1
    elif kind == "six":
        ok = ok and values[0] == 6
    if not ok:
        return f"{spec.name} takes {SHAPE_WORDS[kind]}."
    return None


def dock_refusal(state: GameState, action: Dock) -> str | None:
    facility = action.facility
    spec = FACILITIES.get(facility)
    if spec is None:
        if facility == Facility.MAINTENANCE_BAY:
            return ("Ships go to the Maintenance Bay only when they cannot dock anywhere; "
                    "it is not a docking choice.")
        return f"There is no facility called '{facility}'."
    reason = shape_refusal(facility, action.values)
    if reason and not shipyard.unequal_pair_allowed(state, action):  # ruling F11
        return reason
    if action.launch and not spec.launches:
        return "Only a Colonist Hub docking can launch a colony."
    ships = match_ships(state, action.seat, action.values, action.relic)
    if isinstance(ships, str):
        return ships
    if spec.shape not in ("track", "run") and free_slot(state, facility) is None:
        return f"{spec.name}: every port is taken."
    reason = spec.refuse(state, action.seat, action)
    return str(reason) if reason else None


def dockable(state: GameState, seat: int) -> Dock | None:
    """Ruling B9: the first docking `seat` may still make, or None."""
    return next((dock for dock in _candidates(state, seat)
                 if dock_refusal(state, dock) is None), None)


def do_dock(state: GameState, action: Dock, events: list[Event]) -> None:
    seat, facility = action.seat, action.facility
    ships = match_ships(state, seat, action.values, action.relic)
    assert not isinstance(ships, str)
    spec = FACILITIES[facility]
    slot = spec.slot(state, seat) if spec.slot else free_slot(state, facility)
    assert slot is not None
    # as `event` would build it, without packing keywords: every docking makes one
    events.append({"kind": "docked", "seat": seat, "facility": facility,
                   "values": list(action.values), "relic": action.relic})
    if spec.before_dock:  # e.g. the Raiders' Outpost bump
        spec.before_dock(state, action, events)
    everyone = state.ships
    for i in ships:
        ship = everyone[i]
        ship.loc, ship.slot = facility, slot
    spec.dock(state, seat, ships, action, events)


def ship_hand(state: GameState, seat: int) -> tuple[tuple[int, ...], int | None]:
    """The values of the seat's unplaced ships, sorted (the Relic Ship's among them), and
    the Relic Ship's value when it is one of them: `ship_tokens` in plain numbers, which a
    table is keyed by more cheaply."""
    ships = state.ships
    if SERVO_SHIPS in state.turn.facts:  # a borrowed ship is the borrower's (ruling T1)
        values = [ships[i].value for i in unplaced_indices(state, seat)]
    else:  # a colour's ships are one run of the list (`lookup.colour_indices`)
        first = seat * SHIPS_MAX
        values = [s.value for s in ships[first:first + SHIPS_MAX] if s.loc == UNPLACED]
    r = ships[-1]
    relic = None
    if r.loc == UNPLACED and commander(state, r) == seat:  # the controller's, or borrowed
        relic = r.value
        values.append(relic)
    values.sort()
    return tuple(values), relic


def ship_tokens(state: GameState, seat: int) -> tuple[Token, ...]:
    """The seat's unplaced ships as tokens, sorted (the Relic Ship after a ship of its value)."""
    return hand_tokens(*ship_hand(state, seat))


@lru_cache(maxsize=4096)
def hand_tokens(values: tuple[int, ...], relic: int | None) -> tuple[Token, ...]:
    """The tokens of a `ship_hand`: one table entry for each hand of ships met."""
    tokens = [(value, False) for value in values]
    if relic is not None:
        tokens.remove((relic, False))
        tokens.append((relic, True))
    tokens.sort()
    return tuple(tokens)


def hands(tokens: tuple[Token, ...], size: int) -> list[tuple[tuple[int, ...], int | None]]:
    """The distinct choices of `size` ships among `tokens`, by value (and the Relic Ship's
    value when it is among them), in order."""
    plain = [v for v, is_relic in tokens if not is_relic]  # sorted, so each choice is too
    found: set[tuple[tuple[int, ...], int | None]] = {
        (values, None) for values in combinations(plain, size)}
    for relic, is_relic in tokens:
        if is_relic:  # the Relic Ship and size - 1 others
            found.update((tuple(sorted((*others, relic))), relic)
                         for others in combinations(plain, size - 1))
    # in order of values, then without the Relic Ship first: sorted by plain tuples (no key
    # function called per choice); the first two items of each are distinct, so the Relic
    # Ship's value, None or an int, is never compared
    return [(values, relic) for values, _, relic in sorted(
        [(values, relic or 0, relic) for values, relic in found])]


def unequal_pairs(seat: int, tokens: tuple[Token, ...]) -> Iterator[Dock]:
    """Shipyard dockings of two unequal ships (ruling F11), in order."""
    for a, b in combinations(sorted(set(tokens)), 2):
        if a[0] != b[0]:
            relic = a[0] if a[1] else (b[0] if b[1] else None)
            yield Dock(seat, shipyard.ID, (a[0], b[0]), relic)


def candidates(state: GameState, seat: int) -> list[Dock]:
    """Every docking `seat` could try with its unplaced ships, in menu order: each facility
    of the table, each number of ships it may take, each choice of ships by value, and a
    launch where the facility launches; the Shipyard's unequal pairs (ruling F11) last.
    Whether one is allowed is `dock_refusal`'s to say."""
    return list(_candidates(state, seat))


def _candidates(state: GameState, seat: int) -> Iterator[Dock]:
    tokens = ship_tokens(state, seat)
    if not tokens:
        return
    by_size = {k: hands(tokens, k) for k in (1, 2, 3)}
    for spec in FACILITIES.values():
        for k in spec.sizes:
            for values, relic in by_size[k]:
                if spec.id == shipyard.ID and values[0] != values[1]:
                    continue  # listed with the unequal pairs, last
                yield Dock(seat, spec.id, values, relic)
                if spec.launches:
                    yield Dock(seat, spec.id, values, relic, True)
    yield from unequal_pairs(seat, tokens)


__all__ = ["FACILITIES", "FacilitySpec", "candidates", "do_dock", "dock_refusal",
           "dockable", "hand_tokens", "hands", "join", "match_ships", "name", "shape_refusal",
           "ship_hand", "ship_tokens", "unequal_pairs"]
