"""Shared helpers for the Faction tests: build a position, act, and refuse with no change."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine import GameState, RulesError, apply, check, parse_action
from pbem.engine.rules import awaited
from pbem.engine.scenarios import build_state

BOARDS = ["corex", "dark_space", "scavenger", "uranian", "new_gaia"]


def position(players: int = 4, turn: str = "red", boards: list[str] | None = None,
             **table: Any) -> GameState:
    """A Factions position; seat i gets boards[i] unless the table's seat names its own."""
    seats: dict[str, dict[str, Any]] = table.pop("seats", {})
    colours = ["red", "green", "blue", "yellow", "purple"][:players]
    for colour, board in zip(colours, boards or BOARDS, strict=False):
        seats.setdefault(colour, {}).setdefault("faction", board)
    return build_state({"players": players, "turn": turn, "seats": seats, **table})


def act(state: GameState, *texts: str) -> GameState:
    for text in texts:
        seat = awaited(state)
        assert seat is not None
        state, _ = apply(state, parse_action(text, seat, state.players))
    return state


def refused(state: GameState, text: str, *fragments: str) -> None:
    """`text` is refused with a message holding every fragment, and nothing changes."""
    before = state.to_json()
    seat = awaited(state)
    assert seat is not None
    with pytest.raises(RulesError) as exc:
        check(state, parse_action(text, seat, state.players))
    for fragment in fragments:
        assert fragment in exc.value.message, exc.value.message
    assert state.to_json() == before
