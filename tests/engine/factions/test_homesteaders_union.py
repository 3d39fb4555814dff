from __future__ import annotations

from .helpers import act, position, refused

BOARDS = ["homesteaders", "corex", "dark_space", "uranian"]


def test_docking_gives_one_advance_that_starts_a_colony_on_circle_1() -> None:  # ruling F9
    state = position(boards=BOARDS, turn="green", seats={"green": {"fuel": 1, "unplaced": [3]}})
    state = act(state, "dock 3 homesteaders")
    assert state.seats[1].hub_circle == 1 and state.turn.hub_ships == 0


def test_an_advance_past_circle_7_is_kept_only_with_a_launch() -> None:  # ruling B8
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 2, "ore": 1, "hub": 7, "unplaced": [3]}})
    launched = act(state, "dock 3 homesteaders launch")
    assert launched.turn.pending is not None and launched.turn.pending["kind"] == "land"
    lost = act(state, "dock 3 homesteaders")
    assert lost.seats[1].hub_circle == 7


def test_owner_may_launch_from_circle_6_and_others_may_not() -> None:
    owner = position(boards=BOARDS, seats={"red": {"fuel": 1, "ore": 1, "hub": 6}})
    assert act(owner, "launch").turn.pending is not None
    other = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "ore": 1, "hub": 6}})
    refused(other, "launch", "only a colony on circle 7")


def test_launch_with_the_fee_must_be_affordable() -> None:
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "ore": 1, "hub": 7, "unplaced": [3]}})
    refused(state, "dock 3 homesteaders launch", "Homesteader's Union", "cannot pay")
