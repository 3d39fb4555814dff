"""Several rows of one wait overdue at once: only the latest is acted on (issue 25, point 3).

When the clock was down, or quiet hours held two reminders back, a sweep finds more than one
row of the seat's wait due. The rule: mail only the latest overdue reminder, and none when
the timeout is due too (the turn is played for the seat, and the seat hears that instead).
The reminders passed over are closed, so they never fire later.

The first seat's clock (48 h from 09:00): reminders at 24 h and 47 h (23:24 waits for 08:00),
the timeout at 60 h (deadline + 12 h grace).
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from flask import Flask

from pbem import clock as pbem_clock
from pbem.extensions import db
from pbem.models.deadline import REMINDER, Deadline
from pbem.services import timeouts
from tests.scheduler.conftest import (
    START,
    FakeClock,
    awaited_seat,
    email_of,
    log_by,
    mails,
    new_game,
    open_rows,
    tick,
)

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

FIRST_REMINDER_H, SECOND_REMINDER_H, TIMEOUT_H = 24, 47, 60


@pytest.fixture
def reminded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[float, str]]:
    """Every reminder row the sweep handles: (hours after START it was due, outcome)."""
    seen: list[tuple[float, str]] = []
    real = timeouts.remind

    def remind(row: object, now: datetime) -> timeouts.Reminded:
        due_at = pbem_clock.as_utc(row.due_at)  # type: ignore[attr-defined]
        outcome = real(row, now)  # type: ignore[arg-type]
        seen.append(((due_at - START).total_seconds() / 3600, outcome))
        return outcome

    monkeypatch.setattr(timeouts, "remind", remind)
    return seen


def test_on_time_ticks_mail_each_reminder_in_its_turn(
    clock_app: Flask, clock: FakeClock, reminded: list[tuple[float, str]]
) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    for hours in (FIRST_REMINDER_H, SECOND_REMINDER_H):
        clock.at(hours)
        assert tick(clock_app, clock).reminders == 1
    assert reminded == [(FIRST_REMINDER_H, "sent"), (SECOND_REMINDER_H, "sent")]
    assert len(mails("reminder", email_of(game_id, first))) == 2


def test_clock_down_across_both_reminders_mails_one_the_later(
    clock_app: Flask, clock: FakeClock, reminded: list[tuple[float, str]]
) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    clock.at(50)  # the clock was down from before the first reminder until after the second
    report = tick(clock_app, clock)
    assert (report.reminders, report.superseded, report.turns) == (1, 1, 0)
    assert reminded == [(FIRST_REMINDER_H, "superseded"), (SECOND_REMINDER_H, "sent")]
    assert len(mails("reminder", email_of(game_id, first))) == 1
    assert [row.kind for row in open_rows(game_id)] == ["timeout"]  # nothing fires later
    assert tick(clock_app, clock).reminders == 0
    clock.at(TIMEOUT_H)
    assert tick(clock_app, clock).turns == 1
    assert len(mails("reminder")) == 1


def test_clock_down_past_the_deadline_sends_no_reminder_and_the_timeout_happens(
    clock_app: Flask, clock: FakeClock, reminded: list[tuple[float, str]]
) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    clock.at(TIMEOUT_H + 1)
    report = tick(clock_app, clock)
    assert (report.reminders, report.superseded, report.turns) == (0, 2, 1)
    assert reminded == [(FIRST_REMINDER_H, "superseded"), (SECOND_REMINDER_H, "superseded")]
    assert mails("reminder") == []
    assert log_by(game_id, "timeout")  # the autopilot played the seat's turn
    assert awaited_seat(game_id) != first
    assert tick(clock_app, clock).reminders == 0


def test_clock_down_across_one_reminder_still_mails_it(
    clock_app: Flask, clock: FakeClock, reminded: list[tuple[float, str]]
) -> None:
    new_game()
    clock.at(30)  # late for the first reminder, the second not yet due: it is the latest
    assert tick(clock_app, clock).reminders == 1
    assert reminded == [(FIRST_REMINDER_H, "sent")]


def test_two_reminders_held_by_quiet_hours_give_one_mail_when_they_end(
    clock_app: Flask, clock: FakeClock, reminded: list[tuple[float, str]]
) -> None:
    """Reminders at 78 % and 80 % of 48 h (22:26 and 23:24) both wait for 08:00: a tick every
    ten minutes through the night mails one, at 08:00."""
    game_id = new_game(timeout_policy={"reminders": [0.78, 0.8]})
    first = awaited_seat(game_id)
    sent_at = []
    clock.at(36)  # 21:00, before both
    while clock() < START + timedelta(hours=SECOND_REMINDER_H + 2):
        if tick(clock_app, clock).reminders:
            sent_at.append(clock())
        clock.advance(minutes=10)
    assert sent_at == [START + timedelta(hours=SECOND_REMINDER_H)]  # 08:00
    assert len(mails("reminder", email_of(game_id, first))) == 1


def test_reminders_due_at_the_same_moment_mail_the_one_written_last(
    clock_app: Flask, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New quiet hours or a shifted clock can leave two reminder rows due at one moment:
    the later of the policy (written last) is the one mailed."""
    game_id = new_game()
    earlier, later = (row for row in open_rows(game_id) if row.kind == REMINDER)
    ids = (earlier.id, later.id)
    earlier.due_at = later.due_at
    db.session.commit()
    outcomes: dict[int, str] = {}
    real = timeouts.remind

    def remind(row: Deadline, now: datetime) -> timeouts.Reminded:
        row_id = row.id
        outcomes[row_id] = real(row, now)
        return outcomes[row_id]  # type: ignore[return-value]

    monkeypatch.setattr(timeouts, "remind", remind)
    clock.at(SECOND_REMINDER_H)
    assert tick(clock_app, clock).reminders == 1
    assert outcomes == {ids[0]: "superseded", ids[1]: "sent"}
    assert len(mails("reminder")) == 1
