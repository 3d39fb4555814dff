"""Oscillation Capacitor (Factions, ruling T7).

Use, once per turn: use another card's fuel-cost power a second time this turn by paying its
cost again (Pohl Foothills applies again). There is no separate action: the second use of
that card is written as usual (`use booster_pod 3` twice) and takes the Capacitor's use;
a card whose power costs no fuel (the Solar Harvester) cannot be repeated.
Discard: discard one Alien Tech card of another player without its discard power (never an
Agenda). That discard is forced on its holder, so it does not count against them (B17); an
FTL Drive's tokens leave the game with it (C2), and losing a Multiverse Window may oblige its
holder to discard Agendas (T6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from ..actions import Action, register_action
from ..events import Event
from ..ids import COLOURS
from ..notation import card_id, seat_of
from ..state import GameState
from . import multiverse_window
from .common import card_name, forced_discard, words_count
from .spec import CardSpec, DiscardPower

ID: Final = "oscillation_capacitor"


@dataclass(frozen=True, slots=True)
class DiscardOscillationCapacitor(Action):
    """Discard `victim`'s card `card` without its discard power."""

    victim: int
    card: str


register_action("discard_oscillation_capacitor", DiscardOscillationCapacitor)


def grants_second_use(state: GameState, seat: int, card: str, printed_fuel: int) -> bool:
    """Whether a second use of `card` this turn may take the Capacitor's use (ruling T7)."""
    used = state.turn.cards_used
    return (card != ID and printed_fuel > 0 and used.count(card) == 1
            and ID in state.seats[seat].cards and ID not in used)


def may_repeat(state: GameState, seat: int, card: str) -> bool:
    """Whether a used card may be offered again this turn, cost aside (for the menu)."""
    return grants_second_use(state, seat, card, 1)


def discard_refusal(state: GameState, action: DiscardOscillationCapacitor) -> str | None:
    if action.victim == action.seat or not 0 <= action.victim < state.players:
        return "choose a card of another player."
    if action.card not in state.seats[action.victim].cards:
        return f"{COLOURS[action.victim]} has no {card_name(action.card)}."
    return None


def discard(state: GameState, action: DiscardOscillationCapacitor,
            events: list[Event]) -> None:
    state.card_tokens.pop(action.card, None)  # ruling C2: FTL tokens leave with the card
    forced_discard(state, action.victim, action.card, events, why=ID)  # ruling B17
    if action.card == multiverse_window.ID:
        multiverse_window.lost(state, action.victim, events)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardOscillationCapacitor(seat, victim, card)
            for victim in range(state.players) if victim != seat
            for card in state.seats[victim].cards]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 2, ID, "discard oscillation_capacitor blue plasma_cannon")
    return DiscardOscillationCapacitor(seat, seat_of(words[0], players), card_id(words[1]))


def format_discard(action: DiscardOscillationCapacitor) -> list[str]:
    who = COLOURS[action.victim] if 0 <= action.victim < len(COLOURS) else str(action.victim)
    return [who, action.card]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Oscillation Capacitor",
    copies=1,
    expansion="factions",
    aliases=("capacitor",),
    effect=("Once per turn: use another card's fuel power again, paying again. Discard: discard "
            "another player's Alien Tech card."),
    discard=DiscardPower(action=DiscardOscillationCapacitor, refusal=discard_refusal,
                         effect=discard, candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
