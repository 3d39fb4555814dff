"""Running scenarios: the rulebook's worked examples as executable files (docs/scenarios.md).

A scenario is a TOML file: a position written the way a player describes the board, then a
list of steps in action notation, each with expectations on what any spectator can see.

    state = build_state(tomllib.load(f))      # a GameState, usable from any test
    results = run_scenario(path)              # one StepResult per step
    main_scenarios(["tests/scenarios"])       # prints PASS/FAIL, returns an exit code

    python -m pbem.engine.scenarios tests/scenarios/*.toml

Pure and standard library only, like the rest of the engine.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import apply
from ..actions import Action
from ..errors import RulesError
from ..ids import COLOURS, FACILITY_NAMES
from ..notation import format_action, parse_action
from ..rules import awaited, legal_actions
from ..state import GameState
from ..view import view
from .common import ScenarioError, colour, die, seat_index
from .position import build_state

NONE_WORDS = ("none", "nobody")
STEP_KEYS = {"do", "as", "expect", "refused", "next_dice", "note"}


@dataclass(frozen=True, slots=True)
class StepResult:
    """The outcome of one step: `index` counts from 1; `message` says what went wrong."""

    index: int
    text: str
    passed: bool
    message: str = ""


def load(path: str | Path) -> dict[str, Any]:
    with open(path, "rb") as f:
        return tomllib.load(f)


# -- what a step may look at ------------------------------------------------------------------

def facts(state: GameState) -> dict[str, Any]:
    """The spectator's view plus helper entries a rules reader thinks in (docs/scenarios.md)."""
    data: dict[str, Any] = dict(view(state, None))  # a scenario's own keys replace some
    players = state.players
    data["awaiting"] = colour(awaited(state))
    data["active"] = colour(state.turn.seat)
    data["vp"] = {colour(i): data["seats"][i]["vp"]["total"] for i in range(players)}
    data["controller"] = {t: colour(c) for t, c in state.controllers.items()}
    data["relic"] = {"owner": colour(state.relic_owner), "at": state.relic().loc,
                     "value": state.relic().value or None}
    data["ships"] = {colour(i): _ships_of(state, i) for i in range(players)}
    result = state.result or {}
    data["winners"] = [colour(i) for i in result.get("winners", [])]
    data["tiebreak"] = result.get("tiebreak")
    return data


def seen_by(state: GameState) -> dict[str, Any]:
    """What each seat alone sees besides the public view (`view(state, seat)["you"]`): its
    face-down Agendas and, while it chooses, the Faction boards offered (ruling C4)."""
    return {COLOURS[i]: view(state, i)["you"] for i in range(state.players)}


def _ships_of(state: GameState, seat: int) -> dict[str, Any]:
    """Ships of a colour by place, shaped as in a position: values, or a count for bay/stock."""
    places: dict[str, Any] = {f: [] for f in FACILITY_NAMES}
    places.update({"stock": 0, "bay": 0, "unplaced": []})
    for ship in state.ships:
        if ship.owner != seat:
            continue
        if ship.loc in ("stock", "maintenance_bay"):
            key = "bay" if ship.loc == "maintenance_bay" else "stock"
            places[key] += 1
        else:
            places.setdefault(ship.loc, []).append(ship.value)
    for value in places.values():
        if isinstance(value, list):
            value.sort()
    places["maintenance_bay"] = places["bay"]
    return places


def lookup(data: Any, path: str) -> Any:
    """Follow a dotted path; a colour indexes a per-seat list, a number any list."""
    node = data
    for part in path.split("."):
        if isinstance(node, dict):
            if part not in node:
                raise KeyError(f"no '{part}' in '{path}' (there is: {', '.join(map(str, node))})")
            node = node[part]
        elif isinstance(node, list):
            index = _index(part)
            if index is None or not 0 <= index < len(node):
                raise KeyError(f"'{part}' does not index a list in '{path}'")
            node = node[index]
        else:
            raise KeyError(f"'{path}' goes past a value at '{part}'")
    return node


def _index(part: str) -> int | None:
    if part.isdigit():
        return int(part)
    return COLOURS.index(part) if part in COLOURS else None


def same(expected: Any, actual: Any) -> bool:
    """Equality as a scenario writer means it: 'none' is None, lists ignore order."""
    if isinstance(expected, str) and expected.lower() in NONE_WORDS:
        return actual is None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return False
        remaining = list(actual)
        for item in expected:
            hit = next((i for i, a in enumerate(remaining) if same(item, a)), None)
            if hit is None:
                return False
            remaining.pop(hit)
        return True
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def check_expectations(state: GameState, expect: dict[str, Any]) -> list[str]:
    """Every expectation that does not hold, as a sentence; empty when all hold."""
    data = facts(state)
    if any(path.startswith("seen_by.") for path in expect):
        data["seen_by"] = seen_by(state)
    problems: list[str] = []
    for path, wanted in expect.items():
        if path in ("legal_contains", "legal_excludes"):
            problems.extend(_legal_problems(state, path, wanted))
            continue
        try:
            actual = lookup(data, path)
        except KeyError as exc:
            problems.append(f"{path}: {exc.args[0]}")
            continue
        if not same(wanted, actual):
            problems.append(f"{path}: expected {wanted!r}, found {actual!r}")
    return problems


