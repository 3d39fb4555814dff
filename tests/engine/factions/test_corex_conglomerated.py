from __future__ import annotations

from .helpers import act, position, refused


def test_docking_pays_fee_and_two_fuel_for_one_ore_per_controlled_territory() -> None:
    state = position(turn="blue", seats={"blue": {"fuel": 3, "unplaced": [2]}},
                     colonies={"lem_badlands": {"blue": 1}, "pohl_foothills": {"blue": 2}})
    state = act(state, "dock 2 corex")
    assert (state.seats[2].fuel, state.seats[2].ore, state.seats[0].fuel) == (0, 2, 1)


def test_owner_docks_without_the_access_fee() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [2]}})
    state = act(state, "dock 2 corex")
    assert state.seats[0].fuel == 0


def test_docking_is_refused_when_the_fee_and_cost_cannot_be_paid() -> None:
    state = position(turn="blue", seats={"blue": {"fuel": 2, "unplaced": [2]}})
    refused(state, "dock 2 corex", "Corex Conglomerated", "access fee to red", "cannot pay")


def test_owner_gains_one_fuel_plus_one_per_territory_before_the_roll() -> None:  # ruling F15
    state = position(turn="yellow", colonies={"asimov_crater": {"red": 1}})
    state = act(state, "end")
    assert state.seats[0].fuel == 2


def test_a_board_nobody_chose_has_no_facility() -> None:
    state = position(seats={"red": {"fuel": 3, "unplaced": [2]}})
    refused(state, "dock 2 smugglers", "Smuggler's Alliance")
    refused(state, "dock 2 homesteaders", "Homesteader's Union", "not in the game")
