"""Positions and checks shared by the card tests: build a board as a rules reader writes it
(pbem.engine.scenarios.build_state), play actions in notation, and assert refusals."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine import apply, check, format_action, legal_actions, parse_action
from pbem.engine.errors import IllegalAction
from pbem.engine.events import Event
from pbem.engine.lookup import unplaced
from pbem.engine.scenarios import build_state
from pbem.engine.state import GameState


def position(**table: Any) -> GameState:
    """A 2-player game (unless `players` says otherwise), red to act."""
    table.setdefault("players", 2)
    table.setdefault("turn", "red")
    return build_state(table)


def play(state: GameState, *texts: str, seat: int | None = None) -> tuple[GameState,
                                                                           list[Event]]:
    events: list[Event] = []
    for text in texts:
        who = state.turn.seat if seat is None else seat
        state, more = apply(state, parse_action(text, who, state.players))
        events += more
    return state, events


def refused(state: GameState, text: str, *fragments: str, seat: int | None = None) -> str:
    """Assert `text` is refused with a message naming each fragment, and nothing changed."""
    who = state.turn.seat if seat is None else seat
    action = parse_action(text, who, state.players)
    before = state.to_json()
    with pytest.raises(IllegalAction) as info:
        check(state, action)
    with pytest.raises(IllegalAction):
        apply(state, action)
    message = info.value.message
    for fragment in fragments:
        assert fragment.lower() in message.lower(), message
    assert state.to_json() == before
    assert format_action(action) not in menu(state, who)
    return message


def menu(state: GameState, seat: int | None = None) -> set[str]:
    who = state.turn.seat if seat is None else seat
    return {format_action(a) for a in legal_actions(state, who)}


def values(state: GameState, seat: int) -> list[int]:
    return sorted(s.value for s in unplaced(state, seat))