def _legal_problems(state: GameState, key: str, wanted: Any) -> list[str]:
    seat = awaited(state)
    menu = set() if seat is None else {format_action(a) for a in legal_actions(state, seat)}
    problems = []
    for text in [wanted] if isinstance(wanted, str) else list(wanted):
        try:
            canonical = format_action(parse_action(text, seat or 0, state.players))
        except RulesError as exc:
            problems.append(f"{key}: cannot read '{text}': {exc.message}")
            continue
        if (canonical in menu) != (key == "legal_contains"):
            verb = "is not" if key == "legal_contains" else "is"
            problems.append(f"{key}: '{canonical}' {verb} a legal action now")
    return problems


# -- running steps ----------------------------------------------------------------------------

def run_steps(state: GameState, steps: Sequence[dict[str, Any]]) -> list[StepResult]:
    """Play `steps` from `state` (which is not changed); one result per step."""
    results: list[StepResult] = []
    current = state.clone()
    broken = False
    for index, step in enumerate(steps, start=1):
        text = _step_text(step)
        if broken:
            results.append(StepResult(index, text, False, "not run: an earlier action failed"))
            continue
        current, message, broken = _run_step(current, step)
        results.append(StepResult(index, text, not message, message))
    return results


def _step_text(step: dict[str, Any]) -> str:
    do = step.get("do")
    words = do if isinstance(do, list) else [do] if do else []
    text = "; ".join(str(w) for w in words) or "(check)"
    return f"{text} as {step['as']}" if "as" in step else text


def _run_step(state: GameState, step: dict[str, Any]) -> tuple[GameState, str, bool]:
    """The state after the step, what went wrong ('' if nothing), and whether to stop."""
    unknown = set(step) - STEP_KEYS
    if unknown:
        return state, f"unknown step key(s): {', '.join(sorted(unknown))}", True
    state = state.clone()
    try:
        state.scripted.extend(die(v, "next_dice") for v in step.get("next_dice", []))
        if "as" in step:
            seat_index(step["as"], state.players)
    except ScenarioError as exc:
        return state, str(exc), True
    do = step.get("do", [])
    texts: list[str] = [do] if isinstance(do, str) else list(do)
    refused = step.get("refused")
    for n, text in enumerate(texts):
        last = n == len(texts) - 1
        before = state.to_json()
        try:
            state = _play(state, text, step.get("as"))
        except RulesError as exc:
            if refused is not None and last:
                return state, _refusal_problem(state, before, exc.message, str(refused)), False
            return state, f"'{text}' was refused: {exc.message}", True
        if refused is not None and last:
            return state, f"'{text}' should have been refused ({refused!r}) but was played", True
    problems = check_expectations(state, step.get("expect", {}))
    return state, "; ".join(problems), False


def _refusal_problem(state: GameState, before: dict[str, Any], message: str,
                     fragment: str) -> str:
    if state.to_json() != before:
        return "the refused action changed the state"
    if fragment.lower() not in message.lower():
        return f"refused with {message!r}, which does not contain {fragment!r}"
    return ""


def _play(state: GameState, text: str, who: Any) -> GameState:
    seat = seat_index(who, state.players) if who is not None else awaited(state)
    action: Action = parse_action(text, 0 if seat is None else seat, state.players)
    new, _ = apply(state, action)
    return new


def run_scenario(path: str | Path) -> list[StepResult]:
    """Build the file's position and play its steps. A position error is one failed step."""
    try:
        table = load(path)
        state = build_state(table)
    except (OSError, tomllib.TOMLDecodeError, ScenarioError, RulesError) as exc:
        return [StepResult(0, "position", False, str(exc))]
    steps = table.get("steps", [])
    if not steps:
        return [StepResult(0, "position", False, "the scenario has no [[steps]]")]
    return run_steps(state, steps)


# -- command line -----------------------------------------------------------------------------

def _files(paths: Sequence[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        p = Path(name)
        found.extend(sorted(p.glob("*.toml")) if p.is_dir() else [p])
    return found


def main_scenarios(paths: Sequence[str]) -> int:
    """Run scenario files (or directories of them); print PASS/FAIL per step and per file.

    Returns 0 when every step of every file passed, 1 otherwise, 2 when no file was given.
    """
    files = _files(paths)
    if not files:
        print("usage: python -m pbem.engine.scenarios FILE_OR_DIR...")
        return 2
    failed_files = 0
    for path in files:
        results = run_scenario(path)
        ok = all(r.passed for r in results)
        failed_files += not ok
        for r in results:
            line = f"  {'PASS' if r.passed else 'FAIL'} {r.index}: {r.text}"
            print(line + (f" — {r.message}" if r.message else ""))
        print(f"{'PASS' if ok else 'FAIL'} {path}")
    print(f"{len(files) - failed_files} of {len(files)} scenario file(s) passed")
    return 1 if failed_files else 0

