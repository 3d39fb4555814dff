"""Scenario positions, the Factions part (docs/scenarios.md): each seat's board, the draft,
and the five-player Colonist Hub (ruling F16)."""

from __future__ import annotations

from typing import Any

from ..errors import InvalidAction
from ..factions import faction_id
from ..ids import COLOURS, HUB_PORTS_PER_TRACK
from ..lookup import commander
from ..state import GameState, Ship
from .common import ScenarioError


def _faction(word: Any, where: str) -> str:
    try:
        return faction_id(str(word))
    except InvalidAction as exc:
        raise ScenarioError(f"{where}: {exc.message}") from None


def faction_position(state: GameState, table: dict[str, Any],
                     by_seat: dict[int, dict[str, Any]]) -> None:
    """Each seat's `faction` and (5 players) `hub_track`; a `draft` list puts the game in the
    Faction draft, waiting for the highest seat without a board (ruling F3)."""
    for seat, entry in by_seat.items():
        where = f"seats.{COLOURS[seat]}"
        if "faction" in entry:
            state.seats[seat].faction = _faction(entry["faction"], f"{where}.faction")
        if "hub_track" in entry:
            track = int(entry["hub_track"])
            if state.players < 5 or not 0 <= track < 4:
                raise ScenarioError(f"{where}.hub_track: a track 0-3, with 5 players only")
            state.seats[seat].hub_track = track
    if state.players == 5:  # ruling F16: a colony written without a track takes a free one
        for seat, me in enumerate(state.seats):
            if me.hub_circle and "hub_track" not in by_seat.get(seat, {}):
                taken = {(o.hub_track, o.hub_circle) for o in state.seats if o is not me}
                me.hub_track = next(t for t in range(4) if (t, me.hub_circle) not in taken)
    chosen = [s.faction for s in state.seats if s.faction]
    if len(chosen) != len(set(chosen)):
        raise ScenarioError("faction: a Faction board can be chosen by one seat only")
    if "draft" in table:
        state.draft = [_faction(f, "draft") for f in table["draft"]]
        waiting = [i for i, s in enumerate(state.seats) if s.faction is None]
        if not waiting or set(state.draft) & set(chosen):
            raise ScenarioError("draft: the boards offered, to a seat without one")
        state.phase = "draft"
        state.turn.pending = {"kind": "draft", "seat": waiting[-1]}


def hub_ports_freeform(state: GameState, docked: list[Ship]) -> None:
    """Five players (ruling F16): Hub ships take any port, at most 3 of each player."""
    for n, ship in enumerate(docked):
        ship.slot = n // HUB_PORTS_PER_TRACK
    for seat in range(state.players):
        if sum(1 for s in docked if ship_owner(state, s) == seat) > HUB_PORTS_PER_TRACK:
            raise ScenarioError(f"{COLOURS[seat]}: at most 3 ships at the Colonist Hub")


def ship_owner(state: GameState, ship: Ship) -> int:
    owner = commander(state, ship)
    assert owner is not None
    return owner
