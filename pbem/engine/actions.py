"""One small frozen dataclass per kind of action. Every action names the seat that acts.

`action_to_json` / `action_from_json` give the JSON form (a dict with a `kind`); the text form
lives in notation.py.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

from .errors import InvalidAction


@dataclass(frozen=True, slots=True)
class Action:
    seat: int

    @property
    def kind(self) -> str:
        """The name of this kind of action in JSON, notation and the menu's families."""
        return KINDS[type(self)]


# Each action class's kind, and the class of each kind. The kind is registered beside its
# class rather than kept as a ClassVar: mypyc's dataclasses take a ClassVar for a field
# (mypyc/mypyc#1122), and the compiled build (docs/compiled-engine.md) must play the same.
KINDS: Final[dict[type[Action], str]] = {}
ACTION_TYPES: Final[dict[str, type[Action]]] = {}
# The shape of an action field's value (checked in its JSON form), by the field's annotation:
# its text in pure Python (`from __future__ import annotations`), or the class that mypyc's
# compiled dataclasses keep instead, which drops the parameters. `register_action` refuses any
# other annotation, so in the compiled build `tuple` can only be `tuple[int, ...]` and `type`
# (what `int | None` becomes there) only `int | None`.
FIELD_SHAPES: Final[dict[object, str]] = {
    "int": "int", int: "int", "str": "str", str: "str", "bool": "bool", bool: "bool",
    "int | None": "int?", type: "int?", "tuple[int, ...]": "ints", tuple: "ints",
}


def register_action(kind: str, cls: type[Action]) -> None:
    """Name an action class's kind (card powers, factions and agendas register theirs)."""
    if kind in ACTION_TYPES or cls in KINDS:
        raise ValueError(f"action kind {kind!r} or class {cls.__name__} registered twice")
    odd = [f"{f.name}: {f.type}" for f in fields(cls) if f.type not in FIELD_SHAPES]
    if odd:
        raise TypeError(f"{cls.__name__} has fields JSON cannot check: {', '.join(odd)}")
    KINDS[cls] = kind
    ACTION_TYPES[kind] = cls


def kind_of(cls: type[Action]) -> str:
    """The kind of an action class (an action's own is `action.kind`)."""
    return KINDS[cls]


@dataclass(frozen=True, slots=True)
class Dock(Action):
    """Dock unplaced ships, chosen by value, at one facility.

    `relic` is the value of the Relic Ship among `values` when it is one of them. `launch`
    (Colonist Hub only) launches the colony within this docking (ruling B8).
    """

    facility: str
    values: tuple[int, ...]
    relic: int | None = None
    launch: bool = False


register_action("dock", Dock)


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """Orbital Market: pay `rate` fuel for 1 ore (rate = a docked pair's value, or 1)."""

    rate: int


register_action("trade", Trade)


@dataclass(frozen=True, slots=True)
class Cycle(Action):
    """Alien Artifact: discard the display and deal three new cards (ruling B16)."""


register_action("cycle", Cycle)


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Alien Artifact: take a displayed card once the count is 8 or more (ruling B1)."""

    card: str


register_action("claim", Claim)


@dataclass(frozen=True, slots=True)
class Launch(Action):
    """Colonist Hub: pay 1 fuel + 1 ore to launch the colony waiting on circle 7."""


register_action("launch", Launch)


@dataclass(frozen=True, slots=True)
class Land(Action):
    """Put the colony being placed on a territory."""

    territory: str


register_action("land", Land)


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Raiders' Outpost: take one fuel or ore token from a victim (ruling B18)."""

    victim: int
    resource: str  # "fuel" or "ore"


register_action("steal", Steal)


@dataclass(frozen=True, slots=True)
class StealCard(Action):
    """Raiders' Outpost: take one Alien Tech card from a victim instead of resources."""

    victim: int
    card: str


register_action("steal_card", StealCard)


@dataclass(frozen=True, slots=True)
class EndRaid(Action):
    """Raiders' Outpost: take nothing more (fewer than 4 resources is allowed, B18)."""


register_action("end_raid", EndRaid)


@dataclass(frozen=True, slots=True)
class BuyRelic(Action):
    """Burroughs Desert: buy the Relic Ship for 1 fuel + 1 ore."""


register_action("buy_relic", BuyRelic)


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn, returning tokens to get down to 8 resources (base-game.md §1.5)."""

    return_fuel: int = 0
    return_ore: int = 0


register_action("end_turn", EndTurn)


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"kind": action.kind}
    for f in fields(action):
        value = getattr(action, f.name)
        data[f.name] = list(value) if isinstance(value, tuple) else value
    return data


def action_from_json(data: Any) -> Action:
    """Build an action from its JSON form; raises InvalidAction on anything malformed."""
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise InvalidAction("An action is an object with a 'kind'.")
    cls = ACTION_TYPES.get(data["kind"])
    if cls is None:
        raise InvalidAction(f"Unknown action kind '{data['kind']}'.")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            continue
        value = data[f.name]
        if isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    unknown = set(data) - {f.name for f in fields(cls)} - {"kind"}
    if unknown:
        raise InvalidAction(f"Unknown field(s) for '{kind_of(cls)}': {', '.join(sorted(unknown))}.")
    # The values are checked as JSON gave them: a compiled class would turn `true` into 1.
    for f in fields(cls):
        if f.name in kwargs and not _fits(FIELD_SHAPES[f.type], kwargs[f.name]):
            raise InvalidAction(f"Field '{f.name}' of '{kind_of(cls)}' has the wrong type.")
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise InvalidAction(f"Malformed '{kind_of(cls)}' action: {exc}.") from None


def _fits(shape: str, value: Any) -> bool:
    def integer(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)
    if shape == "int":
        return integer(value)
    if shape == "int?":
        return value is None or integer(value)
    if shape == "ints":
        return isinstance(value, tuple) and all(integer(v) for v in value)
    return isinstance(value, str if shape == "str" else bool)
