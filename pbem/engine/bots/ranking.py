"""The greedy heuristic's order of a menu, for the bots that look past its first choice.

`easy` picks among the actions near the top; `strong` searches the top few. Both weigh an
action exactly as `greedy_bot` does (`greedy._score`), so the levels differ in how they choose,
not in what they think an action is worth.
"""

from __future__ import annotations

from ..actions import Action
from ..state import GameState
from .greedy import _score as greedy_score  # the greedy bot's worth of one action


def ranked(state: GameState, seat: int, menu: list[Action]) -> list[tuple[float, Action]]:
    """The menu weighed by the greedy heuristic, best first (ties keep the menu's order)."""
    scored = [(greedy_score(state, seat, action), i, action) for i, action in enumerate(menu)]
    scored.sort(key=lambda item: (-item[0], item[1]))
    return [(score, action) for score, _, action in scored]
