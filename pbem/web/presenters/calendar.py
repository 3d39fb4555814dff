"""A person's deadlines as an iCalendar feed (RFC 5545), written with the icalendar library.

One event per current deadline (``pbem.services.calendar_feed``): it starts at the deadline,
in the time zone of the person's seat in that game (the feed carries that zone's
VTIMEZONE), with one display alarm at each reminder time of the wait. Its UID names the game,
the seat and the wait, so a calendar app keeps one event while the same wait goes on and
drops it when the turn is played. The event links to the game's public page only: the feed
may be stored by a calendar service, and the seat's own link is its key.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

from flask import url_for
from icalendar import Alarm, Calendar, Event, vDuration

from pbem import clock, tokens
from pbem.models import Game, Seat
from pbem.services.calendar_feed import DeadlineEntry

PRODID = "-//pbem//Alien Frontiers deadlines//EN"
CALENDAR_NAME = "Alien Frontiers: my deadlines"
REFRESH = timedelta(hours=1)  # how often a calendar app should fetch the feed again


def feed(entries: Sequence[DeadlineEntry], now: datetime, host: str,
         game_url: Callable[[str], str]) -> bytes:
    """The feed of ``entries``; ``host`` makes the UIDs unique to this server and
    ``game_url(public_id)`` is a game's public page."""
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", CALENDAR_NAME)
    calendar.add("refresh-interval", REFRESH, parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", vDuration(REFRESH))
    for entry in entries:
        calendar.add_component(_event(entry, now, host, game_url(entry.public_id)))
    calendar.add_missing_timezones()
    return bytes(calendar.to_ical())


def _event(entry: DeadlineEntry, now: datetime, host: str, url: str) -> Event:
    event = Event()
    event.add("uid", f"{entry.public_id}-{entry.seat}-{entry.wait}@{host}")
    event.add("dtstamp", clock.as_utc(now))
    event.add("dtstart", entry.deadline.astimezone(clock.zone(entry.timezone)))
    event.add("summary", f"Your move in {entry.game_name}: deadline")
    event.add("description", (
        f"Round {entry.round} of {entry.game_name} waits for your move. After the deadline "
        f"and {entry.grace_hours:g} hours' grace the autopilot plays your turn. Open it from "
        "your latest game mail or My games."))
    event.add("url", url)
    event.add("transp", "TRANSPARENT")  # a deadline, not time you are busy
    for when in entry.reminders:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Reminder: your move in {entry.game_name}")
        alarm.add("trigger", clock.as_utc(when), parameters={"VALUE": "DATE-TIME"})
        event.add_component(alarm)
    return event


def feed_url(game: Game, seat: Seat) -> str:
    """The seat's private feed: its address's deadlines in every game (revoked with the
    seat's links)."""
    token = tokens.make_calendar_token(game.public_id, seat.index, seat.link_counter)
    return url_for("calendar.deadlines", token=token, _external=True)
