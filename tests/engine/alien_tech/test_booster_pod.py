"""Booster Pod: 1 fuel, +1 to one unplaced ship; discard removes one field (ruling B3)."""

from __future__ import annotations

from .helpers import menu, play, position, refused, values


def test_booster_pod_adds_one_to_an_unplaced_ship_for_one_fuel() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [1, 3, 4], "cards": ["booster"]}})
    after, events = play(state, "use booster 3")
    assert values(after, 0) == [1, 4, 4]
    assert after.seats[0].fuel == 1
    assert after.turn.cards_used == ["booster_pod"]
    assert any(e["kind"] == "ship_changed" and e["now"] == 4 for e in events)


def test_e25_booster_pod_makes_a_pair_of_fours_for_the_shipyard() -> None:
    state = position(seats={"red": {"fuel": 2, "ore": 1, "unplaced": [1, 3, 4],
                                    "cards": ["booster_pod"]}})
    after, _ = play(state, "use booster_pod 3", "dock 4 4 shipyard")
    assert [s.value for s in after.at("shipyard")] == [4, 4]
    assert after.seats[0].fuel == 0 and after.seats[0].ore == 0  # 1 for the Pod, 1+1 ship


def test_e19_booster_pod_costs_nothing_with_pohl_foothills() -> None:
    state = position(colonies={"pohl": {"red": 1}},
                     seats={"red": {"fuel": 0, "unplaced": [2], "cards": ["booster_pod"]}})
    after, _ = play(state, "use booster_pod 2")
    assert values(after, 0) == [3]
    assert after.seats[0].fuel == 0


def test_booster_pod_refused_on_a_six_ruling_b22() -> None:
    state = position(seats={"red": {"fuel": 2, "unplaced": [6], "cards": ["booster_pod"]}})
    refused(state, "use booster_pod 6", "Booster Pod", "values stay 1 to 6", "B22")


def test_booster_pod_refused_without_fuel() -> None:
    state = position(seats={"red": {"fuel": 0, "unplaced": [2], "cards": ["booster_pod"]}})
    refused(state, "use booster_pod 2", "Booster Pod", "costs 1 fuel; you have 0")


def test_booster_pod_refused_without_such_an_unplaced_ship() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [2], "cards": ["booster_pod"]}})
    refused(state, "use booster_pod 3", "Booster Pod", "no unplaced ship showing 3")


def test_booster_pod_use_is_once_per_turn() -> None:
    state = position(seats={"red": {"fuel": 3, "unplaced": [2, 2], "cards": ["booster_pod"]}})
    after, _ = play(state, "use booster_pod 2")
    refused(after, "use booster_pod 2", "Booster Pod", "only once per turn")


def test_booster_pod_raises_the_relic_ship_when_marked_r() -> None:
    state = position(colonies={"burroughs": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [2, "2r"], "cards": ["booster"]}})
    after, _ = play(state, "use booster_pod 2r")
    assert after.relic().value == 3
    assert values(after, 0) == [2, 3]


def test_booster_pod_discard_removes_exactly_one_field_ruling_b3() -> None:
    state = position(fields={"isolation": "lem", "repulsor": "lem"},
                     seats={"red": {"unplaced": [2], "cards": ["booster_pod"]}})
    after, _ = play(state, "discard booster_pod isolation")
    assert after.fields["isolation_field"] is None
    assert after.fields["repulsor_field"] == "lem_badlands"
    assert "booster_pod" not in after.seats[0].cards
    assert after.discard[-1] == "booster_pod"
    assert after.turn.discards == 1


def test_booster_pod_discard_refused_for_a_field_off_the_planet() -> None:
    state = position(seats={"red": {"unplaced": [2], "cards": ["booster_pod"]}})
    refused(state, "discard booster_pod positron", "Booster Pod", "not on the planet")


def test_booster_pod_used_this_turn_cannot_be_discarded() -> None:
    state = position(fields={"isolation": "lem"},
                     seats={"red": {"fuel": 1, "unplaced": [2], "cards": ["booster_pod"]}})
    after, _ = play(state, "use booster_pod 2")
    refused(after, "discard booster_pod isolation", "Booster Pod", "once per turn")


def test_booster_pod_menu_lists_every_ship_that_can_go_up() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [2, 6], "cards": ["booster_pod"]}})
    assert {t for t in menu(state) if t.startswith("use")} == {"use booster_pod 2"}
