"""Raiders' Outpost: a run of three consecutive values. If ships are docked there, your run's
sum must be greater than theirs (ruling B5) and they go to the Maintenance Bay. Docking
raids: up to 4 fuel/ore from any mix of opponents, or one card from one (ruling B18).

Smuggler's Alliance (ruling F13): its owner bumps with any run; a docking made together with
its facility raids 4 resources AND 1 card, in any order (the pending raid's "cards")."""

from __future__ import annotations

from typing import Final

from ..actions import Dock, EndRaid, Steal, StealCard
from ..deck import gain_card
from ..events import Event, event
from ..ids import CARD_NAMES, FACILITY_NAMES, RAID_RESOURCES, Card, Facility, Faction
from ..lookup import commander, ships_at
from ..state import GameState
from ..territories import send_to_bay
from .spec import FacilitySpec

ID: Final[str] = str(Facility.RAIDERS_OUTPOST)
DECOY: Final[str] = str(Card.HOLOGRAPHIC_DECOY)


def slot(state: GameState, seat: int) -> int:
    return 0


def sum_to_beat(state: GameState, seat: int) -> int:
    """The sum `seat`'s run must be greater than to dock here now: the ships docked here
    (ruling B5), or 0 when none is or `seat` owns the Smuggler's Alliance (F13: it bumps with
    any run). All `refuse` reads of the state, so the menu asks it once for all the runs."""
    if state.seats[seat].faction == Faction.SMUGGLERS_ALLIANCE:
        return 0
    return sum([s.value for s in ships_at(state, ID)])


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    beat = sum_to_beat(state, seat)
    if sum(action.values) <= beat:
        return (f"Raiders' Outpost: to bump the ships there your run must sum to more than "
                f"{beat}; yours sums to {sum(action.values)}.")
    return None


def before_dock(state: GameState, action: Dock, events: list[Event]) -> None:
    bumped = [i for i, s in enumerate(state.ships) if s.loc == ID]
    if bumped:
        # whose ships were bumped (ruling B20): the Relic Ship its owner's, a ship borrowed
        # this turn the borrower's ("bump yourself", ruling A3)
        owners = sorted({commander(state, state.ships[i]) for i in bumped},
                        key=lambda o: -1 if o is None else o)
        events.append(event("bumped", action.seat, facility=ID,
                            ships=[state.ships[i].id for i in bumped], owners=owners))
    for i in bumped:
        send_to_bay(state, i)


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    state.turn.pending = {"kind": "raid", "seat": seat, "left": RAID_RESOURCES, "took": 0}


def steal_refusal(state: GameState, action: Steal) -> str | None:
    pending = state.turn.pending or {}
    if action.victim == action.seat or not 0 <= action.victim < state.players:
        return "Raiders' Outpost: choose an opponent to raid."
    victim = state.seats[action.victim]
    if action.resource not in ("fuel", "ore"):
        return "Raiders' Outpost: you may take fuel or ore."
    if DECOY in victim.cards:
        return ("Raiders' Outpost: a Holographic Decoy protects that player's resources; "
                "the only card you may take from them is the Decoy.")
    if getattr(victim, action.resource) == 0:
        return f"Raiders' Outpost: that player has no {action.resource} left."
    if pending.get("left", 0) <= 0:
        return "Raiders' Outpost: you have taken 4 resources already."
    return None


def steal(state: GameState, action: Steal, events: list[Event]) -> None:
    victim = state.seats[action.victim]
    me = state.seats[action.seat]
    if action.resource == "fuel":
        victim.fuel -= 1
        me.fuel += 1
    else:
        victim.ore -= 1
        me.ore += 1
    pending = state.turn.pending
    assert pending is not None
    pending["left"] -= 1
    pending["took"] += 1
    events.append(event("stole", action.seat, victim=action.victim, resource=action.resource))
    if pending["left"] == 0 and not pending.get("cards"):
        state.turn.pending = None


def steal_card_refusal(state: GameState, action: StealCard) -> str | None:
    pending = state.turn.pending or {}
    if action.victim == action.seat or not 0 <= action.victim < state.players:
        return "Raiders' Outpost: choose an opponent to raid."
    smuggling = "cards" in pending  # ruling F13: 4 resources and 1 card
    if pending.get("took") and not smuggling:
        return "Raiders' Outpost: you raid resources or one card, not both."
    if smuggling and not pending["cards"]:
        return "Smuggler's Alliance: you have taken your one Alien Tech card already."
    victim = state.seats[action.victim]
    if action.card not in victim.cards:
        return f"Raiders' Outpost: that player has no {CARD_NAMES.get(action.card, action.card)}."
    if DECOY in victim.cards and action.card != DECOY:
        return ("Raiders' Outpost: the only card you may take from a Holographic Decoy holder "
                "is the Decoy.")
    return None


def steal_card(state: GameState, action: StealCard, events: list[Event]) -> None:
    state.seats[action.victim].cards.remove(action.card)
    events.append(event("stole_card", action.seat, victim=action.victim, card=action.card))
    gain_card(state, action.seat, action.card, events, how="stolen")
    pending = state.turn.pending
    if pending is not None and "cards" in pending:  # ruling F13
        pending["cards"] = 0
        if pending["left"] > 0:
            return
    state.turn.pending = None


def end_raid(state: GameState, action: EndRaid, events: list[Event]) -> None:
    state.turn.pending = None
    events.append(event("raid_ended", action.seat))


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="run", group_size=3, groups=(1, 1, 1),
    refuse=refuse, dock=dock, slot=slot, before_dock=before_dock,
)
