"""Plain English for engine events, shared by mail and pages. Pure functions, no Flask.

``describe(events, names)`` turns one step's events into sentences such as "Ben docked 4 4 at
the Shipyard and built their 5th ship" or "Cy landed a colony on Lem Badlands and now controls
it". With ``viewer`` (the reader's seat: mail passes it, pages may) the reader's own moves read
"You docked 4 4 at the Shipyard and built your 5th ship", and others' "took 2 fuel from you".
A "lead" event (docking, landing, a trade, a card) opens a sentence; the consequences that
follow it (gains, payments, a ship built, control won) are joined to it with "and". Names come
from the seat names the caller passes; an e-mail address is never shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pbem.engine.agendas import AGENDA_LIMIT, AGENDA_LIMIT_WINDOW
from pbem.engine.ids import (
    CARD_NAMES,
    FACILITY_NAMES,
    FIELD_NAMES,
    TERRITORY_BONUSES,
    TERRITORY_NAMES,
)
from pbem.words import glossary
from pbem.words.glossary import card_name

Event = dict[str, Any]
Names = Sequence[str]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def facility(fid: str) -> str:
    """ "Shipyard"; a Faction board's facility reads "Corex Conglomerated board"."""
    if fid in glossary.FACTIONS:
        return f"{glossary.faction_name(fid)} board"
    return FACILITY_NAMES.get(fid, fid.replace("_", " ").title())


def territory(tid: str) -> str:
    return TERRITORY_NAMES.get(tid, tid.replace("_", " ").title())


def field(fid: str) -> str:
    return FIELD_NAMES.get(fid, fid.replace("_", " ").title())


def faction(fid: str | None) -> str:
    return glossary.faction_name(fid)


def agenda(aid: str) -> str:
    """An Agenda's name. Only for a revealed Agenda, or for its owner (ruling A5)."""
    return glossary.agenda(aid).name


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def hand_limit_words(limit: int) -> str:
    """ "3 Agendas (revealed ones count)": the Agenda hand limit (rulings A1, T6)."""
    return f"{plural(limit, 'Agenda')} (revealed ones count)"


def agenda_limit_of(cards: Sequence[str]) -> int:
    """A seat's Agenda hand limit from its Alien Tech cards (ruling T6: 4 with the Window)."""
    return AGENDA_LIMIT_WINDOW if "multiverse_window" in cards else AGENDA_LIMIT


def resources(fuel: int = 0, ore: int = 0) -> str:
    parts = [f"{fuel} fuel" if fuel else "", f"{ore} ore" if ore else ""]
    return " and ".join(p for p in parts if p) or "nothing"


def name_of(names: Names, seat: Any) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return names[seat]
    return "Someone"


def is_you(names: Names, seat: Any) -> bool:
    """True when ``seat`` is the reader (``names.you``, set by ``describe``'s ``viewer``)."""
    return seat is not None and seat == getattr(names, "you", None)


def object_name(names: Names, seat: Any) -> str:
    """A seat as the object of a sentence: "you" when it is the reader (``names.you``)."""
    return "you" if is_you(names, seat) else name_of(names, seat)


def subject_name(names: Names, seat: Any) -> str:
    """A seat opening a sentence: "You" when it is the reader."""
    return "You" if is_you(names, seat) else name_of(names, seat)


def possessive(names: Names, seat: Any) -> str:
    """ "your" for the reader, else "Ana's"."""
    return "your" if is_you(names, seat) else f"{name_of(names, seat)}'s"


def _their(ev: Event, names: Names) -> str:
    """The actor's own thing: "their", or "your" when the actor is the reader."""
    return "your" if is_you(names, ev.get("seat")) else "their"


def _now(ev: Event, names: Names, verb: str) -> str:
    """A present-tense verb agreeing with the actor: "controls", or "control" for "You"."""
    return verb[:-1] if is_you(names, ev.get("seat")) else verb


class ReaderNames(list[str]):
    """Seat names that know which seat is reading, so "took 2 fuel from you" reads right."""

    def __init__(self, names: Sequence[str], you: int | None) -> None:
        super().__init__(names)
        self.you = you


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


def _values(values: Any) -> str:
    """One ship value ("a 3") or several ("3 5")."""
    if isinstance(values, int):
        return f"a {values}"
    return _dice(values or [])


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
    took = f"took {ev.get('count', 1)} {ev.get('resource')} from {victim}"
    return took + (" in the raid" if ev.get("_no_lead") else "")  # its own line: say why


