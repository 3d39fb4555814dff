"""The engine's preview of an action, in a few words: "+4 fuel", "pay 2 fuel + 2 ore: build
your 5th ship". Every number comes from `pbem.engine.preview`; nothing here knows a rule's
arithmetic, so a borrowed bonus or a card in play reads as the engine will pay it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.engine import Dock, Preview
from pbem.engine.ids import ARTIFACT_CLAIM_TOTAL
from pbem.words.describe import describe, ordinal
from pbem.words.glossary import FACTIONS

UNSEEN = {  # what a hidden outcome is, without what it will be
    "drew": "draw a card",
    "cycled": "three new cards",
    "rolled": "a new roll",
    "rerolled": "a new roll",
    "rolled_ship": "roll the new ship",
    "drew_agendas": "draw Agendas",
}


def cost(fuel: int, ore: int) -> str:
    """ "2 fuel + 1 ore" (both shown once either is due)."""
    return f"{fuel} fuel + {ore} ore"


def _solar_converter(p: Preview) -> str:
    return f"+{p.fuel} fuel"


def _lunar_mine(p: Preview) -> str:
    return f"+{p.ore} ore"


def _orbital_market(p: Preview) -> str:
    rates = " or ".join(str(r) for r in p.trade_rates)
    return f"then trade {rates} fuel for 1 ore, as often as you like"


def _shipyard(p: Preview) -> str:
    paid = f"pay {cost(p.paid_fuel, p.paid_ore)}" if p.paid_fuel or p.paid_ore else "free"
    built = f"build your {ordinal(p.ships_built[0])} ship" if p.ships_built else "build a ship"
    return f"{paid}: {built}"


def _alien_artifact(p: Preview) -> str:
    claim = "; you may claim a card" if p.artifact_total >= ARTIFACT_CLAIM_TOTAL else ""
    cycles = 1 if p.may_cycle else 0
    return (f"{p.artifact_total} of {ARTIFACT_CLAIM_TOTAL} towards a card; cycle the display "
            f"up to {cycles}×{claim}")


def _colonist_hub(p: Preview) -> str:
    n = p.hub_steps
    text = f"your colony moves {n} circle{'s' if n != 1 else ''}"
    return text + f"; launch it ({cost(p.paid_fuel, p.paid_ore)})" if p.launched else text


def _colony_constructor(p: Preview) -> str:
    return f"pay {p.paid_ore} ore: land a colony"


def _terraforming_station(p: Preview) -> str:
    return f"pay {cost(p.paid_fuel, p.paid_ore)}: land a colony; the ship is used up"


def _raiders_outpost(p: Preview) -> str:
    return "steal 4 fuel/ore, or one Alien Tech card"


DOCKS: dict[str, Callable[[Preview], str]] = {
    "solar_converter": _solar_converter,
    "lunar_mine": _lunar_mine,
    "orbital_market": _orbital_market,
    "shipyard": _shipyard,
    "alien_artifact": _alien_artifact,
    "colonist_hub": _colonist_hub,
    "colony_constructor": _colony_constructor,
    "terraforming_station": _terraforming_station,
    "raiders_outpost": _raiders_outpost,
}


def fee(p: Preview) -> int:
    """Fuel paid to another seat (a Faction board's owner) by this action."""
    return sum(int(ev["fuel"]) for ev in p.events
               if ev["kind"] == "paid" and isinstance(ev.get("to"), int))


def dock_effect(p: Preview) -> str:
    """The cost and effect of a docking, from its preview."""
    assert isinstance(p.action, Dock)
    facility = p.action.facility
    if facility in DOCKS:
        return DOCKS[facility](p)
    if facility in FACTIONS:
        paid = fee(p)
        owner = f"pay its owner {paid} fuel: " if paid else ""
        return owner + FACTIONS[facility].facility
    return "no effect"


def paid_words(p: Preview) -> str:
    """ "1 fuel + 1 ore" for an action whose effect is its cost (a launch, the Relic Ship)."""
    return cost(p.paid_fuel, p.paid_ore)


def unseen_words(p: Preview) -> str:
    """ "then draw a card" for a hidden outcome ("" when nothing is hidden)."""
    words = [UNSEEN[k] for k in p.unseen if k in UNSEEN]
    return "then " + ", ".join(words) if words else ""


def effect(p: Preview) -> str:
    """The effect of any action worth saying beside its name ("" when its name says it)."""
    kind = p.action.kind
    if kind == "dock":
        return dock_effect(p)
    if kind in ("launch", "buy_relic"):
        return paid_words(p)
    return unseen_words(p)


def card_effect(p: Preview, names: Sequence[str]) -> str:
    """What using or discarding a card would do, in the log's own sentences from the preview
    ("You used Polarity Device for 1 fuel and turned a 1 into a 6."). A hidden outcome (a
    re-roll, a draw) is named, never shown; the cost, said in the card's sentence, is not
    said twice."""
    used = any(ev["kind"] == "used_card" for ev in p.events)
    shown = [dict(ev) for ev in p.events
             if ev["kind"] not in p.unseen and not (used and ev["kind"] == "paid")]
    words = describe(shown, names, viewer=p.action.seat)
    hidden = unseen_words(p)
    return " ".join(words + ([hidden[:1].upper() + hidden[1:] + "."] if hidden else []))
