"""Lunar Tunneler (ruling T5): once per turn, right after you dock at the Lunar Mine, 1 fuel
for 1 extra ore; discard: every ship at the Lunar Mine goes to the Maintenance Bay."""

from __future__ import annotations

from .helpers import menu, play, position, refused

F = {"factions": True}


def test_lunar_tunneler_gives_a_second_ore_right_after_a_mine_docking() -> None:
    state = position(options=F, seats={"red": {"fuel": 1, "unplaced": [5, 2],
                                                "cards": ["lunar_tunneler"]}})
    after, _ = play(state, "dock 5 lunar_mine", "use lunar_tunneler")
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 2)


def test_lunar_tunneler_needs_a_mine_docking_just_before() -> None:
    state = position(options=F, seats={"red": {"fuel": 1, "unplaced": [5, 2],
                                                "cards": ["lunar_tunneler"]}})
    refused(state, "use lunar_tunneler", "Lunar Tunneler", "right after you dock")
    after, _ = play(state, "dock 5 lunar_mine", "dock 2 solar_converter")
    refused(after, "use lunar_tunneler", "Lunar Tunneler", "right after you dock")


def test_lunar_tunneler_works_once_per_turn() -> None:
    state = position(options=F, seats={"red": {"fuel": 2, "unplaced": [5, 6],
                                                "cards": ["lunar_tunneler"]}})
    after, _ = play(state, "dock 5 lunar_mine", "use lunar_tunneler", "dock 6 lunar_mine")
    refused(after, "use lunar_tunneler", "Lunar Tunneler", "only once per turn")


def test_lunar_tunneler_is_free_with_pohl_foothills() -> None:
    state = position(options=F, colonies={"pohl": {"red": 1}},
                     seats={"red": {"unplaced": [5], "cards": ["lunar_tunneler"]}})
    after, _ = play(state, "dock 5 lunar_mine")
    assert "use lunar_tunneler" in menu(after)
    after, _ = play(after, "use lunar_tunneler")
    assert after.seats[0].ore == 2


def test_lunar_tunneler_discard_sends_every_mine_ship_to_the_bay() -> None:
    state = position(options=F, players=3, seats={
        "green": {"docked": {"lunar_mine": [5, 6]}}, "blue": {"docked": {"lunar_mine": [6]}},
        "red": {"unplaced": [3], "cards": ["lunar_tunneler"], "docked": {"lunar_mine": [4]}}})
    after, _ = play(state, "discard lunar_tunneler")
    assert after.at("lunar_mine") == []
    after, _ = play(after, "dock 3 lunar_mine")
    assert after.seats[0].ore == 1


def test_lunar_tunneler_discard_refused_on_an_empty_mine() -> None:
    state = position(options=F, seats={"red": {"unplaced": [3], "cards": ["lunar_tunneler"]}})
    refused(state, "discard lunar_tunneler", "Lunar Tunneler", "no ship is docked")
