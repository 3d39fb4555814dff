"""Electrofabricator (Factions, ruling T3).

Use, once per turn, 2 fuel: gain 1 ore.
Discard: gain 3 ore.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..actions import Action, register_action
from ..events import Event
from ..ids import Card
from ..payments import gain
from ..state import GameState
from .common import words_count

ID = Card.ELECTROFABRICATOR


@register_action
@dataclass(frozen=True, slots=True)
class UseElectrofabricator(Action):
    """Pay 2 fuel for 1 ore."""

    kind: ClassVar[str] = "use_electrofabricator"


@register_action
@dataclass(frozen=True, slots=True)
class DiscardElectrofabricator(Action):
    """Gain 3 ore."""

    kind: ClassVar[str] = "discard_electrofabricator"


USE = UseElectrofabricator
DISCARD = DiscardElectrofabricator


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
