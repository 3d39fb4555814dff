"""`rules.perform` folds an action's events unless it began a new turn, which it knows by
`state.turn` being replaced (only `flow.start_turn` makes a new Turn): in real games, with
and without Factions, an action replaces the Turn exactly when it reports `turn_started`."""

from __future__ import annotations

from pbem.engine import apply_in_place, new_game
from pbem.engine.bots import greedy_bot, random_bot


def test_a_new_turn_object_exactly_when_a_turn_started() -> None:
    for factions in (False, True):
        for seed in range(4):
            state = new_game(4, seed, {"factions": factions})
            rng = [seed, 0]
            for step in range(600):
                if state.phase == "over":
                    break
                seat = state.turn.pending["seat"] if state.turn.pending else state.turn.seat
                bot = greedy_bot if (seed + step) % 3 else random_bot
                before = state.turn
                events = apply_in_place(state, bot(state, seat, rng))
                started = any(ev["kind"] == "turn_started" for ev in events)
                assert started == (state.turn is not before), events
