"""What an action would do, told by the rules themselves: `preview(state, action)`.

The preview performs the action on a private copy of the state through the same `refusal` +
`perform` path as `apply`, and summarises the events and the acting seat's gains and costs.
So a page's "+4 fuel" is what docking then pays, whatever card or borrowed bonus is in play.

It never tells more than the acting seat may know before acting: an outcome drawn from a pile
or rolled (the events `crosses_barrier` marks: a draw, a roll, a cycle, a shuffle) ends the
summary there. The preview names the kind of draw or roll in `unseen` and keeps, of that
event, only what was public before it (the claimed card, the cards cycled away); nothing
after it is counted, because it may depend on what was drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .actions import Action, action_from_json
from .events import BARRIER_KINDS, Event
from .facilities.orbital_market import rates
from .menu.picks import json_family
from .notation import format_action
from .rules import perform, refusal
from .scoring import vp
from .state import GameState

# Of an event that draws or rolls, the fields that were known before it happened.
KNOWN_BEFORE: Final[dict[str, tuple[str, ...]]] = {
    "claimed": ("card",),
    "cycled": ("discarded",),
    "rerolled": ("was",),
    "rolled_ship": ("ship",),
    "drew_agendas": ("count",),
    "reshuffled": ("cards",),
}


@dataclass(frozen=True)
class Preview:
    """The effect of one action for the seat taking it (numbers are changes, costs positive).

    `vp` is None when a hidden outcome could change it; `decision` is the choice the action
    leaves the seat ("land", "raid", …), if any; `unseen` the kinds of the hidden outcomes
    ("drew", "rolled", "cycled", …), in order."""

    action: Action
    fuel: int = 0
    ore: int = 0
    paid_fuel: int = 0
    paid_ore: int = 0
    payees: tuple[int, ...] = ()  # seats paid (a cost paid to the supply names none)
    ships_built: tuple[int, ...] = ()  # the number of each ship built (4th, 5th, 6th)
    colonies_landed: tuple[str, ...] = ()  # territories
    colonies_moved: int = 0
    hub_steps: int = 0  # circles the seat's Colonist Hub colony moves
    launched: bool = False
    cards_gained: tuple[str, ...] = ()
    cards_lost: tuple[str, ...] = ()
    vp: int | None = 0
    trade_rates: tuple[int, ...] = ()  # Orbital Market prices of 1 ore open afterwards
    artifact_total: int = 0  # value docked at the Alien Artifact towards a claim, afterwards
    may_cycle: bool = False  # the Alien Tech display may be cycled next
    decision: str | None = None
    unseen: tuple[str, ...] = ()
    events: tuple[Event, ...] = ()

    @property
    def hidden(self) -> bool:
        """True when part of the outcome is a draw or a roll the seat cannot know yet."""
        return bool(self.unseen)


def menu_previews(state: GameState, legal: Sequence[Mapping[str, Any]],
                  picks: Sequence[Mapping[str, Any]] = ()) -> dict[str, Preview]:
    """The preview of each move of a view's `legal` menu, by notation, except the choices a
    pick stands for: a pick shows no per-choice effect, and a Plasma Cannon may offer a
    thousand subsets (each preview copies the state)."""
    picked = {json_family(p) for p in picks}
    out: dict[str, Preview] = {}
    for data in legal:
        if json_family(data) in picked:
            continue
        action = action_from_json(data)
        out[format_action(action)] = preview(state, action)
    return out


def preview(state: GameState, action: Action) -> Preview:
    """What `action` would do now; raises the RulesError `check` would (state unchanged)."""
    found = refusal(state, action)
    if found is not None:
        error, message = found
        raise error(message)
    after = state.clone()
    events: list[Event] = []
    perform(after, action, events)
    known, unseen = _known_events(events)
    seat = action.seat
    fuel, ore, paid_fuel, paid_ore, payees = _resources(known, seat)
    pending = after.turn.pending
    launched = any(ev["kind"] == "launched" and ev.get("seat") == seat for ev in known)
    return Preview(
        action=action, fuel=fuel, ore=ore, paid_fuel=paid_fuel, paid_ore=paid_ore,
        payees=payees,
        ships_built=tuple(int(ev.get("nth", 0)) for ev in _of(known, "built_ship", seat)),
        colonies_landed=tuple(str(ev["territory"]) for ev in _of(known, "landed", seat)),
        colonies_moved=len(_of(known, "colony_moved", seat)),
        hub_steps=_hub_steps(known, seat),
        launched=launched,
        cards_gained=_cards_gained(known, seat),
        cards_lost=tuple(str(ev["card"]) for ev in known
                         if ev["kind"] == "stole_card" and ev.get("victim") == seat),
        vp=None if unseen else vp(after, seat) - vp(state, seat),
        trade_rates=tuple(rates(after, seat)) if after.turn.seat == seat else (),
        artifact_total=after.turn.artifact_total if after.turn.seat == seat else 0,
        may_cycle=bool(after.turn.may_cycle) and after.turn.seat == seat,
        decision=str(pending["kind"]) if pending and pending.get("seat") == seat else None,
        unseen=unseen, events=tuple(known),
    )


def _known_events(events: Sequence[Event]) -> tuple[list[Event], tuple[str, ...]]:
    """The events up to the first draw or roll, that one stripped to what was known before
    it, and the kinds of the hidden events from there on."""
    for i, ev in enumerate(events):
        if ev["kind"] in BARRIER_KINDS:
            head = {k: v for k, v in ev.items() if k in ("kind", "seat", "barrier")}
            head.update({k: ev[k] for k in KNOWN_BEFORE.get(ev["kind"], ()) if k in ev})
            hidden = tuple(dict.fromkeys(e["kind"] for e in events[i:]
                                         if e["kind"] in BARRIER_KINDS))
            return [dict(e) for e in events[:i]] + [head], hidden
    return [dict(e) for e in events], ()


def _of(events: Sequence[Event], kind: str, seat: int) -> list[Event]:
    return [ev for ev in events if ev["kind"] == kind and ev.get("seat") == seat]


def _resources(events: Sequence[Event],
               seat: int) -> tuple[int, int, int, int, tuple[int, ...]]:
    """(fuel, ore, fuel paid, ore paid, payees) of `seat` from the events that move
    resources: gains, payments (to the supply or to a seat), raids and returns."""
    fuel = ore = paid_fuel = paid_ore = 0
    payees: list[int] = []
    for ev in events:
        kind, actor = ev["kind"], ev.get("seat")
        if kind == "gained" and actor == seat:
            fuel, ore = fuel + ev["fuel"], ore + ev["ore"]
        elif kind == "paid" and actor == seat:
            fuel, ore = fuel - ev["fuel"], ore - ev["ore"]
            paid_fuel, paid_ore = paid_fuel + ev["fuel"], paid_ore + ev["ore"]
            if isinstance(ev.get("to"), int) and ev["to"] not in payees:
                payees.append(ev["to"])
        elif kind == "paid" and ev.get("to") == seat:
            fuel, ore = fuel + ev["fuel"], ore + ev["ore"]
        elif kind == "returned_resources" and actor == seat:
            fuel, ore = fuel - ev["fuel"], ore - ev["ore"]
        elif kind == "stole":
            change = (1 if actor == seat else 0) - (1 if ev.get("victim") == seat else 0)
            if ev["resource"] == "fuel":
                fuel += change
            else:
                ore += change
    return fuel, ore, paid_fuel, paid_ore, tuple(payees)


def _hub_steps(events: Sequence[Event], seat: int) -> int:
    """Circles the seat's colony moves up the Colonist Hub (a launch's overflow included)."""
    steps = 0
    for ev in events:
        if ev.get("seat") == seat and ev["kind"] == "hub_advanced":
            steps += int(ev["to"]) - int(ev["start"])
        elif ev.get("seat") == seat and ev["kind"] == "hub_started" and "to" in ev:
            steps += int(ev["to"])
    return steps


def _cards_gained(events: Sequence[Event], seat: int) -> tuple[str, ...]:
    """Cards the seat takes and keeps: claimed, stolen or taken back from the discards."""
    kept: list[str] = []
    for ev in events:
        if ev.get("seat") != seat:
            continue
        if ev["kind"] in ("claimed", "stole_card", "took_from_discard") and "card" in ev:
            kept.append(str(ev["card"]))
        elif ev["kind"] == "duplicate_discarded" and str(ev.get("card")) in kept:
            kept.remove(str(ev["card"]))
    return tuple(kept)
