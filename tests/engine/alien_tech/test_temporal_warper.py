"""Temporal Warper: 1 fuel, re-roll any number of unplaced ships; discard takes any one card
from the discard pile."""

from __future__ import annotations

from pbem.engine import crosses_barrier

from .helpers import menu, play, position, refused, values


def test_e38_temporal_warper_rerolls_the_one_and_the_two() -> None:
    state = position(next_dice=[6, 4], seats={"red": {"fuel": 1, "unplaced": [1, 2, 5],
                                                  "cards": ["warper"]}})
    after, events = play(state, "use warper 1 2")
    assert values(after, 0) == [4, 5, 6]
    assert after.seats[0].fuel == 0
    assert crosses_barrier(events)  # new random information: no undo past it


def test_temporal_warper_rerolls_the_relic_ship_when_marked_r() -> None:
    state = position(colonies={"burroughs": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [2, "2r"], "cards": ["warper"]}})
    state.scripted = [5]
    after, _ = play(state, "use warper 2r")
    assert after.relic().value == 5
    assert values(after, 0) == [2, 5]


def test_temporal_warper_refused_for_ships_you_do_not_have_unplaced() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [1, 5], "cards": ["warper"]}})
    refused(state, "use temporal_warper 1 1", "Temporal Warper", "no unplaced ship showing 1")


def test_temporal_warper_menu_offers_single_ships_and_every_ship_below_a_value() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [1, 2, 5], "cards": ["warper"]}})
    uses = {t for t in menu(state) if t.startswith("use")}
    assert {"use temporal_warper 1", "use temporal_warper 5", "use temporal_warper 1 2",
            "use temporal_warper 1 2 5"} <= uses


def test_e39_temporal_warper_discard_takes_the_alien_city_from_the_discard_pile() -> None:
    state = position(discard=["alien_city", "booster_pod"],
                     seats={"red": {"unplaced": [3], "cards": ["temporal_warper"]}})
    after, _ = play(state, "discard warper city")
    assert after.seats[0].cards == ["alien_city"]
    assert after.discard == ["booster_pod", "temporal_warper"]
    assert after.turn.gained == ["alien_city"]


def test_temporal_warper_discard_refused_for_a_card_you_already_own() -> None:
    state = position(discard=["booster_pod"],
                     seats={"red": {"unplaced": [3], "cards": ["warper", "booster_pod"]}})
    refused(state, "discard warper booster_pod", "Temporal Warper", "already own",
            "one copy")


def test_temporal_warper_discard_refused_for_a_card_not_in_the_pile() -> None:
    state = position(discard=["booster_pod"],
                     seats={"red": {"unplaced": [3], "cards": ["temporal_warper"]}})
    refused(state, "discard warper plasma_cannon", "Temporal Warper",
            "no Plasma Cannon in the discard pile")
    refused(state, "discard warper temporal_warper", "Temporal Warper",
            "no Temporal Warper in the discard pile")
