"""Scenario positions (docs/scenarios.md): the Agenda discard pile, seats' marks and the
facts of the turn in progress, which a built position has not lived through."""

from __future__ import annotations

from typing import Any

from ..state import GameState, deep
from .cards import AGENDAS
from .facts import on_turn_start


def agenda_position(state: GameState, table: dict[str, Any],
                    by_seat: dict[int, dict[str, Any]]) -> None:
    """`agenda_discard = [...]`; `[seats.red] marks = { met = [...] }`; `turn_facts.facts`
    adds to (or overrides) the facts a gather would have recorded."""
    from ..scenario_position import ScenarioError  # noqa: PLC0415 - it imports this module
    discard = [str(a) for a in table.get("agenda_discard", [])]
    for agenda in discard:
        if agenda not in AGENDAS:
            raise ScenarioError(f"agenda_discard: no Agenda called '{agenda}'")
        if agenda in state.agenda_deck:
            state.agenda_deck.remove(agenda)
    state.agenda_discard = discard
    for seat, entry in by_seat.items():
        if "marks" in entry:
            state.seats[seat].marks = deep(dict(entry["marks"]))
    written = state.turn.facts
    on_turn_start(state, [])  # the roll, the scores and the Solar Converter as written
    state.turn.facts.update(deep(dict(written)))
