"""The one declaration of an Alien Tech card: a `CardSpec` at the bottom of its module.

A card module defines its action classes and the functions of its powers, then declares

    CARD = CardSpec(id=ID, name="Booster Pod", copies=2, expansion="base",
                    aliases=("booster",), effect="1 fuel: +1 to one unplaced ship. ...",
                    use=UsePower(action=UseBoosterPod, fuel=use_fuel, refusal=use_refusal,
                                 effect=use, candidates=use_candidates, parse=parse_use,
                                 format=format_use),
                    discard=DiscardPower(...))

and `catalog.SPECS` lists it. Every table about cards (names, deck, aliases, effect texts,
the powers by action class, the bot's scores) is derived from that list; `tests/engine/
alien_tech/test_catalog.py` checks it against ids.toml [tech].
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

from ..actions import Action
from ..compiled import interpreted
from ..events import Event
from ..state import GameState

A = TypeVar("A", bound=Action)


class CountedActions(Protocol):
    """Actions counted before they are made: a list of them is one, and so is a power's
    `counted` candidates (`plasma_cannon.Shots`), which makes an action only when read."""

    def __len__(self) -> int: ...

    def __getitem__(self, index: int) -> Action: ...

    def __iter__(self) -> Iterator[Action]: ...


Refusal = Callable[[GameState, A], str | None]  # the card's own reason to refuse, or None
Effect = Callable[[GameState, A, list[Event]], None]  # what happens (costs already paid)
# `refusal` of many actions at once, sharing the work they have in common (the same answers)
Refusals = Callable[[GameState, Sequence[A]], list[str | None]]
Candidates = Callable[[GameState, int], list[Action]]  # concrete actions for the menu
Parser = Callable[[list[str], int, int | None], Action]  # words after the card, seat, players
Formatter = Callable[[A], list[str]]  # the words after the card, canonical
FuelCost = Callable[[GameState, A], int]  # the printed fuel cost, before Pohl Foothills
# The greedy bot's worth of the action: (state, seat, action, the bot's worth of a docking
# at each facility) -> score. A power without one scores as "only rather than ending".
BotScore = Callable[[GameState, int, A, Mapping[str, float]], float]


@interpreted  # generic: see the note at `interpreted`
@dataclass(frozen=True, slots=True, kw_only=True)
class Power(Generic[A]):
    """One power of a card (its use or its discard): the action class and its hooks. The
    rules every card shares (§6.2: own the card, once per turn, one discard per turn, the
    fuel) are checked by `alien_tech` before `refusal`, and paid before `effect`."""

    action: type[A]
    refusal: Refusal[A]
    effect: Effect[A]
    candidates: Candidates
    parse: Parser
    format: Formatter[A]
    bot_score: BotScore[A] | None = None
    # Every action `candidates` makes passes `refusal` (they are built from the position
    # itself, like the Plasma Cannon's targets from the ships docked now), so the menu need not
    # ask it of each; the rules every card shares still apply. The invariant tests hold it.
    candidates_pass_refusal: bool = False
    refusals: Refusals[A] | None = None  # for the menu; `refusal` is this of one action


@interpreted  # generic: see the note at `interpreted`
@dataclass(frozen=True, slots=True, kw_only=True)
class UsePower(Power[A]):
    """The card's use power: `use <card> ...`, paid in fuel."""

    fuel: FuelCost[A]
    # Every action `candidates` makes costs no more than the seat's fuel now, Pohl Foothills
    # counted (the Plasma Cannon's shots take only as many ships as the fuel pays for), so
    # the menu need not price each. The invariant tests hold it.
    candidates_within_fuel: bool = False
    # `candidates` counted before they are made: a sequence equal to its list whose actions
    # are made only when read (`plasma_cannon.Shots`). Only for a power whose candidates
    # are within the fuel and pass its refusal: the menu then takes them as they are.
    counted: Callable[[GameState, int], CountedActions] | None = None


@interpreted  # generic: see the note at `interpreted`
@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardPower(Power[A]):
    """The card's discard power: `discard <card> ...` (the card goes to the discard pile)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CardSpec:
    """Everything about one Alien Tech card that other modules need (ids.toml [tech])."""

    id: str
    name: str
    copies: int  # in the deck (ruling B4)
    expansion: Literal["base", "factions"]  # ids.toml `set`: Factions cards join with the option
    aliases: tuple[str, ...]  # short words notation accepts besides the id (docs/notation.md)
    effect: str  # the one-line effect pages and mail show (glossary.CARD_EFFECTS)
    vp: int = 0  # victory points while owned (base-game.md §7.1)
    use: UsePower[Any] | None = None
    discard: DiscardPower[Any] | None = None
