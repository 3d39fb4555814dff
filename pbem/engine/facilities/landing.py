"""Where a colony placed by a facility comes from (base-game.md §3.7 'Last colony')."""

from __future__ import annotations

from ..state import GameState


def colony_source(state: GameState, seat: int) -> str | None:
    """'supply', or 'hub' when the player's last colony sits on the Colonist Hub, or None."""
    me = state.seats[seat]
    if me.colonies > 0:
        return "supply"
    if me.hub_circle > 0:
        return "hub"
    return None


def start_landing(state: GameState, seat: int, why: str) -> None:
    """The next decision of `seat` is the territory for this colony."""
    source = colony_source(state, seat)
    state.turn.pending = {"kind": "land", "seat": seat, "source": source, "why": why}
