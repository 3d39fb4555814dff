"""The `strong` level: determinized rollouts from the bot's own view (policy rollout).

At each decision with a real choice the bot takes the few best actions by the greedy heuristic
(`CANDIDATES`) and asks of each: "if I do this, and then everyone plays greedy, where do I
stand when my turn is over (and, with a longer horizon, after the next turns too)?" It asks in
several sampled worlds (`determinize.world`: the draw piles, the other seats' Agendas and the
future dice drawn from what this seat cannot see, with the bot's own rng), plays each
candidate to the horizon on a private copy with the engine's fast path, scores the end with
`value.standing`, and takes the candidate with the best total.

Why this and not a full tree search: a turn of Alien Frontiers is a handful of decisions on
dice already rolled, so most of what a tree would branch on is the order of the bot's own
dockings, which the greedy continuation already plays sensibly; one step of policy
improvement over greedy (Bertsekas' rollout algorithm, Ginsberg's determinized sampling) buys
most of the strength at a small, fixed cost per decision. Every candidate is played in the
same worlds with the same continuation rng (common random numbers), so the comparison
between candidates is not drowned by the luck of the draw. The budget is a number of
rollouts, never a time: the engine reads no clock, and a replay reproduces every choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import apply_in_place, dice
from ..actions import Action
from ..rules import legal_actions
from ..state import GameState
from .determinize import SEED_RANGE, world
from .greedy import greedy_bot
from .ranking import ranked
from .value import standing

CANDIDATES: Final = 6  # actions searched per decision, the greedy heuristic's best
ROLLOUTS: Final = 48  # rollouts per decision by default (well under 1 s on one core)
HORIZON: Final = 0  # other seats' turns played after the bot's own turn ends
MAX_STEPS: Final = 400  # a rollout never runs longer than this, whatever the position


@dataclass(frozen=True, slots=True)
class StrongBot:
    """A bot (`bot(state, seat, rng) -> Action`) searching `rollouts` rollouts a decision."""

    rollouts: int = ROLLOUTS
    candidates: int = CANDIDATES
    horizon: int = HORIZON

    def __call__(self, state: GameState, seat: int, rng: list[int]) -> Action:
        menu = legal_actions(state, seat)
        if len(menu) == 1:
            return menu[0]
        if state.phase != "play" or self.rollouts < 2:
            return greedy_bot(state, seat, rng)  # the draft: the heuristic knows the boards
        options = [action for _, action in ranked(state, seat, menu)[:self.candidates]]
        worlds = max(1, self.rollouts // len(options))
        totals = [0.0] * len(options)
        for _ in range(worlds):
            sample = world(state, seat, rng)
            policy_seed = dice.below(rng, SEED_RANGE)
            for i, action in enumerate(options):
                trial = sample.clone()
                totals[i] += rollout(trial, seat, action, [policy_seed, 0], self.horizon)
        best = max(range(len(options)), key=lambda i: (totals[i], -i))
        return options[best]


def rollout(state: GameState, seat: int, first: Action, rng: list[int], horizon: int) -> float:
    """Play `first` and then greedy for everyone on `state` itself until `seat`'s turn and
    `horizon` more turns are over; `seat`'s standing then."""
    current = state.turn.seat
    apply_in_place(state, first)
    turns = 0
    steps = 0
    while state.phase != "over" and steps < MAX_STEPS:
        if state.turn.seat != current:
            turns += 1
            current = state.turn.seat
        pending = state.turn.pending
        actor = pending["seat"] if pending else state.turn.seat
        if turns > horizon and actor != seat:
            break
        apply_in_place(state, greedy_bot(state, actor, rng))
        steps += 1
    return standing(state, seat)


strong_bot = StrongBot()
