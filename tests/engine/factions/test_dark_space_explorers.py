from __future__ import annotations

from .helpers import act, position, refused


def test_docking_draws_the_top_card_and_a_duplicate_is_discarded_at_once() -> None:
    state = position(turn="blue", deck=["booster_pod"],
                     seats={"blue": {"fuel": 2, "cards": ["booster_pod"], "unplaced": [5]}})
    state = act(state, "dock 5 dark_space")
    assert state.seats[2].cards == ["booster_pod"]
    assert state.discard[-1] == "booster_pod" and state.seats[1].fuel == 1


def test_owner_may_use_two_discard_powers_but_not_three() -> None:  # ruling F8
    state = position(turn="green", seats={"green": {
        "cards": ["electrofabricator", "booster_pod", "stasis_beam"], "unplaced": [1]}},
        fields={"isolation_field": "lem_badlands"})
    state = act(state, "discard electrofabricator", "discard booster_pod isolation_field")
    refused(state, "discard stasis_beam pohl", "one discard power per turn",
            "Dark Space Explorers")


def test_other_players_keep_one_discard_power() -> None:
    state = position(seats={"red": {"cards": ["electrofabricator", "booster_pod"],
                                    "unplaced": [1]}},
                     fields={"isolation_field": "lem_badlands"})
    state = act(state, "discard electrofabricator")
    refused(state, "discard booster_pod isolation_field", "one discard power per turn")
