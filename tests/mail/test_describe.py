"""Plain English for engine events (pbem/describe.py)."""

from __future__ import annotations

from pbem.describe import ReaderNames, describe, describe_action, ordinal

NAMES = ["Ana", "Ben", "Cy"]


def test_a_shipyard_docking_reads_as_one_sentence() -> None:
    events = [
        {"kind": "docked", "seat": 1, "facility": "shipyard", "values": [4, 4], "relic": None},
        {"kind": "built_ship", "seat": 1, "ship": "B5", "nth": 5},
    ]
    assert describe(events, NAMES) == ["Ben docked 4 4 at the Shipyard and built their 5th ship."]


def test_landing_that_wins_control_says_so() -> None:
    events = [
        {"kind": "landed", "seat": 2, "territory": "lem_badlands", "why": "x"},
        {"kind": "gained_control", "seat": 2, "territory": "lem_badlands", "previous": None},
    ]
    assert describe(events, NAMES) == ["Cy landed a colony on Lem Badlands and now controls it."]


def test_a_raid_on_the_reader_says_you() -> None:
    events = [
        {"kind": "docked", "seat": 1, "facility": "raiders_outpost", "values": [2, 3, 4],
         "relic": None},
        {"kind": "stole", "seat": 1, "victim": 0, "resource": "fuel"},
        {"kind": "stole", "seat": 1, "victim": 0, "resource": "fuel"},
    ]
    assert describe(events, ReaderNames(NAMES, 0)) == [
        "Ben docked 2 3 4 at the Raiders' Outpost and took 2 fuel from you."]
    assert describe(events, NAMES)[0].endswith("took 2 fuel from Ana.")


def test_bookkeeping_events_are_left_out() -> None:
    assert describe([{"kind": "turn_started", "seat": 0, "round": 1},
                     {"kind": "turn_ended", "seat": 0, "to_bay": 3}], NAMES) == []


def test_moves_read_as_imperatives() -> None:
    assert describe_action({"kind": "dock", "facility": "shipyard", "values": [3, 3],
                            "relic": None, "launch": False}) == "Dock 3 3 at the Shipyard"
    assert describe_action({"kind": "land", "territory": "herbert_valley"}) == (
        "Land a colony on Herbert Valley")


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
