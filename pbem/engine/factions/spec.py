"""The one declaration of a Faction board: a `FactionSpec` at the bottom of its module.

A board is a facility anyone may use (ruling F5: one port, any value, 1 fuel to the owner)
and an ability of its owner; some boards add actions (the owner's, or the follow-up decision
of their facility). `catalog.SPECS` lists the boards; the tables the rules, the notation,
the bot and the pages read are derived from that list, and tests/engine/factions/
test_catalog.py checks it against ids.toml [factions].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..actions import Action, Dock
from ..compiled import interpreted
from ..events import Event
from ..facilities.spec import DockEffect
from ..facilities.spec import Refuse as DockRefusal
from ..state import GameState

A = TypeVar("A", bound=Action)

Candidates = Callable[[GameState, int], list[Action]]  # concrete actions for the menu
DockWorth = Callable[[GameState, int, Dock], float]  # the greedy bot's worth, before the fee


def worth(score: float) -> DockWorth:
    """A docking worth the same to the greedy bot whatever the position."""
    return lambda state, seat, action: score


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardFacility:
    """The board's facility, docked like an orbital facility (`dock 4 corex`)."""

    effect: str  # what docking there does, for pages and mail (ids.toml `facility`)
    refuse: DockRefusal  # its own requirement and cost (facilities.dock_refusal asks it)
    dock: DockEffect  # the benefit: the fee to the owner and what the board gives
    value_free: bool = True  # `refuse` never reads the ship values (facilities memo)
    launches: bool = False  # the advance may end in a launch (ruling B8)
    # dockings offered besides `dock <ship> <board>`; none while a decision waits, and asked
    # only while the board is in the game (catalog.candidates)
    candidates: Candidates | None = None
    bot_worth: DockWorth = worth(0.0)


@interpreted  # generic: see the note at `interpreted`
@dataclass(frozen=True, slots=True, kw_only=True)
class BoardAction(Generic[A]):
    """An action the board adds to the game: its owner's ability or the decision its facility
    asks for. `rules` checks and performs it through `refusal` and `effect`."""

    action: type[A]
    refusal: Callable[[GameState, A], str | None]
    effect: Callable[[GameState, A, list[Event]], None]
    format: Callable[[A], str]  # the canonical text (the verbs are read in catalog.py)
    bot_score: Callable[[GameState, int, A], float]


@dataclass(frozen=True, slots=True, kw_only=True)
class Decision:
    """The follow-up decision the board's facility asks (`Turn.pending` of that `kind`)."""

    kind: str
    answers: tuple[type[Action], ...]
    waiting: str  # the refusal of any other action while it waits
    unasked: str  # the refusal of an answer when nothing asks for it


@dataclass(frozen=True, slots=True, kw_only=True)
class FactionSpec:
    """Everything about one Faction board that other modules need (ids.toml [factions])."""

    id: str  # also its facility's id (ruling F5)
    name: str
    aliases: tuple[str, ...]  # short words notation accepts besides the id (docs/notation.md)
    facility: BoardFacility
    owner: str  # the owner's ability, for pages and mail (ids.toml `owner`)
    actions: tuple[BoardAction[Any], ...] = ()
    decision: Decision | None = None
    # the owner's abilities and the decision, for the menu: asked only of the owner, or while
    # this board's decision waits (catalog.candidates)
    candidates: Candidates | None = None
    bot_preference: float = 5.0  # how much the greedy bot wants this board in the draft
