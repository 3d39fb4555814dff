"""Lunar Tunneler (Factions, ruling T5).

Use, once per turn, 1 fuel: right after you dock a ship at the Lunar Mine (a Chameleon Cloak
replacement or a teleported arrival there included), gain 1 extra ore. Each docking allows
one use at most (with the Oscillation Capacitor, the second use needs a second docking).
Discard: every ship docked at the Lunar Mine goes to the Maintenance Bay.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from ..actions import Action, register_action
from ..events import Event, event
from ..facilities.lunar_mine import DOCKED_STEP
from ..ids import Facility
from ..payments import gain
from ..state import GameState
from ..territories import send_to_bay
from .common import words_count
from .spec import CardSpec, DiscardPower, UsePower

ID: Final = "lunar_tunneler"
MINE: Final[str] = str(Facility.LUNAR_MINE)


@dataclass(frozen=True, slots=True)
class UseLunarTunneler(Action):
    """Pay 1 fuel for 1 extra ore right after a Lunar Mine docking."""


register_action("use_lunar_tunneler", UseLunarTunneler)


@dataclass(frozen=True, slots=True)
class DiscardLunarTunneler(Action):
    """Send every ship at the Lunar Mine to the Maintenance Bay."""


register_action("discard_lunar_tunneler", DiscardLunarTunneler)


def use_fuel(state: GameState, action: UseLunarTunneler) -> int:
    return 1


def use_refusal(state: GameState, action: UseLunarTunneler) -> str | None:
    # The docking was the action just before this one (ruling T5: "right after").
    if state.turn.facts.get(DOCKED_STEP) != state.step - 1:
        return "use it right after you dock a ship at the Lunar Mine."
    return None


def use(state: GameState, action: UseLunarTunneler, events: list[Event]) -> None:
    del state.turn.facts[DOCKED_STEP]  # one extra ore per docking
    gain(state, action.seat, 0, 1, events, why=ID)


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return [UseLunarTunneler(seat)]


def discard_refusal(state: GameState, action: DiscardLunarTunneler) -> str | None:
    for s in state.ships:  # the first ship there answers (`state.at` would list them all)
        if s.loc == MINE:
            return None
    return "no ship is docked at the Lunar Mine."


def discard(state: GameState, action: DiscardLunarTunneler, events: list[Event]) -> None:
    found = [i for i, s in enumerate(state.ships) if s.loc == MINE]
    events.append(event("cleared", action.seat, card=ID, facility=MINE,
                        ships=[state.ships[i].id for i in found]))
    for i in found:
        send_to_bay(state, i)


def discard_candidates(state: GameState, seat: int) -> list[Action]:
    return [DiscardLunarTunneler(seat)]


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 0, ID, "use lunar_tunneler")
    return UseLunarTunneler(seat)


def format_use(action: UseLunarTunneler) -> list[str]:
    return []


def parse_discard(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 0, ID, "discard lunar_tunneler")
    return DiscardLunarTunneler(seat)


def format_discard(action: DiscardLunarTunneler) -> list[str]:
    return []


def bot_use_score(state: GameState, seat: int, action: UseLunarTunneler,
                  dock_worth: Mapping[str, float]) -> float:
    """The greedy bot makes ore while it has little."""
    return 6.0 if state.seats[seat].ore < 4 else -5.0


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Lunar Tunneler",
    copies=1,
    expansion="factions",
    aliases=("tunneler",),
    effect=("Once per turn, 1 fuel, right after docking at the Lunar Mine: +1 ore. Discard: send "
            "every ship at the Lunar Mine to the Maintenance Bay."),
    use=UsePower(action=UseLunarTunneler, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 bot_score=bot_use_score),
    discard=DiscardPower(action=DiscardLunarTunneler, refusal=discard_refusal, effect=discard,
                         candidates=discard_candidates, parse=parse_discard,
                         format=format_discard),
)
