"""Oscillation Capacitor (ruling T7): once per turn, use another card's fuel-cost power a
second time by paying again (Pohl Foothills again); discard: discard another player's Alien
Tech card without its discard power (a forced discard for them, B17)."""

from __future__ import annotations

from .helpers import menu, play, position, refused, values

F = {"factions": True}


def test_capacitor_lets_a_card_be_used_a_second_time_for_its_cost_again() -> None:
    state = position(options=F, seats={"red": {"fuel": 2, "unplaced": [2],
                                                "cards": ["booster_pod", "capacitor"]}})
    after, _ = play(state, "use booster_pod 2")
    assert "use booster_pod 3" in menu(after)
    after, _ = play(after, "use booster_pod 3")
    assert values(after, 0) == [4] and after.seats[0].fuel == 0
    assert after.turn.cards_used.count("booster_pod") == 2
    assert "oscillation_capacitor" in after.turn.cards_used


def test_a_teleported_ship_never_goes_back_to_a_facility_it_left_this_turn() -> None:
    """Ruling T9: the Capacitor's second Teleporter use may move the ship on, never back, so
    no facility's benefit is earned twice by one ship in one turn."""
    state = position(options=F, seats={"red": {"fuel": 4, "ore": 1, "docked": {"lunar_mine": [6]},
                                                "cards": ["teleporter", "capacitor"]}})
    after, _ = play(state, "use teleporter lunar_mine 6 alien_artifact")
    refused(after, "use teleporter alien_artifact 6 lunar_mine", "Orbital Teleporter",
            "ruling T9")
    after, _ = play(after, "use teleporter alien_artifact 6 solar_converter")
    assert after.seats[0].ore == 1 and after.seats[0].fuel == 3


def test_capacitor_gives_only_one_extra_use_per_turn() -> None:
    state = position(options=F, seats={"red": {"fuel": 9, "unplaced": [1],
                                                "cards": ["booster_pod", "capacitor"]}})
    after, _ = play(state, "use booster_pod 1", "use booster_pod 2")
    refused(after, "use booster_pod 3", "Booster Pod", "only once per turn")


def test_capacitor_second_use_gets_the_pohl_discount_again() -> None:
    state = position(options=F, colonies={"pohl": {"red": 1}},
                     seats={"red": {"fuel": 2, "unplaced": [2],
                                    "cards": ["electrofabricator", "capacitor"]}})
    after, _ = play(state, "use electrofabricator", "use electrofabricator")
    assert (after.seats[0].fuel, after.seats[0].ore) == (0, 2)


def test_capacitor_used_this_turn_cannot_be_discarded() -> None:
    state = position(options=F, seats={"red": {"fuel": 4, "unplaced": [2],
                                                "cards": ["electrofabricator", "capacitor"]},
                                       "green": {"cards": ["plasma_cannon"]}})
    after, _ = play(state, "use electrofabricator", "use electrofabricator")
    refused(after, "discard capacitor green plasma_cannon", "Oscillation Capacitor",
            "used only once per turn")


def test_capacitor_discard_removes_an_opponents_card_without_its_power() -> None:
    state = position(options=F, players=3, seats={
        "blue": {"cards": ["plasma_cannon"], "docked": {"lunar_mine": [6]}},
        "red": {"unplaced": [2], "cards": ["oscillation_capacitor"]}})
    after, events = play(state, "discard oscillation_capacitor blue plasma_cannon")
    assert after.seats[2].cards == [] and after.seats[0].cards == []
    assert after.discard[-2:] == ["plasma_cannon", "oscillation_capacitor"]
    assert len(after.at("lunar_mine")) == 1
    assert any(e.get("forced") for e in events)


def test_capacitor_discard_never_targets_your_own_card() -> None:
    state = position(options=F, seats={"red": {"unplaced": [2],
                                                "cards": ["capacitor", "booster_pod"]}})
    refused(state, "discard capacitor red booster_pod", "Oscillation Capacitor",
            "another player")


def test_capacitor_discard_returns_the_ftl_drive_tokens() -> None:
    state = position(options=F, card_tokens={"experimental_ftl_drive": 2},
                     seats={"green": {"cards": ["ftl"]},
                            "red": {"unplaced": [2], "cards": ["capacitor"]}})
    after, _ = play(state, "discard capacitor green ftl")
    assert after.card_tokens == {}
