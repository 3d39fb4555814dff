"""A seat's private iCalendar feed (issue 27, point 3): one event per current deadline across
every game of the seat's address, at the deadline in the seat's time zone, with an alarm at
each reminder time; parsed back with the icalendar library. Shown on the seat page and in
"My games"; revoked with the seat's links."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from icalendar import Calendar

from pbem import engine, tokens
from pbem.extensions import db
from pbem.mail.addresses import address_key
from pbem.models.deadline import REMINDER, TIMEOUT, Deadline
from pbem.services import games, host, links, magic_links, play, seat_settings
from pbem.services.games import SeatSpec

from .conftest import bot_choice, fresh, state_of

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
def feed_server(server: Flask) -> Flask:
    server.config.update(PBEM_CLOCK=lambda: NOON, SERVER_NAME="pbem.test",
                         PREFERRED_URL_SCHEME="https")
    return server


def _game(name: str, seats: list[tuple[str, str | None]], hours: int = 48) -> Any:
    return games.create_game(
        name=name, host_email="host@example.org",
        seats=[SeatSpec(n, e, is_bot=e is None) for n, e in seats],
        options={"factions": False}, seed=7, fixed_order=True, time_per_move_hours=hours)


def _feed(server: Flask, game_id: int, seat: int) -> Calendar:
    game = fresh(game_id)
    token = tokens.make_calendar_token(game.public_id, seat, game.seat(seat).link_counter)
    response = server.test_client().get(f"/calendar/{token}.ics")
    assert response.status_code == 200
    assert response.mimetype == "text/calendar"
    assert response.headers["Cache-Control"] == "private, no-store"
    return Calendar.from_ical(response.get_data())


def _rows(game_id: int, seat: int) -> list[Deadline]:
    db.session.rollback()
    return list(db.session.scalars(sa.select(Deadline).where(
        Deadline.game_id == game_id, Deadline.seat == seat, Deadline.done_at.is_(None))))


def _events(calendar: Calendar) -> dict[str, Any]:
    return {str(event["summary"]): event for event in calendar.walk("VEVENT")}


def test_one_event_per_deadline_of_the_address_in_the_seats_time_zone_with_alarms(
        feed_server: Flask) -> None:
    lisbon = _game("Lisbon game", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    tokyo = _game("Tokyo game", [("Ana B.", "Ana@Example.org"), ("Cy", "cy@example.org")],
                  hours=24)
    seat_settings.update_settings(lisbon.id, 0, notify="every_turn",
                                  timezone="Europe/Lisbon", quiet_start=22, quiet_end=8)
    seat_settings.update_settings(tokyo.id, 0, notify="every_turn", timezone="Asia/Tokyo",
                                  quiet_start=23, quiet_end=7)
    _game("Not Ana's", [("Bo", "bo@example.org"), ("Cy", "cy@example.org")])

    events = _events(_feed(feed_server, lisbon.id, 0))
    assert set(events) == {"Your move in Lisbon game: deadline",
                           "Your move in Tokyo game: deadline"}
    for game, zone, local in ((lisbon, "Europe/Lisbon", datetime(2026, 12, 3, 12, 0)),
                              (tokyo, "Asia/Tokyo", datetime(2026, 12, 2, 21, 0))):
        event = events[f"Your move in {game.name}: deadline"]
        start = event.decoded("dtstart")
        assert getattr(start.tzinfo, "key", None) == zone  # TZID: the seat's own zone
        assert start.replace(tzinfo=None) == local  # the wall time there
        rows = _rows(game.id, 0)
        [timeout] = [r for r in rows if r.kind == TIMEOUT]
        assert start == timeout.deadline_at.replace(tzinfo=UTC)  # the deadline the mail says
        triggers = sorted(alarm.decoded("trigger") for alarm in event.walk("VALARM"))
        reminders = sorted(r.due_at.replace(tzinfo=UTC) for r in rows if r.kind == REMINDER)
        assert triggers == reminders and len(triggers) >= 1
        assert all(str(a["action"]) == "DISPLAY" for a in event.walk("VALARM"))
        assert str(event["url"]) == f"https://pbem.test/games/{game.public_id}"
    # the Tokyo seat's own feed is the same address's: the same two deadlines
    assert set(_events(_feed(feed_server, tokyo.id, 0))) == set(events)


def test_the_feed_holds_only_games_that_wait_for_the_person_with_a_clock(
        feed_server: Flask) -> None:
    waiting = _game("Mine now", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    others = _game("Bo first", [("Bo", "bo@example.org"), ("Ana", "ana@example.org")])
    paused = _game("Paused", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    host.pause_game(paused.id)
    assert set(_events(_feed(feed_server, others.id, 1))) == {
        "Your move in Mine now: deadline"}
    seat = engine.awaited(state_of(waiting.id))
    while engine.awaited(state_of(waiting.id)) == seat:  # Ana plays her turn
        game = fresh(waiting.id)
        play.play(waiting.id, 0, game.version, bot_choice(state_of(waiting.id), 0))
    assert _events(_feed(feed_server, waiting.id, 0)) == {}


def test_the_event_stays_one_while_the_wait_goes_on(feed_server: Flask) -> None:
    game = _game("Steady", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    first = _feed(feed_server, game.id, 0).walk("VEVENT")[0]
    state = state_of(game.id)
    step = next(a for a in engine.legal_actions(state, 0)
                if engine.format_action(a).startswith("dock"))
    play.play(game.id, 0, fresh(game.id).version, step)  # inside the same turn
    again = _feed(feed_server, game.id, 0).walk("VEVENT")[0]
    assert str(first["uid"]) == str(again["uid"])
    assert str(first["uid"]).endswith("@pbem.test")
    assert first.decoded("dtstart") == again.decoded("dtstart")


def test_a_revoked_or_forged_feed_link_is_refused(feed_server: Flask) -> None:
    game = _game("Revoked", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    old = tokens.make_calendar_token(game.public_id, 0, 0)
    links.revoke_seat_links(fresh(game.id).seat(0))
    db.session.commit()
    client = feed_server.test_client()
    assert client.get(f"/calendar/{old}.ics").status_code == 401
    seat_link = tokens.make_seat_link(game, fresh(game.id).seat(0))
    assert client.get(f"/calendar/{seat_link}.ics").status_code == 401  # another salt


def test_the_seat_page_and_my_games_show_the_feed(feed_server: Flask) -> None:
    game = _game("Shown", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    client = feed_server.test_client()
    page = client.get(f"/play/{tokens.make_seat_link(game, fresh(game.id).seat(0))}")
    found = re.search(r'id="calendar-url" class="feed-url" readonly value="([^"]+)"',
                      page.get_data(as_text=True))
    assert found is not None and found.group(1).startswith("https://pbem.test/calendar/")
    assert client.get(found.group(1).replace("https://pbem.test", "")).status_code == 200
    key = magic_links.issue_key(address_key("ana@example.org"))
    db.session.commit()
    mine = client.get(f"/me/{key}").get_data(as_text=True)
    assert 'id="calendar-url"' in mine and "webcal://pbem.test/calendar/" in mine


def test_a_game_moved_by_the_host_moves_its_event(feed_server: Flask) -> None:
    game = _game("Extended", [("Ana", "ana@example.org"), ("Bo", "bo@example.org")])
    before = _feed(feed_server, game.id, 0).walk("VEVENT")[0].decoded("dtstart")
    host.extend_deadline(game.id, 24)
    after = _feed(feed_server, game.id, 0).walk("VEVENT")[0].decoded("dtstart")
    assert after - before == timedelta(hours=24)
