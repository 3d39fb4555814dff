"""Victory points (a live snapshot, base-game.md §7.1), the winner and the tie-break (F12)."""

from __future__ import annotations

from typing import Any, Final

from .ids import VP_CARDS, Field
from .state import GameState

# a plain str: looking up the Enum member is slow, and a str dict finds a plain str faster
_POSITRON: Final = str(Field.POSITRON)


def vp_breakdown(state: GameState, seat: int) -> dict[str, int]:
    colonies = sum(counts[seat] for counts in state.colonies.values())
    controlled = sum(1 for c in state.controllers.values() if c == seat)
    cards = sum(1 for c in state.seats[seat].cards if c in VP_CARDS)
    positron_at = state.fields.get(_POSITRON)
    positron = 1 if positron_at is not None and state.controllers.get(positron_at) == seat else 0
    parts = {"colonies": colonies, "territories": controlled, "cards": cards,
             "positron": positron, "agendas": len(state.seats[seat].revealed)}  # ruling A2
    parts["total"] = sum(parts.values())
    return parts


def vp(state: GameState, seat: int) -> int:
    """The total of `vp_breakdown`, without building it (bots and Agenda facts ask often)."""
    total = len(state.seats[seat].revealed)
    for counts in state.colonies.values():
        total += counts[seat]
    controllers = state.controllers
    for controller in controllers.values():
        if controller == seat:
            total += 1
    for card in state.seats[seat].cards:
        if card in VP_CARDS:
            total += 1
    positron_at = state.fields.get(_POSITRON)
    if positron_at is not None and controllers.get(positron_at) == seat:
        total += 1
    return total


def vps(state: GameState) -> list[int]:
    """Every seat's `vp`, in seat order (one pass over the board for all of them)."""
    # each seat's colonies, added up territory by territory, the empty places passed over
    # (most are: a plain loop, as quick as summing the columns in C interpreted, and far
    # quicker compiled, where that would be a generic call with unpacked arguments)
    totals = [0] * state.players
    for counts in state.colonies.values():
        for i, n in enumerate(counts):
            if n:
                totals[i] += n
    for i, s in enumerate(state.seats):
        totals[i] += len(s.revealed)
        for card in s.cards:
            if card in VP_CARDS:
                totals[i] += 1
    controllers = state.controllers
    for controller in controllers.values():
        if controller is not None:
            totals[controller] += 1
    positron_at = state.fields.get(_POSITRON)
    if positron_at is not None:
        controller = controllers.get(positron_at)
        if controller is not None:
            totals[controller] += 1
    return totals


TIEBREAKS: Final = ("cards", "ore", "fuel")  # base-game.md §7.3
TIEBREAKS_FACTIONS: Final = ("agendas", "cards", "ore", "fuel")  # F12: revealed Agendas first


def result(state: GameState) -> dict[str, Any]:
    """Final scores, the winner(s) and which tie-break decided, if any (B19: as held now)."""
    factions = bool(state.options.get("factions"))
    keys = []
    for seat in range(state.players):
        s = state.seats[seat]
        agendas = (len(s.revealed),) if factions else ()
        keys.append((vp(state, seat), *agendas, len(s.cards), s.ore, s.fuel))
    best_vp = max(k[0] for k in keys)
    tied = [i for i, k in enumerate(keys) if k[0] == best_vp]
    used: str | None = None
    for depth, name in enumerate(TIEBREAKS_FACTIONS if factions else TIEBREAKS, start=1):
        if len(tied) == 1:
            break
        used = name
        top = max(keys[i][depth] for i in tied)
        tied = [i for i in tied if keys[i][depth] == top]
    return {
        "winners": tied,
        "tiebreak": used if used else None,
        "shared": len(tied) > 1,
        "scores": [vp_breakdown(state, seat) for seat in range(state.players)],
        "agendas": [list(s.revealed) for s in state.seats],  # ruling A4
    }
