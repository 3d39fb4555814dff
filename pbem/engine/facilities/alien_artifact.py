"""Alien Artifact: any value, singly. Each ship arriving lets you cycle the display once,
right after it arrives (ruling B16); once the ships docked since your last claim total 8 or
more you may take one displayed card, and the count restarts (ruling B1)."""

from __future__ import annotations

from typing import Final

from ..actions import Claim, Cycle, Dock
from ..deck import gain_card, refill_display
from ..events import Event, event
from ..ids import ARTIFACT_CLAIM_TOTAL, CARD_NAMES, FACILITY_NAMES, Facility
from ..state import GameState
from .spec import FacilitySpec

ID: Final[str] = str(Facility.ALIEN_ARTIFACT)


def refuse(state: GameState, seat: int, action: Dock) -> str | None:
    return None


def dock(state: GameState, seat: int, ships: list[int], action: Dock,
         events: list[Event]) -> None:
    arrived(state, action.values[0])


def arrived(state: GameState, value: int) -> None:
    """A ship of this value arrived (docked, moved in or placed by a Cloak): count it and owe
    one cycle for it. Ships placed together by one action owe one cycle each (rulings B16,
    T2a); `rules.perform` drops what is owed once another kind of action follows."""
    state.turn.artifact_total += value
    state.turn.may_cycle += 1


def cycle_refusal(state: GameState, action: Cycle) -> str | None:
    if not state.turn.may_cycle:
        return ("Alien Artifact: you may cycle the display once right after each ship "
                "arrives there.")
    if not state.deck and not state.discard:
        return "Alien Artifact: there are no cards left to deal."
    return None


def cycle(state: GameState, action: Cycle, events: list[Event]) -> None:
    state.turn.may_cycle -= 1
    old = list(state.display)
    state.discard.extend(old)
    state.display = []
    dealt = refill_display(state, events)
    events.append(event("cycled", action.seat, discarded=old, dealt=dealt))


def claim_refusal(state: GameState, action: Claim) -> str | None:
    total = state.turn.artifact_total
    if total < ARTIFACT_CLAIM_TOTAL:
        return (f"Alien Artifact: your ships docked there since your last claim total "
                f"{total}; a claim needs 8 or more.")
    if action.card not in state.display:
        return f"Alien Artifact: {CARD_NAMES.get(action.card, action.card)} is not on display."
    if action.card in state.seats[action.seat].cards:
        return (f"Alien Artifact: you already own a {CARD_NAMES[action.card]}; one copy of "
                "each card per player.")
    return None


def claim(state: GameState, action: Claim, events: list[Event]) -> None:
    state.turn.artifact_total = 0
    state.display.remove(action.card)
    gain_card(state, action.seat, action.card, events, how="claimed")
    dealt = refill_display(state, events)
    events.append(event("claimed", action.seat, card=action.card, dealt=dealt))


SPEC: Final[FacilitySpec] = FacilitySpec(
    ID, FACILITY_NAMES[ID],
    shape="single", group_size=1, groups=(4, 4, 4),
    refuse=refuse, dock=dock, value_free=True,
)
