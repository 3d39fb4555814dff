"""Done when: whole games run by mail on a fake clock — one player never answers, or one
human plays two computer players — and finish on their own."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem.services import games
from tests.scheduler.conftest import (
    FakeClock,
    awaited_seat,
    game_of,
    log_by,
    mails,
    new_game,
    play_turn,
    tick,
)

# quiet_hours: .ci/run runs it again at five hours of the day
pytestmark = [pytest.mark.quiet_hours, pytest.mark.slow]

MAX_HOURS = 24 * 365 * 3


def test_a_game_whose_player_never_answers_finishes_on_its_own(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()  # Ana (seat 0) never answers; Ben and Cy play at once, by script
    hours = 0
    while game_of(game_id).status == "active" and hours < MAX_HOURS:
        for seat in (1, 2):
            play_turn(game_id, seat)
        if awaited_seat(game_id) == 0:
            clock.advance(hours=1)
            hours += 1
        report = tick(clock_app, clock)
        assert not report.failed
    game = game_of(game_id)
    assert game.status == "finished"
    assert game.seat(0).absent
    timeouts = log_by(game_id, "timeout")
    assert timeouts and {entry.seat for entry in timeouts} == {0}
    assert len(mails("reminder", "ana@example.org")) >= 2  # before the first timeouts
    assert mails("game_over", "ana@example.org")
    assert games.verify_replay(game_id) == []


def test_one_human_against_two_computer_players_by_mail(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game([("Ana", "ana@example.org", "UTC"), ("Bot 1", None, "UTC"),
                        ("Bot 2", None, "UTC")])
    turns = 0
    while game_of(game_id).status == "active" and turns < 2000:
        assert awaited_seat(game_id) == 0  # the computers have answered by now
        play_turn(game_id, 0)
        clock.advance(minutes=30)
        tick(clock_app, clock)
        turns += 1
    game = game_of(game_id)
    assert game.status == "finished"
    assert log_by(game_id, "bot") and log_by(game_id, "player")
    assert log_by(game_id, "timeout") == []
    assert len(mails("your_turn", "ana@example.org")) >= turns - 1
    assert mails("reminder") == []
    assert games.verify_replay(game_id) == []
