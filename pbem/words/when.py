"""Times in words, in the reader's time zone: "Thursday 3 December, 18:00 WET, 47 hours from
now", "47 h left". Pure: the moment "now" is passed in (mail gathers it once per mail)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem import clock


def local_time(when: datetime, tz_name: str | None) -> str:
    """ "Thursday 3 December, 18:00 WET" (an unknown zone reads as UTC)."""
    try:
        zone = ZoneInfo(tz_name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        zone = ZoneInfo("UTC")
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    local = when.astimezone(zone)
    return local.strftime("%A %-d %B, %H:%M ") + (local.tzname() or str(zone))


def hours_from_now(due: datetime, now: datetime) -> str:
    """ "47 hours from now", "40 minutes from now", or "passed"."""
    left = clock.as_utc(due) - clock.as_utc(now)
    if left <= timedelta(0):
        return "passed"
    hours = round(left / timedelta(hours=1))
    if hours >= 1:
        return f"{hours} hour{'s' if hours != 1 else ''} from now"
    minutes = max(1, round(left / timedelta(minutes=1)))
    return f"{minutes} minute{'s' if minutes != 1 else ''} from now"


def time_left(due: datetime | None, now: datetime) -> str:
    """ "47 h left", "40 min left", "time is up", or "no deadline" (paused, or no clock)."""
    if due is None:
        return "no deadline"
    left = clock.as_utc(due) - clock.as_utc(now)
    if left <= timedelta(0):
        return "time is up"
    hours = left // timedelta(hours=1)  # whole hours: never more time than there is
    if hours >= 1:
        return f"{hours} h left"
    return f"{max(1, round(left / timedelta(minutes=1)))} min left"


def deadline_words(due: datetime | None, tz_name: str | None, now: datetime) -> str:
    """ "Thursday 3 December, 18:00 WET, 47 hours from now" in the seat's time zone."""
    if due is None:
        return "none while the game is paused"
    return f"{local_time(due, tz_name)}, {hours_from_now(due, now)}"
