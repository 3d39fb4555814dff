"""Scenario positions, the Agenda part (docs/scenarios.md): face-down and revealed Agendas,
the Agenda deck and discard pile, seats' marks and the facts of the turn in progress, which a
built position has not lived through."""

from __future__ import annotations

from typing import Any

from .. import dice
from ..agendas.catalog import AGENDAS
from ..agendas.facts import on_turn_start
from ..agendas.latch import latch
from ..state import GameState, deep
from .common import ScenarioError


def agenda_id(word: Any, where: str) -> str:
    if str(word) not in AGENDAS:
        raise ScenarioError(f"{where}: no Agenda called '{word}'")
    return str(word)


def agenda_deck(state: GameState, written: list[Any]) -> None:
    """The Agenda deck: the written cards on top (top first), the unused rest below."""
    top = [agenda_id(a, "agenda_deck") for a in written]
    used = set(top) | {a for s in state.seats for a in s.agendas + s.revealed}
    rest = [a for a in AGENDAS if a not in used]
    dice.shuffle(state.rng, rest)
    state.agenda_deck = list(reversed(top + rest))


def agenda_position(state: GameState, table: dict[str, Any],
                    by_seat: dict[int, dict[str, Any]]) -> None:
    """`agenda_discard = [...]`; `[seats.red] marks = { met = [...] }`; `turn_facts.facts`
    adds to (or overrides) the facts a gather would have recorded."""
    discard = [agenda_id(a, "agenda_discard") for a in table.get("agenda_discard", [])]
    for agenda in discard:
        if agenda in state.agenda_deck:
            state.agenda_deck.remove(agenda)
    state.agenda_discard = discard
    for seat, entry in by_seat.items():
        if "marks" in entry:
            state.seats[seat].marks = deep(dict(entry["marks"]))
    written = state.turn.facts
    on_turn_start(state, [])  # the roll, the scores and the Solar Converter as written
    if written:
        state.turn.facts.update(deep(dict(written)))
        latch(state)  # what the written facts meet, as a fold after them would have found
