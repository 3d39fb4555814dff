"""The per-turn facts the in-game Agenda conditions need (ruling A3), folded from events.

`on_turn_start` runs at the end of every gather-and-roll (`flow.start_turn`): it records the
fleet roll, the ships gathered, who is strictly lowest, the Solar Converter's empty ports and
moves the seat's marks (conditions met on other players' turns) into the turn. `fold` runs
after every applied action (`rules.perform`) and at the end of the game: it adds what the
action's events say, then latches every in-game condition met now in `facts["met"]`
(`latch.py`).
Nothing is recorded in a game without the Factions option.
"""

from __future__ import annotations

from typing import Any, Final

from ..board import group_count
from ..events import Event
from ..ids import Facility, Field, Territory
from ..scoring import vps
from ..state import BAY, GameState
from ..territories import has_bonus
from .conditions import DOCKS, strictly_lowest
from .latch import CARDLESS_KINDS, READ_FACTS, SHIPLESS_KINDS, SHIPS, latch
from .spec import CARDS, Facts

COLONY_MOVES: Final = frozenset({"colony_moved", "colonies_swapped", "colonies_moved"})
# Event kinds that cannot change anyone's VP (no colony, control, field, card or Agenda
# moves with them): a fold whose events are all of these keeps the VP it counted last, and
# a new turn the VP its predecessor's last fold counted (`kept_vp`).
# tests/engine/test_agenda_latch.py checks, at every action of hundreds of random games,
# that no action whose events are all of these changes VP.
UNSCORED_KINDS: Final = frozenset({
    "docked", "replaced", "bumped", "shot", "cleared", "teleported", "borrowed_ship",
    "rescued", "relic_returned", "rolled", "rerolled", "rolled_ship", "ship_changed", "cycled",
    "gained", "paid", "stole", "traded", "returned_resources", "resource_cache",
    "hub_advanced", "hub_started", "launched", "built_ship", "bought_relic", "raid_ended",
    "borrowed_bonus", "card_token", "chose_faction", "turn_started", "turn_ended"})


def active(state: GameState) -> bool:
    return bool(state.options.get("factions"))


def on_turn_start(state: GameState, events: list[Event],
                  points: list[int] | None = None) -> None:
    """Facts of the turn that just began (called at the end of `flow.start_turn`). `points`:
    every seat's VP now (`vps`), when the caller knows them (`kept_vp`)."""
    if not active(state):
        return
    turn, seat = state.turn, state.turn.seat
    me = state.seats[seat]
    if points is None:
        points = vps(state)  # counted once: folding the turn's first events changes no VP
    facts: Facts = {
        "roll": list(turn.rolled),  # ruling A3: the fleet roll, before any card
        "gathered": len(turn.rolled),
        "lowest": strictly_lowest(state, seat, points),
        "solar_empty": _empty_solar_ports(state),
        "met": list(me.marks.get("met", [])),  # ruling A3: met on another player's turn
    }
    turn.facts = facts
    me.marks.pop("met", None)
    fold(state, events, fresh=True, points=points)


def kept_vp(facts: Facts, events: list[Event]) -> list[int] | None:
    """The VP these facts' last fold counted, when it is still the VP after `events` (every
    event since that fold) as none is of a scoring kind; else None."""
    points: list[int] | None = facts.get("vp")
    if points is None:
        return None
    for ev in events:
        if ev["kind"] not in UNSCORED_KINDS:
            return None
    return list(points)  # the new turn's own


def _empty_solar_ports(state: GameState) -> list[int]:
    taken = 0  # port k is bit k, as in `docked_halves`
    for s in state.ships:
        if s.loc == _SOLAR:
            taken |= 1 << s.slot
    return [p for p in range(group_count(state, _SOLAR)) if not taken >> p & 1]


_SOLAR: Final[str] = str(Facility.SOLAR_CONVERTER)  # a plain str: compared once per ship


def fold(state: GameState, events: list[Event], fresh: bool = False,
         points: list[int] | None = None) -> None:
    """Add the facts these events (of the active seat's turn) record, then latch conditions:
    those whose facts changed (when the facts are `fresh`, a new turn's, every one recorded).
    `points`: every seat's VP now (`vps`), when the caller has counted them already."""
    if not state.options.get("factions"):  # `active`, inline: asked after every action
        return
    facts = state.turn.facts
    seat = state.turn.seat
    changed = _NOTHING  # the read facts these events may have changed
    scored = False  # an event that may change VP (one not in `UNSCORED_KINDS`)
    moved = False  # colonies moved by an action of the seat's
    for ev in events:
        kind = ev["kind"]
        if kind in FOLDED_KINDS:
            written = _fold_one(state, seat, facts, ev)
            if written:  # one event's constant set, united only when a second writes
                changed = changed | written if changed else written
        # a docking moves only the ships docked, to its facility (`DOCKS`: those read)
        if kind not in SHIPLESS_KINDS and (kind != "docked" or ev.get("facility") in DOCKS):
            changed = changed | _SHIPS if changed else _SHIPS
        if kind not in CARDLESS_KINDS:
            changed = changed | _CARDS if changed else _CARDS
        if kind not in UNSCORED_KINDS:
            scored = True
            if kind in COLONY_MOVES and ev.get("seat") == seat:
                moved = True
    if points is not None or scored or "vp" not in facts:
        if points is None:
            points = vps(state)  # folding changes facts only: this is the VP after the events
        if moved:
            _shared_gain(state, seat, facts, points)
            changed = changed | _SHARED_GAIN
        facts["vp"] = points
    if fresh:  # every fact recorded, the ships gathered, and other seats now asked
        changed = changed | _SHIPS_AND_CARDS | READ_FACTS.intersection(facts)
    latch(state, changed)


