"""pbem.engine — the rules of Alien Frontiers as a pure library.

No I/O, no clock, no global random: a state is plain data, an action is plain data, and

    state = new_game(players=3, seed=1234)
    for action in legal_actions(state, seat):
        ...
    state, events = apply(state, action)      # never mutates its input
    picture = view(state, seat)               # what that seat may see (None: a spectator)

`preview(state, action)` tells what an action would do, without what is still hidden.
`check(state, action)` raises a RulesError whose message a player can read. `replay`
rebuilds a game from its creation record and the actions applied, exactly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .actions import (
    ACTION_TYPES,
    Action,
    BuyRelic,
    Claim,
    Cycle,
    Dock,
    EndRaid,
    EndTurn,
    Land,
    Launch,
    Steal,
    StealCard,
    Trade,
    action_from_json,
    action_to_json,
)
from .catalog import install
from .errors import GameOver, IllegalAction, InvalidAction, NotYourTurn, RulesError
from .events import Event, crosses_barrier
from .flow import new_game
from .notation import format_action, parse_action
from .preview import Preview, menu_previews, preview
from .rules import awaited, legal_actions, perform, refusal
from .state import GameState
from .view import view
from .view_types import GameView

# The one catalog step: the card, board and Agenda tables of the modules below the catalogs.
install()

__all__ = [
    "ACTION_TYPES", "Action", "BuyRelic", "Claim", "Cycle", "Dock", "EndRaid", "EndTurn",
    "Event", "GameOver", "GameState", "GameView", "IllegalAction", "InvalidAction", "Land",
    "Launch", "NotYourTurn", "Preview", "RulesError", "Steal", "StealCard", "Trade",
    "action_from_json", "action_to_json", "apply", "apply_in_place", "apply_offered",
    "awaited", "check", "crosses_barrier", "format_action", "legal_actions", "menu_previews",
    "new_game", "parse_action", "preview",
    "replay", "view",
]


def check(state: GameState, action: Action) -> None:
    """Raise the RulesError that refuses `action` now; return None if it is legal."""
    found = refusal(state, action)
    if found is not None:
        error, message = found
        raise error(message)


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """The state after `action` and what happened; `state` itself is left unchanged."""
    check(state, action)
    new = state.clone()
    events: list[Event] = []
    perform(new, action, events)
    new.step += 1
    return new, events


def apply_in_place(state: GameState, action: Action) -> list[Event]:
    """Fast path for bots and replay: check, then change `state` itself (no copy)."""
    check(state, action)
    events: list[Event] = []
    perform(state, action, events)
    state.step += 1
    return events


def apply_offered(state: GameState, action: Action) -> list[Event]:
    """`apply_in_place` for an action `legal_actions(state, seat)` offered in this very state,
    as a bot's choice is: the menu judged it already, so `check` is not asked again (the
    invariant tests hold the menu to `refusal` at every step of many games)."""
    events: list[Event] = []
    perform(state, action, events)
    state.step += 1
    return events


def replay(players: int, seed: int, options: dict[str, Any] | None,
           actions: Iterable[Action]) -> GameState:
    """Rebuild a game from its creation record and its actions (ruling C3)."""
    state = new_game(players, seed, options)
    for action in actions:
        apply_in_place(state, action)
    return state
