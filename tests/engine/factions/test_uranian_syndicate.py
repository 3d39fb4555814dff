from __future__ import annotations

import pytest

from pbem.engine.factions import uranian_syndicate

from .helpers import act, position, refused

BOARDS = ["uranian", "corex", "dark_space", "scavenger"]


def test_moving_your_own_colony_costs_one_ore_and_an_opponents_two() -> None:  # ruling F14
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "ore": 1, "unplaced": [2]}},
                     colonies={"lem_badlands": {"green": 1, "blue": 1}})
    state = act(state, "dock 2 uranian")
    refused(state, "move blue lem pohl", "Uranian Syndicate", "costs 2 ore")
    state = act(state, "move green lem pohl")
    assert state.colonies["pohl_foothills"][1] == 1 and state.seats[1].ore == 0


def test_the_repulsor_field_blocks_both_ends() -> None:
    state = position(boards=BOARDS, turn="green", fields={"repulsor_field": "pohl_foothills"},
                     seats={"green": {"fuel": 1, "ore": 1, "unplaced": [2]}},
                     colonies={"lem_badlands": {"green": 1}})
    state = act(state, "dock 2 uranian")
    refused(state, "move green lem pohl", "Uranian Syndicate", "Repulsor Field")


def test_docking_is_refused_when_no_colony_could_move() -> None:
    state = position(boards=BOARDS, turn="green", seats={"green": {"fuel": 1, "unplaced": [2]}},
                     colonies={"lem_badlands": {"blue": 1}})
    refused(state, "dock 2 uranian", "Uranian Syndicate", "could move no colony")


def test_owner_uses_a_contested_bonus_once_and_not_an_isolated_one() -> None:
    state = position(boards=BOARDS, fields={"isolation_field": "heinlein_plains"},
                     seats={"red": {"unplaced": [3]}},
                     colonies={"lem_badlands": {"green": 1, "blue": 1},
                               "heinlein_plains": {"green": 1, "blue": 1}})
    refused(state, "contest heinlein", "Uranian Syndicate", "not contested")
    state = act(state, "contest lem", "dock 3 solar")
    assert state.seats[0].fuel == 3


@pytest.mark.parametrize("ore", [0, 1, 2])
@pytest.mark.parametrize("repulsor", [None, "lem_badlands", "pohl_foothills"])
@pytest.mark.parametrize("colonies", [
    {}, {"lem_badlands": {"blue": 1}}, {"lem_badlands": {"green": 1}},
    {"pohl_foothills": {"green": 1, "blue": 2}}, {"lem_badlands": {"blue": 1, "green": 1},
                                                  "pohl_foothills": {"yellow": 1}},
])
def test_docking_is_allowed_exactly_when_some_move_would_be(
        ore: int, repulsor: str | None, colonies: dict[str, dict[str, int]]) -> None:
    """The facility's quick answer (`_can_move`, which stops early and skips moves the ore
    cannot pay for) agrees with asking `move_refusal` of every move."""
    state = position(boards=BOARDS, turn="green", colonies=colonies,
                     fields={"repulsor_field": repulsor} if repulsor else {},
                     seats={"green": {"fuel": 1, "ore": ore, "unplaced": [2]}})
    every = any(uranian_syndicate.move_refusal(state, move) is None
                for move in uranian_syndicate._moves(state, 1))
    assert uranian_syndicate._can_move(state, 1) is every
