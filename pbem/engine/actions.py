"""One small frozen dataclass per kind of action. Every action names the seat that acts.

`action_to_json` / `action_from_json` give the JSON form (a dict with a `kind`); the text form
lives in notation.py.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .errors import InvalidAction


@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = ""
    seat: int


@dataclass(frozen=True, slots=True)
class Dock(Action):
    """Dock unplaced ships, chosen by value, at one facility.

    `relic` is the value of the Relic Ship among `values` when it is one of them. `launch`
    (Colonist Hub only) launches the colony within this docking (ruling B8).
    """

    kind: ClassVar[str] = "dock"
    facility: str
    values: tuple[int, ...]
    relic: int | None = None
    launch: bool = False


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """Orbital Market: pay `rate` fuel for 1 ore (rate = a docked pair's value, or 1)."""

    kind: ClassVar[str] = "trade"
    rate: int


@dataclass(frozen=True, slots=True)
class Cycle(Action):
    """Alien Artifact: discard the display and deal three new cards (ruling B16)."""

    kind: ClassVar[str] = "cycle"


@dataclass(frozen=True, slots=True)
class Claim(Action):
    """Alien Artifact: take a displayed card once the count is 8 or more (ruling B1)."""

    kind: ClassVar[str] = "claim"
    card: str


@dataclass(frozen=True, slots=True)
class Launch(Action):
    """Colonist Hub: pay 1 fuel + 1 ore to launch the colony waiting on circle 7."""

    kind: ClassVar[str] = "launch"


@dataclass(frozen=True, slots=True)
class Land(Action):
    """Put the colony being placed on a territory."""

    kind: ClassVar[str] = "land"
    territory: str


@dataclass(frozen=True, slots=True)
class Steal(Action):
    """Raiders' Outpost: take one fuel or ore token from a victim (ruling B18)."""

    kind: ClassVar[str] = "steal"
    victim: int
    resource: str  # "fuel" or "ore"


@dataclass(frozen=True, slots=True)
class StealCard(Action):
    """Raiders' Outpost: take one Alien Tech card from a victim instead of resources."""

    kind: ClassVar[str] = "steal_card"
    victim: int
    card: str


@dataclass(frozen=True, slots=True)
class EndRaid(Action):
    """Raiders' Outpost: take nothing more (fewer than 4 resources is allowed, B18)."""

    kind: ClassVar[str] = "end_raid"


@dataclass(frozen=True, slots=True)
class BuyRelic(Action):
    """Burroughs Desert: buy the Relic Ship for 1 fuel + 1 ore."""

    kind: ClassVar[str] = "buy_relic"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn, returning tokens to get down to 8 resources (base-game.md §1.5)."""

    kind: ClassVar[str] = "end_turn"
    return_fuel: int = 0
    return_ore: int = 0


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (Dock, Trade, Cycle, Claim, Launch, Land, Steal, StealCard, EndRaid, BuyRelic,
                EndTurn)
}


def register_action(cls: type[Action]) -> type[Action]:
    """Add an action type (card powers, factions and agendas register theirs)."""
    ACTION_TYPES[cls.kind] = cls
    return cls


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
        raise InvalidAction(f"Unknown field(s) for '{cls.kind}': {', '.join(sorted(unknown))}.")
    try:
        action = cls(**kwargs)
    except TypeError as exc:
        raise InvalidAction(f"Malformed '{cls.kind}' action: {exc}.") from None
    _validate_types(action)
    return action


def _validate_types(action: Action) -> None:
    for f in fields(action):
        value = getattr(action, f.name)
        ann = str(f.type)
        ok = True
        if ann == "int":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif ann == "str":
            ok = isinstance(value, str)
        elif ann == "bool":
            ok = isinstance(value, bool)
        elif ann == "int | None":
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
        elif ann.startswith("tuple[int"):
            ok = isinstance(value, tuple) and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value)
        if not ok:
            raise InvalidAction(f"Field '{f.name}' of '{action.kind}' has the wrong type.")
