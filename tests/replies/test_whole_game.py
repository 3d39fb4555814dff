"""Whole games played by reply alone: each reply holds the moves of its seat up to the
first that reveals something or hands the turn over, chosen from the seat's own view."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem import engine
from pbem.engine import GameState, bots
from pbem.services import games

from .conftest import deliver, fresh, mails_to, reply_to, start

MAX_REPLIES = 2000


def planned_lines(state: GameState, seat: int) -> list[str]:
    """What a player writes: moves from their view until one may reveal or hand over."""
    seen = bots.redacted(state, seat)
    lines: list[str] = []
    while engine.awaited(seen) == seat and len(lines) < 8:
        action = bots.greedy_bot(seen, seat, [seat, seen.step])
        before = engine.awaited(seen)
        lines.append(engine.format_action(action))
        try:
            events = engine.apply_in_place(seen, action)
        except KeyError:  # the step needs what the view hides (face-down Agendas): stop here
            break
        if engine.crosses_barrier(events) or engine.awaited(seen) != before:
            break
    return lines


@pytest.mark.slow
@pytest.mark.parametrize(("bot_seats", "seed", "factions"),
                         [((), 31, False), ((1,), 32, False), ((), 33, True)])
def test_a_whole_game_by_reply_alone(server: Flask, bot_seats: tuple[int, ...],
                                     seed: int, factions: bool) -> None:
    """Base game (two humans; a human and a computer) and Factions, whose draft and Agenda
    decisions are answered by reply too. Each reply answers the seat's latest mail, which
    names the position it was sent in; a game played in seconds would reach the hourly cap
    of answers (which carry the position after a reveal), so the cap is lifted."""
    server.config["REPLY_ANSWERS_PER_HOUR"] = 10**6
    game = start(2, bot_seats=bot_seats, seed=seed, options={"factions": factions})
    replies = 0
    while fresh(game.id).status == "active":
        state = GameState.from_json(fresh(game.id).state)
        seat = engine.awaited(state)
        assert seat is not None and seat not in bot_seats
        lines = planned_lines(state, seat)
        outcome = deliver(reply_to(game, seat, "\n".join(lines)))
        assert outcome == "applied", (lines, mails_to(game.id, seat)[-1].text_body)
        replies += 1
        assert replies < MAX_REPLIES
    finished = fresh(game.id)
    assert finished.status == "finished"
    assert games.verify_replay(game.id) == []
    last = mails_to(game.id, 0)[-1]
    assert "The game is over" in last.text_body or last.kind == "game_over"