def _stole_card(ev: Event, names: Names) -> str:
    return (f"took {card_name(ev['card'])} from {object_name(names, ev.get('victim'))} in the "
            "raid")


def _used_card(ev: Event, names: Names) -> str:
    cost = f" for {ev['fuel']} fuel" if ev.get("fuel") else ""
    return f"used {card_name(ev['card'])}{cost}"


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
    "claimed": lambda ev, n: f"claimed {card_name(ev['card'])}",
    "rerolled": lambda ev, n: (
        f"re-rolled {_values(ev.get('was'))} into {_values(ev.get('now'))}"),
    "chose_faction": lambda ev, n: f"chose {faction(ev.get('faction'))}",
    "resource_cache": lambda ev, n: (
        f"got the Resource Cache's pay-out ({ev.get('odd', 0)} odd, {ev.get('even', 0)} even "
        "ships)"),
    "took_from_discard": lambda ev, n: f"took {card_name(ev['card'])} from the discard pile",
    "discarded_card": lambda ev, n: f"discarded {card_name(ev['card'])}",
    "returned_resources": lambda ev, n: _returned(ev),
    "raid_ended": lambda ev, n: "finished raiding",
}


def _returned(ev: Event) -> str:
    """Tokens given back, with why: the end-of-turn limit (§1.5), or a card's power."""
    back = f"returned {resources(ev.get('fuel', 0), ev.get('ore', 0))} to the supply"
    why = ev.get("why")
    if why in CARD_NAMES:  # the Solar Harvester's discard: every other player's fuel
        return f"{back} ({card_name(str(why))}'s discard power)"
    if why:
        return f"{back} because of {source(why)}"
    return f"{back} at the end of the turn (8 fuel and ore at most)"


def _borrowed_bonus(ev: Event) -> str:
    """A territory's bonus used without controlling it, with what it gives (Data Crystal's
    lead names the card; the Uranian Syndicate's contest has no lead, so its board is said)."""
    tid = str(ev["territory"])
    gives = TERRITORY_BONUSES.get(tid, "")
    through = f" through {source(ev['why'])}" if ev.get("why") else ""
    return (f"used the bonus of {territory(tid)}{through} this turn"
            + (f": {gives}" if gives else ""))


# Follow-up events: each adds ", and <clause>" to the sentence of the lead before it.
def source(why: Any) -> str:
    """What an engine ``why`` (a facility, card, Faction board, territory…) is, in words."""
    why = str(why or "")
    if why in glossary.FACTIONS:
        return f"the {faction(why)} board"
    if why in CARD_NAMES:
        return card_name(why)
    if why in FACILITY_NAMES:
        return f"the {facility(why)}"
    if why in TERRITORY_NAMES:
        return territory(why)
    return {"relic_ship": "the Relic Ship", "launch": "the launch"}.get(why, "")


def _cause(ev: Event, word: str) -> str:
    """ " — Corex Conglomerated income", " for Booster Pod": why a gain or payment happened,
    when the sentence's lead does not already say it (``_lead_says``)."""
    why = ev.get("why")
    if not why or ev.get("_lead_says"):
        return ""
    if ev.get("kind") == "gained" and ev.get("_no_lead") and why in glossary.FACTIONS:
        return f" — {faction(why)} income"  # a board's pay-out at the start of a turn
    said = source(why)
    return f" {word} {said}" if said else ""


def _bonus(ev: Event) -> str:
    """ " (3 + 1 from the Lem Badlands bonus)" when a territory's bonus is part of a gain."""
    extra = int(ev.get("bonus_amount") or 0)
    if not ev.get("bonus") or not extra:
        return ""
    total = int(ev.get("fuel", 0)) + int(ev.get("ore", 0))
    return f" ({total - extra} + {extra} from the {territory(ev['bonus'])} bonus)"


def _gained(ev: Event, names: Names) -> str:
    took = f"took {resources(ev.get('fuel', 0), ev.get('ore', 0))}"
    return took + _bonus(ev) + _cause(ev, "from")


def _paid(ev: Event, names: Names) -> str:
    to = ev.get("to")
    payee = f" to {object_name(names, to)}" if isinstance(to, int) else ""
    return f"paid {resources(ev.get('fuel', 0), ev.get('ore', 0))}{payee}" + _cause(ev, "for")


