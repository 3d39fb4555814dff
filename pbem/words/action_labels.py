"""The labels of the turn page's legal actions: each action's label and detail, the groups'
titles and the facilities' rule lines. The effect of an action is the engine's preview in words
(`pbem.words.effects`); the legality is the engine's menu, never decided here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine import Preview
from pbem.engine.ids import FACILITY_NAMES, TERRITORY_BONUSES, TERRITORY_NAMES
from pbem.words import action_labels_factions, effects
from pbem.words.describe import name_of
from pbem.words.glossary import CARD_EFFECTS, card_name

Label = tuple[str, str, str]  # (group key, label, detail)

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
GROUP_TITLES = {
    "raid": "Raid: choose what to take",
    "land": "Land your colony",
    "trade": "Orbital Market trades",
    "artifact": "Alien Artifact",
    "launch": "Colonist Hub",
    "relic": "Relic Ship",
    "end": "End of turn",
    **action_labels_factions.GROUP_TITLES,
}
PENDING_HINTS = {  # what the page asks first while a decision is pending
    "land": "First choose the territory where your colony lands.",
    "raid": "Finish your raid: take fuel, ore or a card, or stop raiding.",
}


def dock_label(ships: str, facility: str) -> str:
    """A docking as one line: "Dock 3 3 at the Shipyard"."""
    return f"Dock {ships} at the {facility}"


def dice_text(values: Sequence[int], relic: int | None = None) -> str:
    words = [str(v) for v in values]
    if relic is not None and str(relic) in words:
        words[words.index(str(relic))] += "★"
    return " ".join(words)


def facility_title(fid: str) -> str:
    return FACILITY_NAMES.get(fid, fid)


def facility_rule(fid: str) -> str:
    return FACILITY_RULES.get(fid) or action_labels_factions.faction_rule(fid)


def territory_name(tid: str) -> str:
    return TERRITORY_NAMES.get(tid, tid)


def territory_bonus(tid: str) -> str:
    """What controlling the territory gives, e.g. "+1 fuel per ship at the Solar Converter"."""
    return TERRITORY_BONUSES.get(tid, "")


def card_group(view: Mapping[str, Any], cid: str) -> tuple[str, str]:
    """(title, rule text) of a card's group of uses."""
    return action_labels_factions.card_title(view, cid), CARD_EFFECTS.get(cid, "")


def label(view: Mapping[str, Any], names: Sequence[str], act: Mapping[str, Any],
          notation: str, preview: Preview | None = None) -> Label:
    """(group key, label, detail) of one legal action; `preview`: the engine's, for the
    actions whose detail is their effect (a docking, a launch, the Relic Ship)."""
    kind = act["kind"]
    if kind == "dock":
        detail = effects.dock_effect(preview) if preview is not None else ""
        return f"dock:{act['facility']}", dice_text(act["values"], act.get("relic")), detail
    if kind in ("launch", "buy_relic"):
        paid = effects.paid_words(preview) if preview is not None else ""
        if kind == "launch":
            return "launch", "Launch your colony from the Colonist Hub", paid
        return "relic", "Buy the Relic Ship", paid
    found = _plain(names, act)
    if found is not None:
        return found
    found = action_labels_factions.label(view, names, act, notation, preview)
    return found if found is not None else ("other", notation, "")


def _plain(names: Sequence[str], act: Mapping[str, Any]) -> Label | None:
    kind = act["kind"]
    if kind == "trade":
        return "trade", f"Trade {act['rate']} fuel for 1 ore", ""
    if kind == "cycle":
        return "artifact", "Cycle the Alien Tech display", "three new cards"
    if kind == "claim":
        return "artifact", f"Claim {card_name(act['card'])}", CARD_EFFECTS.get(act["card"], "")
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
    if kind == "end_turn":
        back = act.get("return_fuel", 0), act.get("return_ore", 0)
        if any(back):
            return ("end", "End your turn",
                    f"return {back[0]} fuel and {back[1]} ore (8 at most)")
        return "end", "End your turn", ""
    return None


# -- picks: "choose any of these ships" ----------------------------------------------------

PICK_VERBS = {
    "use_plasma_cannon": "shoot",
    "use_chameleon_cloak": "replace",
    "use_temporal_warper": "re-roll",
}


def pick_title(names: Sequence[str], pick: Mapping[str, Any]) -> str:
    """'Plasma Cannon at the Shipyard: choose the ships to shoot (1 to 3)'."""
    card = card_name(pick["kind"].removeprefix("use_"))
    where = f" at the {facility_title(pick['facility'])}" if pick["facility"] else ""
    counts = (f"{pick['least']}" if pick["least"] == pick["most"]
              else f"{pick['least']} to {pick['most']}")
    relic = " with your Relic Ship replacing" if pick.get("relic") is not None else ""
    verb = PICK_VERBS.get(pick["kind"], "choose")
    launch = " and launch your colony" if pick.get("launch") else ""  # the 5-player Hub (T2c)
    return f"{card}{where}{relic}: choose the ships to {verb}{launch} ({counts})"


def pick_item(names: Sequence[str], pick: Mapping[str, Any], item: Mapping[str, Any]) -> str:
    """One checkbox's label: "Ben's 2" (another player's ship) or "your 4★"."""
    value = dice_text([item["value"]], item["value"] if item["relic"] else None)
    if pick["kind"] == "use_temporal_warper":
        return f"your {value}"
    return f"{name_of(names, item['owner'])}’s {value}"
