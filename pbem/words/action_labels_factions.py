"""The Factions part of the turn page's action labels: the draft, Agendas, faction powers
and card uses, the Factions groups' titles and the words of the decisions a seat awaits."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.engine import Preview
from pbem.engine.ids import (
    COLOURS,
    FACILITY_NAMES,
    FIELD_NAMES,
    TERRITORY_BONUSES,
    TERRITORY_NAMES,
)
from pbem.words import effects
from pbem.words.describe import name_of
from pbem.words.glossary import CARD_EFFECTS, FACTIONS, agenda, card_name, faction_name

Label = tuple[str, str, str]  # (group key, label, detail)
FTL = "experimental_ftl_drive"
FTL_LAST = 3

GROUP_TITLES = {
    "draft": "Choose your faction",
    "agendas": "Agendas",
    "faction": "Faction powers",
    "other": "Other moves",
}
DECISIONS = {
    "draft": "Choose your faction",
    "discard_agendas": "Discard Agendas",
    "proxima_move": "Move a field generator",
    "uranian_move": "Move a colony",
    "land": "Land your colony",
    "raid": "Finish your raid",
}


def and_list(words: Sequence[str]) -> str:
    words = list(words)
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def word(token: str, names: Sequence[str]) -> str:
    """One notation word in English: an id's name, a colour as the seat's name."""
    if token in COLOURS and COLOURS.index(token) < len(names):
        return name_of(names, COLOURS.index(token))
    for table in (FACILITY_NAMES, TERRITORY_NAMES, FIELD_NAMES):
        if token in table:
            return table[token]
    if token in CARD_EFFECTS:
        return card_name(token)
    return token


def _territory(tid: str) -> str:
    return TERRITORY_NAMES.get(tid, tid)


def _field(fid: str) -> str:
    return FIELD_NAMES.get(fid, fid)


def _own_agenda(view: Mapping[str, Any], index: int) -> str:
    mine = (view.get("you") or {}).get("agendas", [])
    return agenda(mine[index - 1]).name if 0 < index <= len(mine) else f"Agenda {index}"


def label(view: Mapping[str, Any], names: Sequence[str], act: Mapping[str, Any],
          notation: str, preview: Preview | None = None) -> Label | None:
    """Words for a Factions action, or None when it is not one; `preview` (the engine's)
    gives the cost of a faction power."""
    kind = act["kind"]
    if kind == "choose_faction":
        text = FACTIONS.get(act["faction"])
        return "draft", faction_name(act["faction"]), text.owner if text else ""
    if kind == "draw_agendas":
        return "agendas", "Draw 2 Agendas", "instead of trading at the Orbital Market"
    if kind == "keep_agendas":
        return "agendas", "Keep your Agendas", "stop discarding"
    if kind == "discard_agenda":
        return "agendas", f"Discard {_own_agenda(view, int(act['index']))}", "face down"
    if kind == "reveal_agenda":
        card = agenda(act["agenda"])
        return "agendas", f"Reveal {card.name}", f"{card.in_game}: +1 VP"
    return _faction_power(names, act, preview) or _card(kind, notation, names, preview)


def _paid(preview: Preview | None) -> str:
    """What a power costs, from its preview: "2 fuel", "1 ore"."""
    if preview is None:
        return ""
    parts = [f"{preview.paid_fuel} fuel" if preview.paid_fuel else "",
             f"{preview.paid_ore} ore" if preview.paid_ore else ""]
    return " + ".join(p for p in parts if p) or "free"


def _faction_power(names: Sequence[str], act: Mapping[str, Any],
                   preview: Preview | None) -> Label | None:
    kind = act["kind"]
    if kind == "smuggle":
        run = " ".join(str(v) for v in act["values"])
        return ("faction", f"Smuggle: {run} at the Raiders' Outpost and {act['ship']} at the "
                "Smuggler's Alliance", "steal 4 resources and 1 card (1 fuel to its owner)")
    if kind == "move_field":
        return ("faction", f"Move the {_field(act['field'])} to {_territory(act['territory'])}",
                "Proxima Centauri Scholars")
    if kind == "scholars_place":
        return ("faction", f"Place the {_field(act['field'])} on "
                f"{_territory(act['territory'])}", f"{_paid(preview)}, once per turn")
    if kind == "scholars_remove":
        return ("faction", f"Remove the {_field(act['field'])}",
                f"{_paid(preview)}, once per turn")
    if kind == "move_colony":
        whose = "your" if act["owner"] == act["seat"] else f"{name_of(names, act['owner'])}’s"
        return ("faction", f"Move {whose} colony from {_territory(act['source'])} to "
                f"{_territory(act['target'])}", _paid(preview))
    if kind == "contest":
        tid = act["territory"]
        return ("faction", f"Use the bonus of {_territory(tid)} this turn",
                TERRITORY_BONUSES.get(tid, ""))
    return None


def _card(kind: str, notation: str, names: Sequence[str],
          preview: Preview | None = None) -> Label:
    """ "Use Polarity Device: 1" with its cost and effect from the engine's preview."""
    for prefix, verb in (("use_", "Use"), ("discard_", "Discard")):
        cid = kind[len(prefix):]
        if kind.startswith(prefix) and cid in CARD_EFFECTS:
            rest = notation.split()[2:]
            target = " ".join(word(t, names) for t in rest)
            detail = effects.card_effect(preview, names) if preview is not None else ""
            return (f"card:{cid}", f"{verb} {card_name(cid)}{': ' + target if target else ''}",
                    detail)
    return "other", notation, ""


def card_title(view: Mapping[str, Any], cid: str) -> str:
    """A card's name, with the FTL Drive's tokens (ruling T4)."""
    if cid == FTL:
        tokens = int(view.get("card_tokens", {}).get(FTL, 0))
        return f"{card_name(cid)} ({tokens} of {FTL_LAST} tokens)"
    return card_name(cid)


def faction_rule(fid: str) -> str:
    text = FACTIONS.get(fid)
    if text is None:
        return ""
    return f"{text.facility} Docking costs 1 fuel, paid to the owner."
