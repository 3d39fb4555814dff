"""The `easy` level: a sensible but beatable player.

It weighs the menu with the greedy bot's heuristic, like `greedy`, but cannot tell close
moves apart: it takes any action scored within `MARGIN` of the best, uniformly. It never
plays what the heuristic calls a blunder, so it builds colonies, launches from the Hub and
ends its turns like a person who plays for fun; it just takes the second-rate docking or raid
often enough to lose clearly to `greedy` (benchmarks/bots.py measures how clearly).
"""

from __future__ import annotations

from typing import Final

from .. import dice
from ..actions import Action
from ..rules import legal_actions
from ..state import GameState
from .ranking import ranked

MARGIN: Final = 12.0  # heuristic points: about a colony's worth of the greedy bot's scores


def easy_bot(state: GameState, seat: int, rng: list[int]) -> Action:
    """Any action the heuristic scores within `MARGIN` of the best, uniformly."""
    menu = legal_actions(state, seat)
    if len(menu) == 1:
        return menu[0]
    order = ranked(state, seat, menu)
    floor = order[0][0] - MARGIN
    near = [action for score, action in order if score >= floor]
    return near[dice.below(rng, len(near))]
