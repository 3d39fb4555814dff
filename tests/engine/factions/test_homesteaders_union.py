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


FIVE = ["corex", "dark_space", "uranian", "scavenger", "homesteaders"]


def _sixth_circles_taken(purple: dict[str, object]) -> dict[str, dict[str, object]]:
    seats: dict[str, dict[str, object]] = {
        colour: {"hub": 6, "hub_track": track}
        for track, colour in enumerate(["red", "green", "blue", "yellow"])}
    seats["purple"] = purple
    return seats


def test_five_players_owner_reaching_circle_7_launches_there_when_every_6th_is_taken() -> None:
    """Ruling F9a: circle 7 is the owner's launch point as it is anyone's; the earlier
    launch is added to it, never put in its place."""
    state = position(players=5, turn="purple", boards=FIVE, seats=_sixth_circles_taken(
        {"hub": 5, "hub_track": 0, "fuel": 1, "ore": 1, "unplaced": [2, 4]}))
    launched = act(state, "dock 2 4 hub launch")
    assert launched.turn.pending is not None and launched.turn.pending["kind"] == "land"
    assert launched.seats[4].hub_circle == 0
    one_ship = act(state, "dock 2 hub launch")  # F16 one circle earlier, still the owner's
    assert one_ship.turn.pending is not None and one_ship.turn.pending["kind"] == "land"


def test_five_players_owner_three_ships_from_circle_4_launch_from_7() -> None:  # F9a, F16
    state = position(players=5, turn="purple", boards=FIVE, seats=_sixth_circles_taken(
        {"hub": 4, "hub_track": 0, "fuel": 1, "ore": 1, "unplaced": [2, 4, 5]}))
    refused(state, "dock 2 4 hub launch", "circle 6 is taken on every track")
    launched = act(state, "dock 2 4 5 hub launch")
    assert launched.turn.pending is not None and launched.seats[4].colonies == 5
