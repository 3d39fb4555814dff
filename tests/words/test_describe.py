"""Plain English for engine events (pbem/words/describe.py)."""

from __future__ import annotations

from pbem.words.describe import ReaderNames, describe, describe_action, ordinal

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


def test_the_viewers_own_moves_read_you() -> None:
    events = [
        {"kind": "rolled", "seat": 1, "values": [2, 3, 3, 6], "relic": None},
        {"kind": "docked", "seat": 1, "facility": "shipyard", "values": [3, 3], "relic": None},
        {"kind": "built_ship", "seat": 1, "ship": "B5", "nth": 5},
        {"kind": "landed", "seat": 1, "territory": "lem_badlands", "why": "x"},
        {"kind": "gained_control", "seat": 1, "territory": "lem_badlands", "previous": 2},
        {"kind": "lost_control", "seat": 2, "territory": "lem_badlands"},
        {"kind": "docked", "seat": 1, "facility": "raiders_outpost", "values": [2, 3, 4],
         "relic": None},
        {"kind": "stole", "seat": 1, "victim": 0, "resource": "ore"},
        {"kind": "stole", "seat": 1, "victim": 0, "resource": "ore"},
    ]
    assert describe(events, NAMES, viewer=1) == [
        "You rolled 2 3 3 6.",
        "You docked 3 3 at the Shipyard and built your 5th ship.",
        "You landed a colony on Lem Badlands and now control it.",
        "Cy lost control of Lem Badlands.",
        "You docked 2 3 4 at the Raiders' Outpost and took 2 ore from Ana.",
    ]
    assert describe(events, NAMES, viewer=0)[-1] == (
        "Ben docked 2 3 4 at the Raiders' Outpost and took 2 ore from you.")
    assert describe(events, NAMES)[0] == "Ben rolled 2 3 3 6."
    assert describe(events, ReaderNames(NAMES, 1))[0] == "You rolled 2 3 3 6."


def test_possessives_follow_the_viewer() -> None:
    moved = [{"kind": "docked", "seat": 1, "facility": "uranian_syndicate", "values": [3],
              "relic": None},
             {"kind": "colony_moved", "seat": 1, "owner": 0, "source": "lem_badlands",
              "target": "herbert_valley", "why": "uranian_syndicate"}]
    assert describe(moved, NAMES, viewer=0) == [
        "Ben docked 3 at the Uranian Syndicate board and moved your colony from Lem Badlands "
        "to Herbert Valley."]
    own = [dict(moved[1], owner=1)]
    assert describe(own, NAMES, viewer=1) == [
        "You moved your own colony from Lem Badlands to Herbert Valley."]
    swapped = [{"kind": "colonies_swapped", "seat": 2, "owner": 0, "territory": "lem_badlands",
                "other": 1, "other_territory": "asimov_crater"}]
    assert describe(swapped, NAMES, viewer=0) == [
        "Cy swapped your colony on Lem Badlands with Ben's on Asimov Crater."]
    kept = [{"kind": "kept_agendas", "seat": 0, "count": 3}]
    assert describe(kept, NAMES, viewer=0) == ["You now hold 3 Agendas."]
