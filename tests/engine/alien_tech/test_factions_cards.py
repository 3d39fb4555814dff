"""The eight Factions cards together (rulings T1-T8): every menu action passes check and
round-trips through notation and JSON, in random play with the cards dealt out."""

from __future__ import annotations

import random

import pytest

from pbem.engine import (
    action_from_json,
    action_to_json,
    apply,
    check,
    format_action,
    legal_actions,
    parse_action,
)
from pbem.engine.bots import greedy_bot
from pbem.engine.ids import FACTIONS_DECK

from .helpers import position


@pytest.mark.parametrize("seed", range(6))
def test_every_factions_card_action_on_the_menu_passes_check_and_round_trips(seed: int) -> None:
    rnd = random.Random(seed)
    players = rnd.choice([2, 3, 4])
    state = position(options={"factions": True}, players=players, seed=seed,
                     seats={"red": {"unplaced": [rnd.randint(1, 6) for _ in range(3)]}})
    cards = list(FACTIONS_DECK)
    rnd.shuffle(cards)
    for i, card in enumerate(cards):
        state.seats[i % players].cards.append(card)
    for _ in range(150):
        if state.phase == "over":
            break
        seat = state.turn.seat if state.turn.pending is None else state.turn.pending["seat"]
        menu = legal_actions(state, seat)
        for action in menu:
            check(state, action)
            assert parse_action(format_action(action), seat, state.players) == action
            assert action_from_json(action_to_json(action)) == action
        if rnd.random() < 0.3:
            pick = greedy_bot(state, seat, [seed, 0])
        else:
            used = [a for a in menu if a.kind.startswith(("use_", "discard_"))]
            pick = rnd.choice(used) if used and rnd.random() < 0.5 else rnd.choice(menu)
        state, _ = apply(state, pick)
        for s in state.seats:
            s.fuel = max(s.fuel, 4)
