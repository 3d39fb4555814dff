from __future__ import annotations

import pytest

from .helpers import act, position, refused

BOARDS = ["corex", "new_gaia", "dark_space", "uranian"]


def _terraformed(rescue: str, roll: int) -> str:
    state = position(boards=BOARDS, players=2, options={"new_gaia_rescue": rescue},
                     next_dice=[roll],
                     seats={"red": {"fuel": 2, "ore": 1, "unplaced": [6, 3], "bay": 2}})
    state = act(state, "dock 6 terraforming", "land lem", "dock 3 new_gaia")
    ship = next(s for s in state.ships if s.loc == "terraforming_station")
    state.scripted = [1, 1, 1, 1, 1, 1, 1, 1]
    state = act(state, "end", "dock 1 solar", "dock 1 solar", "dock 1 solar", "end")
    return next(s for s in state.ships if s.id == ship.id).loc


@pytest.mark.parametrize(("rescue", "roll", "rescued"), [
    ("high", 5, True), ("high", 2, False), ("low", 2, True), ("low", 5, False)])
def test_the_re_rolled_ship_leaves_for_the_bay_or_the_stock_by_the_option(
        rescue: str, roll: int, rescued: bool) -> None:  # ruling F6
    assert (_terraformed(rescue, roll) != "stock") is rescued


def test_docking_needs_a_ship_docked_at_the_terraforming_station_this_turn() -> None:
    state = position(boards=BOARDS, seats={"red": {"fuel": 2, "unplaced": [3]}})
    refused(state, "dock 3 new_gaia", "New Gaia Engineers", "Terraforming Station")


def test_others_pay_the_terraforming_station_to_the_owner() -> None:  # ruling F7
    state = position(boards=BOARDS, seats={"red": {"fuel": 1, "ore": 1, "unplaced": [6],
                                                   "bay": 3}})
    state = act(state, "dock 6 terraforming")
    assert (state.seats[1].fuel, state.seats[1].ore) == (1, 1)


def test_the_owners_own_payment_goes_to_the_supply() -> None:
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "ore": 1, "unplaced": [6], "bay": 3}})
    state = act(state, "dock 6 terraforming")
    assert (state.seats[1].fuel, state.seats[1].ore) == (0, 0)
