"""The rulebook's worked examples and facility edges as scenario files (docs/scenarios.md),
one test per file, plus tests of the scenario runner itself."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pbem.engine import GameState, view
from pbem.engine.scenarios import (
    ScenarioError,
    build_state,
    main_scenarios,
    run_scenario,
    run_steps,
)

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.toml"))
EXAMPLES = ["e01", "e02", "e03", "e04", "e05", "e06", "e07", "e08", "e09", "e10", "e11",
            "e12", "e13", "e15", "e16", "e17", "e18", "e21", "e23"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    results = run_scenario(path)
    failures = [f"step {r.index} ({r.text}): {r.message}" for r in results if not r.passed]
    assert not failures, "\n".join(failures)


def test_every_worked_example_without_card_powers_has_a_scenario() -> None:
    stems = {p.stem.split("_")[0] for p in FILES}
    assert [e for e in EXAMPLES if e not in stems] == []


def test_every_scenario_quotes_its_rule() -> None:
    import tomllib

    for path in FILES:
        with path.open("rb") as f:
            assert tomllib.load(f).get("description"), path.name


# -- the runner -------------------------------------------------------------------------------

POSITION = {"players": 2, "turn": "red", "seats": {"red": {"unplaced": [3, 4]}}}


def test_a_passing_expectation_passes() -> None:
    results = run_steps(build_state(POSITION),
                        [{"do": "dock 3 solar", "expect": {"seats.red.fuel": 2}}])
    assert [r.passed for r in results] == [True]


def test_a_failing_expectation_is_reported_as_fail() -> None:
    results = run_steps(build_state(POSITION),
                        [{"do": "dock 3 solar", "expect": {"seats.red.fuel": 5}}])
    assert not results[0].passed
    assert "seats.red.fuel: expected 5, found 2" in results[0].message


def test_an_unknown_path_is_reported_as_fail() -> None:
    results = run_steps(build_state(POSITION), [{"expect": {"seats.red.petrol": 1}}])
    assert not results[0].passed and "petrol" in results[0].message


def test_an_action_that_should_be_refused_but_is_played_fails() -> None:
    results = run_steps(build_state(POSITION), [{"do": "dock 3 solar", "refused": "ports"}])
    assert not results[0].passed and "should have been refused" in results[0].message


def test_a_refusal_with_the_wrong_message_fails() -> None:
    results = run_steps(build_state(POSITION),
                        [{"do": "dock 3 4 shipyard", "refused": "every port is taken"}])
    assert not results[0].passed
    assert "does not contain 'every port is taken'" in results[0].message


def test_a_refusal_with_the_right_message_passes_and_leaves_the_state() -> None:
    state = build_state(POSITION)
    before = state.to_json()
    results = run_steps(state, [{"do": "dock 3 4 shipyard", "refused": "equal value"},
                                {"expect": {"seats.red.fuel": 0, "ships.red.unplaced": [3, 4]}}])
    assert [r.passed for r in results] == [True, True]
    assert state.to_json() == before  # run_steps plays on a copy


def test_an_unexpected_refusal_fails_and_skips_the_rest() -> None:
    results = run_steps(build_state(POSITION), [{"do": "dock 3 4 shipyard"},
                                                {"expect": {"phase": "play"}}])
    assert [r.passed for r in results] == [False, False]
    assert "equal value" in results[0].message and "not run" in results[1].message


def test_scripted_dice_are_rolled_first() -> None:
    results = run_steps(build_state(POSITION), [
        {"do": ["dock 3 solar", "dock 4 solar", "end"], "next_dice": [6, 6, 1],
         "expect": {"awaiting": "green", "ships.green.unplaced": [1, 6, 6]}},
    ])
    assert results[0].passed, results[0].message


def test_scripted_dice_round_trip_and_stay_secret() -> None:
    state = build_state({**POSITION, "next_dice": [2, 5, 6]})
    assert state.scripted == [2, 5, 6]
    assert GameState.from_json(state.to_json()).scripted == [2, 5, 6]
    assert state.clone().scripted == [2, 5, 6]
    assert "scripted" not in str(view(state, None)) and "scripted" not in str(view(state, 0))


def test_a_bad_position_is_a_scenario_error() -> None:
    with pytest.raises(ScenarioError, match="a colour has 6 ships"):
        build_state({"players": 2, "seats": {"red": {"unplaced": [1, 2, 3, 4], "stock": 3}}})
    with pytest.raises(ScenarioError, match="its owner must control Burroughs Desert"):
        build_state({"players": 2, "seats": {"red": {"unplaced": ["3r"]}}})
    with pytest.raises(ScenarioError, match="port group"):
        build_state({"players": 2, "seats": {"green": {"docked": {"shipyard": [[2, 2], [3, 3]]}}}})


def test_defaults_follow_the_setup() -> None:
    state = build_state({"players": 3, "colonies": {"lem_badlands": {"blue": 2}}})
    assert [s.colonies for s in state.seats] == [7, 7, 5]
    assert state.controllers["lem_badlands"] == 2
    assert sum(1 for s in state.ships if s.owner == 0 and s.loc == "maintenance_bay") == 3
    assert len(state.display) == 3 and len(state.deck) == 19


def test_main_prints_pass_and_fail_and_returns_an_exit_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text('players = 2\n[seats.red]\nunplaced = [3]\n[[steps]]\ndo = "dock 3 solar"\n'
                    'expect = { "seats.red.fuel" = 2 }\n')
    bad = tmp_path / "bad.toml"
    bad.write_text('players = 2\n[seats.red]\nunplaced = [3]\n[[steps]]\ndo = "dock 3 solar"\n'
                   'expect = { "seats.red.fuel" = 9 }\n')
    assert main_scenarios([str(good)]) == 0
    assert main_scenarios([str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"PASS {good}" in out and f"FAIL {bad}" in out


def test_python_dash_m_runs_scenarios() -> None:
    result = subprocess.run([sys.executable, "-m", "pbem.engine.scenarios", str(FILES[0])],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS" in result.stdout


def test_answers_with_no_question_are_refused() -> None:
    results = run_steps(build_state(POSITION), [
        {"do": "land lem_badlands", "refused": "no colony to land now"},
        {"do": "end raid", "refused": "you are not raiding now"},
        {"do": "steal green fuel", "refused": "you are not raiding now"},
    ])
    assert [r.message for r in results] == ["", "", ""]


def test_the_notation_doc_lists_every_alias() -> None:
    from pbem.engine.notation import CARD_ALIASES, FACILITY_ALIASES, TERRITORY_ALIASES

    doc = (Path(__file__).resolve().parents[2] / "docs" / "notation.md").read_text()
    for aliases in (FACILITY_ALIASES, TERRITORY_ALIASES, CARD_ALIASES):
        for alias, target in aliases.items():
            assert f"`{alias}`" in doc or alias == target, alias


def test_the_rules_never_import_the_scenario_package() -> None:
    """Scenarios stand apart from the rules they check: no engine module outside
    pbem/engine/scenarios/ imports it (not even inside a function)."""
    import ast

    engine = Path(__file__).resolve().parents[2] / "pbem" / "engine"
    offenders = []
    for path in engine.rglob("*.py"):
        if "scenarios" in path.relative_to(engine).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names]
            if any("scenario" in name for name in names):
                offenders.append(str(path.relative_to(engine)))
    assert offenders == []


def test_a_built_position_starts_a_new_round_when_the_last_seat_ends_first() -> None:
    from pbem.engine import apply
    from pbem.engine.actions import EndTurn

    state = build_state({"players": 2, "turn": "green", "round": 3})
    after, _ = apply(state, EndTurn(1))
    assert (after.turn.seat, after.turn.round) == (0, 4)
    again, _ = apply(build_state({"players": 2, "turn": "red", "round": 3}), EndTurn(0))
    assert (again.turn.seat, again.turn.round) == (1, 3)


def test_setup_new_is_the_engines_own_new_game() -> None:
    from pbem.engine import new_game

    table = {"setup": "new", "players": 3, "seed": 5, "options": {"factions": False}}
    assert build_state(table) == new_game(3, 5, {"factions": False})
    results = run_steps(build_state(table), [{"expect": {
        "phase": "play", "awaiting": "red", "seats.blue.fuel": 0, "seats.blue.ore": 1,
        "seen_by.red.agendas": []}}])
    assert results[0].passed, results[0].message


def test_setup_new_refuses_position_keys_and_unknown_setups() -> None:
    with pytest.raises(ScenarioError, match="unknown key"):
        build_state({"setup": "new", "players": 2, "seats": {"red": {"fuel": 3}}})
    with pytest.raises(ScenarioError, match="setup"):
        build_state({"setup": "old"})
    with pytest.raises(ScenarioError, match="takes 2 to 4 players"):
        build_state({"setup": "new", "players": 5, "options": {"factions": False}})
