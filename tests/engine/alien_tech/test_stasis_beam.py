"""Stasis Beam: 1 fuel, −1 to one unplaced ship; discard places or moves the Isolation Field."""

from __future__ import annotations

from .helpers import play, position, refused


def test_e37_stasis_beam_lowers_a_two_to_one_for_a_pair_of_ones_at_the_market() -> None:
    state = position(seats={"red": {"fuel": 3, "unplaced": [1, 2, 5], "cards": ["stasis"]}})
    after, _ = play(state, "use stasis_beam 2", "dock 1 1 orbital_market", "trade 1")
    assert after.turn.market_rates == [1]
    assert after.seats[0].fuel == 1 and after.seats[0].ore == 1


def test_stasis_beam_refused_on_a_one_ruling_b22() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [1, 4], "cards": ["stasis_beam"]}})
    refused(state, "use stasis_beam 1", "Stasis Beam", "values stay 1 to 6")


def test_stasis_beam_changes_only_unplaced_ships() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [4],
                                    "docked": {"lunar_mine": [5]}, "cards": ["stasis_beam"]}})
    refused(state, "use stasis_beam 5", "Stasis Beam", "no unplaced ship showing 5")


def test_stasis_beam_discard_places_the_isolation_field_anywhere() -> None:
    state = position(seats={"red": {"unplaced": [4], "cards": ["stasis_beam"]}})
    after, events = play(state, "discard stasis_beam lem")
    assert after.fields["isolation_field"] == "lem_badlands"
    assert any(e["kind"] == "field_placed" for e in events)


def test_stasis_beam_discard_must_move_the_field_to_a_different_territory() -> None:
    state = position(fields={"isolation": "lem"},
                     seats={"red": {"unplaced": [4], "cards": ["stasis_beam"]}})
    refused(state, "discard stasis_beam lem", "Stasis Beam", "already on Lem Badlands",
            "different territory")
    after, events = play(state, "discard stasis_beam pohl")
    assert after.fields["isolation_field"] == "pohl_foothills"
    assert any(e["kind"] == "field_moved" and e["came_from"] == "lem_badlands"
               for e in events)


def test_e14_isolation_on_burroughs_sends_the_docked_relic_ship_home_and_blocks_buying() -> None:
    state = position(colonies={"burroughs": {"red": 1}},
                     seats={"red": {"fuel": 2, "ore": 2, "unplaced": [4], "cards": ["stasis"],
                                    "docked": {"lunar_mine": ["3r"]}}})
    after, events = play(state, "discard stasis_beam burroughs_desert")
    assert after.relic().loc == "burroughs_desert"
    assert after.relic_owner is None
    assert any(e["kind"] == "relic_returned" for e in events)
    assert after.controllers["burroughs_desert"] == 0  # control and VP are not affected
    refused(after, "buy relic", "Relic Ship", "Isolation Field")


def test_isolation_cancels_its_controllers_bonus() -> None:
    state = position(colonies={"lem": {"red": 1}},
                     seats={"red": {"unplaced": [3, 4], "cards": ["stasis_beam"]}})
    after, _ = play(state, "discard stasis_beam lem", "dock 3 solar_converter")
    assert after.seats[0].fuel == 2  # no +1 from Lem Badlands
