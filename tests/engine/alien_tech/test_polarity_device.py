"""Polarity Device: 1 fuel, flip one unplaced ship (v → 7 − v); discard swaps two colonies."""

from __future__ import annotations

from .helpers import menu, play, position, refused, values


def test_e34_polarity_device_flips_a_one_to_a_six() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [1, 2, 5],
                                    "cards": ["polarity_device"]}})
    after, _ = play(state, "use polarity 1")
    assert values(after, 0) == [2, 5, 6]
    assert after.seats[0].fuel == 0


def test_polarity_device_refused_without_fuel() -> None:
    state = position(seats={"red": {"fuel": 0, "unplaced": [1], "cards": ["polarity_device"]}})
    refused(state, "use polarity_device 1", "Polarity Device", "costs 1 fuel")


def test_e35_polarity_device_discard_swaps_two_colonies_and_both_lose_control() -> None:
    state = position(players=4, colonies={"herbert": {"yellow": 2}, "lem": {"red": 2}},
                     seats={"red": {"unplaced": [2], "cards": ["polarity_device"]}})
    after, _ = play(state, "discard polarity_device yellow herbert red lem")
    assert after.colonies["herbert_valley"] == [1, 0, 0, 1]
    assert after.colonies["lem_badlands"] == [1, 0, 0, 1]
    assert after.controllers["herbert_valley"] is None
    assert after.controllers["lem_badlands"] is None


def test_polarity_device_discard_refused_when_the_repulsor_field_is_on_either_territory() -> None:
    state = position(fields={"repulsor": "asimov"},
                     colonies={"asimov": {"green": 1}, "lem": {"red": 1}},
                     seats={"red": {"unplaced": [2], "cards": ["polarity_device"]}})
    refused(state, "discard polarity_device green asimov red lem", "Polarity Device",
            "Repulsor Field on Asimov Crater")
    refused(state, "discard polarity_device red lem green asimov", "Polarity Device",
            "Repulsor Field")


def test_polarity_device_discard_refused_for_a_colony_that_is_not_there() -> None:
    state = position(colonies={"lem": {"red": 1}},
                     seats={"red": {"unplaced": [2], "cards": ["polarity_device"]}})
    refused(state, "discard polarity_device green asimov red lem", "Polarity Device",
            "green has no colony on Asimov Crater")


def test_polarity_device_discard_refused_for_two_colonies_of_one_player() -> None:
    state = position(colonies={"lem": {"red": 1}, "pohl": {"red": 1}},
                     seats={"red": {"unplaced": [2], "cards": ["polarity_device"]}})
    refused(state, "discard polarity_device red lem red pohl", "Polarity Device",
            "same player")


def test_polarity_device_discard_menu_offers_each_swap_once() -> None:
    state = position(colonies={"lem": {"red": 1}, "pohl": {"green": 1}},
                     seats={"red": {"unplaced": [2], "cards": ["polarity_device"]}})
    swaps = {t for t in menu(state) if t.startswith("discard")}
    assert swaps == {"discard polarity_device red lem_badlands green pohl_foothills"}
