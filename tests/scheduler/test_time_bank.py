"""The time bank (issue 26, point 7): instead of a fixed time per move, each seat starts with a
bank of hours, keeps what it does not spend, gains an increment after each of its turns, and
the reminders and the autopilot follow what is left — on a fake clock, SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask

from pbem.clock import TimeBank
from pbem.models.deadline import REMINDER, TIMEOUT
from pbem.services import host
from pbem.services.archive import export_game, import_game
from pbem.services.errors import BadInput
from tests.scheduler.conftest import (
    START,
    FakeClock,
    awaited_seat,
    email_of,
    finish_draft,
    game_of,
    log_by,
    mails,
    new_game,
    open_rows,
    play_others,
    play_turn,
    tick,
)

pytestmark = pytest.mark.quiet_hours  # reminders move out of quiet hours: every hour in CI

BANK = TimeBank(hours=72, increment_hours=24)
HOUR = timedelta(hours=1)


def _naive(hours: float) -> object:
    return (START + timedelta(hours=hours)).replace(tzinfo=None)


def _banks_line(body: str) -> str:
    return next(line for line in body.splitlines() if line.startswith("Time banks    "))


def _bank_of(game_id: int, seat: int) -> timedelta | None:
    seconds = game_of(game_id).seat(seat).bank_seconds
    return None if seconds is None else timedelta(seconds=seconds)


def test_the_first_wait_runs_on_the_whole_bank_with_reminders_at_its_fractions(
        clock_app: Flask) -> None:
    game_id = new_game(time_bank=BANK)
    first = awaited_seat(game_id)
    rows = open_rows(game_id)
    assert [(r.seat, r.kind) for r in rows] == [(first, REMINDER), (first, REMINDER),
                                                (first, TIMEOUT)]
    # 50 % of 72 h from Monday 09:00 is Tuesday 21:00; 80 % is Wednesday 18:36; the bank is
    # spent on Thursday 09:00 and the autopilot plays after the 12 h grace
    assert [r.due_at.replace(tzinfo=None) for r in rows] == [_naive(36), _naive(57.6), _naive(84)]
    assert rows[-1].deadline_at.replace(tzinfo=None) == _naive(72)


def test_what_a_seat_does_not_spend_stays_and_each_turn_adds_the_increment(
        clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game(time_bank=BANK)
    finish_draft(game_id)  # at 09:00: the Faction draft spends nothing
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(10)
    play_turn(game_id, first)  # 10 h spent of 72, then 24 h added
    assert _bank_of(game_id, first) == 86 * HOUR
    second = awaited_seat(game_id)
    assert second is not None and second != first
    assert _bank_of(game_id, second) == 72 * HOUR  # its draft choice spent nothing
    clock.at(12)
    play_others(game_id, first)  # the others spend 2 h and nothing
    assert _bank_of(game_id, second) == (72 - 2 + 24) * HOUR
    # the first seat's next wait runs on its 86 h
    timeout = next(r for r in open_rows(game_id) if r.kind == TIMEOUT)
    assert timeout.seat == first
    assert timeout.deadline_at.replace(tzinfo=None) == _naive(12 + 86)


def test_the_cap_holds_the_bank(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game(time_bank=TimeBank(hours=72, increment_hours=24, max_hours=80))
    finish_draft(game_id)  # at 09:00: the Faction draft spends nothing
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(1)
    play_turn(game_id, first)
    assert _bank_of(game_id, first) == 80 * HOUR  # 71 h left + 24 h, capped at 80 h


def test_a_paused_clock_spends_nothing(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game(time_bank=BANK)
    finish_draft(game_id)  # at 09:00: the Faction draft spends nothing
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(5)
    host.pause_game(game_id)
    clock.at(30)
    host.resume_game(game_id)
    clock.at(35)
    play_turn(game_id, first)  # 5 h before the pause and 5 h after it
    assert _bank_of(game_id, first) == (72 - 10 + 24) * HOUR


def test_a_spent_bank_lets_the_autopilot_play_after_the_grace_and_then_only_the_increment_runs(
        clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game(time_bank=TimeBank(hours=10, increment_hours=4))
    finish_draft(game_id)  # at 09:00: the Faction draft spends nothing
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(21.9)
    tick(clock_app, clock)
    assert awaited_seat(game_id) == first and not log_by(game_id, "timeout")
    clock.at(22)  # 10 h bank + 12 h grace
    assert tick(clock_app, clock).turns == 1
    assert log_by(game_id, "timeout") and awaited_seat(game_id) != first
    assert _bank_of(game_id, first) == 4 * HOUR  # nothing left, then the increment
    play_others(game_id, first)
    timeout = next(r for r in open_rows(game_id) if r.kind == TIMEOUT)
    assert timeout.deadline_at.replace(tzinfo=None) == _naive(22 + 4)


def test_every_mail_of_a_bank_game_shows_the_banks(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game(time_bank=BANK)
    finish_draft(game_id)  # at 09:00: the Faction draft spends nothing
    first = awaited_seat(game_id)
    assert first is not None
    invitation = mails("invitation", email_of(game_id, first))[0]
    assert "a time bank of 72 hours, plus 24 hours after each turn" in invitation.text_body
    turn_mail = mails("your_turn", email_of(game_id, first))[-1]
    names = [s.name for s in game_of(game_id).seats]
    assert f"{names[first]} 3 d (running)" in _banks_line(turn_mail.text_body)
    assert "Time banks:" in (turn_mail.html_body or "")
    clock.at(10)
    play_turn(game_id, first)
    second = awaited_seat(game_id)
    assert second is not None
    others = mails("others_turn", email_of(game_id, second))
    news = mails("your_turn", email_of(game_id, second))[-1]
    assert f"{names[first]} 3 d 14 h" in _banks_line(news.text_body)  # 86 h
    assert f"{names[second]} 3 d (running)" in _banks_line(news.text_body)
    assert all("Time banks" in m.text_body for m in others)


def test_a_fixed_time_per_move_game_shows_no_banks(clock_app: Flask) -> None:
    game_id = new_game()
    finish_draft(game_id)
    first = awaited_seat(game_id)
    assert first is not None
    turn_mail = mails("your_turn", email_of(game_id, first))[-1]
    assert "Time banks" not in turn_mail.text_body
    assert game_of(game_id).seat(first).bank_seconds is None


@pytest.mark.parametrize(("bank", "words"), [
    (TimeBank(0, 24), "The time bank is a whole number of hours"),
    (TimeBank(72.5, 24), "The time bank is a whole number of hours"),
    (TimeBank(72, -1), "The time added after each turn"),
    (TimeBank(72, 24, 48), "The time bank's cap"),
])
def test_a_bank_no_game_can_run_on_is_refused_and_nothing_is_made(
        clock_app: Flask, bank: TimeBank, words: str) -> None:
    with pytest.raises(BadInput, match=words):
        new_game(time_bank=bank)
    assert mails() == []


def test_an_export_carries_each_seats_bank(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game(time_bank=BANK)
    finish_draft(game_id)  # at 09:00: the Faction draft spends nothing
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(10)
    play_turn(game_id, first)
    copy = import_game(export_game(game_id))
    assert copy.time_bank == BANK
    assert timedelta(seconds=copy.seat(first).bank_seconds or 0) == 86 * HOUR
