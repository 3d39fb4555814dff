"""The players: bots for self-play tests, benchmarks, and the turns of absent players.

A bot is `bot(state, seat, rng) -> Action`, where `rng` is the bot's own `[seed, counter]`
advanced with `dice.below`. A bot decides from its seat's view only: it never reads the draw
pile's order, the game's generator or scripted dice (`redacted` blanks them, and a test
proves the greedy bot chooses the same on both). Bots play the fast path: `play_game` works
on one private state with `apply_offered` (a bot's action is one its menu offered, so it
is not judged twice).

    greedy.py       the greedy bot: the best action by a quick heuristic (and factions.py,
                    its worth of the Faction boards' actions)
    ranking.py      the menu in the greedy heuristic's order, for the levels below
    easy.py         the `easy` level: any action near the greedy best
    strong.py       the `strong` level: determinized rollouts (determinize.py, value.py)
    levels.py       a level's name -> its bot
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from .. import apply_offered, dice
from ..actions import Action
from ..flow import new_game
from ..rules import legal_actions
from ..state import GameState
from .greedy import greedy_bot

Bot = Callable[[GameState, int, list[int]], Action]
HIDDEN_CARD: Final = "hidden"

__all__ = ["HIDDEN_CARD", "Bot", "greedy_bot", "play_game", "random_bot", "redacted"]


def redacted(state: GameState, seat: int) -> GameState:
    """A copy holding only what `seat` may know: no deck order, generator or scripted dice."""
    copy = state.clone()
    copy.deck = [HIDDEN_CARD] * len(state.deck)
    copy.rng = [0, 0]
    copy.scripted = []
    copy.agenda_deck = [HIDDEN_CARD] * len(state.agenda_deck)  # ruling A5
    copy.agenda_discard = [HIDDEN_CARD] * len(state.agenda_discard)
    for i, s in enumerate(copy.seats):
        if i != seat:
            s.agendas = [HIDDEN_CARD] * len(s.agendas)
    return copy


def random_bot(state: GameState, seat: int, rng: list[int]) -> Action:
    """Any legal action, uniformly."""
    menu = legal_actions(state, seat)
    return menu[dice.below(rng, len(menu))]


def play_game(players: int, seed: int, bot: Bot | list[Bot],
              options: dict[str, Any] | None = None,
              max_steps: int = 5000) -> tuple[GameState, list[Action]]:
    """Play one game with bots (one for every seat, or one each); returns the final state
    and the actions taken. Bot randomness comes from `[seed, 0]`, apart from the game's."""
    bots = bot if isinstance(bot, list) else [bot] * players
    state = new_game(players, seed, options)
    rng = [seed ^ 0x5EED, 0]
    actions: list[Action] = []
    while state.phase != "over" and len(actions) < max_steps:
        seat = state.turn.pending["seat"] if state.turn.pending else state.turn.seat
        action = bots[seat](state, seat, rng)
        apply_offered(state, action)
        actions.append(action)
    return state, actions
