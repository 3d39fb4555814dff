"""Electrofabricator (Factions, ruling T3).

Use, once per turn, 2 fuel: gain 1 ore.
Discard: gain 3 ore.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..actions import Action, register_action
from ..events import Event
from ..payments import gain
from ..state import GameState
from .common import words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "electrofabricator"


@dataclass(frozen=True, slots=True)
class UseElectrofabricator(Action):
    """Pay 2 fuel for 1 ore."""


register_action("use_electrofabricator", UseElectrofabricator)


@dataclass(frozen=True, slots=True)
class DiscardElectrofabricator(Action):
    """Gain 3 ore."""


register_action("discard_electrofabricator", DiscardElectrofabricator)


def use_fuel(state: GameState, action: UseElectrofabricator) -> int:
    return 2


def use_refusal(state: GameState, action: UseElectrofabricator) -> str | None:
    return None


def use(state: GameState, action: UseElectrofabricator, events: list[Event]) -> None:
    gain(state, action.seat, 0, 1, events, why=ID)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return [UseElectrofabricator(seat)]


def discard_refusal(state: GameState, action: DiscardElectrofabricator) -> str | None:
    return None


def discard(state: GameState, action: DiscardElectrofabricator, events: list[Event]) -> None:
    gain(state, action.seat, 0, 3, events, why=ID)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardElectrofabricator(seat)]


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 0, ID, "use electrofabricator")
    return UseElectrofabricator(seat)


def format_use(action: UseElectrofabricator) -> list[str]:
    return []


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 0, ID, "discard electrofabricator")
    return DiscardElectrofabricator(seat)


def format_discard(action: DiscardElectrofabricator) -> list[str]:
    return []


def bot_use_score(state: GameState, seat: int, action: UseElectrofabricator,
                  dock_worth: Mapping[str, float]) -> float:
    """The greedy bot makes ore while it has little."""
    return 6.0 if state.seats[seat].ore < 4 else -5.0


def bot_discard_score(state: GameState, seat: int, action: DiscardElectrofabricator,
                      dock_worth: Mapping[str, float]) -> float:
    return 1.0 if state.seats[seat].ore < 2 else -5.0


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Electrofabricator",
    copies=1,
    expansion="factions",
    aliases=("fabricator", "electrofabricator"),
    effect="Once per turn, 2 fuel: gain 1 ore. Discard: gain 3 ore.",
    use=UsePower(action=UseElectrofabricator, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 bot_score=bot_use_score),
    discard=DiscardPower(action=DiscardElectrofabricator, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard, bot_score=bot_discard_score),
)
