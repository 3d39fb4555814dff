from __future__ import annotations

from pbem.engine import format_action, parse_action

from .helpers import act, position, refused

BOARDS = ["smugglers", "corex", "dark_space", "uranian"]


def test_smuggle_is_one_action_and_round_trips_through_text() -> None:
    action = parse_action("smuggle 4 2 3 5r", 1, 4)
    assert format_action(action) == "smuggle 2 3 4 5r"


def test_the_facility_alone_is_refused() -> None:  # ruling F13
    state = position(boards=BOARDS, turn="green", seats={"green": {"fuel": 1, "unplaced": [4]}})
    refused(state, "dock 4 smugglers", "Smuggler's Alliance", "together with a run")


def test_the_raid_takes_four_resources_and_one_card_in_any_order() -> None:
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "unplaced": [1, 2, 3, 6]},
                            "red": {"ore": 5, "cards": ["stasis_beam"]}})
    state = act(state, "smuggle 1 2 3 6", "steal red ore", "steal red stasis_beam")
    refused(state, "steal red stasis_beam", "Smuggler's Alliance", "one Alien Tech card")
    state = act(state, "steal red ore", "steal red ore", "steal red ore")
    assert state.turn.pending is None and state.seats[1].ore == 4


def test_a_non_owner_still_needs_a_higher_run_to_bump() -> None:
    state = position(boards=BOARDS, turn="green",
                     seats={"green": {"fuel": 1, "unplaced": [1, 2, 3, 6]},
                            "blue": {"docked": {"raiders_outpost": [[2, 3, 4]]}}})
    refused(state, "smuggle 1 2 3 6", "must sum to more than 9")


def test_the_owner_bumps_with_any_run() -> None:
    state = position(boards=BOARDS, seats={"red": {"unplaced": [1, 2, 3]},
                                           "blue": {"docked": {"raiders_outpost": [[4, 5, 6]]}}})
    state = act(state, "dock 1 2 3 raiders")
    assert sum(1 for s in state.ships if s.owner == 2 and s.loc == "maintenance_bay") == 3
