"""Cards at Faction facilities (ruling F5: one port, any value, a non-owner pays 1 fuel to
the owner, any further cost to the supply). A ship teleported in or placed by the Chameleon
Cloak docks there: the fee, the cost and the benefit (docs/rulings-log.md L-F7, L-T9); the
Plasma Cannon and the Astrogation Servo discard clear it like any facility; the Lunar
Tunneler and the Solar Harvester never look at it."""

from __future__ import annotations

from typing import Any

from pbem.engine.state import GameState

from .helpers import menu, play, position, refused

RED, GREEN, BLUE = 0, 1, 2
BOARDS = {"red": "corex", "green": "dark_space", "blue": "smugglers"}


def boards(**seats: dict[str, Any]) -> GameState:
    """Three players: Red owns Corex, Green the Dark Space Explorers, Blue the Smugglers."""
    table = {c: {"faction": f, **seats.get(c, {})} for c, f in BOARDS.items()}
    return position(players=3, seats=table)


def at(state: GameState, seat: int, facility: str) -> list[int]:
    return sorted(s.value for s in state.ships if s.owner == seat and s.loc == facility)


# -- Orbital Teleporter ---------------------------------------------------------------------

def test_teleported_into_a_faction_facility_the_non_owner_pays_the_fee_to_the_owner() -> None:
    state = boards(green={"fuel": 4}, red={"unplaced": [1], "fuel": 4,
                                           "docked": {"lunar_mine": [4]},
                                           "cards": ["orbital_teleporter"]})
    state, _ = play(state, "use orbital_teleporter lunar_mine 4 dark_space")
    assert state.seats[RED].fuel == 0 and state.seats[GREEN].fuel == 5  # 2, fee, 1 to draw
    assert at(state, RED, "dark_space_explorers") == [4] and len(state.seats[RED].cards) == 2


def test_the_owner_teleports_into_its_own_facility_free_of_the_fee() -> None:
    state = boards(red={"unplaced": [1], "fuel": 4, "docked": {"lunar_mine": [4]},
                        "cards": ["orbital_teleporter"]})
    state, _ = play(state, "use orbital_teleporter lunar_mine 4 corex")
    assert state.seats[RED].fuel == 0 and at(state, RED, "corex_conglomerated") == [4]


def test_teleported_out_of_a_faction_facility_the_port_frees_and_nothing_is_repaid() -> None:
    state = boards(red={"unplaced": [1, 6], "fuel": 5, "cards": ["orbital_teleporter"]})
    state, _ = play(state, "dock 6 dark_space")  # 1 fee to Green, 1 fuel, a card drawn
    assert state.seats[RED].fuel == 3 and state.seats[GREEN].fuel == 1
    state, _ = play(state, "use orbital_teleporter dark_space_explorers 6 lunar_mine")
    assert at(state, RED, "dark_space_explorers") == [] and state.seats[RED].ore == 1
    assert state.seats[GREEN].fuel == 1 and len(state.seats[RED].cards) == 2
    assert "dock 1 dark_space_explorers" not in menu(state)  # Red cannot pay the fee now


def test_teleporter_cannot_dock_at_the_smugglers_alliance_or_an_unready_new_gaia() -> None:
    state = boards(red={"unplaced": [1], "fuel": 5, "docked": {"lunar_mine": [4]},
                        "cards": ["orbital_teleporter"]})
    refused(state, "use orbital_teleporter lunar_mine 4 smugglers", "Raiders' Outpost",
            "F13")
    table = {"red": {"faction": "corex", "unplaced": [1], "fuel": 5,
                     "docked": {"lunar_mine": [4]}, "cards": ["orbital_teleporter"]},
             "green": {"faction": "new_gaia"}}
    refused(position(players=2, seats=table),
            "use orbital_teleporter lunar_mine 4 new_gaia", "Terraforming Station", "F6")


# -- Plasma Cannon and Astrogation Servo ----------------------------------------------------

