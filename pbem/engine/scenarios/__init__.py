"""Scenarios: the rulebook's worked examples as executable files (docs/scenarios.md), apart
from the rules they check.

    runner.py     run a file's steps and check what a spectator sees (`run_scenario`)
    position.py   build a GameState from a position written as a player describes it
    factions.py   the Faction boards, the draft and the five-player Hub of a position
    agendas.py    the Agendas of a position
    common.py     the error a bad position raises, and reading seats, dice and ids

    python -m pbem.engine.scenarios tests/scenarios/*.toml
"""

from __future__ import annotations

from .common import ScenarioError
from .position import build_state
from .runner import StepResult, facts, load, main_scenarios, run_scenario, run_steps

__all__ = ["ScenarioError", "StepResult", "build_state", "facts", "load", "main_scenarios",
           "run_scenario", "run_steps"]
