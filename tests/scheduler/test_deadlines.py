"""Deadlines: reminders once and only once, quiet hours, timeouts and the autopilot,
absent seats, substitutes, vacation, pause — on a fake clock, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta

import pytest
from flask import Flask

from pbem.engine import GameState
from pbem.models import Deadline
from pbem.models.deadline import AUTOPLAY, REMINDER, TIMEOUT
from pbem.services import host
from pbem.services.errors import BadInput
from pbem.services.vacation import declare_vacation
from tests.scheduler.conftest import (
    START,
    FakeClock,
    awaited_seat,
    email_of,
    game_of,
    log_by,
    mails,
    new_game,
    open_rows,
    play_others,
    play_turn,
    tick,
)

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def test_a_new_game_gives_the_first_seat_two_reminders_and_a_timeout(clock_app: Flask) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    rows = open_rows(game_id)
    assert [(r.seat, r.kind) for r in rows] == [(first, REMINDER), (first, REMINDER),
                                                (first, TIMEOUT)]
    due = [r.due_at.replace(tzinfo=None) for r in rows]
    naive = START.replace(tzinfo=None)
    # 50 % of 48 h; 80 % (38.4 h = 23:24 UTC) waits for 08:00; deadline + 12 h grace
    assert due == [naive + timedelta(hours=24), naive + timedelta(hours=47),
                   naive + timedelta(hours=60)]


def test_reminders_fire_once_and_only_once_at_the_right_times(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    clock.at(23.9)
    assert tick(clock_app, clock).reminders == 0
    clock.at(24)
    assert tick(clock_app, clock).reminders == 1
    assert tick(clock_app, clock).reminders == 0
    clock.at(46.9)
    assert tick(clock_app, clock).reminders == 0  # 23:24 is in the player's quiet hours
    clock.at(47)
    assert tick(clock_app, clock).reminders == 1
    clock.at(59.9)
    report = tick(clock_app, clock)
    assert (report.reminders, report.turns) == (0, 0)
    assert len(mails("reminder", email_of(game_id, first))) == 2
    assert len(mails("reminder")) == 2
    assert awaited_seat(game_id) == first


def test_a_reminder_due_in_quiet_hours_is_sent_once_when_they_end(
    clock_app: Flask, clock: FakeClock
) -> None:
    """The second reminder falls at 23:24 UTC (80 % of 48 h after 09:00): a tick every ten
    minutes through the night sends nothing until 08:00, then exactly one reminder."""
    game_id = new_game()
    first = awaited_seat(game_id)
    clock.at(24)
    assert tick(clock_app, clock).reminders == 1  # the first, at 09:00 the next day
    sent_at = []
    clock.at(38)  # 23:00, the evening of the second reminder
    while clock() < START + timedelta(hours=50):  # 11:00 two days on
        if tick(clock_app, clock).reminders:
            sent_at.append(clock())
        clock.advance(minutes=10)
    assert sent_at == [START + timedelta(hours=47)]  # 08:00, when the quiet hours end
    assert len(mails("reminder", email_of(game_id, first))) == 2


def test_quiet_hours_hold_in_the_players_own_timezone(clock_app: Flask, clock: FakeClock) -> None:
    players = [("Ana", "ana@example.org", "America/Los_Angeles"),
               ("Ben", "ben@example.org", "America/Los_Angeles")]
    new_game(players)
    clock.at(24)  # 01:00 in Los Angeles: the reminder waits for 08:00 there (16:00 UTC)
    assert tick(clock_app, clock).reminders == 0
    clock.at(30.9)
    assert tick(clock_app, clock).reminders == 0
    clock.at(31)
    assert tick(clock_app, clock).reminders == 1


def test_a_move_before_a_reminder_cancels_it(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    clock.at(10)
    assert play_turn(game_id, first) > 0
    rows = open_rows(game_id)
    assert {r.seat for r in rows} == {awaited_seat(game_id)} != {first}
    assert rows[0].due_at.replace(tzinfo=None) == (START + timedelta(hours=34)).replace(
        tzinfo=None)
    clock.at(24)
    assert tick(clock_app, clock).reminders == 0
    assert mails("reminder") == []


def test_steps_inside_a_turn_keep_the_clock_running(clock_app: Flask, clock: FakeClock) -> None:
    from pbem.services import play, turns

    game_id = new_game()
    first = awaited_seat(game_id)
    assert first is not None
    before = [(r.id, r.due_at) for r in open_rows(game_id)]
    clock.at(5)
    game = game_of(game_id)
    state = GameState.from_json(game.state)
    play.play(game_id, first, game.version, turns.bot_action(game, state, first))
    if awaited_seat(game_id) == first:
        assert [(r.id, r.due_at) for r in open_rows(game_id)] == before


def test_the_autopilot_plays_a_timed_out_turn_legally(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(59.9)
    assert tick(clock_app, clock).turns == 0
    clock.at(60)
    report = tick(clock_app, clock)
    assert report.turns == 1 and report.steps > 0
    played = log_by(game_id, "timeout")
    assert played and {entry.seat for entry in played} == {first}
    following = awaited_seat(game_id)
    assert following not in (first, None)
    game = game_of(game_id)
    assert game.seat(first).consecutive_timeouts == 1 and not game.seat(first).absent
    told = {m.kind for m in mails(to=email_of(game_id, following))}
    assert told & {"your_turn", "decision"}
    from pbem.services.games import verify_replay

    assert verify_replay(game_id) == []
    assert tick(clock_app, clock).turns == 0  # the timeout was applied once


def _time_out(app: Flask, clock: FakeClock, game_id: int, times: int) -> int:
    """The first seat to play never answers, ``times`` turns running; returns that seat."""
    lazy = awaited_seat(game_id)
    assert lazy is not None
    for _ in range(times):
        clock.advance(hours=60)
        tick(app, clock)
        play_others(game_id, lazy)
    return lazy


def test_three_timeouts_mark_a_seat_absent_and_it_then_plays_on_the_next_tick(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    lazy = _time_out(clock_app, clock, game_id, 3)
    game = game_of(game_id)
    assert game.seat(lazy).absent and game.seat(lazy).consecutive_timeouts == 3
    assert [r.kind for r in open_rows(game_id)] == [AUTOPLAY]
    report = tick(clock_app, clock)  # no time passes: an absent seat plays at once
    assert report.turns == 1
    assert awaited_seat(game_id) != lazy


def test_a_move_of_ones_own_ends_a_timeout_streak(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    lazy = _time_out(clock_app, clock, game_id, 2)
    assert game_of(game_id).seat(lazy).consecutive_timeouts == 2
    play_turn(game_id, lazy)
    assert game_of(game_id).seat(lazy).consecutive_timeouts == 0


def test_a_substitute_keeps_the_seats_cards_and_score(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    lazy = _time_out(clock_app, clock, game_id, 3)
    game = game_of(game_id)
    held = GameState.from_json(game.state).seats[lazy]
    links = game.seat(lazy).link_counter
    seat = host.substitute_seat(game_id, lazy, "dora@example.org", name="Dora")
    assert seat.email == "dora@example.org" and seat.link_counter == links + 1
    game = game_of(game_id)
    assert not game.seat(lazy).absent and game.seat(lazy).consecutive_timeouts == 0
    assert GameState.from_json(game.state).seats[lazy] == held
    assert mails("substitution", "dora@example.org")
    rows = open_rows(game_id)
    assert [r.kind for r in rows] == [REMINDER, REMINDER, TIMEOUT]  # a fresh clock, for her
    assert tick(clock_app, clock).turns == 0


def test_vacation_stops_the_clock_and_tells_the_others(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    assert first is not None
    clock.at(1)
    until = declare_vacation(game_id, first, 3)
    assert until == START + timedelta(hours=1, days=3)
    others = {email_of(game_id, s) for s in range(3) if s != first}
    assert {m.to_addr for m in mails("vacation")} == others
    clock.at(60)
    assert tick(clock_app, clock).turns == 0
    clock.at(60 + 72)
    assert tick(clock_app, clock).turns == 1
    with pytest.raises(BadInput, match="11 day"):
        declare_vacation(game_id, first, 12)


def test_a_turn_reaching_a_seat_on_vacation_starts_its_clock_when_it_returns(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    first = awaited_seat(game_id)
    assert first is not None
    for seat in range(3):
        if seat != first:
            declare_vacation(game_id, seat, 5)
    play_turn(game_id, first)
    timeout = next(r for r in open_rows(game_id) if r.kind == TIMEOUT)
    assert timeout.seat == awaited_seat(game_id) != first
    assert timeout.due_at.replace(tzinfo=None) == (
        START + timedelta(days=5, hours=60)).replace(tzinfo=None)


def test_pause_stops_the_clock_and_resume_goes_on_where_it_stopped(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    clock.at(10)
    host.pause_game(game_id)
    clock.at(500)
    assert tick(clock_app, clock).reminders == 0
    host.resume_game(game_id)
    rows = open_rows(game_id)
    assert rows[-1].due_at.replace(tzinfo=None) == (START + timedelta(hours=550)).replace(
        tzinfo=None)
    clock.at(549.9)
    assert tick(clock_app, clock).turns == 0
    clock.at(550)
    assert tick(clock_app, clock).turns == 1


def test_the_host_extends_a_deadline(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    deadline = host.extend_deadline(game_id, 24)
    assert deadline == START + timedelta(hours=72)
    clock.at(60)
    assert tick(clock_app, clock).turns == 0
    clock.at(84)
    assert tick(clock_app, clock).turns == 1


def test_a_cancelled_game_has_no_open_deadlines(clock_app: Flask) -> None:
    from pbem.services.games import cancel_game

    game_id = new_game()
    cancel_game(game_id)
    assert open_rows(game_id) == []


def test_deadline_rows_are_deleted_with_their_game(clock_app: Flask) -> None:
    from pbem.extensions import db

    game_id = new_game()
    db.session.delete(game_of(game_id))
    db.session.commit()
    assert db.session.query(Deadline).count() == 0
