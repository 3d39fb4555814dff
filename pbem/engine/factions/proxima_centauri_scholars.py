"""Proxima Centauri Scholars (ruling F10).

Facility: pay 1 fuel to the supply, then move a field generator already on the planet to
another territory (the follow-up decision `move <field> <territory>`). Owner: once per turn,
pay 2 fuel to place an off-planet field generator on a territory or to remove one from the
planet, never to move one (`scholars place <field> <territory>`, `scholars remove <field>`).
Every field change goes through `fields.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .. import fields
from ..actions import Action, Dock, register_action
from ..events import Event
from ..ids import TERRITORY_NAMES, Faction
from ..payments import pay
from ..state import GameState
from . import common

ID = Faction.PROXIMA_CENTAURI_SCHOLARS
VALUE_FREE = True  # `refuse` never reads the ship values (facilities._module_refusal)
NAME = "Proxima Centauri Scholars"
DOCK_FUEL = 1
OWNER_FUEL = 2
PENDING = "proxima_move"


@register_action
@dataclass(frozen=True, slots=True)
class MoveField(Action):
    """After docking at the Proxima Centauri Scholars: move `field` to `territory`."""

    kind: ClassVar[str] = "move_field"
    field: str
    territory: str


@register_action
@dataclass(frozen=True, slots=True)
class ScholarsPlace(Action):
    """Owner: pay 2 fuel to put an off-planet `field` on `territory`."""

    kind: ClassVar[str] = "scholars_place"
    field: str
    territory: str


@register_action
@dataclass(frozen=True, slots=True)
class ScholarsRemove(Action):
    """Owner: pay 2 fuel to take `field` off the planet."""

    kind: ClassVar[str] = "scholars_remove"
    field: str


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    reason = common.refuse(state, seat, ID, fuel=DOCK_FUEL)
    if reason is None and all(t is None for t in state.fields.values()):
        reason = f"{NAME}: no field generator is on the planet to move."
    return reason


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    common.pay_fee(state, seat, ID, events)
    pay(state, seat, DOCK_FUEL, 0, events, why=ID)
    state.turn.pending = {"kind": PENDING, "seat": seat}


def move_refusal(state: GameState, action: MoveField) -> str | None:
    if not isinstance(action.field, str) or state.fields.get(action.field) is None:
        return f"{NAME}: move a field generator that is on the planet."
    reason = fields.place_refusal(state, action.field, action.territory)
    return f"{NAME}: {reason}" if reason else None


def move(state: GameState, action: MoveField, events: list[Event]) -> None:
    state.turn.pending = None
    fields.place(state, action.field, action.territory, action.seat, events, why=ID)


def _owner_refusal(state: GameState, seat: int) -> str | None:
    if not common.owns(state, seat, ID):
        return f"{NAME}: only the owner of this Faction board may place or remove fields."
    if common.once_per_turn(state, ID):
        return f"{NAME}: the owner places or removes one field generator per turn; done."
    if state.seats[seat].fuel < OWNER_FUEL:
        return f"{NAME}: placing or removing a field generator costs 2 fuel; you have less."
    return None


def place_refusal(state: GameState, action: ScholarsPlace) -> str | None:
    reason = _owner_refusal(state, action.seat)
    if reason:
        return reason
    if not isinstance(action.field, str) or action.field not in state.fields:
        return f"{NAME}: there is no field generator called '{action.field}'."
    if state.fields[action.field] is not None:
        return (f"{NAME}: the {fields.field_name(action.field)} is on the planet; the owner "
                "may place an off-planet field or remove one, never move one (ruling F10).")
    reason = fields.place_refusal(state, action.field, action.territory)
    return f"{NAME}: {reason}" if reason else None


def place(state: GameState, action: ScholarsPlace, events: list[Event]) -> None:
    common.mark_used(state, ID)
    pay(state, action.seat, OWNER_FUEL, 0, events, why=ID)
    fields.place(state, action.field, action.territory, action.seat, events, why=ID)


def remove_refusal(state: GameState, action: ScholarsRemove) -> str | None:
    reason = _owner_refusal(state, action.seat)
    if reason is None:
        found = fields.remove_refusal(state, action.field)
        reason = f"{NAME}: {found}" if found else None
    return reason


def remove(state: GameState, action: ScholarsRemove, events: list[Event]) -> None:
    common.mark_used(state, ID)
    pay(state, action.seat, OWNER_FUEL, 0, events, why=ID)
    fields.remove(state, action.field, action.seat, events, why=ID)


def candidates(state: GameState, seat: int) -> list[Action]:
    pending = state.turn.pending
    if pending is not None:
        if pending["kind"] != PENDING:
            return []
        return [MoveField(seat, f, t) for f, at in state.fields.items() if at is not None
                for t in TERRITORY_NAMES if t != at]
    if not common.owns(state, seat, ID) or common.once_per_turn(state, ID):
        return []
    out: list[Action] = []
    for f, at in state.fields.items():
        if at is None:
            out.extend(ScholarsPlace(seat, f, t) for t in TERRITORY_NAMES)
        else:
            out.append(ScholarsRemove(seat, f))
    return out
