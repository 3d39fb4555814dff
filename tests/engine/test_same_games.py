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
# The quick set's hash, recorded with the Chameleon Cloak's launch at the five-player Colonist
# Hub (ruling T2c, issue 28; benchmarks/RESULTS.md says which games it changed); the full set
# (15 seeds) hashes c31f325235cc0829bd51863253cdad93e68ac648a306012c582200efb3211700.
QUICK_HASH = "8f51d655008b71914804c54274b7e855deb60879fee9e897bdd307716fc8b169"


def test_the_quick_set_of_games_is_unchanged() -> None:
    spec = importlib.util.spec_from_file_location("same_games", SCRIPT)
    assert spec is not None and spec.loader is not None
    same_games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(same_games)
    sha, games, _ = same_games.digest(same_games.QUICK_SEEDS, same_games.QUICK_BOTS)
    assert games == 42
    assert sha == QUICK_HASH
