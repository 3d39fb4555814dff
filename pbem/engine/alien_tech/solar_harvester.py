"""Solar Harvester (Factions, ruling T8).

Use, once per turn, free: gain 1 fuel per opponent ship docked at the Solar Converter (a ship
you borrowed this turn is yours, ruling B20; a ship at a Faction facility never counts). It
has no fuel cost, so the Oscillation Capacitor cannot repeat it (ids.toml [tech]).
Discard: every other player returns all their fuel to the supply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..actions import Action, register_action
from ..events import Event, event
from ..ids import Facility
from ..lookup import commander, ships_at
from ..payments import gain
from ..state import GameState
from .common import words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "solar_harvester"
CONVERTER: Final[str] = str(Facility.SOLAR_CONVERTER)


@dataclass(frozen=True, slots=True)
class UseSolarHarvester(Action):
    """Gain 1 fuel per opponent ship at the Solar Converter."""


register_action("use_solar_harvester", UseSolarHarvester)


@dataclass(frozen=True, slots=True)
class DiscardSolarHarvester(Action):
    """Every other player returns all their fuel."""


register_action("discard_solar_harvester", DiscardSolarHarvester)


def opponent_ships(state: GameState, seat: int) -> int:
    """Ships at the Solar Converter commanded by another player: a ship you borrowed this turn
    is yours, not an opponent's (ruling B20)."""
    return sum(1 for s in ships_at(state, CONVERTER) if commander(state, s) not in (None, seat))


def use_fuel(state: GameState, action: UseSolarHarvester) -> int:
    return 0


def use_refusal(state: GameState, action: UseSolarHarvester) -> str | None:
    if opponent_ships(state, action.seat) == 0:
        return "no opponent's ship is docked at the Solar Converter, so it would gain nothing."
    return None


def use(state: GameState, action: UseSolarHarvester, events: list[Event]) -> None:
    gain(state, action.seat, opponent_ships(state, action.seat), 0, events, why=ID)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return [UseSolarHarvester(seat)]


def discard_refusal(state: GameState, action: DiscardSolarHarvester) -> str | None:
    return None


def discard(state: GameState, action: DiscardSolarHarvester, events: list[Event]) -> None:
    for i, other in enumerate(state.seats):
        if i != action.seat and other.fuel:
            events.append(event("returned_resources", i, fuel=other.fuel, ore=0, why=ID))
            other.fuel = 0


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardSolarHarvester(seat)]


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 0, ID, "use solar_harvester")
    return UseSolarHarvester(seat)


def format_use(action: UseSolarHarvester) -> list[str]:
    return []


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 0, ID, "discard solar_harvester")
    return DiscardSolarHarvester(seat)


def format_discard(action: DiscardSolarHarvester) -> list[str]:
    return []


def bot_use_score(state: GameState, seat: int, action: UseSolarHarvester,
                  dock_worth: Mapping[str, float]) -> float:
    """Free fuel: the greedy bot always takes it."""
    return 7.0


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Solar Harvester",
    copies=1,
    expansion="factions",
    aliases=("harvester",),
    effect=("Once per turn, free: 1 fuel per opponent ship at the Solar Converter. Discard: every "
            "other player returns all their fuel."),
    use=UsePower(action=UseSolarHarvester, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 bot_score=bot_use_score),
    discard=DiscardPower(action=DiscardSolarHarvester, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
