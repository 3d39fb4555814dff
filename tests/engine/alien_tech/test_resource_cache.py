"""Resource Cache: automatic after the fleet roll, before any card; odd → 1 ore, even → 1 fuel,
tie → both and a forced discard (rulings B10, B17); not on the turn it is gained."""

from __future__ import annotations

from .helpers import play, position


def _next_turn(cards: list[str], dice: list[int], relic: bool = False) -> tuple:
    """Green ends its turn; red gathers three ships (and the Relic Ship) rolling `dice`."""
    table: dict = {"turn": "green", "next_dice": dice,
                   "seats": {"red": {"cards": cards, "bay": 3},
                             "green": {"unplaced": [], "bay": 3}}}
    if relic:
        table["colonies"] = {"burroughs": {"red": 1}}
        table["relic"] = {"owner": "red", "at": "bay"}
    state = position(**table)
    return play(state, "end")


def test_resource_cache_gives_one_ore_when_more_ships_are_odd() -> None:
    after, events = _next_turn(["resource_cache"], [1, 3, 4])
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 1)
    assert any(e["kind"] == "resource_cache" for e in events)


def test_resource_cache_gives_one_fuel_when_more_ships_are_even() -> None:
    after, _ = _next_turn(["resource_cache"], [2, 6, 5])
    assert (after.seats[0].fuel, after.seats[0].ore) == (1, 0)


def test_resource_cache_counts_the_relic_ship_ruling_b10() -> None:
    after, _ = _next_turn(["resource_cache"], [1, 3, 4, 6], relic=True)
    assert (after.seats[0].fuel, after.seats[0].ore) == (1, 1)  # 2 odd, 2 even: a tie


def test_resource_cache_tie_gives_both_and_forces_a_discard_that_does_not_count_b17() -> None:
    after, events = _next_turn(["resource_cache", "booster_pod"], [1, 2, 4, 5], relic=True)
    assert (after.seats[0].fuel, after.seats[0].ore) == (1, 1)
    assert after.seats[0].cards == ["booster_pod"]
    assert after.discard[-1] == "resource_cache"
    assert after.turn.discards == 0
    assert any(e["kind"] == "discarded_card" and e.get("forced") for e in events)


def test_e36_resource_cache_claimed_this_turn_has_no_effect_until_the_next_roll() -> None:
    state = position(display=["resource_cache", "booster_pod", "alien_city"],
                     seats={"red": {"unplaced": [3, 6]}, "green": {"bay": 3}})
    after, events = play(state, "dock 3 artifact", "dock 6 artifact", "claim resource_cache")
    assert after.turn.gained == ["resource_cache"]
    assert not any(e["kind"] == "resource_cache" for e in events)
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 0)
