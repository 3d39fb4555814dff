"""Orbital Teleporter: 2 fuel to move one of your docked ships to a different facility;
discard moves any one colony (the Repulsor Field blocks both ends)."""

from __future__ import annotations

from pbem.engine.scoring import vp

from .helpers import menu, play, position, refused


def test_e29_teleported_mine_ship_counts_toward_the_artifact_claim() -> None:
    state = position(display=["plasma_cannon", "stasis_beam", "alien_city"],
                     seats={"red": {"fuel": 2, "unplaced": [2, 5, 6],
                                    "cards": ["orbital_teleporter"]}})
    after, events = play(state, "dock 6 lunar_mine",
                         "use teleporter lunar_mine 6 alien_artifact", "dock 2 artifact")
    assert after.seats[0].ore == 1  # what it earned at the Mine stays earned
    assert after.turn.artifact_total == 8
    assert any(e["kind"] == "teleported" and e["came_from"] == "lunar_mine" for e in events)
    after, _ = play(after, "claim plasma_cannon")
    assert "plasma_cannon" in after.seats[0].cards


def test_teleported_ship_may_cycle_the_artifact_display_ruling_b16() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [6, 1],
                                    "docked": {"lunar_mine": [5]},
                                    "cards": ["orbital_teleporter"]}})
    after, _ = play(state, "use teleporter lunar_mine 5 alien_artifact")
    assert "cycle" in menu(after)


def test_teleported_ship_joins_an_unplaced_ship_to_make_a_pair() -> None:
    state = position(seats={"red": {"fuel": 3, "ore": 1, "unplaced": [3, 1],
                                    "docked": {"solar_converter": [3]},
                                    "cards": ["orbital_teleporter"]}})
    after, _ = play(state, "use teleporter solar_converter 3 shipyard 3")
    assert [s.value for s in after.at("shipyard")] == [3, 3]
    assert after.seats[0].fuel == 0 and after.seats[0].ore == 0  # 2 teleport + 1+1 ship


def test_teleporter_refused_when_the_destination_cost_cannot_be_paid_after_the_fuel() -> None:
    state = position(seats={"red": {"fuel": 2, "ore": 1, "unplaced": [3, 1],
                                    "docked": {"solar_converter": [3]},
                                    "cards": ["orbital_teleporter"]}})
    refused(state, "use teleporter solar_converter 3 shipyard 3", "Orbital Teleporter",
            "cannot dock there", "Shipyard")


def test_teleporter_cannot_move_a_ship_off_the_terraforming_station() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [1], "bay": 1,
                                    "docked": {"terraforming": [6]},
                                    "cards": ["orbital_teleporter"]}})
    refused(state, "use teleporter terraforming 6 solar_converter", "Orbital Teleporter",
            "off the Terraforming Station")


def test_teleporter_cannot_send_a_ship_back_to_the_facility_it_left() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [1],
                                    "docked": {"solar_converter": [3]},
                                    "cards": ["orbital_teleporter"]}})
    refused(state, "use teleporter solar_converter 3 solar_converter", "Orbital Teleporter",
            "different facility")


def test_teleporter_refused_for_a_ship_of_another_player() -> None:
    state = position(seats={"green": {"docked": {"solar_converter": [3]}},
                            "red": {"fuel": 2, "unplaced": [1],
                                    "cards": ["orbital_teleporter"]}})
    refused(state, "use teleporter solar_converter 3 lunar_mine", "Orbital Teleporter",
            "no ship showing 3 docked at the Solar Converter")


def test_teleporter_arrival_follows_the_lunar_mine_rule() -> None:
    state = position(seats={"green": {"docked": {"lunar_mine": [5]}},
                            "red": {"fuel": 2, "unplaced": [1],
                                    "docked": {"solar_converter": [3]},
                                    "cards": ["orbital_teleporter"]}})
    refused(state, "use teleporter solar_converter 3 lunar_mine", "Orbital Teleporter",
            "at least 5")


def test_teleporter_costs_one_with_pohl_foothills() -> None:
    state = position(colonies={"pohl": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [1],
                                    "docked": {"solar_converter": [3]},
                                    "cards": ["orbital_teleporter"]}})
    after, _ = play(state, "use teleporter solar_converter 3 alien_artifact")
    assert after.seats[0].fuel == 0


def test_e30_teleporter_discard_moves_blues_colony_to_take_lem_badlands() -> None:
    state = position(players=3, turn="blue",
                     colonies={"lem": {"blue": 1, "red": 1},
                               "van_vogt": {"green": 2, "blue": 1}},
                     seats={"blue": {"unplaced": [1], "cards": ["orbital_teleporter"]}})
    after, _ = play(state, "discard teleporter blue van_vogt lem")
    assert after.colonies["lem_badlands"] == [1, 0, 2]
    assert after.controllers["lem_badlands"] == 2
    assert vp(after, 2) == vp(state, 2) + 1


def test_e24_teleporter_discard_cannot_move_a_colony_into_or_out_of_the_repulsor_field() -> None:
    state = position(fields={"repulsor": "asimov"},
                     colonies={"asimov": {"green": 1}, "lem": {"green": 1}},
                     seats={"red": {"unplaced": [1], "cards": ["orbital_teleporter"]}})
    refused(state, "discard teleporter green asimov pohl", "Orbital Teleporter",
            "Repulsor Field on Asimov Crater")
    refused(state, "discard teleporter green lem asimov", "Orbital Teleporter",
            "Repulsor Field on Asimov Crater")


def test_teleporter_discard_refused_for_a_colony_that_is_not_there() -> None:
    state = position(seats={"red": {"unplaced": [1], "cards": ["orbital_teleporter"]}})
    refused(state, "discard teleporter green lem pohl", "Orbital Teleporter",
            "green has no colony on Lem Badlands")
