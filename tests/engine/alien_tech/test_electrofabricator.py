"""Electrofabricator (ruling T3): once per turn 2 fuel for 1 ore; discard for 3 ore."""

from __future__ import annotations

from .helpers import menu, play, position, refused

F = {"factions": True}


def test_electrofabricator_pays_two_fuel_for_one_ore() -> None:
    state = position(options=F, seats={"red": {"fuel": 2, "unplaced": [1],
                                                "cards": ["electrofabricator"]}})
    after, _ = play(state, "use electrofabricator")
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 1)


def test_electrofabricator_use_costs_one_with_pohl_foothills() -> None:
    state = position(options=F, colonies={"pohl": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [1], "cards": ["fabricator"]}})
    after, _ = play(state, "use fabricator")
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 1)


def test_electrofabricator_works_once_per_turn() -> None:
    state = position(options=F, seats={"red": {"fuel": 4, "unplaced": [1],
                                                "cards": ["electrofabricator"]}})
    after, _ = play(state, "use electrofabricator")
    refused(after, "use electrofabricator", "Electrofabricator", "only once per turn")


def test_electrofabricator_refused_without_two_fuel() -> None:
    state = position(options=F, seats={"red": {"fuel": 1, "unplaced": [1],
                                                "cards": ["electrofabricator"]}})
    refused(state, "use electrofabricator", "Electrofabricator", "costs 2 fuel")


def test_electrofabricator_discard_gives_three_ore() -> None:
    state = position(options=F, seats={"red": {"unplaced": [1],
                                                "cards": ["electrofabricator"]}})
    assert "discard electrofabricator" in menu(state)
    after, _ = play(state, "discard electrofabricator")
    assert after.seats[0].ore == 3 and after.seats[0].cards == []
    assert after.discard[-1] == "electrofabricator"
