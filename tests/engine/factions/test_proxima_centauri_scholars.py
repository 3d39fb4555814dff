from __future__ import annotations

from .helpers import act, position, refused

BOARDS = ["proxima", "corex", "dark_space", "uranian"]


def test_docking_moves_a_field_already_on_the_planet() -> None:  # ruling F10
    state = position(boards=BOARDS, turn="green", fields={"isolation_field": "lem_badlands"},
                     seats={"green": {"fuel": 2, "unplaced": [4]}})
    state = act(state, "dock 4 proxima", "move isolation heinlein")
    assert state.fields["isolation_field"] == "heinlein_plains" and state.seats[0].fuel == 1


def test_docking_is_refused_with_no_field_on_the_planet() -> None:
    state = position(boards=BOARDS, turn="green", seats={"green": {"fuel": 2, "unplaced": [4]}})
    refused(state, "dock 4 proxima", "Proxima Centauri Scholars", "no field generator")


def test_the_follow_up_waits_for_the_docking_player() -> None:
    state = position(boards=BOARDS, turn="green", fields={"isolation_field": "lem_badlands"},
                     seats={"green": {"fuel": 2, "unplaced": [4, 5]}})
    state = act(state, "dock 4 proxima")
    refused(state, "dock 5 solar", "field generator the Proxima Centauri Scholars move")


def test_owner_places_an_off_planet_field_for_two_fuel_never_moves_one() -> None:
    state = position(boards=BOARDS, fields={"isolation_field": "lem_badlands"},
                     seats={"red": {"fuel": 4, "unplaced": [4]}})
    refused(state, "scholars place isolation pohl", "Proxima Centauri Scholars",
            "never move")
    state = act(state, "scholars place repulsor pohl")
    assert state.fields["repulsor_field"] == "pohl_foothills" and state.seats[0].fuel == 2


def test_only_the_owner_places_or_removes_fields() -> None:
    state = position(boards=BOARDS, turn="green", fields={"isolation_field": "lem_badlands"},
                     seats={"green": {"fuel": 4, "unplaced": [4]}})
    refused(state, "scholars remove isolation", "Proxima Centauri Scholars", "only the owner")
