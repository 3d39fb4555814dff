"""The engine plays the same games: a faster engine must not change one choice.

`benchmarks/same_games.py` hashes the actions and final states of many greedy, random, easy
and mixed games (run it in full before and after a change to the menu or the rules' fast
paths); this test plays its quick set (a few seconds) against the recorded hash. A change
that alters the games on purpose (a rule fix, a new bot heuristic) records the new hash here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "same_games.py"
# The quick set's hash, recorded on the engine before the menu's speed-ups of 2026-12-01;
# the full set (15 seeds) hashed 3971490dc86e7c3eb927f65b9f2590a2cff6c1533b3d532275f69b90b2d73f30.
QUICK_HASH = "66142392c66a4867090610f96c35923abb3737256d8fccabb586b4870725b5a9"


def test_the_quick_set_of_games_is_unchanged() -> None:
    spec = importlib.util.spec_from_file_location("same_games", SCRIPT)
    assert spec is not None and spec.loader is not None
    same_games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(same_games)
    sha, games, _ = same_games.digest(same_games.QUICK_SEEDS, same_games.QUICK_BOTS)
    assert games == 42
    assert sha == QUICK_HASH