def _written(*keys: str) -> frozenset[str]:
    """The facts a branch of `_fold_one` writes that some condition reads (`READ_FACTS`):
    made once, so that a fold's set of changed facts is usually one of these."""
    return READ_FACTS.intersection(keys)


_NOTHING: Final[frozenset[str]] = frozenset()
_SHIPS: Final = frozenset({SHIPS})
_CARDS: Final = frozenset({CARDS})
_SHIPS_AND_CARDS: Final = _SHIPS | _CARDS
_SHARED_GAIN: Final = _written("shared_gain")
_SEIZE_USED: Final = _written("seize_used")
_DOCKED: Final = _written("facilities", "market")
_HUB: Final = _written("hub_steps", "restarted")
_RESOURCES: Final = _written("fuel", "ore")
_STOLE: Final = _written("fuel", "ore", "victims")
_VICTIMS: Final = _written("victims")
_LANDED: Final = _written("landed", "isolated")
_LOST_BY_OTHER: Final = _written("lost_by_other")
_GAINED_CONTROL: Final = _written("takeovers", "seized", "asimov_before")
_BUMPED_SELF: Final = _written("bumped_self")
_SHIPS_GAINED: Final = _written("ships_gained")
_REPULSOR: Final = _written("repulsor")
_LAUNCHED: Final = _written("launched")
_TRADED: Final = _written("market")


def _add(facts: Facts, key: str, n: int) -> None:
    facts[key] = facts.get(key, 0) + n


# Every kind a branch of `_fold_one` or `_seize_use` reads: an event of another kind (the
# roll, a new turn, a card drawn or discarded, ...) records nothing, so `fold` makes no call
# for it (tests/engine/test_agendas.py folds the other kinds of real games to check it).
FOLDED_KINDS: Final = frozenset({
    "docked", "replaced", "hub_advanced", "hub_started", "gained", "paid", "stole",
    "stole_card", "landed", "lost_control", "gained_control", "bumped", "built_ship",
    "bought_relic", "field_placed", "launched", "traded", "used_card"})


def _fold_one(state: GameState, seat: int, facts: Facts, ev: Event) -> frozenset[str]:
    """Add what one event records; returns the read facts it may have written (`latch` asks
    again only the conditions that read one of them, or something besides facts)."""
    kind = ev["kind"]
    mine = ev.get("seat") == seat
    # No two branches test one kind, so their order changes nothing: the commonest come first.
    if kind in ("docked", "replaced") and mine and ev.get("facility") != BAY:
        _docked(state, seat, facts, ev)
        written = _DOCKED
    elif kind in ("hub_advanced", "hub_started") and mine:
        _hub(state, facts, ev)
        written = _HUB
    # ruling A3: gains during your turn (a fee paid to you included), not net
    elif kind == "gained" and mine or kind == "paid" and ev.get("to") == seat:
        facts["fuel"] = facts.get("fuel", 0) + ev.get("fuel", 0)
        facts["ore"] = facts.get("ore", 0) + ev.get("ore", 0)
        written = _RESOURCES
    elif kind == "stole" and mine:  # ruling A3: stealing counts
        _add(facts, ev["resource"], 1)
        _victim(facts, ev["victim"])
        written = _STOLE
    elif kind == "stole_card" and mine:
        _victim(facts, ev["victim"])
        written = _VICTIMS
    elif kind == "landed" and mine:  # ruling A3: from your supply, not a move
        _add(facts, "landed", 1)
        if state.fields.get(Field.ISOLATION) == ev["territory"]:
            facts["isolated"] = True
        written = _LANDED
    elif kind == "lost_control" and not mine:
        _once(facts, "lost_by_other", ev["territory"])
        written = _LOST_BY_OTHER
    elif kind == "gained_control" and mine:
        _gained_control(state, seat, facts, ev)
        written = _GAINED_CONTROL
    elif kind == "bumped" and mine and seat in ev.get("owners", []):
        facts["bumped_self"] = True
        written = _BUMPED_SELF
    elif kind in ("built_ship", "bought_relic") and mine:  # ruling A3: not a borrowed ship
        _add(facts, "ships_gained", 1)
        written = _SHIPS_GAINED
    elif kind == "field_placed" and mine and ev.get("field") == Field.REPULSOR \
            and "proxima" not in str(ev.get("why", "")):  # ruling A3
        facts["repulsor"] = True
        written = _REPULSOR
    elif kind == "launched" and mine:
        facts["launched"] = True
        written = _LAUNCHED
    elif kind == "traded" and mine:
        _market_traded(facts, int(ev.get("fuel", 0)))
        written = _TRADED
    else:
        written = _NOTHING
    # and whether it uses the benefit of a territory seized this turn (ruling A3)
    if facts.get("seized") and _seize_use(state, seat, facts, ev, mine):
        return written | _SEIZE_USED
    return written