def _gained_control(ev: Event, names: Names) -> str:
    controls = _now(ev, names, "controls")
    return f"now {controls} it" if ev.get("_same_place") else (
        f"now {controls} {territory(ev['territory'])}")


def _field_placed(ev: Event, names: Names) -> str:
    return f"put the {field(ev['field'])} on {territory(ev['territory'])}"


def _field_moved(ev: Event, names: Names) -> str:
    return (f"moved the {field(ev['field'])} from {territory(ev['came_from'])} to "
            f"{territory(ev['territory'])}")


def _ships_sent(ev: Event, names: Names) -> str:
    """Plasma Cannon (``shot``) and Lunar Tunneler / Astrogation Servo (``cleared``)."""
    where = "the stock" if ev.get("to") == "stock" else "the Maintenance Bay"
    count = len(ev.get("ships") or [])
    return f"sent {plural(count, 'ship')} at the {facility(ev['facility'])} to {where}"


def _colony_moved(ev: Event, names: Names) -> str:
    owner = ev.get("owner")
    whose = f"{_their(ev, names)} own" if owner == ev.get("seat") else possessive(names, owner)
    source = str(ev.get("source") or ev.get("came_from") or "")
    target = str(ev.get("target") or ev.get("to") or "")
    return f"moved {whose} colony from {territory(source)} to {territory(target)}"


def _revealed_agenda(ev: Event, names: Names) -> str:
    text = glossary.agenda(ev["agenda"])
    half = text.end_game if ev.get("half") == "end_game" else text.in_game
    if ev.get("_window"):  # the Multiverse Window's discard power: no condition was met
        return (f"revealed the Agenda “{text.name}”, scored through the Multiverse Window "
                "without meeting its condition (+1 VP)")
    what = f"“{text.name}” ({half.rstrip('.')})" if half else f"“{text.name}”"
    when = " at the end of the game" if ev.get("auto") else ""
    return f"revealed the Agenda {what}{when} (+1 VP)"


def _card_token(ev: Event, names: Names) -> str:
    count = int(ev.get("tokens", 0))
    return f"put a token on the {card_name(ev['card'])} ({count} of 3)"


FOLLOWS: dict[str, Callable[[Event, Names], str]] = {
    "stole": _stole,
    "gained": _gained,
    "paid": _paid,
    "built_ship": lambda ev, n: f"built {_their(ev, n)} {ordinal(int(ev.get('nth', 0)))} ship",
    "gained_control": _gained_control,
    "hub_advanced": lambda ev, n: f"moved up the Colonist Hub to circle {ev.get('to')}",
    "hub_started": lambda ev, n: "started a colony at the Colonist Hub",
    "field_placed": _field_placed,
    "field_moved": _field_moved,
    "field_removed": lambda ev, n: f"took the {field(ev['field'])} off the planet",
    "ship_changed": lambda ev, n: f"turned a {ev.get('was')} into a {ev.get('now')}",
    "duplicate_discarded": lambda ev, n: f"discarded a second {card_name(ev['card'])}",
    # Factions: card powers, faction boards and Agendas (never naming a face-down Agenda)
    "shot": _ships_sent,
    "cleared": _ships_sent,
    "replaced": lambda ev, n: (
        f"replaced {plural(len(ev.get('ships') or []), 'ship')} at the "
        f"{facility(ev['facility'])} with {_their(ev, n)} own"),
    "swapped_colonies": lambda ev, n: (
        f"swapped every colony of {territory(ev['first'])} with those of "
        f"{territory(ev['second'])}"),
    "colony_moved": _colony_moved,
    "teleported": lambda ev, n: f"moved a ship away from the {facility(ev['came_from'])}",
    "borrowed_bonus": lambda ev, n: _borrowed_bonus(ev),
    "borrowed_ship": lambda ev, n: (
        f"took a ship from the Maintenance Bay and rolled {_values(ev.get('value'))}"),
    "rolled_ship": lambda ev, n: f"rolled the new ship at once: {_values(ev.get('value'))}",
    "drew": lambda ev, n: f"drew {card_name(ev['card'])}",
    "card_token": _card_token,
    "drew_agendas": lambda ev, n: f"drew {plural(int(ev.get('count', 0)), 'Agenda')}",
    "discarded_agenda": lambda ev, n: "discarded a face-down Agenda",
    "kept_agendas": lambda ev, n: (
        f"now {_now(ev, n, 'holds')} {plural(int(ev.get('count', 0)), 'Agenda')}"),
    "revealed_agenda": _revealed_agenda,
}


