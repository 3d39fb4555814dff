"""Ruling B20 for borrowed ships (Astrogation Servo, T1): a borrowed ship counts as the
borrower's for facility benefits, card effects and Agenda conditions during the borrower's
turn, and as its owner's from the end of that turn, wherever it is; ownership never changes.
Every card and condition asks `lookup.commander`."""

from __future__ import annotations

from typing import Any

from pbem.engine.agendas.catalog import AGENDAS
from pbem.engine.agendas.conditions import artifact_eight, fill_mine
from pbem.engine.lookup import commander, fleet
from pbem.engine.state import GameState

from .helpers import menu, play, position, refused, values

F = {"factions": True}
RED, GREEN, BLUE = 0, 1, 2


def borrowed(red: dict[str, Any], dice: list[int], **seats: dict[str, Any]) -> GameState:
    """Three players; Red to play, with 2 fuel more than `red` says and the Servo; Blue's
    three Bay ships wait to be borrowed; `dice` are the next faces (the borrowed ship first,
    then Green's gather)."""
    red = {**red, "fuel": red.get("fuel", 0) + 2,
           "cards": ["astrogation_servo", *red.get("cards", [])]}
    table = {"red": red, "blue": {"bay": 3}, **seats}
    state = position(options=F, players=3, next_dice=dice, seats=table)
    after, _ = play(state, "use astrogation_servo blue")
    return after


def blue_ship(state: GameState, loc: str) -> int:
    return next(i for i, s in enumerate(state.ships) if s.owner == BLUE and s.loc == loc)


def test_commander_of_a_borrowed_ship_is_the_borrower_until_the_end_of_the_turn() -> None:
    state = borrowed({"unplaced": [1]}, [6, 2, 2, 2], green={"bay": 3})
    state, _ = play(state, "dock 6 lunar_mine")
    ship = state.ships[blue_ship(state, "lunar_mine")]
    assert ship.owner == BLUE and commander(state, ship) == RED  # ownership never changes
    assert ship in fleet(state, RED) and ship not in fleet(state, BLUE)
    state, _ = play(state, "dock 1 solar_converter", "end")
    ship = state.ships[blue_ship(state, "lunar_mine")]
    assert commander(state, ship) == BLUE  # from the end of that turn, wherever it is


def test_the_relic_ship_is_commanded_by_its_owner() -> None:
    state = position(options=F, seats={"red": {"unplaced": [1, "4r"]}},
                     colonies={"burroughs_desert": {"red": 1}})
    assert commander(state, state.ships[-1]) == RED


# -- Plasma Cannon ------------------------------------------------------------------------------

def test_plasma_cannon_never_targets_a_ship_you_borrowed_this_turn() -> None:
    state = borrowed({"unplaced": [1], "fuel": 1, "cards": ["plasma_cannon"]}, [6])
    state, _ = play(state, "dock 6 lunar_mine")
    refused(state, "use plasma_cannon lunar_mine blue 6", "your borrowed ship", "B20")
    refused(state, "discard plasma_cannon blue 6 lunar_mine", "your borrowed ship", "B20")


def test_plasma_cannon_treats_a_borrowed_ship_as_its_owners_on_a_later_turn() -> None:
    state = borrowed({"unplaced": [1]}, [6, 2, 2, 2],
                     green={"fuel": 1, "bay": 3, "cards": ["plasma_cannon"]})
    state, _ = play(state, "dock 6 lunar_mine", "dock 1 solar_converter", "end")
    assert state.turn.seat == GREEN
    assert "use plasma_cannon lunar_mine blue 6" in menu(state)
    state, _ = play(state, "use plasma_cannon lunar_mine blue 6")
    assert blue_ship(state, "maintenance_bay") is not None and state.at("lunar_mine") == []


# -- Solar Harvester ------------------------------------------------------------------------

def test_solar_harvester_does_not_count_a_ship_you_borrowed_this_turn() -> None:
    state = borrowed({"unplaced": [1], "cards": ["solar_harvester"]}, [6],
                     green={"docked": {"solar_converter": [3]}})
    state, _ = play(state, "dock 6 solar_converter")
    before = state.seats[RED].fuel
    state, _ = play(state, "use solar_harvester")
    assert state.seats[RED].fuel == before + 1  # Green's ship only, not the borrowed blue 6


def test_solar_harvester_refused_when_only_your_borrowed_ship_is_there() -> None:
    state = borrowed({"unplaced": [1], "cards": ["solar_harvester"]}, [6])
    state, _ = play(state, "dock 6 solar_converter")
    refused(state, "use solar_harvester", "Solar Harvester", "no opponent's ship")


def test_solar_harvester_counts_a_borrowed_ship_as_its_owners_on_a_later_turn() -> None:
    state = borrowed({"unplaced": [1]}, [6, 2, 2, 2],
                     green={"bay": 3, "cards": ["solar_harvester"]})
    state, _ = play(state, "dock 6 solar_converter", "dock 1 lunar_mine", "end")
    state, _ = play(state, "use solar_harvester")
    assert state.seats[GREEN].fuel == 1  # the blue 6 is Blue's now


# -- Orbital Teleporter ---------------------------------------------------------------------

def test_teleporter_moves_a_ship_you_borrowed_this_turn_as_your_own() -> None:
    state = borrowed({"unplaced": [1], "fuel": 2, "cards": ["orbital_teleporter"]}, [6])
    state, _ = play(state, "dock 6 lunar_mine")
    assert "use orbital_teleporter lunar_mine 6 alien_artifact" in menu(state)
    state, _ = play(state, "use orbital_teleporter lunar_mine 6 alien_artifact")
    assert blue_ship(state, "alien_artifact") is not None
    assert state.turn.artifact_total == 6  # the benefit is the borrower's


