"""Polarity Device (base-game.md §6.3).

Use, 1 fuel: flip one unplaced ship to its opposite face (value → 7 − value).
Discard: swap two colonies of different players on two different territories; the Repulsor
Field blocks a swap that involves its territory (§5). Control is updated on both.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from .. import fields
from ..actions import Action, register_action
from ..events import Event, event
from ..ids import COLOURS, TERRITORY_NAMES, Field
from ..notation import seat_of, territory_id
from ..state import GameState
from ..territories import update_control
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

ID: Final = "polarity_device"


@dataclass(frozen=True, slots=True)
class UsePolarityDevice(Action):
    """Flip the unplaced ship showing `ship` (the Relic Ship if `relic`) to 7 − `ship`."""

    ship: int
    relic: bool = False


register_action("use_polarity_device", UsePolarityDevice)


@dataclass(frozen=True, slots=True)
class DiscardPolarityDevice(Action):
    """Swap a colony of `owner` on `territory` with a colony of `other` on `other_territory`."""

    owner: int
    territory: str
    other: int
    other_territory: str


register_action("discard_polarity_device", DiscardPolarityDevice)


def use_fuel(state: GameState, action: UsePolarityDevice) -> int:
    return 1


def use_refusal(state: GameState, action: UsePolarityDevice) -> str | None:
    return change_refusal(state, action.seat, action.ship, action.relic, 7 - action.ship)


def use(state: GameState, action: UsePolarityDevice, events: list[Event]) -> None:
    index = unplaced_ship(state, action.seat, action.ship, action.relic)
    assert index is not None
    set_value(state, index, 7 - action.ship, action.seat, ID, events)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return [UsePolarityDevice(seat, v, r) for v, r in unplaced_tokens(state, seat)]


def discard_refusal(state: GameState, action: DiscardPolarityDevice) -> str | None:
    a, b = action.territory, action.other_territory
    for territory in (a, b):
        if territory not in TERRITORY_NAMES:
            return f"there is no territory called '{territory}'."
    for seat in (action.owner, action.other):
        if not 0 <= seat < state.players:
            return "there is no such player in this game."
    if a == b:
        return "the two colonies must be on two different territories."
    if action.owner == action.other:
        return "swapping two colonies of the same player changes nothing; choose two players."
    if state.colonies[a][action.owner] == 0:
        return f"{COLOURS[action.owner]} has no colony on {TERRITORY_NAMES[a]}."
    if state.colonies[b][action.other] == 0:
        return f"{COLOURS[action.other]} has no colony on {TERRITORY_NAMES[b]}."
    return fields.colony_move_refusal(state, a, b)


def discard(state: GameState, action: DiscardPolarityDevice, events: list[Event]) -> None:
    a, b = action.territory, action.other_territory
    events.append(event("colonies_swapped", action.seat, card=ID, owner=action.owner,
                        territory=a, other=action.other, other_territory=b))
    state.colonies[a][action.owner] -= 1
    state.colonies[a][action.other] += 1
    state.colonies[b][action.other] -= 1
    state.colonies[b][action.owner] += 1
    update_control(state, a, events)
    update_control(state, b, events)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    """Each two colonies of two players on two territories, neither the Repulsor Field's
    (`fields.repulsed`), so `discard_refusal` accepts every swap listed."""
    repulsor = state.fields.get(Field.REPULSOR)
    placed = tuple((owner, t) for t, counts in state.colonies.items() if t != repulsor
                   for owner, n in enumerate(counts) if n)
    return list(_swaps(seat, placed))


@lru_cache(maxsize=1024)
def _swaps(seat: int, placed: tuple[tuple[int, str], ...]) -> tuple[DiscardPolarityDevice, ...]:
    """The swaps of each two of the `placed` colonies (owner, territory), in order, of two
    players on two territories: a pure table, since the colonies stay put over most turns."""
    out: list[DiscardPolarityDevice] = []
    for i, (owner, a) in enumerate(placed):
        for other, b in placed[i + 1:]:
            if owner != other and a != b:
                out.append(DiscardPolarityDevice(seat, owner, a, other, b))
    return tuple(out)


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 1, ID, "use polarity_device 1")
    return UsePolarityDevice(seat, *ship_word(words[0]))


def format_use(action: UsePolarityDevice) -> list[str]:
    return [ship_text(action.ship, action.relic)]


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 4, ID, "discard polarity_device red herbert_valley blue lem_badlands")
    return DiscardPolarityDevice(seat, seat_of(words[0], players), territory_id(words[1]),
                                 seat_of(words[2], players), territory_id(words[3]))


def format_discard(action: DiscardPolarityDevice) -> list[str]:
    return [COLOURS[action.owner], action.territory, COLOURS[action.other],
            action.other_territory]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Polarity Device",
    copies=2,
    expansion="base",
    aliases=("polarity",),
    effect=("1 fuel: turn one unplaced ship to its opposite face (7 − value). Discard: swap two "
            "colonies on different territories."),
    use=UsePower(action=UsePolarityDevice, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use),
    discard=DiscardPower(action=DiscardPolarityDevice, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard,
                         candidates_pass_refusal=True),  # colonies there now, Repulsor judged
)
