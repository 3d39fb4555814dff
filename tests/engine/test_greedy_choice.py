"""The greedy bot builds only the part of the menu that could hold its choice: whatever it
leaves out, it chooses exactly what weighing the whole menu would choose, ties and all."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine import apply_in_place, dice, legal_actions, new_game
from pbem.engine.actions import Action
from pbem.engine.bots import greedy_bot, random_bot
from pbem.engine.bots.greedy import _score
from pbem.engine.rules import awaited
from pbem.engine.state import GameState

BASE = {"factions": False}


def whole_menu_choice(state: GameState, seat: int, rng: list[int]) -> Action:
    """The greedy choice as the bot's description states it: every action of the whole menu
    weighed, the first of the best taken, or one of the ties drawn by `rng` in menu order."""
    menu = legal_actions(state, seat)
    scores = [_score(state, seat, action) for action in menu]
    top = max(scores)
    ties = [action for action, score in zip(menu, scores, strict=True) if score == top]
    return ties[dice.below(rng, len(ties))] if len(ties) > 1 else ties[0]


@pytest.mark.parametrize(("players", "options"), [(2, BASE), (4, BASE), (3, None), (5, None)])
def test_greedy_chooses_as_if_it_weighed_the_whole_menu(players: int,
                                                        options: Any) -> None:
    """At every decision of games played by greedy and random seats in turn (so the hands
    hold cards greedy would not have kept), the bot's choice and what it draws from its
    generator are those of weighing the whole menu."""
    for seed in range(2):
        state = new_game(players, seed, options)
        rng = [seed, 5]
        steps = 0
        decided = 0
        while state.phase != "over" and steps < 1500:
            seat = awaited(state)
            assert seat is not None
            mine, reference = list(rng), list(rng)
            chosen = greedy_bot(state, seat, mine)
            assert chosen == whole_menu_choice(state, seat, reference)
            assert mine == reference
            decided += 1
            bot = random_bot if steps % 3 == 2 else greedy_bot
            apply_in_place(state, bot(state, seat, rng))
            steps += 1
        assert decided > 100
