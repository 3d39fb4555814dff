"""Parametrised menu entries: "Plasma Cannon at the Shipyard: choose any of these ships".

`legal_actions` lists every legal action concretely (the bots and the audit need each one),
but a choice of any subset of ships is hundreds of buttons on a page. A `Pick` stands for a
family of those actions: choose `least`..`most` of its `items` and `action(chosen)` is the
concrete action, which `check` then judges like any other. `picks(state, seat)` makes one
per card use and facility (and Relic Ship variant) from the concrete menu itself, so every
listed action of those kinds is one choice of one pick (the invariant tests check it).

A pick may also stand for a few choices `check` refuses (two targets whose replacement needs
two unplaced ships of one value when you have one); the page shows the refusal like any
other refused move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..actions import Action, kind_of
from ..alien_tech.chameleon_cloak import UseChameleonCloak
from ..alien_tech.common import ship_text
from ..alien_tech.plasma_cannon import UsePlasmaCannon
from ..alien_tech.temporal_warper import UseTemporalWarper
from ..ids import COLOURS
from ..state import GameState

Item = tuple[int, int, bool]  # (owner, value, is the Relic Ship)
CANNON, CLOAK, WARPER = (kind_of(UsePlasmaCannon), kind_of(UseChameleonCloak),
                         kind_of(UseTemporalWarper))
PICKED_KINDS: Final = (CANNON, CLOAK, WARPER)


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose `least`..`most` of `items` (ships as (owner, value, is the Relic Ship)) for
    the action `kind` of `seat` at `facility` ("" for none); `relic`: the Cloak's Relic
    Ship replacing (ruling T2b); `launch`: the Cloak's replacement at the Colonist Hub
    launches (ruling T2c)."""

    kind: str
    seat: int
    facility: str
    items: tuple[Item, ...]
    least: int
    most: int
    relic: int | None = None
    launch: bool = False

    @property
    def family(self) -> tuple[str, str, int | None, bool]:
        """The family of the actions it stands for (`family`)."""
        return self.kind, self.facility, self.relic, self.launch

    def action(self, chosen: Sequence[int]) -> Action:
        """The concrete action for the chosen item indices (any order, each once)."""
        ships = sorted(self.items[i] for i in dict.fromkeys(chosen))
        relic_at = next((k for k, (_, _, r) in enumerate(ships) if r), None)
        owners = tuple(o for o, _, _ in ships)
        values = tuple(v for _, v, _ in ships)
        if self.kind == WARPER:
            return UseTemporalWarper(self.seat, values,
                                     next((v for _, v, r in ships if r), None))
        if self.kind == CLOAK:
            return UseChameleonCloak(self.seat, self.facility, owners, values, relic_at,
                                     self.relic, self.launch)
        return UsePlasmaCannon(self.seat, self.facility, owners, values, relic_at)

    def notation(self) -> tuple[str, list[str], str]:
        """(head, each item's words, tail): the head, the chosen items' words and the tail,
        joined by spaces, are the chosen action in notation (docs/notation.md), which is
        what the turn page's checkboxes post."""
        card = self.kind.removeprefix("use_")
        if self.kind == WARPER:
            return f"use {card}", [ship_text(v, r) for _, v, r in self.items], ""
        tail = " ".join([*(["with", ship_text(self.relic, True)] if self.relic is not None
                           else []), *(["launch"] if self.launch else [])])
        return (f"use {card} {self.facility}",
                [f"{COLOURS[o]} {ship_text(v, r)}" for o, v, r in self.items], tail)

    def to_json(self) -> dict[str, Any]:
        head, words, tail = self.notation()
        return {"kind": self.kind, "seat": self.seat, "facility": self.facility,
                "items": [{"owner": o, "value": v, "relic": r, "words": w}
                          for (o, v, r), w in zip(self.items, words, strict=True)],
                "least": self.least, "most": self.most, "relic": self.relic,
                "launch": self.launch, "head": head, "tail": tail}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pick:
        return cls(data["kind"], data["seat"], data["facility"],
                   tuple((i["owner"], i["value"], i["relic"]) for i in data["items"]),
                   data["least"], data["most"], data["relic"], bool(data.get("launch")))


def json_family(data: Mapping[str, Any]) -> tuple[str, str, Any, bool]:
    """`family` of an action or a pick in its JSON form (a view's `legal` or `picks`)."""
    cloak = data["kind"] == CLOAK
    return (data["kind"], data.get("facility", ""), data.get("relic") if cloak else None,
            bool(data.get("launch")) if cloak else False)


def family(action: Action) -> tuple[str, str, int | None, bool]:
    """The pick an action of a picked kind belongs to: (kind, facility, the Cloak's Relic
    Ship, the Cloak's launch)."""
    if isinstance(action, UseChameleonCloak):
        return action.kind, action.facility, action.relic, action.launch
    return action.kind, getattr(action, "facility", ""), None, False


def _items(action: Action) -> list[Item]:
    if isinstance(action, UseTemporalWarper):
        ships = list(action.ships)
        out: list[Item] = []
        if action.relic is not None and action.relic in ships:
            ships.remove(action.relic)
            out.append((action.seat, action.relic, True))
        return out + [(action.seat, v, False) for v in ships]
    assert isinstance(action, UsePlasmaCannon | UseChameleonCloak)
    return [(o, v, k == action.relic_at)
            for k, (o, v) in enumerate(zip(action.owners, action.ships, strict=True))]


def picks(state: GameState, seat: int, menu: Sequence[Action]) -> list[Pick]:
    """One pick per family (kind, facility, the Cloak's Relic Ship and launch variants) of the
    picked kinds in `menu` (the seat's `legal_actions`), with at least two items; in menu
    order."""
    families: dict[tuple[str, str, int | None, bool], list[Action]] = {}
    for action in menu:
        if action.kind in PICKED_KINDS:
            families.setdefault(family(action), []).append(action)
    out: list[Pick] = []
    for (kind, facility, relic, launch), actions in families.items():
        union: Counter[Item] = Counter()
        sizes = []
        for action in actions:
            union |= Counter(_items(action))
            sizes.append(len(_items(action)))
        items = tuple(sorted(union.elements()))
        if len(items) > 1:
            out.append(Pick(kind, seat, facility, items, min(sizes), max(sizes), relic,
                            launch))
    return out


def covered(pick: Pick) -> list[Action]:
    """Every concrete action `pick` stands for (each distinct choice within its counts)."""
    seen: dict[Action, None] = {}
    count = len(pick.items)
    for mask in range(1, 1 << count):
        size = bin(mask).count("1")
        if pick.least <= size <= pick.most:
            seen.setdefault(pick.action([i for i in range(count) if mask >> i & 1]))
    return list(seen)
