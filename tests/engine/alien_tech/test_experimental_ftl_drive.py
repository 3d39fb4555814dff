"""Experimental FTL Drive (ruling T4): 2 fuel (1 with Pohl Foothills) sets one unplaced ship
to any value and puts a token on the card; tokens stay with the card; it is discarded at the
end of the turn it gets its third token, a forced discard (B17). No discard power."""

from __future__ import annotations

from pbem.engine import InvalidAction, parse_action, view

from .helpers import play, position, refused, values

F = {"factions": True}
FTL = "experimental_ftl_drive"


def test_ftl_drive_sets_a_ship_to_any_value_and_takes_a_token() -> None:
    state = position(options=F, seats={"red": {"fuel": 2, "unplaced": [3, 3, 4, 6],
                                                "cards": ["ftl"]}})
    after, _ = play(state, "use ftl 4 3")
    assert values(after, 0) == [3, 3, 3, 6]
    assert after.seats[0].fuel == 0 and after.card_tokens[FTL] == 1
    assert view(after, 1)["card_tokens"] == {FTL: 1}


def test_ftl_drive_costs_one_with_pohl_foothills() -> None:
    state = position(options=F, colonies={"pohl": {"red": 1}},
                     seats={"red": {"fuel": 1, "unplaced": [2], "cards": ["ftl"]}})
    after, _ = play(state, "use ftl 2 6")
    assert after.seats[0].fuel == 0 and values(after, 0) == [6]


def test_ftl_drive_refuses_the_same_value_and_values_off_the_die() -> None:
    state = position(options=F, seats={"red": {"fuel": 2, "unplaced": [2], "cards": ["ftl"]}})
    refused(state, "use ftl 2 2", "Experimental FTL Drive", "already shows 2")
    refused(state, "use ftl 2 7", "Experimental FTL Drive", "B22")
    refused(state, "use ftl 5 3", "Experimental FTL Drive", "no unplaced ship showing 5")


def test_ftl_drive_is_discarded_at_the_end_of_the_turn_of_its_third_token() -> None:
    state = position(options=F, card_tokens={FTL: 2},
                     seats={"red": {"fuel": 2, "unplaced": [2], "cards": ["ftl"]}})
    after, _ = play(state, "use ftl 2 6")
    assert after.card_tokens[FTL] == 3 and FTL in after.seats[0].cards
    after, _ = play(after, "dock 6 solar_converter", "end")
    assert FTL not in after.seats[0].cards and after.discard[-1] == FTL
    assert FTL not in after.card_tokens


def test_ftl_drive_forced_discard_does_not_use_the_discard_of_the_turn_ruling_b17() -> None:
    state = position(options=F, card_tokens={FTL: 2}, seats={
        "red": {"fuel": 2, "unplaced": [2, 3], "cards": ["ftl", "electrofabricator"]}})
    after, _ = play(state, "use ftl 2 6", "discard electrofabricator", "dock 6 solar",
                    "dock 3 solar", "end")
    assert after.seats[0].cards == []


def test_ftl_drive_tokens_stay_with_the_card_when_stolen() -> None:
    state = position(options=F, card_tokens={FTL: 2},
                     seats={"red": {"cards": ["ftl"]},
                            "green": {"unplaced": [2, 3, 4]}}, turn="green")
    after, _ = play(state, "dock 2 3 4 raiders", "steal red experimental_ftl_drive")
    assert after.seats[1].cards == [FTL] and after.card_tokens[FTL] == 2


def test_ftl_drive_has_no_discard_power() -> None:
    state = position(options=F, seats={"red": {"unplaced": [2], "cards": ["ftl"]}})
    try:
        parse_action("discard ftl", 0, 2)
    except InvalidAction as exc:
        assert "Experimental FTL Drive has no discard power" in exc.message
    else:
        raise AssertionError("parsed a discard of the FTL Drive")
    assert state.seats[0].cards == [FTL]
