"""Astrogation Servo (ruling T1, B20): 2 fuel takes a ship from the Maintenance Bay and rolls
it; it is your unplaced ship this turn, never at the Terraforming Station; its owner gathers
it at their next turn wherever it is. Discard: every ship at one facility to the Maintenance
Bay (a Terraforming ship to the stock)."""

from __future__ import annotations

from pbem.engine.lookup import unplaced_indices
from pbem.engine.state import GameState

from .helpers import menu, play, position, refused


def values(state: GameState, seat: int) -> list[int]:
    """Unplaced ship values of `seat`, a borrowed ship included (ruling B20)."""
    return sorted(state.ships[i].value for i in unplaced_indices(state, seat))

F = {"factions": True}


def test_servo_borrows_a_bay_ship_and_rolls_it() -> None:
    state = position(options=F, next_dice=[6], seats={
        "red": {"fuel": 2, "unplaced": [3], "cards": ["servo"]}, "green": {"bay": 3}})
    after, events = play(state, "use servo green")
    assert values(after, 0) == [3, 6] and after.seats[0].fuel == 0
    assert any(e["kind"] == "borrowed_ship" and e.get("barrier") for e in events)
    assert "dock 6 lunar_mine" in menu(after)


def test_borrowed_ship_docks_for_the_borrower_and_goes_home_at_its_owners_gather() -> None:
    state = position(options=F, next_dice=[6, 1, 1, 1], seats={
        "red": {"fuel": 2, "unplaced": [3], "cards": ["servo"]}, "green": {"bay": 3}})
    after, _ = play(state, "use servo green", "dock 6 lunar_mine", "dock 3 solar_converter")
    assert after.seats[0].ore == 1
    after, _ = play(after, "end")
    green = [s for s in after.ships if s.owner == 1]
    assert sum(1 for s in green if s.loc == "unplaced") == 3  # gathered from the mine


def test_unused_borrowed_ship_goes_to_the_bay_at_the_end_of_the_turn() -> None:
    state = position(options=F, next_dice=[6], players=4, seats={
        "green": {"docked": {"lunar_mine": [6, 6, 6, 6, 6]}, "bay": 1},
        "blue": {"docked": {"alien_artifact": [1, 1, 1, 1], "solar_converter": [1, 1]}},
        "yellow": {"docked": {"solar_converter": [1, 1, 1, 1, 1, 1]}},
        "red": {"fuel": 2, "hub": 7, "unplaced": [], "cards": ["servo"], "bay": 3}})
    after, _ = play(state, "use servo green")
    assert "end" in menu(after)
    after, _ = play(after, "end")
    assert sum(1 for s in after.ships if s.owner == 1 and s.loc == "maintenance_bay") == 0
    assert sum(1 for s in after.ships if s.owner == 1 and s.loc == "unplaced") == 6


def test_borrowed_ship_may_never_dock_at_the_terraforming_station() -> None:
    state = position(options=F, next_dice=[6], seats={
        "red": {"fuel": 3, "ore": 1, "unplaced": [2], "cards": ["servo"], "bay": 3},
        "green": {"bay": 3}})
    after, _ = play(state, "use servo green")
    refused(after, "dock 6 terraforming_station", "Terraforming Station", "Astrogation Servo",
            "T1")


def test_servo_refused_when_no_ship_of_that_colour_is_in_the_bay() -> None:
    state = position(options=F, seats={"red": {"fuel": 2, "unplaced": [3], "cards": ["servo"]},
                                       "green": {"unplaced": [1, 2, 3]}})
    refused(state, "use servo green", "Astrogation Servo", "no green ship")


def test_servo_discard_sends_every_artifact_ship_to_the_bay() -> None:
    state = position(options=F, players=3, seats={
        "green": {"docked": {"alien_artifact": [3, 5]}},
        "blue": {"docked": {"alien_artifact": [6]}},
        "red": {"unplaced": [2], "cards": ["servo"]}})
    after, _ = play(state, "discard servo alien_artifact")
    assert after.at("alien_artifact") == []


def test_servo_discard_sends_a_terraforming_ship_to_the_stock() -> None:
    state = position(options=F, seats={"green": {"docked": {"terraforming": [6]}, "bay": 3},
                                       "red": {"unplaced": [2], "cards": ["servo"]}})
    after, _ = play(state, "discard servo terraforming_station")
    assert sum(1 for s in after.ships if s.owner == 1 and s.loc == "stock") == 3


def test_servo_discard_refused_on_an_empty_facility() -> None:
    state = position(options=F, seats={"red": {"unplaced": [2], "cards": ["servo"]}})
    refused(state, "discard servo shipyard", "Astrogation Servo", "no ship is docked")


def test_servo_takes_the_relic_ship_from_the_bay_ruling_t1a() -> None:
    """Ruling T1a: the Relic Ship resting in the Bay is "any one ship"; the Servo's user
    rolls it and uses it this turn (written 5r), never at the Terraforming Station."""
    state = position(options=F, turn="green", next_dice=[6],
                     colonies={"burroughs": {"red": 1}}, relic={"owner": "red", "at": "bay"},
                     seats={"green": {"fuel": 3, "ore": 1, "cards": ["servo"]}})
    assert "use astrogation_servo relic" in menu(state)
    after, _ = play(state, "use servo relic")
    assert after.relic().loc == "unplaced" and after.relic().value == 6
    assert after.relic_owner == 0  # ownership never changes
    refused(after, "dock 6r terraforming", "Terraforming Station", "T1a")
    docked, _ = play(after, "dock 6r solar")
    assert docked.relic().loc == "solar_converter" and docked.seats[1].fuel == 4


def test_servo_may_take_your_own_relic_ship_and_it_is_listed_once() -> None:  # T1a, T1
    state = position(options=F, next_dice=[4], colonies={"burroughs": {"red": 1}},
                     relic={"owner": "red", "at": "bay"},
                     seats={"red": {"fuel": 2, "unplaced": [4], "cards": ["servo"]}})
    after, _ = play(state, "use servo relic")
    assert {"dock 4r 4 orbital_market", "dock 4r solar_converter"} <= menu(after)
    assert "dock 4 4 orbital_market" not in menu(after)  # the Relic Ship is no coloured ship


def test_servo_finds_no_relic_ship_away_from_the_bay() -> None:
    state = position(options=F, colonies={"burroughs": {"red": 1}},
                     seats={"red": {"fuel": 2, "cards": ["servo"], "unplaced": ["5r"]}})
    refused(state, "use servo relic", "Astrogation Servo", "not in the Maintenance Bay")
