"""A scenario that starts from the engine's own new-game setup (`setup = "new"`): the
dealt resources, cards and Agendas and the Faction draft, as a real game begins them
(rulings F1-F3), so a scenario checks what the players are dealt (docs/scenarios.md)."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction
from ..flow import new_game
from ..state import GameState
from .common import ScenarioError, check_keys, die

NEW_GAME_KEYS = {"setup", "players", "seed", "options", "next_dice", "title", "description",
                 "steps"}


def new_game_position(table: dict[str, Any]) -> GameState:
    """`new_game(players, seed, options)` as the server calls it; `next_dice` scripts the
    rolls after the setup (a base game's first fleet roll is already made)."""
    check_keys(table, NEW_GAME_KEYS, 'position (setup = "new")')
    try:
        state = new_game(int(table.get("players", 2)), int(table.get("seed", 0)),
                         dict(table.get("options", {})))
    except InvalidAction as exc:
        raise ScenarioError(f"setup: {exc.message}") from None
    state.scripted = [die(v, "next_dice") for v in table.get("next_dice", [])]
    return state
