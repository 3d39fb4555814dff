"""Stasis Beam (base-game.md §6.3).

Use, 1 fuel: −1 to one unplaced ship (never below 1, ruling B22).
Discard: place the Isolation Field on any territory, or move it to a different one (§5).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import fields
from ..actions import Action, register_action
from ..events import Event
from ..ids import Field
from ..notation import territory_id
from ..state import GameState, territories
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

ID: Final = "stasis_beam"
# a plain str: `state.fields` finds it several times faster than the StrEnum member
FIELD: Final[str] = str(Field.ISOLATION)


@dataclass(frozen=True, slots=True)
class UseStasisBeam(Action):
    """−1 to the unplaced ship showing `ship` (the Relic Ship if `relic`)."""

    ship: int
    relic: bool = False


register_action("use_stasis_beam", UseStasisBeam)


@dataclass(frozen=True, slots=True)
class DiscardStasisBeam(Action):
    """Place or move the Isolation Field to `territory`."""

    territory: str


register_action("discard_stasis_beam", DiscardStasisBeam)


def use_fuel(state: GameState, action: UseStasisBeam) -> int:
    return 1


def use_refusal(state: GameState, action: UseStasisBeam) -> str | None:
    return change_refusal(state, action.seat, action.ship, action.relic, action.ship - 1)


def use(state: GameState, action: UseStasisBeam, events: list[Event]) -> None:
    index = unplaced_ship(state, action.seat, action.ship, action.relic)
    assert index is not None
    set_value(state, index, action.ship - 1, action.seat, ID, events)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return [UseStasisBeam(seat, v, r) for v, r in unplaced_tokens(state, seat) if v > 1]


def discard_refusal(state: GameState, action: DiscardStasisBeam) -> str | None:
    return fields.place_refusal(state, FIELD, action.territory)


def discard(state: GameState, action: DiscardStasisBeam, events: list[Event]) -> None:
    fields.place(state, FIELD, action.territory, action.seat, events, why=ID)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return list(_discards_of(seat))


@lru_cache(maxsize=16)
def _discards_of(seat: int) -> tuple[DiscardStasisBeam, ...]:
    """The discards at each territory: a pure table (the menu asks for it at every turn's
    end)."""
    return tuple(DiscardStasisBeam(seat, t) for t in territories())


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "use stasis_beam 2")
    return UseStasisBeam(seat, *ship_word(words[0]))


def format_use(action: UseStasisBeam) -> list[str]:
    return [ship_text(action.ship, action.relic)]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard stasis_beam lem_badlands")
    return DiscardStasisBeam(seat, territory_id(words[0]))


def format_discard(action: DiscardStasisBeam) -> list[str]:
    return [action.territory]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Stasis Beam",
    copies=2,
    expansion="base",
    aliases=("stasis",),
    effect="1 fuel: −1 to one unplaced ship. Discard: place or move the Isolation Field.",
    use=UsePower(action=UseStasisBeam, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 candidates_pass_refusal=True),  # an unplaced ship of the seat's above 1
    discard=DiscardPower(action=DiscardStasisBeam, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