def test_teleporter_docks_the_borrowed_ship_itself_not_an_equal_ship_of_yours() -> None:
    state = borrowed({"unplaced": [5], "fuel": 3,
                      "cards": ["orbital_teleporter", "booster_pod"]}, [6])
    state, _ = play(state, "dock 6 lunar_mine", "use booster_pod 5")  # Red's own 5 -> 6
    state, _ = play(state, "use orbital_teleporter lunar_mine 6 alien_artifact")
    assert blue_ship(state, "alien_artifact") is not None  # the blue ship moved, not Red's
    assert [s.value for s in state.ships if s.owner == RED and s.loc == "unplaced"] == [6]


def test_teleporter_never_takes_a_borrowed_ship_to_the_terraforming_station() -> None:
    state = borrowed({"unplaced": [5], "fuel": 4, "ore": 1,
                      "cards": ["orbital_teleporter", "booster_pod"]}, [6])
    state, _ = play(state, "dock 6 lunar_mine", "use booster_pod 5")
    refused(state, "use orbital_teleporter lunar_mine 6 terraforming_station",
            "Astrogation Servo", "T1")


# -- Chameleon Cloak ------------------------------------------------------------------------

def test_cloak_never_replaces_a_ship_you_borrowed_this_turn() -> None:
    state = borrowed({"unplaced": [1], "fuel": 2, "cards": ["chameleon_cloak"]}, [6])
    state, _ = play(state, "dock 6 lunar_mine")
    refused(state, "use chameleon_cloak lunar_mine blue 6", "your borrowed ship")


def test_cloak_replaces_a_borrowed_ship_as_its_owners_on_a_later_turn() -> None:
    state = borrowed({"unplaced": [1]}, [6, 6, 2, 2],
                     green={"fuel": 2, "bay": 3, "cards": ["chameleon_cloak"]})
    state, _ = play(state, "dock 6 lunar_mine", "dock 1 solar_converter", "end")
    state, _ = play(state, "use chameleon_cloak lunar_mine blue 6")
    assert state.seats[GREEN].ore == 1 and blue_ship(state, "maintenance_bay") is not None


# -- cards that change unplaced ships -------------------------------------------------------

def test_gravity_manipulator_and_temporal_warper_act_on_a_borrowed_unplaced_ship() -> None:
    state = borrowed({"unplaced": [2], "fuel": 3,
                      "cards": ["gravity_manipulator", "temporal_warper"]}, [5, 1, 6])
    state, _ = play(state, "use gravity_manipulator 5 2")  # the blue 5 down, Red's 2 up
    assert values(state, RED) == [3, 4]
    assert state.ships[blue_ship(state, "unplaced")].value == 4
    state, _ = play(state, "use temporal_warper 3 4")
    assert state.ships[blue_ship(state, "unplaced")].value == 6 and values(state, RED) == [1, 6]


# -- Agenda conditions (ruling A3) ----------------------------------------------------------

def met(state: GameState) -> list[str]:
    return list(state.turn.facts.get("met", []))


def test_fill_mine_counts_a_ship_borrowed_this_turn_as_the_borrowers() -> None:
    state = borrowed({"unplaced": [4, 5, 6]}, [6])  # 3 players: four Lunar Mine ports
    state, _ = play(state, "dock 4 lunar_mine", "dock 5 lunar_mine", "dock 6 lunar_mine",
                    "dock 6 lunar_mine")
    assert fill_mine(state, RED) and "fill_mine" in met(state)


def test_artifact_eight_counts_a_ship_borrowed_this_turn_as_the_borrowers() -> None:
    state = borrowed({"unplaced": [1, 1, 3]}, [3])
    state, _ = play(state, "dock 1 alien_artifact", "dock 1 alien_artifact",
                    "dock 3 alien_artifact", "dock 3 alien_artifact")
    assert artifact_eight(state, RED) and "artifact_eight" in met(state)


def test_fill_solar_counts_a_ship_borrowed_this_turn_as_the_borrowers() -> None:
    state = borrowed({"unplaced": [1]}, [6],
                     green={"docked": {"solar_converter": [1, 1, 1, 1, 1, 1]}})
    state, _ = play(state, "dock 6 solar_converter")
    assert AGENDAS["fill_solar"].in_game(state, RED, state.turn.facts)
    assert "fill_solar" in met(state)


def test_after_the_turn_the_borrowed_ship_fills_nothing_for_the_borrower() -> None:
    state = borrowed({"unplaced": [4, 5, 6]}, [6, 1, 1, 1], green={"bay": 3})
    state, _ = play(state, "dock 4 lunar_mine", "dock 5 lunar_mine", "dock 6 lunar_mine",
                    "dock 6 lunar_mine", "end")
    assert not fill_mine(state, RED) and state.turn.seat == GREEN


def test_bumping_your_own_relic_ship_from_the_raiders_outpost_is_bumping_yourself() -> None:
    state = position(options=F, seats={"red": {"unplaced": [4, 5, 6],
                                               "docked": {"raiders_outpost": [["3r"]]}}},
                     colonies={"burroughs_desert": {"red": 1}})
    state, events = play(state, "dock 4 5 6 raiders_outpost")
    assert any(e["kind"] == "bumped" and e["owners"] == [RED] for e in events)
    assert state.turn.facts.get("bumped_self")
