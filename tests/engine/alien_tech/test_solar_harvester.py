"""Solar Harvester (ruling T8): once per turn, free, 1 fuel per opponent ship at the Solar
Converter; discard: every other player returns all their fuel."""

from __future__ import annotations

from .helpers import play, position, refused

F = {"factions": True}


def test_solar_harvester_gains_one_fuel_per_opponent_ship_at_the_converter() -> None:
    state = position(options=F, players=4, turn="yellow", seats={
        "blue": {"docked": {"solar_converter": [1, 2]}},
        "green": {"docked": {"solar_converter": [3, 4]}},
        "yellow": {"unplaced": [1], "docked": {"solar_converter": [6]},
                   "cards": ["solar_harvester"]}})
    after, _ = play(state, "use solar_harvester")
    assert after.seats[3].fuel == 4  # its own ship does not count


def test_solar_harvester_works_once_per_turn_and_the_capacitor_cannot_repeat_it() -> None:
    state = position(options=F, seats={
        "green": {"docked": {"solar_converter": [1]}},
        "red": {"fuel": 3, "unplaced": [1],
                "cards": ["solar_harvester", "oscillation_capacitor"]}})
    after, _ = play(state, "use harvester")
    refused(after, "use harvester", "Solar Harvester", "only once per turn")


def test_solar_harvester_refused_with_no_opponent_ship_there() -> None:
    state = position(options=F, seats={"red": {"unplaced": [1], "cards": ["solar_harvester"],
                                                "docked": {"solar_converter": [5]}}})
    refused(state, "use solar_harvester", "Solar Harvester", "no opponent's ship")


def test_solar_harvester_discard_empties_every_other_players_fuel() -> None:
    state = position(options=F, players=3, seats={
        "green": {"fuel": 5, "ore": 2}, "blue": {"fuel": 1},
        "red": {"fuel": 4, "unplaced": [1], "cards": ["solar_harvester"]}})
    after, _ = play(state, "discard solar_harvester")
    assert [s.fuel for s in after.seats] == [4, 0, 0]
    assert after.seats[1].ore == 2
