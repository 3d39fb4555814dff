"""Deadline time maths: reminder fractions, quiet hours, grace, vacation (no database)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from pbem.clock import (
    TimeBank,
    TimeoutPolicy,
    clock_start,
    every,
    in_quiet_hours,
    out_of_quiet_hours,
    schedule,
    vacation_end,
)
from pbem.words import when

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

NOON = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_default_policy_reminds_at_half_and_four_fifths_with_twelve_hours_grace() -> None:
    policy = TimeoutPolicy.from_json(None)
    assert policy.reminders == (0.5, 0.8)
    assert policy.grace_hours == 12
    assert policy.absent_after == 3
    assert policy.vacation_days == 14


def test_policy_keeps_given_values_and_drops_fractions_outside_the_move() -> None:
    policy = TimeoutPolicy.from_json({"reminders": [0.9, 0.25, 1.5], "grace_hours": 2})
    assert policy.reminders == (0.25, 0.9)
    assert policy.grace_hours == 2
    assert policy.absent_after == 3


def test_reminders_fall_at_fractions_of_the_time_per_move() -> None:
    times = schedule(NOON, 48, TimeoutPolicy(), "UTC", (0, 0))
    assert times.reminders == (NOON + timedelta(hours=24), NOON + timedelta(hours=38.4))
    assert times.deadline == NOON + timedelta(hours=48)
    assert times.timeout == NOON + timedelta(hours=60)


def test_quiet_hours_wrap_midnight() -> None:
    assert in_quiet_hours(time(22, 0), 22 * 60, 8 * 60)
    assert in_quiet_hours(time(3, 0), 22 * 60, 8 * 60)
    assert not in_quiet_hours(time(8, 0), 22 * 60, 8 * 60)
    assert not in_quiet_hours(time(21, 59), 22 * 60, 8 * 60)
    assert not in_quiet_hours(time(3, 0), 0, 0)


def test_a_reminder_due_at_night_waits_till_eight_local() -> None:
    # 23:30 in Berlin (UTC+1 in March before DST) is 22:30 UTC
    due = datetime(2026, 3, 2, 22, 30, tzinfo=UTC)
    assert out_of_quiet_hours(due, "Europe/Berlin") == datetime(2026, 3, 3, 7, 0, tzinfo=UTC)


def test_a_reminder_due_after_midnight_waits_till_eight_the_same_day() -> None:
    due = datetime(2026, 3, 3, 2, 0, tzinfo=UTC)  # 21:00 in New York: not quiet
    assert out_of_quiet_hours(due, "America/New_York") == due
    due = datetime(2026, 3, 3, 9, 0, tzinfo=UTC)  # 04:00 in New York
    assert out_of_quiet_hours(due, "America/New_York") == datetime(
        2026, 3, 3, 13, 0, tzinfo=UTC
    )


def test_a_reminder_in_daytime_is_not_moved() -> None:
    assert out_of_quiet_hours(NOON, "Europe/London") == NOON


def test_an_unknown_timezone_counts_as_utc() -> None:
    due = datetime(2026, 3, 2, 23, 0, tzinfo=UTC)
    assert out_of_quiet_hours(due, "Mars/Olympus") == datetime(2026, 3, 3, 8, 0, tzinfo=UTC)


def test_a_reminder_pushed_past_the_deadline_is_dropped() -> None:
    start = datetime(2026, 3, 2, 20, 0, tzinfo=UTC)  # 4 h per move: reminders 22:00, 23:12
    times = schedule(start, 4, TimeoutPolicy(), "UTC")
    assert times.reminders == ()
    assert times.timeout == start + timedelta(hours=16)


def test_two_reminders_moved_to_the_same_morning_are_sent_once() -> None:
    start = datetime(2026, 3, 2, 14, 0, tzinfo=UTC)  # 20 h: reminders at 00:00 and 06:00
    times = schedule(start, 20, TimeoutPolicy(), "UTC")
    assert times.reminders == (datetime(2026, 3, 3, 8, 0, tzinfo=UTC),)


def test_clock_starts_after_a_vacation() -> None:
    back = NOON + timedelta(days=3)
    assert clock_start(NOON, back) == back
    assert clock_start(NOON, NOON - timedelta(days=1)) == NOON
    assert clock_start(NOON, None) == NOON


def test_vacation_is_limited_per_game() -> None:
    assert vacation_end(NOON, 4, 10, 14) == NOON + timedelta(days=4)
    with pytest.raises(ValueError, match="Only 4 day"):
        vacation_end(NOON, 5, 10, 14)
    with pytest.raises(ValueError, match="at least one day"):
        vacation_end(NOON, 0, 0, 14)


def test_a_time_bank_keeps_what_a_wait_did_not_spend() -> None:
    bank = TimeBank(hours=72, increment_hours=24, max_hours=100)
    deadline = datetime(2026, 3, 5, 9, tzinfo=UTC)
    assert bank.after_wait(deadline, deadline - timedelta(hours=30), turn_ended=False) \
        == timedelta(hours=30)
    assert bank.after_wait(deadline, deadline - timedelta(hours=30), turn_ended=True) \
        == timedelta(hours=54)
    assert bank.after_wait(deadline, deadline - timedelta(hours=90), turn_ended=True) \
        == timedelta(hours=100)  # the cap
    assert bank.after_wait(deadline, deadline + timedelta(hours=5), turn_ended=True) \
        == timedelta(hours=24)  # past the deadline: all spent, then the increment


def test_a_time_bank_round_trips_in_the_timeout_policy() -> None:
    bank = TimeBank(hours=48, increment_hours=6)
    assert TimeoutPolicy.from_json({"bank": bank.to_json()}).bank == bank
    assert TimeoutPolicy.from_json({}).bank is None
    assert TimeoutPolicy.from_json({"bank": {"increment_hours": 3}}).bank is None


def test_time_banks_in_words() -> None:
    assert when.bank_words(TimeBank(1, 0)) == "a time bank of 1 hour"
    assert when.bank_words(TimeBank(72, 24, 240)) == (
        "a time bank of 72 hours, plus 24 hours after each turn, at most 240 hours")
    assert when.span(timedelta(hours=77, minutes=59)) == "3 d 5 h"
    assert when.span(timedelta(minutes=59)) == "59 min"
    assert when.banks_line([("Ana", timedelta(days=2), True), ("Ben", timedelta(hours=5), False)]
                           ) == "Ana 2 d (running) · Ben 5 h"


def test_a_pass_kept_to_once_a_period_runs_again_when_the_period_has_passed() -> None:
    marks: dict[str, object] = {}
    assert every(marks, "repair", timedelta(minutes=10), NOON)  # never ran: runs
    assert not every(marks, "repair", timedelta(minutes=10), NOON + timedelta(minutes=9))
    assert every(marks, "repair", timedelta(minutes=10), NOON + timedelta(minutes=10))
    assert marks["repair"] == NOON + timedelta(minutes=10)
    # a clock set back (a test's, or an operator's) does not hold the pass off for hours
    assert every(marks, "repair", timedelta(minutes=10), NOON)
