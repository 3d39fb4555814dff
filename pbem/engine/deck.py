"""The Alien Tech draw pile, display and discard pile (base-game.md §6.2.11)."""

from __future__ import annotations

from . import dice
from .events import Event, event
from .ids import DISPLAY_SIZE
from .state import GameState


def draw(state: GameState, events: list[Event]) -> str | None:
    """Top card of the draw pile; an empty pile is first rebuilt from the discards."""
    if not state.deck and state.discard:
        state.deck = state.discard
        state.discard = []
        dice.shuffle(state.rng, state.deck)
        events.append(event("reshuffled", cards=len(state.deck)))
    return state.deck.pop() if state.deck else None


def refill_display(state: GameState, events: list[Event]) -> list[str]:
    dealt: list[str] = []
    while len(state.display) < DISPLAY_SIZE:
        card = draw(state, events)
        if card is None:
            break
        state.display.append(card)
        dealt.append(card)
    return dealt


def gain_card(state: GameState, seat: int, card: str, events: list[Event], how: str) -> bool:
    """Give `card` to `seat`; a copy they already own is discarded at once (§6.2.1)."""
    cards = state.seats[seat].cards
    if card in cards:
        state.discard.append(card)
        events.append(event("duplicate_discarded", seat, card=card, how=how))
        return False
    cards.append(card)
    if seat == state.turn.seat:
        state.turn.gained.append(card)  # Resource Cache waits a turn; agendas count gains
    return True
