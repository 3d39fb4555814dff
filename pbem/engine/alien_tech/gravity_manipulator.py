"""Gravity Manipulator (base-game.md §6.3).

Use, 2 fuel: −1 to one unplaced ship and +1 to another; if either would leave 1–6 the whole
use is illegal (ruling B22).
Discard: place the Repulsor Field on any territory, or move it to a different one (§5).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import fields
from ..actions import Action, register_action
from ..events import Event
from ..ids import Field
from ..lookup import commander, unplaced_indices
from ..notation import territory_id
from ..state import UNPLACED, GameState, territories
from .common import no_ship, set_value, ship_text, ship_word, unplaced_tokens, words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "gravity_manipulator"
# a plain str: `state.fields` finds it several times faster than the StrEnum member
FIELD: Final[str] = str(Field.REPULSOR)


@dataclass(frozen=True, slots=True)
class UseGravityManipulator(Action):
    """−1 to the unplaced ship showing `down`, +1 to another showing `up`."""

    down: int
    up: int
    down_relic: bool = False
    up_relic: bool = False


register_action("use_gravity_manipulator", UseGravityManipulator)


@dataclass(frozen=True, slots=True)
class DiscardGravityManipulator(Action):
    """Place or move the Repulsor Field to `territory`."""

    territory: str


register_action("discard_gravity_manipulator", DiscardGravityManipulator)


def use_fuel(state: GameState, action: UseGravityManipulator) -> int:
    return 2


def _ships(state: GameState, action: UseGravityManipulator) -> tuple[int, int] | str:
    """Indices of the two different ships, or why they cannot be found."""
    found: list[int] = []
    relic_ship = state.ships[-1]
    mine = unplaced_indices(state, action.seat)  # a borrowed ship too (ruling B20)
    if relic_ship.loc == UNPLACED and commander(state, relic_ship) == action.seat:
        mine = [*mine, len(state.ships) - 1]
    for value, relic in ((action.down, action.down_relic), (action.up, action.up_relic)):
        index = next((i for i in mine if i not in found and state.ships[i].value == value
                      and state.ships[i].is_relic == relic), None)
        if index is None:
            if found:
                return f"you need two different unplaced ships; no other shows {value}."
            return no_ship(value, relic)
        found.append(index)
    return found[0], found[1]


def use_refusal(state: GameState, action: UseGravityManipulator) -> str | None:
    ships = _ships(state, action)
    if isinstance(ships, str):
        return ships
    if action.down - 1 < 1 or action.up + 1 > 6:
        return (f"{action.down} → {action.down - 1} and {action.up} → {action.up + 1} would "
                "leave 1 to 6; the whole use is illegal (ruling B22).")
    return None


def use(state: GameState, action: UseGravityManipulator, events: list[Event]) -> None:
    ships = _ships(state, action)
    assert not isinstance(ships, str)
    set_value(state, ships[0], action.down - 1, action.seat, ID, events)
    set_value(state, ships[1], action.up + 1, action.seat, ID, events)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    tokens = unplaced_tokens(state, seat)
    return [UseGravityManipulator(seat, d, u, dr, ur)
            for d, dr in tokens if d > 1 for u, ur in tokens if u < 6]


def discard_refusal(state: GameState, action: DiscardGravityManipulator) -> str | None:
    return fields.place_refusal(state, FIELD, action.territory)


def discard(state: GameState, action: DiscardGravityManipulator, events: list[Event]) -> None:
    fields.place(state, FIELD, action.territory, action.seat, events, why=ID)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return list(_discards_of(seat))


@lru_cache(maxsize=16)
def _discards_of(seat: int) -> tuple[DiscardGravityManipulator, ...]:
    """The discards at each territory: a pure table (the menu asks for it at every turn's
    end)."""
    return tuple(DiscardGravityManipulator(seat, t) for t in territories())


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 2, ID, "use gravity_manipulator 2 5")
    down, down_relic = ship_word(words[0])
    up, up_relic = ship_word(words[1])
    return UseGravityManipulator(seat, down, up, down_relic, up_relic)


def format_use(action: UseGravityManipulator) -> list[str]:
    return [ship_text(action.down, action.down_relic), ship_text(action.up, action.up_relic)]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard gravity_manipulator asimov_crater")
    return DiscardGravityManipulator(seat, territory_id(words[0]))


def format_discard(action: DiscardGravityManipulator) -> list[str]:
    return [action.territory]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Gravity Manipulator",
    copies=2,
    expansion="base",
    aliases=("gravity",),
    effect=("2 fuel: −1 to one unplaced ship and +1 to another. Discard: place or move the "
            "Repulsor Field."),
    use=UsePower(action=UseGravityManipulator, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use),
    discard=DiscardPower(action=DiscardGravityManipulator, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
