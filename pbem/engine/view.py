"""What one seat may see. Every secret leaves the engine only through here (ruling C4).

Hidden: the draw pile's order (only its size shows), the seed, generator counter and scripted
dice, the Agenda deck, every seat's face-down Agendas (only their owner sees theirs, under
"you"), and the Faction boards not yet chosen (only the chooser sees them). Alien Tech cards in
hand are face-up, so public.
"""

from __future__ import annotations

from .actions import action_to_json
from .ids import COLOUR_LETTERS, COLOURS
from .menu.picks import picks
from .rules import awaited, legal_actions
from .scoring import vp_breakdown
from .state import GameState
from .view_types import GameView, SeatView, ShipView


def view(state: GameState, seat: int | None) -> GameView:
    """A JSON-ready picture of the game for `seat` (None: a spectator)."""
    seats: list[SeatView] = []
    for i, s in enumerate(state.seats):
        seats.append({
            "seat": i,
            "colour": COLOURS[i],
            "letter": COLOUR_LETTERS[i],
            "fuel": s.fuel,
            "ore": s.ore,
            "colonies": s.colonies,
            "hub_circle": s.hub_circle,
            "hub_track": s.hub_track,
            "cards": list(s.cards),
            "faction": s.faction,
            "revealed": list(s.revealed),
            "agendas_hidden": len(s.agendas),  # face-down Agendas: only their owner sees them
            "vp": vp_breakdown(state, i),
            "ships_in_stock": sum(1 for sh in state.ships if sh.owner == i and sh.loc == "stock"),
        })
    ships: list[ShipView] = [
        {"id": sh.id, "owner": state.relic_owner if sh.is_relic else sh.owner,
         "relic": sh.is_relic, "loc": sh.loc, "slot": sh.slot,
         "value": sh.value if sh.value else None}
        for sh in state.ships
    ]
    turn = state.turn
    data: GameView = {
        "players": state.players,
        "options": dict(state.options),
        "phase": state.phase,
        "step": state.step,
        "round": turn.round,
        "active": turn.seat,
        "awaiting": awaited(state),
        "pending": dict(turn.pending) if turn.pending else None,
        "seats": seats,
        "ships": ships,
        "colonies": {t: list(c) for t, c in state.colonies.items()},
        "controllers": dict(state.controllers),
        "fields": dict(state.fields),
        "display": list(state.display),
        "discard": list(state.discard),
        "deck_size": len(state.deck),
        "relic_owner": state.relic_owner,
        "turn": {
            "rolled": list(turn.rolled),
            "artifact_total": turn.artifact_total,
            "may_cycle": bool(turn.may_cycle),
            "market_rates": list(turn.market_rates),
            "hub_ships": turn.hub_ships,
            "cards_used": list(turn.cards_used),
            "discards": turn.discards,
            "borrowed": list(turn.borrowed),
        },
        "result": state.result,
        "viewer": seat,
        "agenda_deck_size": len(state.agenda_deck),
        "card_tokens": dict(state.card_tokens),
        "draft_size": len(state.draft),
    }
    if seat is not None and 0 <= seat < state.players:
        data["you"] = {"seat": seat, "agendas": list(state.seats[seat].agendas)}
        pending = turn.pending
        if pending is not None and pending.get("seat") == seat and pending["kind"] == "draft":
            data["you"]["draft"] = list(state.draft)  # ruling C4: the chooser sees the boards
        menu = legal_actions(state, seat)
        data["legal"] = [action_to_json(a) for a in menu]
        # Parametrised entries covering the subset choices of `legal` (docs/notation.md)
        data["picks"] = [p.to_json() for p in picks(state, seat, menu)]
    return data
