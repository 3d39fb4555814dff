"""A player's own seat: mail settings move open reminders into the new quiet hours; an absent
player comes back and gets a normal clock; a move of one's own ends absence too. Every
refusal changes nothing. On a fake clock, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import update

from pbem import clock as clock_maths
from pbem.engine import GameState
from pbem.extensions import db
from pbem.models import Deadline
from pbem.models.deadline import AUTOPLAY, REMINDER, TIMEOUT
from pbem.services import play, turns
from pbem.services.deadlines import policy_of
from pbem.services.errors import BadInput, GameNotActive, NotAllowed
from pbem.services.games import cancel_game
from pbem.services.seat_settings import come_back, update_settings
from tests.scheduler.conftest import (
    START,
    FakeClock,
    awaited_seat,
    game_of,
    new_game,
    open_rows,
    play_others,
    tick,
)

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

UTC_NIGHTS = (22 * 60, 8 * 60)


def _naive(moment: datetime) -> datetime:
    return clock_maths.as_utc(moment).replace(tzinfo=None)


def _reminders(game_id: int) -> list[datetime]:
    return [_naive(r.due_at) for r in open_rows(game_id) if r.kind == REMINDER]


def _expected(game_id: int, timezone: str, quiet: tuple[int, int]) -> list[datetime]:
    times = clock_maths.schedule(START, 48, policy_of(game_of(game_id)), timezone, quiet)
    return [_naive(t) for t in times.reminders]


def _seat_snapshot(game_id: int, seat: int) -> dict[str, Any]:
    game = game_of(game_id)
    s = game.seat(seat)
    return {
        "version": game.version, "state": game.state,
        "seat": (s.notify, s.timezone, s.quiet_start, s.quiet_end, s.absent,
                 s.consecutive_timeouts, s.vacation_until, s.vacation_days_used),
        "rows": [(r.id, r.kind, r.seat, _naive(r.due_at), r.turn_key, r.lease_until)
                 for r in open_rows(game_id)],
    }


def _make_absent(app: Flask, clock: FakeClock, game_id: int) -> int:
    """The first seat to play never answers, three turns running (absent_after = 3)."""
    lazy = awaited_seat(game_id)
    assert lazy is not None
    for _ in range(3):
        clock.advance(hours=60)
        tick(app, clock)
        play_others(game_id, lazy)
    assert game_of(game_id).seat(lazy).absent
    return lazy


# -- mail settings ------------------------------------------------------------------------


def test_settings_are_saved_and_open_reminders_move_to_the_new_time_zone(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    seat = awaited_seat(game_id)
    assert seat is not None
    assert _reminders(game_id) == _expected(game_id, "UTC", UTC_NIGHTS)
    version = game_of(game_id).version
    update_settings(game_id, seat, notify="digest", timezone="Asia/Tokyo", quiet_start=22,
                    quiet_end=8)
    saved = game_of(game_id).seat(seat)
    assert (saved.notify, saved.timezone, saved.quiet_start, saved.quiet_end) == (
        "digest", "Asia/Tokyo", 22 * 60, 8 * 60)
    assert game_of(game_id).version == version  # the game's state is unchanged (issue #13)
    assert _reminders(game_id) == _expected(game_id, "Asia/Tokyo", UTC_NIGHTS)
    assert _reminders(game_id) != _expected(game_id, "UTC", UTC_NIGHTS)
    assert [r.kind for r in open_rows(game_id)][-1] == TIMEOUT


def test_a_reminder_that_new_quiet_hours_push_past_the_deadline_is_dropped(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    seat = awaited_seat(game_id)
    assert seat is not None
    timeout = [(r.id, r.due_at) for r in open_rows(game_id) if r.kind == TIMEOUT]
    update_settings(game_id, seat, notify="every_turn", timezone="UTC", quiet_start=20,
                    quiet_end=10)
    expected = _expected(game_id, "UTC", (20 * 60, 10 * 60))
    assert len(expected) == 1 and _reminders(game_id) == expected
    assert [(r.id, r.due_at) for r in open_rows(game_id) if r.kind == TIMEOUT] == timeout
    update_settings(game_id, seat, notify="every_turn", timezone="UTC", quiet_start=0,
                    quiet_end=0)  # no quiet hours at all: the one left falls where it is due
    assert _reminders(game_id) == [_naive(START + timedelta(hours=24))]


def test_saving_the_same_settings_changes_nothing(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    before = _seat_snapshot(game_id, 1)
    update_settings(game_id, 1, notify="every_turn", timezone="UTC", quiet_start=22,
                    quiet_end=8)
    assert _seat_snapshot(game_id, 1) == before


@pytest.mark.parametrize(("changes", "error", "sentence"), [
    ({"notify": "never"}, BadInput, "every turn, only my turn or a daily digest"),
    ({"timezone": "Mars/Olympus_Mons"}, BadInput, "Unknown timezone 'Mars/Olympus_Mons'"),
    ({"quiet_start": 24}, BadInput, "start of your quiet hours is a whole hour from 0 to 23"),
    ({"quiet_end": -1}, BadInput, "end of your quiet hours is a whole hour from 0 to 23"),
])
def test_bad_settings_are_refused_with_a_sentence_and_change_nothing(
    clock_app: Flask, clock: FakeClock, changes: dict[str, Any], error: type[Exception],
    sentence: str,
) -> None:
    game_id = new_game()
    seat = awaited_seat(game_id)
    assert seat is not None
    before = _seat_snapshot(game_id, seat)
    settings: dict[str, Any] = {"notify": "my_turn", "timezone": "Europe/Lisbon",
                                "quiet_start": 23, "quiet_end": 7, **changes}
    with pytest.raises(error, match=sentence):
        update_settings(game_id, seat, **settings)
    assert _seat_snapshot(game_id, seat) == before


def test_settings_of_a_computer_seat_or_a_cancelled_game_are_refused(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game([("Ana", "ana@example.org", "UTC"), ("Bot", None, "UTC")])
    before = _seat_snapshot(game_id, 1)
    with pytest.raises(NotAllowed, match="played by the computer"):
        update_settings(game_id, 1, notify="my_turn", timezone="UTC", quiet_start=1,
                        quiet_end=2)
    assert _seat_snapshot(game_id, 1) == before
    cancel_game(game_id)
    before = _seat_snapshot(game_id, 0)
    with pytest.raises(GameNotActive, match="cancelled"):
        update_settings(game_id, 0, notify="my_turn", timezone="UTC", quiet_start=1,
                        quiet_end=2)
    assert _seat_snapshot(game_id, 0) == before


# -- coming back --------------------------------------------------------------------------


def test_an_absent_player_who_comes_back_gets_a_normal_clock_from_now(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    lazy = _make_absent(clock_app, clock, game_id)
    assert [r.kind for r in open_rows(game_id)] == [AUTOPLAY]
    version = game_of(game_id).version
    clock.advance(hours=1)
    come_back(game_id, lazy)
    seat = game_of(game_id).seat(lazy)
    assert not seat.absent and seat.consecutive_timeouts == 0
    assert game_of(game_id).version == version + 1
    rows = open_rows(game_id)
    assert [r.kind for r in rows] == [REMINDER, REMINDER, TIMEOUT]
    assert {r.seat for r in rows} == {lazy}
    assert _naive(rows[-1].deadline_at) == _naive(clock() + timedelta(hours=48))
    assert tick(clock_app, clock).turns == 0  # the autopilot no longer plays at once
    assert awaited_seat(game_id) == lazy


def test_coming_back_while_another_seat_plays_only_clears_the_flags(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    lazy = _make_absent(clock_app, clock, game_id)
    tick(clock_app, clock)  # the absent seat's turn is played at once
    assert awaited_seat(game_id) != lazy
    rows = [(r.id, r.seat, r.kind, r.due_at) for r in open_rows(game_id)]
    come_back(game_id, lazy)
    assert not game_of(game_id).seat(lazy).absent
    assert [(r.id, r.seat, r.kind, r.due_at) for r in open_rows(game_id)] == rows
    play_others(game_id, lazy)
    assert [r.kind for r in open_rows(game_id)] == [REMINDER, REMINDER, TIMEOUT]


def test_coming_back_when_not_absent_is_refused_and_changes_nothing(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    before = _seat_snapshot(game_id, 0)
    with pytest.raises(NotAllowed, match="not marked absent"):
        come_back(game_id, 0)
    assert _seat_snapshot(game_id, 0) == before


def test_coming_back_while_the_autopilot_holds_the_turn_is_refused(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    lazy = _make_absent(clock_app, clock, game_id)
    db.session.execute(update(Deadline).where(Deadline.game_id == game_id)
                       .values(lease_until=clock() + timedelta(minutes=10)))
    db.session.commit()
    before = _seat_snapshot(game_id, lazy)
    with pytest.raises(NotAllowed, match="autopilot is playing your turn right now"):
        come_back(game_id, lazy)
    assert _seat_snapshot(game_id, lazy) == before


def test_coming_back_to_a_cancelled_game_is_refused(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    lazy = _make_absent(clock_app, clock, game_id)
    cancel_game(game_id)
    before = _seat_snapshot(game_id, lazy)
    with pytest.raises(GameNotActive, match="cancelled"):
        come_back(game_id, lazy)
    assert _seat_snapshot(game_id, lazy) == before


def test_a_move_of_ones_own_brings_an_absent_player_back(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    lazy = _make_absent(clock_app, clock, game_id)
    game = game_of(game_id)
    state = GameState.from_json(game.state)
    play.play(game_id, lazy, game.version, turns.bot_action(game, state, lazy))
    seat = game_of(game_id).seat(lazy)
    assert not seat.absent and seat.consecutive_timeouts == 0
    assert AUTOPLAY not in {r.kind for r in open_rows(game_id)}