def test_plasma_cannon_clears_a_faction_facility_and_the_fee_stays_paid() -> None:
    state = boards(green={"docked": {"corex_conglomerated": [3]}, "fuel": 0},
                   red={"unplaced": [1], "fuel": 3, "cards": ["plasma_cannon"]})
    state, _ = play(state, "use plasma_cannon corex_conglomerated green 3")
    assert at(state, GREEN, "corex_conglomerated") == [] and state.seats[RED].fuel == 2
    assert "dock 1 corex_conglomerated" in menu(state)  # free again; the owner pays no fee


def test_plasma_cannon_discard_targets_a_ship_at_a_faction_facility() -> None:
    state = boards(green={"docked": {"corex_conglomerated": [3]}, "unplaced": [],
                          "bay": 3},
                   red={"unplaced": [1], "cards": ["plasma_cannon"]})
    state, _ = play(state, "discard plasma_cannon green 3 corex_conglomerated")
    assert sum(1 for s in state.ships if s.owner == GREEN and s.loc == "stock") == 3


def test_servo_discard_clears_a_faction_facility() -> None:
    state = boards(blue={"docked": {"dark_space_explorers": [2]}},
                   red={"unplaced": [1], "cards": ["astrogation_servo"]})
    assert "discard astrogation_servo dark_space_explorers" in menu(state)
    state, _ = play(state, "discard astrogation_servo dark_space_explorers")
    assert state.at("dark_space_explorers") == []


# -- Chameleon Cloak ------------------------------------------------------------------------

def test_cloak_at_a_faction_facility_pays_the_fee_and_the_cost_and_gains_the_benefit() -> None:
    state = position(players=3, turn="blue", seats={
        "red": {"faction": "corex"}, "green": {"faction": "dark_space",
                                               "docked": {"corex_conglomerated": [4]}},
        "blue": {"faction": "smugglers", "unplaced": [4], "fuel": 5,
                 "cards": ["chameleon_cloak"]}}, colonies={"lem_badlands": {"blue": 1}})
    assert "use chameleon_cloak corex_conglomerated green 4" in menu(state)
    state, _ = play(state, "use chameleon_cloak corex green 4")
    assert state.seats[BLUE].fuel == 0 and state.seats[RED].fuel == 1
    assert state.seats[BLUE].ore == 1 and at(state, BLUE, "corex_conglomerated") == [4]


def test_cloak_tests_the_facility_cost_after_its_own_two_fuel() -> None:
    state = position(players=3, turn="blue", seats={
        "red": {"faction": "corex"}, "green": {"faction": "dark_space",
                                               "docked": {"corex_conglomerated": [4]}},
        "blue": {"faction": "smugglers", "unplaced": [4], "fuel": 4,
                 "cards": ["chameleon_cloak"]}})
    refused(state, "use chameleon_cloak corex green 4", "Corex Conglomerated", "cannot pay")


def test_the_owner_cloaking_at_its_own_facility_pays_no_fee() -> None:
    state = boards(green={"docked": {"corex_conglomerated": [4]}},
                   red={"unplaced": [4], "fuel": 4, "cards": ["chameleon_cloak"]})
    state, _ = play(state, "use chameleon_cloak corex green 4")
    assert state.seats[RED].fuel == 0 and state.seats[GREEN].fuel == 0


def test_cloak_never_works_at_the_smugglers_alliance() -> None:
    state = boards(green={"docked": {"smugglers_alliance": [4]}},
                   red={"unplaced": [4], "fuel": 9, "cards": ["chameleon_cloak"]})
    refused(state, "use chameleon_cloak smugglers green 4", "Raiders' Outpost", "F13")


# -- cards that never look at a Faction facility ----------------------------------------------

def test_lunar_tunneler_discard_leaves_a_faction_facility_alone() -> None:
    state = boards(green={"docked": {"lunar_mine": [5], "corex_conglomerated": [5]}},
                   red={"unplaced": [1], "cards": ["lunar_tunneler"]})
    state, _ = play(state, "discard lunar_tunneler")
    assert state.at("lunar_mine") == [] and at(state, GREEN, "corex_conglomerated") == [5]


def test_solar_harvester_ignores_ships_at_a_faction_facility() -> None:
    state = boards(green={"docked": {"solar_converter": [2], "corex_conglomerated": [5]}},
                   red={"unplaced": [1], "cards": ["solar_harvester"]})
    state, _ = play(state, "use solar_harvester")
    assert state.seats[RED].fuel == 1
