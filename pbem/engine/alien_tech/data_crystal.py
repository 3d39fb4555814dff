"""Data Crystal (base-game.md §6.3).

Use, 1 fuel per colony on the territory (every player's counted): use that territory's bonus
this turn as if you controlled it. Not on a territory with no colonies, one holding the
Isolation Field, or Burroughs Desert. A bonus you both control and borrow applies once
(ruling B23): `territories.has_bonus` answers yes or no, never twice.
Discard: place the Positron Field on any territory, or move it to a different one (§5).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import fields
from ..actions import Action, register_action
from ..events import Event, event
from ..ids import TERRITORY_NAMES, Field, Territory
from ..notation import territory_id
from ..state import GameState, territories
from .common import words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "data_crystal"
# plain strs: `state.fields` finds them several times faster than the StrEnum members
FIELD: Final[str] = str(Field.POSITRON)
_ISOLATION: Final = str(Field.ISOLATION)
_BURROUGHS_DESERT: Final = str(Territory.BURROUGHS_DESERT)


@dataclass(frozen=True, slots=True)
class UseDataCrystal(Action):
    """Borrow the bonus of `territory` for the rest of this turn."""

    territory: str


register_action("use_data_crystal", UseDataCrystal)


@dataclass(frozen=True, slots=True)
class DiscardDataCrystal(Action):
    """Place or move the Positron Field to `territory`."""

    territory: str


register_action("discard_data_crystal", DiscardDataCrystal)


def use_fuel(state: GameState, action: UseDataCrystal) -> int:
    return sum(state.colonies.get(action.territory, []))


def use_refusal(state: GameState, action: UseDataCrystal) -> str | None:
    t = action.territory
    if t not in TERRITORY_NAMES:
        return f"there is no territory called '{t}'."
    name = TERRITORY_NAMES[t]
    if t == _BURROUGHS_DESERT:
        return "the bonus of Burroughs Desert (the Relic Ship) cannot be borrowed."
    if state.fields.get(_ISOLATION) == t:
        return f"the Isolation Field on {name} cancels its bonus; there is nothing to borrow."
    if sum(state.colonies[t]) == 0:
        return f"{name} has no colonies; only a territory with colonies can be borrowed."
    return None


def use(state: GameState, action: UseDataCrystal, events: list[Event]) -> None:
    state.turn.borrowed.append(action.territory)
    events.append(event("borrowed_bonus", action.seat, territory=action.territory, card=ID))


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return list(_uses_of(seat))


@lru_cache(maxsize=16)
def _uses_of(seat: int) -> tuple[UseDataCrystal, ...]:
    """The uses at each territory: a pure table (the menu asks for it at every turn's
    end)."""
    return tuple(UseDataCrystal(seat, t) for t in territories())


def discard_refusal(state: GameState, action: DiscardDataCrystal) -> str | None:
    return fields.place_refusal(state, FIELD, action.territory)


def discard(state: GameState, action: DiscardDataCrystal, events: list[Event]) -> None:
    fields.place(state, FIELD, action.territory, action.seat, events, why=ID)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return list(_discards_of(seat))


@lru_cache(maxsize=16)
def _discards_of(seat: int) -> tuple[DiscardDataCrystal, ...]:
    """The discards at each territory: a pure table (the menu asks for it at every turn's
    end)."""
    return tuple(DiscardDataCrystal(seat, t) for t in territories())


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "use data_crystal heinlein_plains")
    return UseDataCrystal(seat, territory_id(words[0]))


def format_use(action: UseDataCrystal) -> list[str]:
    return [action.territory]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "discard data_crystal herbert_valley")
    return DiscardDataCrystal(seat, territory_id(words[0]))


def format_discard(action: DiscardDataCrystal) -> list[str]:
    return [action.territory]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Data Crystal",
    copies=2,
    expansion="base",
    aliases=("crystal",),
    effect=("1 fuel per colony there: use a territory's bonus this turn. Discard: place or move "
            "the Positron Field."),
    use=UsePower(action=UseDataCrystal, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use),
    discard=DiscardPower(action=DiscardDataCrystal, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
