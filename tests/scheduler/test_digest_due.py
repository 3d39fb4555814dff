"""The digest step reads only the seats due (issue 25, point 1): ``seats.next_digest_at`` is the
seat's next local morning, kept by every write, so a digest comes at the seat's hour in its
time zone, across a DST change, and a tick with none due costs the same however many seats
take the digest."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import scheduler
from pbem.extensions import db
from pbem.mail.outbound import digest, retention
from pbem.models import Seat
from pbem.services import seat_settings
from pbem.services.games import cancel_game
from tests.scheduler.conftest import FakeClock, awaited_seat, game_of, mails, new_game, play_turn

pytestmark = pytest.mark.quiet_hours

NEW_YORK = [("Ana", "ana@example.org", "America/New_York"), ("Ben", "ben@example.org", "UTC"),
            ("Cy", "cy@example.org", "UTC")]


def _utc(*fields: int) -> datetime:
    return datetime(*fields, tzinfo=UTC)


def _digest(game_id: int, seat: int, zone: str = "UTC") -> None:
    seat_settings.update_settings(game_id, seat, notify="digest", timezone=zone,
                                  quiet_start=22, quiet_end=8)


def _next_digest(game_id: int, seat: int) -> datetime | None:
    value = game_of(game_id).seat(seat).next_digest_at
    return None if value is None else value.astimezone(UTC) if value.tzinfo else \
        value.replace(tzinfo=UTC)


def _play(game_id: int, turns: int = 3) -> None:
    for _ in range(turns):
        seat = awaited_seat(game_id)
        assert seat is not None
        play_turn(game_id, seat)


def _digests(to: str = "ana@example.org") -> int:
    return len(mails(kind="digest", to=to))


def test_a_digest_comes_at_the_seats_morning_in_its_zone_across_a_dst_change(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game(NEW_YORK)  # Monday 2 March 2026, 09:00 UTC: 04:00 in New York (EST)
    _digest(game_id, 0, "America/New_York")
    assert _next_digest(game_id, 0) == _utc(2026, 3, 2, 13)  # 08:00 EST
    _play(game_id)
    clock.now = _utc(2026, 3, 2, 12, 59)
    assert digest.send_digests() == 0 and _digests() == 0
    clock.now = _utc(2026, 3, 2, 13)
    assert digest.send_digests() == 1 and _digests() == 1
    assert digest.send_digests() == 0  # once per morning
    assert _next_digest(game_id, 0) == _utc(2026, 3, 3, 13)
    clock.now = _utc(2026, 3, 6, 20)
    _play(game_id)
    clock.now = _utc(2026, 3, 7, 13)  # Saturday 08:00 EST; the clocks go forward that night
    assert digest.send_digests() == 1 and _digests() == 2
    assert _next_digest(game_id, 0) == _utc(2026, 3, 8, 12)  # Sunday 08:00 EDT
    clock.now = _utc(2026, 3, 7, 20)
    _play(game_id)
    clock.now = _utc(2026, 3, 8, 11, 59)  # 07:59 EDT: still quiet
    assert digest.send_digests() == 0 and _digests() == 2
    clock.now = _utc(2026, 3, 8, 12)
    assert digest.send_digests() == 1 and _digests() == 3
    assert _digests("ben@example.org") == _digests("cy@example.org") == 0


def test_no_digest_when_none_is_due_and_a_late_tick_in_the_night_waits_for_the_morning(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    _digest(game_id, 0)
    _play(game_id)
    for hour in (10, 15, 21):  # Monday, after the game began at 09:00: no morning yet
        clock.now = _utc(2026, 3, 2, hour)
        assert digest.send_digests() == 0
    assert game_of(game_id).seat(0).digest_at is None and _digests() == 0
    clock.now = _utc(2026, 3, 3, 23, 30)  # the server slept through Tuesday: quiet hours now
    assert digest.send_digests() == 0 and _digests() == 0
    assert _next_digest(game_id, 0) == _utc(2026, 3, 4, 8)  # looked at again in the morning
    clock.now = _utc(2026, 3, 4, 8)
    assert digest.send_digests() == 1 and _digests() == 1


def test_every_write_keeps_the_next_digest_time(clock_app: Flask, clock: FakeClock) -> None:
    game_id = new_game()
    assert _next_digest(game_id, 1) is None  # every turn: no digest
    _digest(game_id, 1, "Asia/Tokyo")
    assert _next_digest(game_id, 1) == _utc(2026, 3, 2, 23)  # 08:00 in Tokyo
    seat_settings.update_settings(game_id, 1, notify="digest", timezone="Asia/Tokyo",
                                  quiet_start=22, quiet_end=6)
    assert _next_digest(game_id, 1) == _utc(2026, 3, 2, 21)  # a morning at 06:00
    seat_settings.choose_mails(game_id, 1, "my_turn")
    assert _next_digest(game_id, 1) is None
    seat_settings.choose_mails(game_id, 1, "digest")
    assert _next_digest(game_id, 1) == _utc(2026, 3, 2, 21)


def test_the_repair_pass_finds_a_digest_seat_written_past_the_orm(
    clock_app: Flask, clock: FakeClock
) -> None:
    game_id = new_game()
    _play(game_id)
    db.session.execute(sa.update(Seat).where(Seat.game_id == game_id, Seat.index == 0)
                       .values(notify="digest"))  # bulk SQL: no hook ran
    db.session.commit()
    clock.now = _utc(2026, 3, 3, 8)
    assert digest.send_digests() == 0  # the step cannot see it...
    assert digest.repair(clock.now) == 1  # ...until the repair pass gives it a time
    assert digest.repair(clock.now) == 0
    assert digest.send_digests() == 1 and _digests() == 1


def test_a_game_that_ends_stops_its_digests_and_its_looks(clock_app: Flask,
                                                          clock: FakeClock) -> None:
    game_id = new_game()
    _digest(game_id, 0)
    _play(game_id)
    cancel_game(game_of(game_id).id)
    clock.now = _utc(2026, 3, 3, 8)
    assert digest.send_digests() == 0 and _digests() == 0
    assert _next_digest(game_id, 0) is None  # no later tick reads the seat again
    assert digest.repair(clock.now) == 0


@contextmanager
def _counted() -> Iterator[list[str]]:
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(args[2])

    sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", count)


def _idle_ticks(app: Flask, clock: FakeClock, games: int) -> tuple[int, int]:
    """Add ``games`` games of three digest seats; tick once to send their invitations; then
    the statements of a tick with nothing due, and of one that also runs the repair passes."""
    for _ in range(games):
        game_id = new_game()
        for seat in range(3):
            _digest(game_id, seat)
    clock.advance(minutes=1)
    assert scheduler.tick(app).failed == ()
    clock.advance(minutes=1)
    with _counted() as idle:
        assert scheduler.tick(app).failed == ()
    clock.advance(minutes=11)  # past REPAIR_EVERY: the repair passes run as well
    with _counted() as repairing:
        assert scheduler.tick(app).failed == ()
    return len(idle), len(repairing)


def test_a_tick_with_no_digest_due_costs_the_same_for_3_and_18_digest_seats(
    clock_app: Flask, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention, "_last_run", {})  # it runs in the first tick, then hourly
    few = _idle_ticks(clock_app, clock, 1)
    many = _idle_ticks(clock_app, clock, 5)
    assert db.session.scalar(sa.select(sa.func.count()).where(Seat.notify == "digest")) == 18
    assert few == many
    assert clock.now < _utc(2026, 3, 3, 8) and _digests() == 0  # indeed none was due
    clock.now = _utc(2026, 3, 3, 8)
    assert scheduler.tick(clock_app).failed == ()
    assert len(mails(kind="digest")) == 0  # nobody played: nothing to tell, yet every seat...
    assert db.session.scalar(sa.select(sa.func.count()).where(
        Seat.next_digest_at > clock.now)) == 18  # ...was looked at once and moved on a day
