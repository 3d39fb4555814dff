"""Gravity Manipulator: 2 fuel, −1 to one unplaced ship and +1 to another (B22 as a whole);
discard places or moves the Repulsor Field."""

from __future__ import annotations

from .helpers import play, position, refused, values


def test_e27_gravity_manipulator_turns_two_into_one_and_five_into_six() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [1, 2, 5], "cards": ["gravity"]}})
    after, _ = play(state, "use gravity 2 5")
    assert values(after, 0) == [1, 1, 6]
    assert after.seats[0].fuel == 0


def test_gravity_manipulator_costs_one_with_pohl_foothills() -> None:
    state = position(colonies={"pohl": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [2, 5], "cards": ["gravity"]}})
    after, _ = play(state, "use gravity 2 5")
    assert after.seats[0].fuel == 0


def test_gravity_manipulator_refused_as_a_whole_when_one_ship_would_leave_range_b22() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [1, 3, 6],
                                    "cards": ["gravity_manipulator"]}})
    refused(state, "use gravity_manipulator 1 3", "Gravity Manipulator", "ruling B22")
    refused(state, "use gravity_manipulator 3 6", "Gravity Manipulator", "whole use is illegal")


def test_gravity_manipulator_needs_two_different_ships() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [3, 5],
                                    "cards": ["gravity_manipulator"]}})
    refused(state, "use gravity_manipulator 3 3", "Gravity Manipulator",
            "two different unplaced ships")
    two = position(seats={"red": {"fuel": 2, "unplaced": [3, 3],
                                  "cards": ["gravity_manipulator"]}})
    after, _ = play(two, "use gravity_manipulator 3 3")
    assert values(after, 0) == [2, 4]


def test_gravity_manipulator_refused_with_one_fuel() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [3, 5],
                                    "cards": ["gravity_manipulator"]}})
    refused(state, "use gravity_manipulator 3 5", "Gravity Manipulator", "costs 2 fuel")


def test_gravity_manipulator_discard_places_the_repulsor_field() -> None:
    state = position(seats={"red": {"unplaced": [3], "cards": ["gravity_manipulator"]}})
    after, _ = play(state, "discard gravity asimov")
    assert after.fields["repulsor_field"] == "asimov_crater"
