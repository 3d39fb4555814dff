"""Booster Pod (base-game.md §6.3).

Use, 1 fuel: +1 to one unplaced ship (never above 6, ruling B22).
Discard: take exactly one field generator off the planet (ruling B3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import fields
from ..actions import Action, register_action
from ..errors import InvalidAction
from ..events import Event
from ..ids import FIELD_NAMES
from ..state import GameState
from .common import (
    change_refusal,
    set_value,
    ship_text,
    ship_word,
    unplaced_ship,
    unplaced_tokens,
    words_count,
)
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "booster_pod"
FIELD_WORDS: Final = {"isolation": "isolation_field", "positron": "positron_field",
               "repulsor": "repulsor_field"}


@dataclass(frozen=True, slots=True)
class UseBoosterPod(Action):
    """+1 to the unplaced ship showing `ship` (the Relic Ship if `relic`)."""

    ship: int
    relic: bool = False


register_action("use_booster_pod", UseBoosterPod)


@dataclass(frozen=True, slots=True)
class DiscardBoosterPod(Action):
    """Take the field generator `field` off the planet."""

    field: str


register_action("discard_booster_pod", DiscardBoosterPod)


def use_fuel(state: GameState, action: UseBoosterPod) -> int:
    return 1


def use_refusal(state: GameState, action: UseBoosterPod) -> str | None:
    return change_refusal(state, action.seat, action.ship, action.relic, action.ship + 1)


def use(state: GameState, action: UseBoosterPod, events: list[Event]) -> None:
    index = unplaced_ship(state, action.seat, action.ship, action.relic)
    assert index is not None
    set_value(state, index, action.ship + 1, action.seat, ID, events)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return [UseBoosterPod(seat, v, r) for v, r in unplaced_tokens(state, seat) if v < 6]


def discard_refusal(state: GameState, action: DiscardBoosterPod) -> str | None:
    return fields.remove_refusal(state, action.field)


def discard(state: GameState, action: DiscardBoosterPod, events: list[Event]) -> None:
    fields.remove(state, action.field, action.seat, events, why=ID)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardBoosterPod(seat, f) for f, where in state.fields.items() if where]


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "use booster_pod 3")
    return UseBoosterPod(seat, *ship_word(words[0]))


def format_use(action: UseBoosterPod) -> list[str]:
    return [ship_text(action.ship, action.relic)]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard booster_pod isolation_field")
    return DiscardBoosterPod(seat, field_id(words[0]))


def format_discard(action: DiscardBoosterPod) -> list[str]:
    return [action.field]


def field_id(word: str) -> str:
    key = word.lower().replace("-", "_")
    key = FIELD_WORDS.get(key, key)
    if key not in FIELD_NAMES:
        raise InvalidAction(f"Unknown field generator '{word}': isolation, positron or "
                            "repulsor.")
    return key


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Booster Pod",
    copies=2,
    expansion="base",
    aliases=("booster",),
    effect="1 fuel: +1 to one unplaced ship. Discard: take one field generator off the planet.",
    use=UsePower(action=UseBoosterPod, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 candidates_pass_refusal=True),  # an unplaced ship of the seat's below 6
    discard=DiscardPower(action=DiscardBoosterPod, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
