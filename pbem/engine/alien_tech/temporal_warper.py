"""Temporal Warper (base-game.md §6.3).

Use, 1 fuel: re-roll any number of your unplaced ships (new random information: the
`rerolled` event is an undo barrier).
Discard: take any one card of your choice from the Alien Tech discard pile (public, ruling
C4), one you do not own (§6.2.1). The Warper reaches the pile only after the taking, so it
cannot take itself back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import dice
from ..actions import Action, register_action
from ..deck import gain_card
from ..errors import InvalidAction
from ..events import Event, event
from ..ids import CARD_NAMES
from ..lookup import commander, unplaced_indices
from ..notation import card_id
from ..state import UNPLACED, GameState
from .common import (
    card_name,
    ship_text,
    ship_word,
    sub_multisets,
    unplaced_tokens,
    words_count,
)
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "temporal_warper"


@dataclass(frozen=True, slots=True)
class UseTemporalWarper(Action):
    """Re-roll unplaced ships showing `ships`; `relic` is the Relic Ship's value among them."""

    ships: tuple[int, ...]
    relic: int | None = None


register_action("use_temporal_warper", UseTemporalWarper)


@dataclass(frozen=True, slots=True)
class DiscardTemporalWarper(Action):
    """Take `card` from the discard pile."""

    card: str


register_action("discard_temporal_warper", DiscardTemporalWarper)


def use_fuel(state: GameState, action: UseTemporalWarper) -> int:
    return 1


def _ships(state: GameState, action: UseTemporalWarper) -> list[int] | str:
    wanted = list(action.ships)
    chosen: list[int] = []
    if action.relic is not None:
        r = state.ships[-1]
        if commander(state, r) != action.seat or r.loc != UNPLACED or r.value != action.relic:
            return f"you have no unplaced Relic Ship showing {action.relic}."
        if action.relic not in wanted:
            return "the Relic Ship's value must be one of the ships re-rolled."
        wanted.remove(action.relic)
        chosen.append(len(state.ships) - 1)
    mine = unplaced_indices(state, action.seat)  # a borrowed ship too (ruling B20)
    for value in wanted:
        index = next((i for i in mine if i not in chosen and state.ships[i].value == value),
                     None)
        if index is None:
            return f"you have no unplaced ship showing {value} left to re-roll."
        chosen.append(index)
    return chosen


def use_refusal(state: GameState, action: UseTemporalWarper) -> str | None:
    if not action.ships:
        return "choose at least one unplaced ship to re-roll."
    found = _ships(state, action)
    return found if isinstance(found, str) else None


def use(state: GameState, action: UseTemporalWarper, events: list[Event]) -> None:
    found = _ships(state, action)
    assert not isinstance(found, str)
    before = [state.ships[i].value for i in found]
    for i in found:
        state.ships[i].value = dice.roll(state)
    events.append(event("rerolled", action.seat, card=ID, was=before,
                        now=[state.ships[i].value for i in found],
                        ships=[state.ships[i].id for i in found]))


def use_candidates(state: GameState, seat: int) -> list[Action]:
    """Every choice of your unplaced ships to re-roll (any subset)."""
    hand = [(state.ships[i].value, False) for i in unplaced_indices(state, seat)]
    hand += [t for t in unplaced_tokens(state, seat) if t[1]]
    out: list[Action] = []
    for chosen in sub_multisets(hand, len(hand)):
        out.append(UseTemporalWarper(seat, tuple(sorted(v for v, _ in chosen)),
                                     next((v for v, r in chosen if r), None)))
    return out


def discard_refusal(state: GameState, action: DiscardTemporalWarper) -> str | None:
    name = card_name(action.card)
    if action.card not in state.discard:
        return f"there is no {name} in the discard pile."
    if action.card in state.seats[action.seat].cards and action.card != ID:
        return f"you already own a {name}; one copy of each card per player."
    return None


def discard(state: GameState, action: DiscardTemporalWarper, events: list[Event]) -> None:
    state.discard.remove(action.card)
    gain_card(state, action.seat, action.card, events, how=ID)
    events.append(event("took_from_discard", action.seat, card=action.card))


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardTemporalWarper(seat, c) for c in dict.fromkeys(state.discard)
            if c in CARD_NAMES]


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    if not words:
        words_count(words, 1, ID, "use temporal_warper 1 2")
    ships = [ship_word(w) for w in words]
    relics = [v for v, r in ships if r]
    if len(relics) > 1:
        raise InvalidAction("There is only one Relic Ship.")
    return UseTemporalWarper(seat, tuple(sorted(v for v, _ in ships)),
                             relics[0] if relics else None)


def format_use(action: UseTemporalWarper) -> list[str]:
    words = [str(v) for v in action.ships]
    if action.relic is not None and str(action.relic) in words:
        words[words.index(str(action.relic))] = ship_text(action.relic, True)
    return words


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard temporal_warper alien_city")
    return DiscardTemporalWarper(seat, card_id(words[0]))


def format_discard(action: DiscardTemporalWarper) -> list[str]:
    return [action.card]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Temporal Warper",
    copies=2,
    expansion="base",
    aliases=("warper",),
    effect=("1 fuel: re-roll any of your unplaced ships. Discard: take a card from the discard "
            "pile."),
    use=UsePower(action=UseTemporalWarper, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use),
    discard=DiscardPower(action=DiscardTemporalWarper, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