def _once(facts: Facts, key: str, item: Any) -> None:
    items: list[Any] = facts.setdefault(key, [])
    if item not in items:
        items.append(item)


def _victim(facts: Facts, victim: int) -> None:
    victims: list[int] = facts.setdefault("victims", [])
    if victim not in victims:
        victims.append(victim)


def _gained_control(state: GameState, seat: int, facts: Facts, ev: Event) -> None:
    previous, territory = ev.get("previous"), ev["territory"]
    # ruling A3: controlled by another player just before you took it; a landing always
    # passes through a tie, so another's control lost earlier this turn counts (rulings-log)
    if (previous is None or previous == seat) \
            and territory not in facts.get("lost_by_other", []):
        return
    for key in ("takeovers", "seized"):
        _once(facts, key, territory)
    if territory == Territory.ASIMOV_CRATER:
        facts["asimov_before"] = state.turn.asimov_used


def _hub(state: GameState, facts: Facts, ev: Event) -> None:
    if ev["kind"] == "hub_advanced":
        _add(facts, "hub_steps", int(ev["to"]) - int(ev["start"]))
        return
    if "to" in ev:  # a new colony started by advances beyond a launch (ruling B8)
        _add(facts, "hub_steps", int(ev["to"]))
    if facts.get("launched"):
        facts["restarted"] = True


def _docked(state: GameState, seat: int, facts: Facts, ev: Event) -> None:
    facility = str(ev["facility"])
    seen: list[str] = facts.setdefault("facilities", [])
    if facility not in seen:
        seen.append(facility)
    if facility == _MARKET and ev["kind"] == "docked":
        values = ev.get("values", [0])
        facts.setdefault("market", []).append({"value": values[0], "use": None})


_MARKET: Final[str] = str(Facility.ORBITAL_MARKET)


def _market_traded(facts: Facts, rate: int) -> None:
    """Ruling B7/A1: a pair traded with can no longer draw Agendas."""
    pairs: list[dict[str, Any]] = facts.get("market", [])
    usable = [p for p in pairs if p["use"] != "draw"]
    if any(p["value"] == rate and p["use"] == "trade" for p in usable):
        return
    fresh = [p for p in usable if p["use"] is None]
    exact = [p for p in fresh if p["value"] == rate]
    if exact or fresh:
        (exact or fresh)[0]["use"] = "trade"


# -- "take control of a territory from an opponent and use its benefit immediately" ----------

def _seize_use(state: GameState, seat: int, facts: Facts, ev: Event, mine: bool) -> bool:
    """Whether this event is the use of a territory's benefit just seized (recorded then)."""
    seized = facts.get("seized")
    if not seized or not mine or facts.get("seize_used"):
        return False
    kind, facility = ev["kind"], ev.get("facility")
    used: str | None = None
    if kind == "hub_advanced" and state.turn.asimov_used and not facts.get("asimov_before"):
        used = Territory.ASIMOV_CRATER
    elif kind == "docked" and facility == Facility.COLONY_CONSTRUCTOR:
        used = Territory.BRADBURY_PLATEAU
    elif kind == "bought_relic":
        used = Territory.BURROUGHS_DESERT
    elif kind == "traded":
        used = Territory.HEINLEIN_PLAINS
    elif kind == "built_ship":
        used = Territory.HERBERT_VALLEY
    elif kind == "docked" and facility == Facility.SOLAR_CONVERTER:
        used = Territory.LEM_BADLANDS
    elif kind == "used_card":
        used = Territory.POHL_FOOTHILLS
    elif kind == "docked" and facility == Facility.LUNAR_MINE \
            and state.turn.mine_ships == len(ev.get("values", [])):
        used = Territory.VAN_VOGT_MOUNTAINS  # the first Lunar Mine ship of the turn
    if used is not None and used in seized and has_bonus(state, seat, used):
        facts["seize_used"] = True
        return True
    return False


def _shared_gain(state: GameState, seat: int, facts: Facts, now: list[int]) -> None:
    """Ruling A3: one action of yours that moves colonies leaves you and an opponent with
    more VP (`now`) than before it."""
    before: list[int] | None = facts.get("vp")
    if before is None:
        return
    if now[seat] > before[seat] and any(
            now[i] > before[i] for i in range(state.players) if i != seat):
        facts["shared_gain"] = True


def after_action(state: GameState, events: list[Event]) -> None:
    """Fold the events of one applied action that began no new turn (hooked at the end of
    `rules.perform`: a new turn's events were folded by `on_turn_start`); the last action's
    were folded by `finish` (A4)."""
    if state.phase != "over":
        fold(state, events)
