"""Times in words, in the reader's time zone: "Thursday 3 December, 18:00 WET, 47 hours from
now", "47 h left". Pure: the moment "now" is passed in (mail gathers it once per mail)."""

from __future__ import annotations

from collections.abc import Sequence
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


def span(length: timedelta) -> str:
    """ "2 d 5 h", "5 h", "40 min", "0 min": a stretch of time, whole units, never rounded up."""
    minutes = max(0, int(length.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h"
    return f"{minutes} min"


def _hours(hours: float) -> str:
    whole = int(hours) if float(hours).is_integer() else hours
    return f"{whole} hour{'' if whole == 1 else 's'}"


def bank_words(bank: clock.TimeBank) -> str:
    """ "a time bank of 72 hours, plus 24 hours after each turn, at most 240 hours"."""
    words = f"a time bank of {_hours(bank.hours)}"
    if bank.increment_hours:
        words += f", plus {_hours(bank.increment_hours)} after each turn"
    if bank.max_hours is not None:
        words += f", at most {_hours(bank.max_hours)}"
    return words


def clock_words(hours_per_move: int | None, bank: clock.TimeBank | None) -> str | None:
    """The game's clock in words: its time bank, or "48 hours per move"."""
    if bank is not None:
        return bank_words(bank)
    return f"{_hours(hours_per_move)} per move" if hours_per_move else None


def banks_line(banks: Sequence[tuple[str, timedelta, bool]]) -> str:
    """ "Ana 2 d 5 h (running) · Ben 3 d": each ``(name, held, running)``, where ``held`` is
    what the seat's time bank held when its last wait began and ``running`` marks the seat
    whose clock runs now (its deadline is shown beside)."""
    return " · ".join(f"{name} {span(held)}{' (running)' if running else ''}"
                      for name, held, running in banks)
