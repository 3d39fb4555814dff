"""The Faction draft (ruling F3): n+1 boards drawn at random; the last seat chooses first,
then the seat before it, down to seat 0, who chooses from the last two. The unchosen board
leaves the game, and play starts with seat 0's gather and roll. Each choice is a decision of
the choosing seat (ruling C5): the pending `{"kind": "draft", "seat": s}`. The boards not yet
chosen (`GameState.draft`) are shown only to the chooser (`view`, ruling C4). The boards
are drawn in `flow.new_game`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..actions import Action, register_action
from ..events import Event, event
from ..flow import start_turn
from ..ids import FACTION_NAMES
from ..state import GameState
from .common import faction_name

PENDING: Final = "draft"


@dataclass(frozen=True, slots=True)
class ChooseFaction(Action):
    """Take one of the Faction boards offered in the draft."""

    faction: str


register_action("choose_faction", ChooseFaction)


def choose_refusal(state: GameState, action: ChooseFaction) -> str | None:
    if action.faction not in state.draft:
        if action.faction in FACTION_NAMES:
            return (f"{faction_name(action.faction)} is not among the Faction boards offered "
                    "to you.")
        return f"There is no Faction board called '{action.faction}'."
    return None


def choose(state: GameState, action: ChooseFaction, events: list[Event]) -> None:
    state.seats[action.seat].faction = action.faction
    state.draft.remove(action.faction)
    events.append(event("chose_faction", action.seat, faction=action.faction))
    if action.seat > 0:
        state.turn.pending = {"kind": PENDING, "seat": action.seat - 1}
        return
    events.append(event("draft_ended", left_out=list(state.draft)))
    state.draft = []  # ruling F3: the unchosen board leaves the game
    state.turn.pending = None
    state.phase = "play"
    start_turn(state, 0, events)


def candidates(state: GameState, seat: int) -> list[Action]:
    pending = state.turn.pending
    if pending is None or pending["kind"] != PENDING:
        return []
    return [ChooseFaction(seat, f) for f in state.draft]
