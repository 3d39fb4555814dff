"""Same games: one sha256 over the actions and final states of many self-play games.

    python benchmarks/same_games.py [--seeds N] [--quick]

Plays greedy, random, easy and mixed (greedy and random seats, as `selfplay.py --mixed`)
games for `--seeds` seeds at every seat count, base game and Factions, and prints one hash
of every action (its JSON form) and every final state (`to_json`). A change that only makes
the engine faster must leave the hash unchanged: the bots see the same menus in the same
order, so they make the same choices. The random bot makes the menu's order count too.
`--quick` plays the few seeds tests/engine/test_same_games.py checks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem.engine import apply_in_place  # noqa: E402
from pbem.engine.actions import Action, action_to_json  # noqa: E402
from pbem.engine.bots import Bot, greedy_bot, random_bot  # noqa: E402
from pbem.engine.bots.easy import easy_bot  # noqa: E402
from pbem.engine.flow import new_game  # noqa: E402
from pbem.engine.rules import awaited  # noqa: E402

MAX_STEPS = 5000
GAMES: tuple[tuple[str, dict[str, Any] | None, tuple[int, ...]], ...] = (
    ("base", {"factions": False}, (2, 3, 4)),
    ("factions", None, (2, 3, 4, 5)),
)


def mixed(seed: int, step: int) -> Bot:
    """The mixed seat of the crash run: greedy when `(seed + step) % 3`, otherwise random."""
    return greedy_bot if (seed + step) % 3 else random_bot


BOTS: dict[str, Any] = {"greedy": greedy_bot, "random": random_bot, "easy": easy_bot,
                        "mixed": None}


def play(players: int, seed: int, name: str,
         options: dict[str, Any] | None) -> tuple[Any, list[Action]]:
    """One game as `play_game` plays it (and the mixed game as the crash run does)."""
    state = new_game(players, seed, options)
    rng = [seed ^ 0x5EED, 0]
    actions: list[Action] = []
    while state.phase != "over" and len(actions) < MAX_STEPS:
        seat = awaited(state)
        assert seat is not None
        bot = BOTS[name] or mixed(seed, len(actions))
        action = bot(state, seat, rng)
        apply_in_place(state, action)
        actions.append(action)
    return state, actions


def digest(seeds: range, bots: tuple[str, ...] = tuple(BOTS)) -> tuple[str, int, int]:
    """(sha256, games, actions) over the games of `seeds`."""
    sha = hashlib.sha256()
    games = steps = 0
    for _, options, seats in GAMES:
        for players in seats:
            for name in bots:
                for seed in seeds:
                    state, actions = play(players, seed, name, options)
                    for action in actions:
                        sha.update(json.dumps(action_to_json(action), sort_keys=True).encode())
                    sha.update(json.dumps(state.to_json(), sort_keys=True).encode())
                    games += 1
                    steps += len(actions)
    return sha.hexdigest(), games, steps


QUICK_SEEDS = range(2)
QUICK_BOTS = ("greedy", "random", "mixed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=15, help="seeds per seat count and bot")
    parser.add_argument("--quick", action="store_true",
                        help="the unit test's games only (tests/engine/test_same_games.py)")
    args = parser.parse_args()
    start = time.process_time()
    if args.quick:
        sha, games, steps = digest(QUICK_SEEDS, QUICK_BOTS)
    else:
        sha, games, steps = digest(range(args.seeds))
    print(f"{sha}  {games} games  {steps} actions  ({time.process_time() - start:.1f} s)")


if __name__ == "__main__":
    main()