# Events that stand alone in their own sentence (they concern someone else, or the table).
def _solo(ev: Event, names: Names) -> str | None:
    kind = ev.get("kind")
    who = subject_name(names, ev.get("seat"))
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
        return (f"{who} swapped {possessive(names, ev.get('owner'))} colony on "
                f"{territory(ev['territory'])} with {possessive(names, ev.get('other'))} "
                f"on {territory(ev['other_territory'])}.")
    if kind == "rescued":
        whose = possessive(names, ev.get("seat"))
        return (f"{whose[0].upper()}{whose[1:]} terraformed ship (a {ev.get('value')}) was "
                "rescued to the Maintenance Bay.")
    if kind == "must_discard_agendas":
        subject = object_name(names, ev.get("seat"))
        verb = "have" if subject == "you" else "has"
        return (f"{subject[0].upper()}{subject[1:]} {verb} to discard "
                f"{plural(int(ev.get('count', 1)), 'face-down Agenda')}: the Multiverse Window "
                f"is gone, so the limit is {hand_limit_words(AGENDA_LIMIT)} again.")
    if kind == "draft_ended":  # the board left out is not named: nobody needs it
        return "The Faction draft is over; the game begins."
    if kind == "agendas_reshuffled":
        return "The Agenda deck was reshuffled."
    if kind == "game_over":
        return "The game is over."
    return _seat_change(ev, names)


def _seat_change(ev: Event, names: Names) -> str | None:
    """The server's records of a seat changing hands (``pbem.services``): not moves."""
    kind = ev.get("kind")
    if kind == "resigned":
        return (f"{subject_name(names, ev.get('seat'))} resigned; the computer plays "
                f"{possessive(names, ev.get('seat'))} seat from now on.")
    if kind == "substituted":  # by the names the seat had then: the log keeps no address
        old = f"{ev['from']}'s seat" if ev.get("from") else "the seat"
        return f"{ev.get('to') or 'A new player'} took over {old}."
    return None


def _join(clauses: list[str]) -> str:
    if len(clauses) <= 2:
        return " and ".join(clauses)
    return ", ".join(clauses[:-1]) + " and " + clauses[-1]


def describe(events: Sequence[Event], names: Names, viewer: int | None = None) -> list[str]:
    """Sentences for ``events`` in order; bookkeeping events (turn start/end) are left out.

    ``viewer``: the reader's seat; sentences about it say "You …" ("You rolled 2 3 3 6",
    "took 2 fuel from you"). Without it, a ``ReaderNames`` gives the reader; else all names."""
    if viewer is not None and getattr(names, "you", None) != viewer:
        names = ReaderNames(names, viewer)
    sentences: list[str] = []
    who: str | None = None
    clauses: list[str] = []
    place: str | None = None
    window = False  # the sentence opened with discarding the Multiverse Window

    def flush() -> None:
        nonlocal who, clauses, place, window
        if who is not None and clauses:
            sentences.append(f"{who} {_join(clauses)}.")
        who, clauses, place, window = None, [], None, False

    lead: Event | None = None
    for ev in _card_payments_with_their_card(_merge_raids(events)):
        kind = ev.get("kind", "")
        if kind in LEADS:
            flush()
            lead = ev
            who = subject_name(names, ev.get("seat"))
            clauses = [LEADS[kind](ev, names)]
            place = ev.get("territory")
            window = kind == "discarded_card" and ev.get("card") == "multiverse_window"
        elif kind in FOLLOWS:
            actor = subject_name(names, ev.get("seat"))
            if who is None or actor != who:
                flush()
                who, lead = actor, None
            ev = dict(ev, _same_place=place is not None and ev.get("territory") == place,
                      _window=window and kind == "revealed_agenda",
                      _lead_says=_names_why(lead, ev.get("why")), _no_lead=lead is None)
            clauses.append(FOLLOWS[kind](ev, names))
        else:
            solo = _solo(ev, names)
            if solo:
                flush()
                sentences.append(solo)
    flush()
    return sentences


