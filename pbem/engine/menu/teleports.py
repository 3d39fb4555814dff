"""The Orbital Teleporter's moves, judged for the menu a what-if copy at a time.

`orbital_teleporter.use_refusals` judges each move's docking with `dock_refusal` on a copy
with the moved ship lifted (one copy per ship moved). A move's docking is one of the
dockings `facilities.candidates` lists on that copy (the moved ship is unplaced there, and
the joiners are unplaced ships of the seat), so `legal_docks` of the copy, asked once per
ship moved, answers every move of that ship: the docking is allowed exactly when it is on
that menu. The moves' other rules are the card's own (`moved_ship`, asked once per ship,
and `move_refusal`, once per ship and destination).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..alien_tech.orbital_teleporter import (
    DockShape,
    UseOrbitalTeleporter,
    dock_shape,
    lifted,
    move_refusal,
    moved_ship,
)
from ..state import GameState
from . import legal_docks


def teleports_refused(state: GameState, actions: Sequence[UseOrbitalTeleporter]) -> list[bool]:
    """Whether `use_refusals` refuses each of `actions` (the seat's own, nothing pending)."""
    allowed: dict[tuple[int, int], set[DockShape]] = {}
    ships: dict[tuple[int, str, int, bool], int | str] = {}  # the ship each move moves
    barred: dict[tuple[int, str, str], bool] = {}  # ship, from, to -> `move_refusal` refuses
    out: list[bool] = []
    for action in actions:
        moved = (action.seat, action.facility, action.ship, action.relic)
        index = ships.get(moved)
        if index is None:
            index = ships[moved] = moved_ship(state, action)
        if isinstance(index, str):
            out.append(True)
            continue
        way = (index, action.facility, action.to)  # all that `move_refusal` reads of a move
        no = barred.get(way)
        if no is None:
            no = barred[way] = move_refusal(state, action, index) is not None
        if no:
            out.append(True)
            continue
        key = (action.seat, index)
        shapes = allowed.get(key)
        if shapes is None:
            trial = lifted(state, action.seat, index)
            shapes = allowed[key] = {(d.facility, d.values, d.relic, d.launch)
                                     for d in legal_docks(trial, action.seat)}
        out.append(dock_shape(action) not in shapes)
    return out
