"""The greedy bot's view of Faction actions: a quick worth for each (see `greedy._score`), from
the boards' specs."""

from __future__ import annotations

from typing import Final

from ..actions import Action, Dock
from ..factions.catalog import BOARD_ACTIONS, FACTIONS
from ..factions.draft import ChooseFaction
from ..factions.spec import DockWorth
from ..state import GameState

PREFERENCE: Final[dict[str, float]] = {spec.id: spec.bot_preference for spec in FACTIONS.values()}
_WORTH: Final[dict[str, DockWorth]] = {spec.id: spec.facility.bot_worth
                                       for spec in FACTIONS.values()}


def faction_score(state: GameState, seat: int, action: Action) -> float | None:
    """A worth for Faction actions, or None for any other action."""
    if isinstance(action, Dock):  # asked first: the docking is the common case
        worth = _WORTH.get(action.facility)
        if worth is None:
            return None
        # the owner docks free; a board has one owner (the draft), so no other seat is read
        fee = 0.0 if state.seats[seat].faction == action.facility else 1.0
        return worth(state, seat, action) - fee - 0.1 * action.values[0]
    if isinstance(action, ChooseFaction):
        return PREFERENCE.get(action.faction, 5.0)
    board = BOARD_ACTIONS.get(type(action))
    return None if board is None else board.bot_score(state, seat, action)
