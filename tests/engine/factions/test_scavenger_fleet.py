from __future__ import annotations

from pbem.engine.lookup import unplaced

from .helpers import act, position, refused

BOARDS = ["scavenger", "corex", "dark_space", "uranian"]


def test_unequal_shipyard_pair_only_after_docking_at_the_scavenger_fleet() -> None:
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 3, "ore": 2, "unplaced": [1, 3, 5, 6]}})
    refused(state, "dock 1 3 shipyard", "Shipyard takes a pair")
    state = act(state, "dock 5 scavenger", "dock 1 3 shipyard")
    assert state.seats[0].fuel == 1


def test_the_unequal_pair_is_allowed_once_per_turn() -> None:  # ruling F11
    state = position(boards=BOARDS, players=2, turn="green",
                     seats={"green": {"fuel": 9, "ore": 9, "unplaced": [1, 2, 3, 4, 5],
                                      "bay": 0}}, options={"factions": True})
    state = act(state, "dock 5 scavenger", "dock 1 2 shipyard")
    refused(state, "dock 3 4 shipyard", "Shipyard")


def test_owner_rolls_a_new_ship_at_once_and_it_is_unplaced() -> None:
    state = position(boards=BOARDS, next_dice=[3],
                     seats={"red": {"fuel": 1, "ore": 1, "unplaced": [4, 4]}})
    state = act(state, "dock 4 4 shipyard")
    assert sorted(s.value for s in unplaced(state, 0)) == [3]


def test_others_build_into_the_maintenance_bay() -> None:
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "ore": 1, "unplaced": [4, 4]}})
    state = act(state, "dock 4 4 shipyard")
    assert unplaced(state, 1) == []
