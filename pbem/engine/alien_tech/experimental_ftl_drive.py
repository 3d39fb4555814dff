"""Experimental FTL Drive (Factions, ruling T4).

Use, 2 fuel (1 with Pohl Foothills, whose discount comes off the supply's share): set one
unplaced ship to any other value; one of the fuel paid goes on the card as a token. Tokens
(`GameState.card_tokens`) stay with the card when it changes hands. At the end of the turn in
which it gets its third token the card is discarded and the tokens leave the game (rulings
C2, T4); that discard is forced, so it is no discard power (ruling B17). No discard power.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from ..actions import Action, register_action
from ..errors import InvalidAction
from ..events import Event, event
from ..state import GameState
from .common import (
    change_refusal,
    forced_discard,
    set_value,
    ship_text,
    ship_word,
    unplaced_ship,
    unplaced_tokens,
    words_count,
)
from .spec import CardSpec, UsePower

ID: Final = "experimental_ftl_drive"
LAST_TOKEN: Final = 3


@dataclass(frozen=True, slots=True)
class UseExperimentalFtlDrive(Action):
    """Set the unplaced ship showing `ship` (the Relic Ship if `relic`) to `to`."""

    ship: int
    to: int
    relic: bool = False


register_action("use_experimental_ftl_drive", UseExperimentalFtlDrive)


def tokens(state: GameState) -> int:
    return state.card_tokens.get(ID, 0)


def use_fuel(state: GameState, action: UseExperimentalFtlDrive) -> int:
    return 2


def use_refusal(state: GameState, action: UseExperimentalFtlDrive) -> str | None:
    reason = change_refusal(state, action.seat, action.ship, action.relic, action.to)
    if reason is None and action.to == action.ship:
        return f"the ship already shows {action.ship}; choose another value."
    return reason


def use(state: GameState, action: UseExperimentalFtlDrive, events: list[Event]) -> None:
    index = unplaced_ship(state, action.seat, action.ship, action.relic)
    assert index is not None
    set_value(state, index, action.to, action.seat, ID, events)
    state.card_tokens[ID] = tokens(state) + 1
    events.append(event("card_token", action.seat, card=ID, tokens=tokens(state)))


def use_candidates(state: GameState, seat: int) -> list[Action]:
    return list(_settings(seat, tuple(unplaced_tokens(state, seat))))


@lru_cache(maxsize=1024)
def _settings(seat: int, tokens: tuple[tuple[int, bool], ...]
              ) -> tuple[UseExperimentalFtlDrive, ...]:
    """Each of the unplaced ships `tokens` (value, is the Relic Ship) to each other value: a
    pure table per hand."""
    return tuple(UseExperimentalFtlDrive(seat, v, to, r) for v, r in tokens
                 for to in range(1, 7) if to != v)


def end_of_turn(state: GameState, events: list[Event]) -> None:
    """Discard the card at the end of the turn that gave it its third token (ruling T4)."""
    if tokens(state) < LAST_TOKEN:
        return
    holder = next((i for i, s in enumerate(state.seats) if ID in s.cards), None)
    state.card_tokens.pop(ID, None)  # the tokens go to the supply (ruling C2)
    if holder is not None:
        forced_discard(state, holder, ID, events, why="third_token")


def parse_use(words: list[str], seat: int, players: int | None) -> Action:
    words_count(words, 2, ID, "use experimental_ftl_drive 4 3")
    ship, relic = ship_word(words[0])
    if not words[1].isdigit():
        raise InvalidAction("Experimental FTL Drive: write the new value as a number, like "
                            "'use experimental_ftl_drive 4 3'.")
    return UseExperimentalFtlDrive(seat, ship, int(words[1]), relic)


def format_use(action: UseExperimentalFtlDrive) -> list[str]:
    return [ship_text(action.ship, action.relic), str(action.to)]


CARD: Final[CardSpec] = CardSpec(
    id=ID,
    name="Experimental FTL Drive",
    copies=1,
    expansion="factions",
    aliases=("ftl",),
    effect=("2 fuel: set one unplaced ship to any value; 1 fuel goes on the card, and at its "
            "third token the card is discarded."),
    use=UsePower(action=UseExperimentalFtlDrive, fuel=use_fuel, refusal=use_refusal, effect=use,
                 candidates=use_candidates, parse=parse_use, format=format_use,
                 candidates_pass_refusal=True),  # the seat's unplaced ships, to other values
)
