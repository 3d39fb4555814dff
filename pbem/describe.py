"""Plain English for engine events, shared by mail and pages. Pure functions, no Flask.

``describe(events, names)`` turns one step's events into sentences such as "Ben docked 4 4 at
the Shipyard and built their 5th ship" or "Cy landed a colony on Lem Badlands and now controls
it". A "lead" event (docking, landing, a trade, a card) opens a sentence; the consequences that
follow it (gains, payments, a ship built, control won) are joined to it with "and". Names come
from the seat names the caller passes; an e-mail address is never shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.engine.ids import CARD_NAMES, FACILITY_NAMES, FIELD_NAMES, TERRITORY_NAMES

Event = dict[str, Any]
Names = Sequence[str]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def facility(fid: str) -> str:
    return FACILITY_NAMES.get(fid, fid.replace("_", " ").title())


def territory(tid: str) -> str:
    return TERRITORY_NAMES.get(tid, tid.replace("_", " ").title())


def card(cid: str) -> str:
    return CARD_NAMES.get(cid, cid.replace("_", " ").title())


def field(fid: str) -> str:
    return FIELD_NAMES.get(fid, fid.replace("_", " ").title())


def resources(fuel: int = 0, ore: int = 0) -> str:
    parts = [f"{fuel} fuel" if fuel else "", f"{ore} ore" if ore else ""]
    return " and ".join(p for p in parts if p) or "nothing"


def name_of(names: Names, seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "Someone"


def object_name(names: Names, seat: Any) -> str:
    """A seat as the object of a sentence: "you" when it is the reader (``names.you``)."""
    if seat is not None and seat == getattr(names, "you", None):
        return "you"
    return name_of(names, seat)


class ReaderNames(list[str]):
    """Seat names that know which seat is reading, so "took 2 fuel from you" reads right."""

    def __init__(self, names: Sequence[str], you: int | None) -> None:
        super().__init__(names)
        self.you = you


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


# Lead events: each opens a sentence "<Name> <clause>".
def _docked(ev: Event, names: Names) -> str:
    relic = " (one of them the Relic Ship)" if ev.get("relic") is not None else ""
    return f"docked {_dice(ev.get('values', []))}{relic} at the {facility(ev['facility'])}"


def _landed(ev: Event, names: Names) -> str:
    return f"landed a colony on {territory(ev['territory'])}"


def _traded(ev: Event, names: Names) -> str:
    return f"traded {ev.get('fuel', 0)} fuel for {ev.get('ore', 1)} ore at the Orbital Market"


def _stole(ev: Event, names: Names) -> str:
    victim = object_name(names, ev.get("victim"))
    return f"took {ev.get('count', 1)} {ev.get('resource')} from {victim}"


def _stole_card(ev: Event, names: Names) -> str:
    return f"took {card(ev['card'])} from {object_name(names, ev.get('victim'))}"


def _used_card(ev: Event, names: Names) -> str:
    cost = f" for {ev['fuel']} fuel" if ev.get("fuel") else ""
    return f"used {card(ev['card'])}{cost}"


def _rolled(ev: Event, names: Names) -> str:
    values = list(ev.get("values", []))
    text = f"rolled {_dice(values)}" if values else "had no ships to roll"
    if ev.get("relic") is not None:
        text += f" and {ev['relic']} for the Relic Ship"
    return text


LEADS: dict[str, Callable[[Event, Names], str]] = {
    "docked": _docked,
    "landed": _landed,
    "traded": _traded,
    "stole_card": _stole_card,
    "used_card": _used_card,
    "rolled": _rolled,
    "bought_relic": lambda ev, n: "bought the Relic Ship",
    "launched": lambda ev, n: "launched a colony from the Colonist Hub",
    "cycled": lambda ev, n: "cycled the Alien Tech cards",
    "claimed": lambda ev, n: f"claimed {card(ev['card'])}",
    "rerolled": lambda ev, n: (
        f"re-rolled {_dice(ev.get('was', []))} into {_dice(ev.get('now', []))}"
    ),
    "took_from_discard": lambda ev, n: f"took {card(ev['card'])} from the discard pile",
    "discarded_card": lambda ev, n: f"discarded {card(ev['card'])}",
    "returned_resources": lambda ev, n: (
        f"returned {resources(ev.get('fuel', 0), ev.get('ore', 0))} to the supply"
    ),
    "raid_ended": lambda ev, n: "finished raiding",
}


# Follow-up events: each adds ", and <clause>" to the sentence of the lead before it.
def _gained(ev: Event, names: Names) -> str:
    return f"took {resources(ev.get('fuel', 0), ev.get('ore', 0))}"


def _paid(ev: Event, names: Names) -> str:
    to = ev.get("to")
    payee = f" to {object_name(names, to)}" if isinstance(to, int) else ""
    return f"paid {resources(ev.get('fuel', 0), ev.get('ore', 0))}{payee}"


def _gained_control(ev: Event, names: Names) -> str:
    return "now controls it" if ev.get("_same_place") else (
        f"now controls {territory(ev['territory'])}")


def _field_placed(ev: Event, names: Names) -> str:
    return f"put the {field(ev['field'])} on {territory(ev['territory'])}"


FOLLOWS: dict[str, Callable[[Event, Names], str]] = {
    "stole": _stole,
    "gained": _gained,
    "paid": _paid,
    "built_ship": lambda ev, n: f"built their {ordinal(int(ev.get('nth', 0)))} ship",
    "gained_control": _gained_control,
    "hub_advanced": lambda ev, n: f"moved up the Colonist Hub to circle {ev.get('to')}",
    "hub_started": lambda ev, n: "started a colony at the Colonist Hub",
    "field_placed": _field_placed,
    "field_moved": _field_placed,
    "field_removed": lambda ev, n: f"took the {field(ev['field'])} off the planet",
    "ship_changed": lambda ev, n: f"turned a {ev.get('was')} into a {ev.get('now')}",
    "duplicate_discarded": lambda ev, n: f"discarded a second {card(ev['card'])}",
}


# Events that stand alone in their own sentence (they concern someone else, or the table).
def _solo(ev: Event, names: Names) -> str | None:
    kind = ev.get("kind")
    who = name_of(names, ev.get("seat"))
    if kind == "bumped":
        owners = [object_name(names, o) for o in ev.get("owners", []) if o is not None]
        whose = " and ".join("your" if o == "you" else f"{o}'s" for o in owners) or "the"
        return f"{who} sent {whose} ships at the Raiders' Outpost back to the Maintenance Bay."
    if kind == "lost_control":
        return f"{who} lost control of {territory(ev['territory'])}."
    if kind == "relic_returned":
        return "The Relic Ship went back to Burroughs Desert."
    if kind == "reshuffled":
        return "The Alien Tech deck was reshuffled."
    if kind == "colonies_swapped":
        return (f"{who} swapped a colony of {object_name(names, ev.get('owner'))} on "
                f"{territory(ev['territory'])} with one of {object_name(names, ev.get('other'))} "
                f"on {territory(ev['other_territory'])}.")
    if kind == "game_over":
        return "The game is over."
    return None


def _join(clauses: list[str]) -> str:
    if len(clauses) <= 2:
        return " and ".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


def describe(events: Sequence[Event], names: Names) -> list[str]:
    """Sentences for ``events`` in order; bookkeeping events (turn start/end) are left out."""
    sentences: list[str] = []
    who: str | None = None
    clauses: list[str] = []
    place: str | None = None

    def flush() -> None:
        nonlocal who, clauses, place
        if who is not None and clauses:
            sentences.append(f"{who} {_join(clauses)}.")
        who, clauses, place = None, [], None

    for ev in _merge_raids(events):
        kind = ev.get("kind", "")
        if kind in LEADS:
            flush()
            who = name_of(names, ev.get("seat"))
            clauses = [LEADS[kind](ev, names)]
            place = ev.get("territory")
        elif kind in FOLLOWS:
            ev = dict(ev, _same_place=place is not None and ev.get("territory") == place)
            actor = name_of(names, ev.get("seat"))
            if who is None or actor != who:
                flush()
                who = actor
            clauses.append(FOLLOWS[kind](ev, names))
        else:
            solo = _solo(ev, names)
            if solo:
                flush()
                sentences.append(solo)
    flush()
    return sentences


def _merge_raids(events: Sequence[Event]) -> list[Event]:
    """One raid of two fuel reads "took 2 fuel", not "took 1 fuel and took 1 fuel"."""
    merged: list[Event] = []
    for ev in events:
        last = merged[-1] if merged else None
        if (ev.get("kind") == "stole" and last is not None and last.get("kind") == "stole"
                and all(last.get(k) == ev.get(k) for k in ("seat", "victim", "resource"))):
            last["count"] = last.get("count", 1) + 1
            continue
        merged.append(dict(ev))
    return merged


def describe_step(step: dict[str, Any], names: Names) -> list[str]:
    """Sentences for one logged step (a dict holding ``events``)."""
    return describe(step.get("events") or [], names)


def describe_action(action: dict[str, Any], names: Names = ()) -> str:
    """A legal move as an imperative a player reads in a menu: "Dock 4 4 at the Shipyard"."""
    kind = action.get("kind")
    if kind == "dock":
        text = f"Dock {_dice(action.get('values', []))} at the {facility(action['facility'])}"
        if action.get("relic") is not None:
            text += " (with the Relic Ship)"
        return text + (" and launch a colony" if action.get("launch") else "")
    if kind == "land":
        return f"Land a colony on {territory(action['territory'])}"
    if kind == "trade":
        return f"Trade {action.get('rate')} fuel for 1 ore"
    if kind == "claim":
        return f"Claim {card(action['card'])}"
    if kind == "steal":
        return f"Raid 1 {action.get('resource')} from {name_of(names, action.get('victim'))}"
    if kind == "steal_card":
        return f"Raid {card(action['card'])} from {name_of(names, action.get('victim'))}"
    if kind == "launch":
        return "Launch a colony from the Colonist Hub"
    if kind == "buy_relic":
        return "Buy the Relic Ship"
    if kind == "cycle":
        return "Cycle the Alien Tech cards"
    if kind == "end_raid":
        return "Stop raiding"
    if kind == "end_turn":
        return "End your turn"
    return str(kind).replace("_", " ").capitalize()
