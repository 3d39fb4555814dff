"""The rules every card shares (base-game.md §6.2): once per turn in any way, one discard per
turn, own turn only, never while a decision is pending; and menu, check and notation agree."""

from __future__ import annotations

import random

import pytest

from pbem.engine import (
    NotYourTurn,
    action_from_json,
    action_to_json,
    apply,
    check,
    format_action,
    legal_actions,
    new_game,
    parse_action,
)
from pbem.engine.ids import BASE_DECK

from .helpers import play, position, refused


def test_only_one_discard_power_per_turn() -> None:
    state = position(seats={"red": {"unplaced": [2], "cards": ["stasis_beam", "gravity"]}})
    after, _ = play(state, "discard stasis_beam lem")
    refused(after, "discard gravity pohl", "Gravity Manipulator", "only one discard power")


def test_a_discarded_card_is_gone_and_cannot_be_used() -> None:
    state = position(seats={"red": {"fuel": 1, "unplaced": [2], "cards": ["stasis_beam"]}})
    after, _ = play(state, "discard stasis_beam lem")
    refused(after, "use stasis_beam 2", "Stasis Beam", "do not have this card")


def test_cards_are_used_only_on_your_own_turn() -> None:
    state = position(seats={"green": {"fuel": 1, "cards": ["booster_pod"]},
                            "red": {"unplaced": [2]}})
    action = parse_action("use booster_pod 2", 1, 2)
    with pytest.raises(NotYourTurn):
        check(state, action)


def test_no_card_while_a_colony_waits_to_land() -> None:
    state = position(seats={"red": {"fuel": 1, "ore": 3, "unplaced": [4, 4, 4, 2],
                                    "cards": ["booster_pod"]}, "green": {}})
    after, _ = play(state, "dock 4 4 4 colony_constructor")
    refused(after, "use booster_pod 2", "choose the territory")


def test_turn_may_end_when_only_a_card_would_let_a_ship_dock_ruling_b9() -> None:
    state = position(players=4, seats={
        "green": {"docked": {"solar_converter": [1, 1, 1, 1, 1, 1]}},
        "blue": {"docked": {"solar_converter": [1, 1], "alien_artifact": [1, 1, 1, 1]}},
        "yellow": {"docked": {"lunar_mine": [6, 6, 6, 6]}},
        "red": {"fuel": 1, "hub": 7, "unplaced": [5], "cards": ["booster_pod"]}})
    choices = {format_action(a) for a in legal_actions(state, 0)}
    assert {"end", "use booster_pod 5"} <= choices
    after, _ = play(state, "use booster_pod 5")
    refused(after, "end", "must dock", "Lunar Mine")


@pytest.mark.parametrize("seed", range(6))
def test_every_card_action_on_the_menu_passes_check_and_round_trips(seed: int) -> None:
    rnd = random.Random(seed)
    state = new_game(rnd.choice([2, 3, 4]), seed)
    for s in state.seats:
        s.cards = rnd.sample(list(BASE_DECK), 6)
    for _ in range(150):
        if state.phase == "over":
            break
        seat = state.turn.seat if state.turn.pending is None else state.turn.pending["seat"]
        menu = legal_actions(state, seat)
        for action in menu:
            check(state, action)
            assert parse_action(format_action(action), seat, state.players) == action
            assert action_from_json(action_to_json(action)) == action
        cards = [a for a in menu if a.kind.startswith(("use_", "discard_"))]
        pick = rnd.choice(cards) if cards and rnd.random() < 0.5 else rnd.choice(menu)
        state, _ = apply(state, pick)
        for s in state.seats:
            s.fuel = max(s.fuel, 4)