def _names_why(lead: Event | None, why: Any) -> bool:
    """Whether the sentence's lead already names the cause ``why`` (docked at that facility,
    used that card, launched…), so "took 3 fuel" needs no "from …"."""
    if lead is None or not why:
        return False
    kind = lead.get("kind")
    if kind in ("launched", "bought_relic", "traded", "resource_cache"):
        return True  # their payments and gains are what the lead says
    return why in (lead.get("facility"), lead.get("card"))


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


def _card_payments_with_their_card(events: list[Event]) -> list[Event]:
    """A card's fuel is logged as "paid" just before the card's own "used_card" event, which
    states it ("used Booster Pod for 1 fuel"): left where it is, the payment would end the
    sentence before it ("docked 5 …, took 3 fuel and paid 1 fuel"). Said once, with its
    card; a payment the card's event does not state follows that event instead."""
    out: list[Event] = []
    held: Event | None = None
    for ev in events:
        if held is not None:
            same_card = (ev.get("kind") == "used_card" and ev.get("seat") == held.get("seat")
                         and ev.get("card") == held.get("why"))
            if same_card:
                out.append(ev)
                if ev.get("fuel") != held.get("fuel") or held.get("ore"):
                    out.append(held)
                held = None
                continue
            out.append(held)
            held = None
        if ev.get("kind") == "paid" and ev.get("to") is None and ev.get("why") in CARD_NAMES:
            held = ev
            continue
        out.append(ev)
    if held is not None:
        out.append(held)
    return out


def describe_step(step: dict[str, Any], names: Names, viewer: int | None = None) -> list[str]:
    """Sentences for one logged step (a dict holding ``events``)."""
    return describe(step.get("events") or [], names, viewer)


def describe_action(action: dict[str, Any], names: Names = (),
                    agendas: Sequence[str] = ()) -> str:
    """A legal move as an imperative a player reads in a menu: "Dock 4 4 at the Shipyard".

    ``agendas`` are the reader's own face-down Agendas (to name "discard your 2nd Agenda")."""
    kind = action.get("kind")
    factions = _faction_action(action, agendas)
    if factions is not None:
        return factions
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
        return f"Claim {card_name(action['card'])}"
    if kind == "steal":
        return f"Raid 1 {action.get('resource')} from {name_of(names, action.get('victim'))}"
    if kind == "steal_card":
        return f"Raid {card_name(action['card'])} from {name_of(names, action.get('victim'))}"
    if kind == "launch":
        return "Launch a colony from the Colonist Hub"
    if kind == "buy_relic":
        return "Buy the Relic Ship"
    if kind == "cycle":
        return "Cycle the Alien Tech cards"
    if kind == "end_raid":
        return "Stop raiding"
    if kind == "end_turn":
        back = resources(int(action.get("return_fuel") or 0), int(action.get("return_ore") or 0))
        return "End your turn" + (f", returning {back} to the supply (8 at most)"
                                  if back != "nothing" else "")
    return str(kind).replace("_", " ").capitalize()


def _faction_action(action: dict[str, Any], agendas: Sequence[str]) -> str | None:
    """Action labels for the Factions decisions and board actions (None: not one of them)."""
    kind = action.get("kind")
    if kind == "choose_faction":
        return f"Take {faction(action.get('faction'))}"
    if kind == "discard_agenda":
        index = int(action.get("index", 0))
        if 1 <= index <= len(agendas):
            return f"Discard your Agenda “{agenda(agendas[index - 1])}”"
        return f"Discard your {ordinal(index)} face-down Agenda"
    if kind == "keep_agendas":
        return "Keep the Agendas you hold"
    if kind == "draw_agendas":
        return "Draw 2 Agendas instead of trading"
    if kind == "reveal_agenda":
        return f"Reveal your Agenda “{agenda(action['agenda'])}” (+1 VP)"
    if kind == "discard_multiverse_window":
        return (f"Discard the Multiverse Window: reveal “{agenda(action['agenda'])}” "
                "(+1 VP)")
    if kind == "smuggle":
        return (f"Smuggle: dock {_dice(action.get('values', []))} at the Raiders' Outpost "
                f"and {action.get('ship')} at the Smuggler's Alliance")
    if isinstance(kind, str) and kind.startswith(("use_", "discard_")):
        verb, _, cid = kind.partition("_")
        return f"{verb.capitalize()} {card_name(cid)}"
    return None
