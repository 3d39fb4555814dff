from __future__ import annotations

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
