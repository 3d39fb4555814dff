"""The Orbital Teleporter's moves, judged for the menu a what-if copy at a time.

`orbital_teleporter.use_refusals` judges each move's docking with `dock_refusal` on a copy
with the moved ship lifted (one copy per ship moved). A move's docking is one of the
dockings `facilities.candidates` lists on that copy (the moved ship is unplaced there, and
the joiners are unplaced ships of the seat), so `legal_docks` of the copy, asked once per
ship moved, answers every move of that ship: the docking is allowed exactly when it is on
that menu. The copies are one per seat, each ship lifted on it in turn and put back
after, but for a ship off the Orbital Market (a pair leaving takes its rate: a copy of its
own). The moves' other rules are the card's own (`moved_ship`, and `move_refusal` as
`barred_destinations`, asked once per ship).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..alien_tech.orbital_teleporter import (
    DockShape,
    UseOrbitalTeleporter,
    barred_destinations,
    dock_shape,
    lift_undone_by_return,
    lifted,
    moved_ship,
    paid,
)
from ..facilities import FACILITIES
from ..state import UNPLACED, GameState
from . import legal_docks


def teleports_refused(state: GameState, actions: Sequence[UseOrbitalTeleporter]) -> list[bool]:
    """Whether `use_refusals` refuses each of `actions` (the seat's own, nothing pending)."""
    allowed: dict[tuple[int, int], set[DockShape]] = {}
    ships: dict[tuple[int, str, int, bool], int | str] = {}  # the ship each move moves
    barred: dict[tuple[int, str], set[str]] = {}  # ship, from -> where `move_refusal` refuses
    table = FACILITIES  # `move_refusal` refuses what is no facility too
    out: list[bool] = []
    last: tuple[int, str, int, bool] | None = None
    index: int | str = ""
    no_go: set[str] = set()
    shapes: set[DockShape] | None = None
    copies: dict[int, GameState] = {}  # seat -> a copy with the fuel paid, ships put back
    for action in actions:
        moved = (action.seat, action.facility, action.ship, action.relic)
        if moved != last:  # the menu lists a ship's moves together: its answers, once a run
            last = moved
            found = ships.get(moved)
            if found is None:
                found = ships[moved] = moved_ship(state, action)
            index = found
            if isinstance(index, int):
                way = (index, action.facility)
                refused = barred.get(way)
                if refused is None:
                    refused = barred[way] = barred_destinations(state, index, action.facility)
                no_go = refused
                shapes = allowed.get((action.seat, index))
        if isinstance(index, str) or action.to in no_go or action.to not in table:
            out.append(True)
            continue
        if shapes is None:
            shapes = allowed[(action.seat, index)] = _docks_lifted(state, action.seat, index,
                                                                   copies)
        out.append(dock_shape(action) not in shapes)
    return out


def _docks_lifted(state: GameState, seat: int, index: int,
                  copies: dict[int, GameState]) -> set[DockShape]:
    """The shapes of `legal_docks` on `lifted(state, seat, index)`. A lift that only moves
    the ship (`lift_undone_by_return`) is made on the seat's one paid copy and undone after,
    so the ships moved share a copy instead of one each."""
    if not lift_undone_by_return(state, index):
        trial = lifted(state, seat, index)
        return {(d.facility, d.values, d.relic, d.launch) for d in legal_docks(trial, seat)}
    shared = copies.get(seat)
    if shared is None:
        shared = copies[seat] = paid(state, seat)
    ship = shared.ships[index]
    was = ship.loc, ship.slot
    ship.loc, ship.slot = UNPLACED, -1  # as `lifted`: off its facility, not the Market
    try:
        return {(d.facility, d.values, d.relic, d.launch) for d in legal_docks(shared, seat)}
    finally:
        ship.loc, ship.slot = was
