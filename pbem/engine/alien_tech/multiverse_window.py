"""Multiverse Window (Factions, ruling T6).

Passive: the Agenda limit is 4 while you hold it (`agendas.agenda_limit`, ruling A1). On
losing it (stolen, discarded by any means) a holder left with more than 3 Agendas, some
face-down, discards face-down Agendas down to 3: the game waits for that player (ruling C5;
the Agendas' `discard_agendas` decision, answered with `discard agenda N`), then the turn
resumes where it was, a raid in progress included.
Discard: reveal one of your face-down Agendas; it scores without meeting its condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import agendas
from ..actions import Action, register_action
from ..events import Event, event
from ..state import GameState
from .common import words_count
from .spec import CardSpec, DiscardPower

ID: Final = "multiverse_window"


@dataclass(frozen=True, slots=True)
class DiscardMultiverseWindow(Action):
    """Reveal the face-down Agenda `agenda`; it scores without its condition."""

    agenda: str


register_action("discard_multiverse_window", DiscardMultiverseWindow)


def lost(state: GameState, seat: int, events: list[Event]) -> None:
    """`seat` no longer holds the Window: ask for the discards down to the limit (C5)."""
    before = state.turn.pending
    if agendas.ask_discard(state, seat):
        pending = state.turn.pending
        assert pending is not None
        pending["why"] = ID
        if before is not None:
            pending["resume"] = before  # e.g. a Smuggler's raid that goes on afterwards
        events.append(event("must_discard_agendas", seat, count=pending["count"], why=ID))


def discard_refusal(state: GameState, action: DiscardMultiverseWindow) -> str | None:
    face_down = state.seats[action.seat].agendas
    if not face_down:
        return "you have no face-down Agenda to reveal."
    if action.agenda not in face_down:
        return f"you have no face-down Agenda '{action.agenda}' to reveal."
    return None


def discard(state: GameState, action: DiscardMultiverseWindow, events: list[Event]) -> None:
    agendas.reveal(state, action.seat, action.agenda, events)  # scores 1 VP (ruling A2)
    lost(state, action.seat, events)  # the Window is gone now (ruling T6, example 3)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardMultiverseWindow(seat, a) for a in dict.fromkeys(state.seats[seat].agendas)]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard multiverse_window six_ore")
    return DiscardMultiverseWindow(seat, words[0].lower())


def format_discard(action: DiscardMultiverseWindow) -> list[str]:
    return [action.agenda]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Multiverse Window",
    copies=1,
    expansion="factions",
    aliases=("window",),
    effect=("You may hold 4 Agendas. Discard: reveal one of your face-down Agendas; it scores "
            "without its condition."),
    discard=DiscardPower(action=DiscardMultiverseWindow, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
