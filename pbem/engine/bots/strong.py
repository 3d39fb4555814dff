"""The `strong` level: determinized rollouts from the bot's own view (policy rollout).

At each decision with a real choice the bot takes the few best actions by the greedy heuristic
(`CANDIDATES`) and asks of each: "if I do this, and then everyone plays greedy, where do I
stand when my turn is over (and, with a longer horizon, after the next turns too)?" It asks in
several sampled worlds (`determinize.world`: the draw piles, the other seats' Agendas and the
future dice drawn from what this seat cannot see, with the bot's own rng), plays each
candidate to the horizon on a private copy with the engine's fast path, scores the end with
`value.standing`, and takes the candidate with the best total. The horizon is, by default, a
whole round: the bot's turn and then every other seat's next one, so a candidate is judged
with the raids, cannon shots and races for the same orbit it invites (benchmarks/RESULTS.md,
"Bot levels", compares it with stopping at the end of the bot's own turn).

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

from .. import apply_offered, dice
from ..actions import Action
from ..rules import legal_actions
from ..state import GameState
from .determinize import SEED_RANGE, world
from .greedy import greedy_bot
from .ranking import ranked
from .value import standing

CANDIDATES: Final = 6  # actions searched per decision, the greedy heuristic's best
ROLLOUTS: Final = 48  # rollouts per decision by default (p99 under 1 s of CPU, at 5 seats too)
ROUND: Final = -1  # the horizon "every other seat's next turn", whatever the seat count
MAX_STEPS: Final = 400  # a rollout never runs longer than this, whatever the position


@dataclass(frozen=True, slots=True)
class StrongBot:
    """A bot (`bot(state, seat, rng) -> Action`) searching `rollouts` rollouts a decision."""

    rollouts: int = ROLLOUTS
    candidates: int = CANDIDATES
    horizon: int = ROUND  # other seats' turns played after the bot's own turn ends

    def __call__(self, state: GameState, seat: int, rng: list[int]) -> Action:
        menu = legal_actions(state, seat)
        if len(menu) == 1:
            return menu[0]
        if state.phase != "play" or self.rollouts < 2:
            return greedy_bot(state, seat, rng)  # the draft: the heuristic knows the boards
        options = [action for _, action in ranked(state, seat, menu)[:self.candidates]]
        horizon = state.players - 1 if self.horizon == ROUND else self.horizon
        totals = [0.0] * len(options)
        # Two halves of the budget: every candidate in the first worlds, then the better half
        # in more worlds (sequential halving), so the close calls get the most samples; two
        # candidates share the whole budget at once.
        alive = list(range(len(options)))
        stages = 2 if len(options) > 2 else 1
        for stage in range(stages):
            worlds = max(1, self.rollouts // stages // len(alive))
            for _ in range(worlds):
                sample = world(state, seat, rng)
                policy_seed = dice.below(rng, SEED_RANGE)
                for i in alive:
                    trial = sample.clone()
                    totals[i] += rollout(trial, seat, options[i], [policy_seed, 0], horizon)
            if stage + 1 < stages:
                alive.sort(key=lambda i: (-totals[i], i))
                alive = sorted(alive[:max(1, (len(alive) + 1) // 2)])
        best = max(alive, key=lambda i: (totals[i], -i))
        return options[best]


def rollout(state: GameState, seat: int, first: Action, rng: list[int], horizon: int) -> float:
    """Play `first` and then greedy for everyone on `state` itself until `seat`'s turn and
    `horizon` more turns are over; `seat`'s standing then."""
    current = state.turn.seat
    apply_offered(state, first)
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
        apply_offered(state, greedy_bot(state, actor, rng))
        steps += 1
    return standing(state, seat)


strong_bot = StrongBot()
