"""The reply example (issue 24) is a legal sequence checked on a copy of the game: every line
is accepted after the ones before it, only the last may reveal something or hand the wait
over, and a turn's example docks every ship before it ends.

Sending examples back through the reply service: tests/replies/test_reply_examples.py."""

from __future__ import annotations

import random

from pbem import engine
from pbem.engine import GameState, bots
from pbem.engine.scenarios.position import build_state
from pbem.mail.outbound.reply_example import reply_example


def _apply_all(state: GameState, seat: int, lines: list[str]) -> tuple[GameState, list[bool]]:
    """Apply ``lines`` as the reply service does; returns the state and, per line, whether
    the reply could go on after it (nothing revealed, the game still waits on the seat)."""
    goes_on = []
    for line in lines:
        state, events = engine.apply(state, engine.parse_action(line, seat, state.players))
        goes_on.append(not engine.crosses_barrier(events) and engine.awaited(state) == seat)
    return state, goes_on


def test_a_turns_example_docks_every_ship_then_ends() -> None:
    state = build_state({"players": 3, "turn": "red",
                         "seats": {"red": {"fuel": 2, "ore": 1, "unplaced": [3, 6, 6]}}})
    lines = reply_example(state, 0)
    assert lines[-1] == "end"
    docked = [int(value) for line in lines if line.startswith("dock")
              for value in line.split()[1:] if value.isdigit()]
    assert sorted(docked) == [3, 6, 6]  # each ship once, never two dockings of the same ships
    after, goes_on = _apply_all(state, 0, lines)
    assert all(goes_on[:-1]) and after.turn.seat == 1


def test_over_the_resource_limit_the_example_ends_with_a_discard() -> None:
    state = build_state({"players": 2, "turn": "red",
                         "seats": {"red": {"fuel": 9, "ore": 3, "unplaced": []}}})
    lines = reply_example(state, 0)
    assert lines[-1].startswith("end discard")
    after, _ = _apply_all(state, 0, lines)
    assert after.turn.seat == 1
    assert after.seats[0].fuel + after.seats[0].ore <= 8


def test_a_seat_the_game_does_not_wait_on_gets_no_example() -> None:
    state = build_state({"players": 3, "turn": "red", "seats": {"red": {"unplaced": [2]}}})
    assert reply_example(state, 1) == []


def test_in_random_positions_each_line_is_legal_and_only_the_last_may_stop_a_reply() -> None:
    rng = random.Random(23)
    checked = 0
    while checked < 80:
        players = rng.choice((2, 3, 4, 5))
        state = engine.new_game(players, rng.randrange(2**31),
                                {"factions": players == 5 or rng.random() < 0.5})
        bot_rng = [rng.randrange(2**31), 0]
        for _ in range(rng.randrange(0, 300)):
            if state.phase == "over":
                break
            seat = engine.awaited(state)
            assert seat is not None
            engine.apply_in_place(state, bots.random_bot(state, seat, bot_rng))
        if state.phase == "over":
            continue
        seat = engine.awaited(state)
        assert seat is not None
        before = state.to_json()
        lines = reply_example(state, seat)
        assert state.to_json() == before  # played on a copy
        assert lines
        _, goes_on = _apply_all(state, seat, lines)
        assert all(goes_on[:-1]), lines
        checked += 1
