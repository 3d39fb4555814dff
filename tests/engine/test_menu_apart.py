"""The menu's accelerator (`pbem.engine.menu`) is beside the rules, not inside them: `check`
judges from the rules alone and never runs its code, and the rules keep no memo of a state
(the invariant tests prove the menu equals `refusal` over every candidate)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import pbem.engine
from pbem.engine import (
    GameState,
    RulesError,
    apply_in_place,
    check,
    legal_actions,
    new_game,
    rules,
)
from pbem.engine.bots import greedy_bot, random_bot
from pbem.engine.rules import awaited

from .builds import pure_python_only

MENU = str(Path(pbem.engine.__file__).parent / "menu")
BASE = {"factions": False}


def _menu_code_run_by(call: Any) -> set[str]:
    """The functions of the menu package that run while `call()` runs."""
    seen: set[str] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code.co_filename.startswith(MENU):
            seen.add(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        call()
    except RulesError:
        pass
    finally:
        sys.setprofile(None)
    return seen


@pure_python_only
@pytest.mark.parametrize(("players", "options"), [(3, BASE), (4, None), (5, None)])
def test_check_never_runs_the_menu_accelerator(players: int, options: Any) -> None:
    state = new_game(players, 11, options)
    rng = [players, 4]
    steps = 0
    while state.phase != "over" and steps < 400:
        seat = awaited(state)
        assert seat is not None
        tried = legal_actions(state, seat) + rules.candidates(state, seat)[::7]
        for action in tried:
            assert _menu_code_run_by(lambda a=action: check(state, a)) == set(), action
        bot = greedy_bot if steps % 2 else random_bot
        apply_in_place(state, bot(state, seat, rng))
        steps += 1
    assert steps > 100


@pure_python_only
def test_the_menu_runs_the_accelerator() -> None:
    """The guard above would see the accelerator if it ran (the dockings of the first turn)."""
    state = new_game(4, 3)
    seat = awaited(state)
    assert seat is not None
    while not any(a.kind == "dock" for a in legal_actions(state, seat)):
        apply_in_place(state, random_bot(state, seat, [1, 1]))
        seat = awaited(state)
        assert seat is not None
    assert "legal_docks" in _menu_code_run_by(lambda: legal_actions(state, seat))


def test_the_unchecked_path_is_gone() -> None:
    assert not hasattr(pbem.engine, "perform_checked")
    assert "steady" not in vars(pbem.engine.lookup)


def _position_with_dockings() -> Any:
    state = new_game(4, 5, BASE)
    rng = [5, 5]
    while True:
        seat = awaited(state)
        assert seat is not None
        menu = legal_actions(state, seat)
        if sum(a.kind == "dock" for a in menu) >= 2:
            return state
        apply_in_place(state, random_bot(state, seat, rng))


@pure_python_only
@pytest.mark.parametrize("fault", ["drops a docking", "adds a refused docking",
                                   "reorders dockings"])
def test_the_invariant_check_catches_an_accelerator_that_errs(
        fault: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check_menu` compares two separate codes: a wrong accelerator cannot pass it."""
    from pbem.engine import facilities

    from .invariants import check_menu

    state = _position_with_dockings()
    check_menu(state)  # the real accelerator agrees with the rules
    real = rules.legal_docks

    def wrong(state: Any, seat: int) -> list[Any]:
        docks = real(state, seat)
        if fault == "drops a docking":
            return docks[1:]
        if fault == "reorders dockings":
            return docks[::-1]
        refused = next(d for d in facilities.candidates(state, seat)
                       if facilities.dock_refusal(state, d))
        return [*docks, refused]

    monkeypatch.setattr(rules, "legal_docks", wrong)
    with pytest.raises(AssertionError, match="the menu and refusal disagree"):
        check_menu(state)


@pytest.mark.parametrize(("players", "options"), [(4, BASE), (5, None)])
def test_a_power_whose_candidates_pass_its_refusal_says_so_truly(players: int,
                                                                 options: Any) -> None:
    """The menu's card judge skips the card's own refusal where the power declares
    `candidates_pass_refusal` (the Plasma Cannon; the Booster Pod, Stasis Beam and
    Experimental FTL Drive): in every position of these games, each candidate such a power
    builds is one its refusal accepts, held card or not."""
    from pbem.engine.alien_tech import SPECS

    declared = [power for card in SPECS for power in (card.use, card.discard)
                if power is not None and power.candidates_pass_refusal]
    assert declared, "no power declares it: the menu's shortcut is unused"
    asked = 0
    for state, seat in _turn_positions(players, options):
        for power in declared:
            for action in power.candidates(state, seat):
                assert power.refusal(state, action) is None, action
                asked += 1
    assert asked > 100


@pytest.mark.parametrize(("players", "options"), [(4, BASE), (5, None)])
def test_a_power_whose_candidates_are_within_the_fuel_says_so_truly(players: int,
                                                                    options: Any) -> None:
    """The menu's card judge skips pricing each candidate where the use power declares
    `candidates_within_fuel` (the Plasma Cannon, the Orbital Teleporter, the Chameleon
    Cloak): in every position of these games, each candidate such a power builds costs no
    more than the seat's fuel, Pohl Foothills counted."""
    from pbem.engine.alien_tech import SPECS, fuel_cost

    declared = [card.use for card in SPECS
                if card.use is not None and card.use.candidates_within_fuel]
    assert declared, "no power declares it: the menu's shortcut is unused"
    asked = 0
    for state, seat in _turn_positions(players, options):
        for power in declared:
            for action in power.candidates(state, seat):
                assert fuel_cost(state, action) <= state.seats[seat].fuel, action
                asked += 1
    assert asked > 100


def _turn_positions(players: int, options: Any) -> Iterator[tuple[GameState, int]]:
    """The positions of one game (greedy and random moves in turn, seed 7, at most 600
    steps) where the active seat decides with nothing pending: where card uses are offered."""
    state = new_game(players, 7, options)
    rng = [players, 9]
    steps = 0
    while state.phase != "over" and steps < 600:
        seat = awaited(state)
        assert seat is not None
        if state.turn.pending is None and seat == state.turn.seat:
            yield state, seat
        bot = greedy_bot if steps % 2 else random_bot
        apply_in_place(state, bot(state, seat, rng))
        steps += 1


@pytest.mark.parametrize(("players", "options"), [(4, BASE), (5, None)])
def test_a_power_that_judges_many_at_once_answers_as_its_refusal(players: int,
                                                                 options: Any) -> None:
    """Where a power offers `refusals` (the menu's batch judge), its answers, reasons and
    all, are its `refusal`'s of each action: the candidates of every seat, held card or not,
    and the same actions aimed at other players' ships."""
    from dataclasses import fields, replace

    from pbem.engine.alien_tech import SPECS

    declared = [power for card in SPECS for power in (card.use, card.discard)
                if power is not None and power.refusals is not None]
    assert declared, "no power offers it"
    state = new_game(players, 7, options)
    rng = [players, 9]
    steps = asked = 0
    while state.phase != "over" and steps < 600:
        seat = awaited(state)
        assert seat is not None
        for power in declared:
            tried = [a for s in range(players) for a in power.candidates(state, s)]
            names = {f.name for f in fields(power.action)}
            if "owner" in names:
                tried += [replace(a, owner=(a.owner + 1) % players) for a in tried[::3]]
            assert power.refusals is not None
            assert power.refusals(state, tried) == [power.refusal(state, a) for a in tried]
            asked += len(tried)
        bot = greedy_bot if steps % 2 else random_bot
        apply_in_place(state, bot(state, seat, rng))
        steps += 1
    assert asked > 100
