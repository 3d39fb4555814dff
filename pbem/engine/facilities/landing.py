"""Where a colony placed by a facility comes from (base-game.md §3.7 'Last colony')."""

from __future__ import annotations

from typing import Any

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
    """The next decision of `seat` is the territory for this colony. When a landing is
    already waiting (a Chameleon Cloak replacing two Colony Constructor groups, ruling T2a),
    this one follows it: `more` counts the landings still owed after it."""
    pending = state.turn.pending
    if pending is not None and pending["kind"] == "land" and pending["seat"] == seat:
        pending["more"] = int(pending.get("more", 0)) + 1
        return
    source = colony_source(state, seat)
    state.turn.pending = {"kind": "land", "seat": seat, "source": source, "why": why}


def next_landing(state: GameState, landed: dict[str, Any]) -> None:
    """After the landing `landed`, the next one owed by the same action waits (T2a)."""
    more = int(landed.get("more", 0))
    if more:
        seat = int(landed["seat"])
        start_landing(state, seat, str(landed["why"]))
        assert state.turn.pending is not None
        if more > 1:
            state.turn.pending["more"] = more - 1
