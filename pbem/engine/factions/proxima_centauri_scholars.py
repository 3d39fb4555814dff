"""Proxima Centauri Scholars (ruling F10).

Facility: pay 1 fuel to the supply, then move a field generator already on the planet to
another territory (the follow-up decision `move <field> <territory>`). Owner: once per turn,
pay 2 fuel to place an off-planet field generator on a territory or to remove one from the
planet, never to move one (`scholars place <field> <territory>`, `scholars remove <field>`).
Every field change goes through `fields.py`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import fields
from ..actions import Action, Dock, register_action
from ..events import Event
from ..ids import TERRITORY_NAMES, Faction, Field
from ..payments import pay
from ..state import GameState
from . import common
from .spec import BoardAction, BoardFacility, Decision, FactionSpec, worth

ID: Final[str] = str(Faction.PROXIMA_CENTAURI_SCHOLARS)
NAME: Final = "Proxima Centauri Scholars"
DOCK_FUEL: Final = 1
OWNER_FUEL: Final = 2
PENDING: Final = "proxima_move"


@dataclass(frozen=True, slots=True)
class MoveField(Action):
    """After docking at the Proxima Centauri Scholars: move `field` to `territory`."""

    field: str
    territory: str


register_action("move_field", MoveField)


@dataclass(frozen=True, slots=True)
class ScholarsPlace(Action):
    """Owner: pay 2 fuel to put an off-planet `field` on `territory`."""

    field: str
    territory: str


register_action("scholars_place", ScholarsPlace)


@dataclass(frozen=True, slots=True)
class ScholarsRemove(Action):
    """Owner: pay 2 fuel to take `field` off the planet."""

    field: str


register_action("scholars_remove", ScholarsRemove)


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
    if not common.owns(state, seat, ID) or common.once_per_turn(state, ID) \
            or state.seats[seat].fuel < OWNER_FUEL:  # `_owner_refusal` refuses every one
        return []
    out: list[Action] = []
    for f, at in state.fields.items():
        if at is None:
            out.extend(ScholarsPlace(seat, f, t) for t in TERRITORY_NAMES)
        else:
            out.append(ScholarsRemove(seat, f))
    return out


def format_move(action: MoveField) -> str:
    return f"move {action.field} {action.territory}"


def format_place(action: ScholarsPlace) -> str:
    return f"scholars place {action.field} {action.territory}"


def format_remove(action: ScholarsRemove) -> str:
    return f"scholars remove {action.field}"


def bot_move_score(state: GameState, seat: int, action: MoveField) -> float:
    return 0.0


def bot_owner_score(state: GameState, seat: int,
                    action: ScholarsPlace | ScholarsRemove) -> float:
    """The greedy bot places the Positron Field on its own territory or the Isolation Field
    on an opponent's, and removes a field that harms its own territory."""
    if isinstance(action, ScholarsPlace):
        mine = state.controllers.get(action.territory) == seat
        if action.field == Field.POSITRON and mine:
            return 6.0
        if action.field == Field.ISOLATION and state.controllers.get(action.territory) \
                not in (None, seat):
            return 1.0
        return -6.0
    at = state.fields.get(action.field)
    harmful = at is not None and state.controllers.get(at) == seat \
        and action.field != Field.POSITRON
    return 2.0 if harmful else -6.0


FACTION: Final = FactionSpec(
    id=ID,
    name=NAME,
    aliases=("proxima", "scholars"),
    facility=BoardFacility(effect="Pay 1 fuel: move a field generator to another territory.",
                           refuse=refuse, dock=dock, bot_worth=worth(0.5)),
    owner="Once per turn, 2 fuel: place or remove a field generator.",
    actions=(
        BoardAction(action=MoveField, refusal=move_refusal, effect=move, format=format_move,
                    bot_score=bot_move_score),
        BoardAction(action=ScholarsPlace, refusal=place_refusal, effect=place,
                    format=format_place, bot_score=bot_owner_score),
        BoardAction(action=ScholarsRemove, refusal=remove_refusal, effect=remove,
                    format=format_remove, bot_score=bot_owner_score),
    ),
    decision=Decision(
        kind=PENDING, answers=(MoveField,),
        waiting="First choose the field generator the Proxima Centauri Scholars move.",
        unasked="Proxima Centauri Scholars: a field moves only after docking there."),
    candidates=candidates,
)
