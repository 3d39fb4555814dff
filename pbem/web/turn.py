"""What the turn page shows, computed from a view alone (pure; no Flask, no database).

`menu(view, names)` groups the seat's legal actions (the view's `legal` list, which is the
engine's `legal_actions`) into what the page offers: docking choices per facility with their
cost and effect, trades, the Artifact, landing, raid steps, the Relic Ship, cards and the end
of the turn. Nothing here decides legality; it only puts the engine's menu into words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.engine import action_from_json, format_action
from pbem.engine.ids import (
    FACILITY_NAMES,
    SHIPS_MAX,
    SHIPYARD_COST,
    TERRITORY_BONUSES,
    TERRITORY_NAMES,
)
from pbem.web import turn_factions
from pbem.words.describe import ordinal
from pbem.words.glossary import CARD_EFFECTS, FACTIONS
from pbem.words.glossary import card_name as card_name

FACILITY_ORDER = (
    "solar_converter", "lunar_mine", "orbital_market", "shipyard", "alien_artifact",
    "colonist_hub", "colony_constructor", "terraforming_station", "raiders_outpost",
    "maintenance_bay",
)
FACILITY_RULES = {
    "solar_converter": "Any ship, one per port: fuel equal to half its value, rounded up.",
    "lunar_mine": "One ship per port, at least as high as the highest ship there: 1 ore each.",
    "orbital_market": "A pair of equal ships: trade that many fuel for 1 ore, as often as "
                      "you like this turn.",
    "shipyard": "A pair of equal ships and fuel + ore: build a new ship (ready next turn).",
    "alien_artifact": "Any ships: each lets you cycle the display; 8 or more in total "
                      "claims a card.",
    "colonist_hub": "Any ships on your track: each moves your colony one circle; at circle "
                    "7 it launches for 1 fuel + 1 ore.",
    "colony_constructor": "Three equal ships and 3 ore: land a colony.",
    "terraforming_station": "One 6 and 1 fuel + 1 ore: land a colony; the ship is used up.",
    "raiders_outpost": "A run of three (1-2-3 … 4-5-6): steal 4 resources or one card.",
    "maintenance_bay": "Ships that cannot dock wait here; no effect.",
}
@dataclass
class Choice:
    """One legal action as the page offers it: its notation is what the form posts."""

    notation: str
    label: str
    detail: str = ""
    values: list[int] = field(default_factory=list)
    relic: int | None = None
    highlight: bool = False


@dataclass
class Group:
    key: str
    title: str
    hint: str = ""
    choices: list[Choice] = field(default_factory=list)
    lit: bool = False

    @property
    def summary(self) -> str:
        """The ships of each choice, e.g. "3 · 3 3 · 3 3 5" (for a closed dock group)."""
        labels = list(dict.fromkeys(c.label for c in self.choices))
        return " · ".join(labels[:6]) + (" …" if len(labels) > 6 else "")


def name_of(names: Sequence[str], seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "someone"


def dice_text(values: Sequence[int], relic: int | None = None) -> str:
    words = [str(v) for v in values]
    if relic is not None and str(relic) in words:
        words[words.index(str(relic))] += "★"
    return " ".join(words)


def _controls(view: dict[str, Any], seat: int, territory: str) -> bool:
    isolated = view["fields"].get("isolation_field") == territory
    return view["controllers"].get(territory) == seat and not isolated


def dock_effect(view: dict[str, Any], seat: int, facility: str, values: Sequence[int],
                launch: bool = False) -> str:
    """The cost and effect of docking `values` at `facility`, in a few words."""
    n = len(values)
    if facility == "solar_converter":
        fuel = sum((v + 1) // 2 for v in values)
        if _controls(view, seat, "lem_badlands"):
            fuel += n
        return f"+{fuel} fuel"
    if facility == "lunar_mine":
        return f"+{n} ore"
    if facility == "orbital_market":
        rate = 1 if _controls(view, seat, "heinlein_plains") else values[0]
        return f"then trade {rate} fuel for 1 ore, as often as you like"
    if facility == "shipyard":
        return _shipyard_effect(view, seat)
    if facility == "alien_artifact":
        total = int(view["turn"].get("artifact_total", 0)) + sum(values)
        claim = "; you may claim a card" if total >= 8 else ""
        return f"{total} of 8 towards a card; cycle the display up to {n}×{claim}"
    if facility == "colonist_hub":
        text = f"your colony moves {n} circle{'s' if n > 1 else ''}"
        return text + "; launch it (1 fuel + 1 ore)" if launch else text
    if facility == "colony_constructor":
        ore = 2 if _controls(view, seat, "bradbury_plateau") else 3
        return f"pay {ore} ore: land a colony"
    if facility == "terraforming_station":
        return "pay 1 fuel + 1 ore: land a colony; the ship is used up"
    if facility == "raiders_outpost":
        return "steal 4 fuel/ore, or one Alien Tech card"
    if facility in FACTIONS:
        owner = next((i for i, s in enumerate(view["seats"]) if s.get("faction") == facility),
                     None)
        fee = "" if owner == seat else "pay its owner 1 fuel: "
        return fee + FACTIONS[facility].facility
    return "no effect"


def _shipyard_effect(view: dict[str, Any], seat: int) -> str:
    me = view["seats"][seat]
    number = SHIPS_MAX - int(me.get("ships_in_stock", 0)) + 1
    fuel, ore = SHIPYARD_COST.get(number, (0, 0))
    if _controls(view, seat, "herbert_valley"):
        fuel, ore = max(0, fuel - 1), max(0, ore - 1)
    cost = f"pay {fuel} fuel + {ore} ore" if fuel or ore else "free"
    return f"{cost}: build your {ordinal(number)} ship"


def _label(view: dict[str, Any], names: Sequence[str], act: dict[str, Any],
           notation: str) -> tuple[str, str, str]:
    """(group key, label, detail) of one legal action."""
    kind = act["kind"]
    seat = int(act["seat"])
    if kind == "dock":
        return (f"dock:{act['facility']}", dice_text(act["values"], act.get("relic")),
                dock_effect(view, seat, act["facility"], act["values"], act.get("launch", False)))
    if kind == "trade":
        return "trade", f"Trade {act['rate']} fuel for 1 ore", ""
    if kind == "cycle":
        return "artifact", "Cycle the Alien Tech display", "three new cards"
    if kind == "claim":
        return "artifact", f"Claim {card_name(act['card'])}", CARD_EFFECTS.get(act["card"], "")
    if kind == "launch":
        return "launch", "Launch your colony from the Colonist Hub", "1 fuel + 1 ore"
    if kind == "land":
        tid = act["territory"]
        return ("land", f"Land on {TERRITORY_NAMES.get(tid, tid)}",
                TERRITORY_BONUSES.get(tid, ""))
    if kind == "steal":
        return "raid", f"Take 1 {act['resource']} from {name_of(names, act['victim'])}", ""
    if kind == "steal_card":
        return ("raid", f"Take {card_name(act['card'])} from {name_of(names, act['victim'])}",
                CARD_EFFECTS.get(act["card"], ""))
    if kind == "end_raid":
        return "raid", "Stop raiding", "keep what you took"
    if kind == "buy_relic":
        return "relic", "Buy the Relic Ship", "1 fuel + 1 ore"
    if kind == "end_turn":
        back = act.get("return_fuel", 0), act.get("return_ore", 0)
        if any(back):
            return ("end", "End your turn",
                    f"return {back[0]} fuel and {back[1]} ore (8 at most)")
        return "end", "End your turn", ""
    found = turn_factions.label(view, names, act, notation)
    return found if found is not None else ("other", notation, "")


GROUP_TITLES = {
    "raid": "Raid: choose what to take",
    "land": "Land your colony",
    "trade": "Orbital Market trades",
    "artifact": "Alien Artifact",
    "launch": "Colonist Hub",
    "relic": "Relic Ship",
    "end": "End of turn",
    **turn_factions.GROUP_TITLES,
}
GROUP_ORDER = ("draft", "raid", "land", "dock", "faction", "trade", "agendas", "artifact",
               "launch", "relic", "card", "other", "end")


def menu(view: dict[str, Any], names: Sequence[str], picked: Sequence[int] = (),
         picked_relic: bool = False, move: str | None = None) -> list[Group]:
    """The seat's legal actions, grouped for the page, dock groups in facility order.

    `picked` are ship values the player has tapped: docking choices of exactly those ships
    light up. `move` (a canonical notation) is highlighted.
    """
    groups: dict[str, Group] = {}
    for act in view.get("legal", []):
        notation = format_action(action_from_json(act))
        key, label, detail = _label(view, names, act, notation)
        if key not in groups:
            groups[key] = _group(view, key)
        choice = Choice(notation, label, detail, list(act.get("values", [])), act.get("relic"),
                        highlight=notation == move)
        if picked and act["kind"] == "dock" and _matches(act, picked, picked_relic):
            choice.highlight = True
            groups[key].lit = True
        groups[key].choices.append(choice)
    return sorted(groups.values(), key=_group_rank)


def _matches(act: dict[str, Any], picked: Sequence[int], picked_relic: bool) -> bool:
    if sorted(act["values"]) != sorted(picked):
        return False
    return (act.get("relic") is not None) == picked_relic


def _group(view: dict[str, Any], key: str) -> Group:
    if key.startswith("dock:"):
        fid = key[5:]
        rule = FACILITY_RULES.get(fid) or turn_factions.faction_rule(fid)
        return Group(key, FACILITY_NAMES.get(fid, fid), rule)
    if key.startswith("card:"):
        cid = key[5:]
        return Group(key, turn_factions.card_title(view, cid), CARD_EFFECTS.get(cid, ""))
    return Group(key, GROUP_TITLES.get(key, key.title()))


def _group_rank(group: Group) -> tuple[int, int]:
    if group.key.startswith("dock:"):
        fid = group.key[5:]
        pos = FACILITY_ORDER.index(fid) if fid in FACILITY_ORDER else len(FACILITY_ORDER)
        return GROUP_ORDER.index("dock"), pos
    head_key = group.key.split(":")[0]
    head = GROUP_ORDER.index(head_key) if head_key in GROUP_ORDER else len(GROUP_ORDER)
    return head, 0


def my_dice(view: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    """The seat's unplaced ships (the Relic Ship too when it commands it), by value."""
    ships = [s for s in view["ships"] if s["loc"] == "unplaced" and s["owner"] == seat]
    return sorted(ships, key=lambda s: (s["value"] or 0, bool(s.get("relic"))))


def parse_pick(raw: str | None, dice: Sequence[dict[str, Any]]) -> list[int]:
    """Indices into `dice` from a `pick=0,2` query value; anything unreadable is dropped."""
    if not raw:
        return []
    out: list[int] = []
    for word in raw.split(","):
        if word.isdigit() and int(word) < len(dice) and int(word) not in out:
            out.append(int(word))
    return sorted(out)


def toggle(picked: Sequence[int], index: int) -> str:
    chosen = set(picked) ^ {index}
    return ",".join(str(i) for i in sorted(chosen))
