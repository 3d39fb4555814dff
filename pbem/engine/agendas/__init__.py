"""Agendas (Factions): the hidden goals — deck, hand, reveals and scoring (rulings A1–A5).

Each Agenda is declared once, by its `AgendaSpec` (`spec.py`) in `catalog.SPECS`: its
wording, its two conditions, and what the latching accelerator (`latch.py`) may skip.

Secrets: `Seat.agendas` (face-down), `GameState.agenda_deck` and `agenda_discard` leave the
engine only through `view` (ruling A5); events never name a face-down Agenda.

    setup(state)                    shuffle the 24 cards and deal 2 to each seat (F2)
    agenda_limit(state, seat)       3, or 4 with the Multiverse Window (A1, T6)
    ask_discard(state, seat)        make `seat` discard face-down Agendas down to the limit
    revealable(state, seat, id)     whether the in-game half may be revealed now (A3)
    reveal(state, seat, id, ...)    flip one face-down Agenda (also for the Window's discard)
    finish(state, events)           the automatic reveals at the end of the game (A4)
"""

from __future__ import annotations

from typing import Final

from .. import dice
from ..events import Event, event
from ..ids import Card
from ..state import GameState
from .catalog import AGENDA_IDS, AGENDAS, SPECS
from .facts import fold
from .spec import AgendaSpec

AGENDAS_DEALT: Final = 2  # ruling F2
AGENDA_LIMIT: Final = 3  # ruling A1
AGENDA_LIMIT_WINDOW: Final = 4  # ruling T6
DISCARD_KIND: Final = "discard_agendas"


def setup(state: GameState) -> None:
    """Shuffle the 24 Agendas (seeded) and deal 2 face-down to each seat (ruling F2)."""
    state.agenda_deck = list(AGENDA_IDS)
    dice.shuffle(state.rng, state.agenda_deck)
    state.agenda_discard = []
    for seat in state.seats:
        for _ in range(AGENDAS_DEALT):
            seat.agendas.append(state.agenda_deck.pop())


def agenda_limit(state: GameState, seat: int) -> int:
    """Ruling A1/T6: 3 Agendas, revealed ones included; 4 while holding the Window."""
    if Card.MULTIVERSE_WINDOW in state.seats[seat].cards:
        return AGENDA_LIMIT_WINDOW
    return AGENDA_LIMIT


def hand_size(state: GameState, seat: int) -> int:
    s = state.seats[seat]
    return len(s.agendas) + len(s.revealed)


def revealed_count(state: GameState, seat: int) -> int:
    """Revealed Agendas: their VP (A2) and the first tie-break (F12)."""
    return len(state.seats[seat].revealed)


def over_limit(state: GameState, seat: int) -> int:
    """Face-down Agendas `seat` must discard now (revealed ones are never discarded, A1)."""
    excess = hand_size(state, seat) - agenda_limit(state, seat)
    return max(0, min(excess, len(state.seats[seat].agendas)))


def ask_discard(state: GameState, seat: int, optional: bool = False) -> bool:
    """Ask `seat` to discard face-down Agendas down to the limit (the Multiverse Window lost,
    T6, or an Orbital Market draw, A1, where `optional` lets them discard more and keep).
    The caller makes sure no other decision is pending. Returns whether anything is asked."""
    count = over_limit(state, seat)
    if count == 0 and not optional:
        return False
    pending = {"kind": DISCARD_KIND, "seat": seat, "count": count}
    if optional:
        pending["optional"] = True
    state.turn.pending = pending
    return True


def draw_agenda(state: GameState, events: list[Event]) -> str | None:
    """The top Agenda; an exhausted deck is first rebuilt from the discards (ruling A1)."""
    if not state.agenda_deck and state.agenda_discard:
        state.agenda_deck = state.agenda_discard
        state.agenda_discard = []
        dice.shuffle(state.rng, state.agenda_deck)
        events.append(event("agendas_reshuffled", cards=len(state.agenda_deck)))
    return state.agenda_deck.pop() if state.agenda_deck else None


def revealable(state: GameState, seat: int, agenda: str) -> bool:
    """Ruling A3: during your turn, an in-game half met this turn (or on another player's
    turn since your last one), or met now. Every half but a `live` one that is met now was
    latched in `facts["met"]` by the fold after the last action (`latch.py`; `finish` folds
    before it asks): only a live half is asked again, as a menu asks this of every Agenda
    held (tests/engine/test_agenda_latch.py holds this to the plain rule)."""
    spec = AGENDAS.get(agenda)
    if seat != state.turn.seat or spec is None:
        return False
    facts = state.turn.facts
    if agenda in facts.get("met", _NONE):
        return True
    return spec.live and spec.in_game(state, seat, facts)


_NONE: Final[list[str]] = []  # read-only: no list made for a turn with nothing met yet


def reveal(state: GameState, seat: int, agenda: str, events: list[Event],
           half: str = "in_game", auto: bool = False) -> None:
    """Flip a face-down Agenda: it is public and worth 1 VP from now on (ruling A2)."""
    s = state.seats[seat]
    s.agendas.remove(agenda)
    s.revealed.append(agenda)
    events.append(event("revealed_agenda", seat, agenda=agenda, half=half, auto=auto))


def finish(state: GameState, events: list[Event]) -> None:
    """Ruling A4: at the end of the game every face-down Agenda whose end-game half holds,
    and every in-game half still revealable, is revealed and scored automatically."""
    if not state.options.get("factions"):
        return
    fold(state, events)
    for seat, s in enumerate(state.seats):
        marks = s.marks.get("met", [])
        for agenda in list(s.agendas):
            if AGENDAS[agenda].end_game(state, seat):
                reveal(state, seat, agenda, events, half="end_game", auto=True)
            elif revealable(state, seat, agenda) or agenda in marks:
                reveal(state, seat, agenda, events, half="in_game", auto=True)


__all__ = ["AGENDAS", "AGENDA_IDS", "SPECS", "AgendaSpec", "agenda_limit", "ask_discard",
           "draw_agenda", "finish", "hand_size", "over_limit", "reveal", "revealable",
           "revealed_count", "setup"]
