"""Data Crystal: 1 fuel per colony on a territory to borrow its bonus this turn; discard
places or moves the Positron Field."""

from __future__ import annotations

from .helpers import menu, play, position, refused


def test_e26_data_crystal_borrows_heinlein_plains_for_two_fuel() -> None:
    state = position(colonies={"heinlein": {"green": 1, "red": 1}}, players=3,
                     seats={"blue": {"fuel": 9, "unplaced": [1, 6, 6], "cards": ["crystal"]}},
                     turn="blue")
    after, _ = play(state, "use data_crystal heinlein", "dock 6 6 orbital_market", "trade 1")
    assert after.turn.borrowed == ["heinlein_plains"]
    assert after.seats[2].fuel == 9 - 2 - 1
    assert after.seats[2].ore == 1


def test_data_crystal_costs_one_fuel_per_colony_of_every_player() -> None:
    state = position(colonies={"lem": {"green": 2, "red": 1}},
                     seats={"red": {"fuel": 2, "unplaced": [3], "cards": ["data_crystal"]}})
    refused(state, "use data_crystal lem", "Data Crystal", "costs 3 fuel; you have 2")


def test_data_crystal_refused_on_a_territory_without_colonies() -> None:
    state = position(seats={"red": {"fuel": 5, "unplaced": [3], "cards": ["data_crystal"]}})
    refused(state, "use data_crystal lem", "Data Crystal", "Lem Badlands has no colonies")


def test_data_crystal_refused_on_burroughs_desert() -> None:
    state = position(colonies={"burroughs": {"green": 1}},
                     seats={"red": {"fuel": 5, "unplaced": [3], "cards": ["data_crystal"]}})
    refused(state, "use data_crystal burroughs", "Data Crystal", "Burroughs Desert",
            "cannot be borrowed")


def test_e22_data_crystal_cannot_borrow_pohl_foothills_under_the_isolation_field() -> None:
    state = position(colonies={"pohl": {"green": 1}}, fields={"isolation": "pohl"},
                     seats={"red": {"fuel": 5, "unplaced": [3], "cards": ["data_crystal"]}})
    refused(state, "use data_crystal pohl", "Data Crystal", "Isolation Field", "cancels")


def test_data_crystal_bonus_you_also_control_applies_once_ruling_b23() -> None:
    state = position(colonies={"lem": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [3], "cards": ["data_crystal"]}})
    after, _ = play(state, "use data_crystal lem", "dock 3 solar_converter")
    assert after.seats[0].fuel == 0 + 2 + 1  # 2 for a 3, +1 once for Lem Badlands


def test_data_crystal_borrowed_bonus_lasts_only_this_turn() -> None:
    state = position(colonies={"lem": {"green": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [3], "cards": ["data_crystal"]}})
    after, _ = play(state, "use data_crystal lem", "dock 3 solar_converter", "end")
    assert after.turn.borrowed == []


def test_data_crystal_menu_offers_only_territories_it_may_borrow() -> None:
    state = position(colonies={"lem": {"green": 1}, "burroughs": {"green": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [3], "cards": ["data_crystal"]}})
    assert {t for t in menu(state) if t.startswith("use")} == {"use data_crystal lem_badlands"}


def test_data_crystal_discard_moves_the_positron_field() -> None:
    state = position(fields={"positron": "lem"}, colonies={"pohl": {"red": 1}},
                     seats={"red": {"unplaced": [3], "cards": ["data_crystal"]}})
    after, _ = play(state, "discard data_crystal pohl")
    assert after.fields["positron_field"] == "pohl_foothills"
    assert after.seats[0].cards == []
