"""Time maths for deadlines: pure functions of the times passed in, no database, no app.

A seat's clock starts when the game begins to wait for it. The deadline is ``time per move``
later; reminders fall at fractions of that time; the autopilot plays at deadline + grace.
Reminders never arrive during the seat's quiet hours (local time): one due then waits until the
quiet hours end. ``now()`` is the one place the server reads the wall clock; tests replace it
with ``app.config["PBEM_CLOCK"]`` (a callable returning an aware UTC datetime).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DEFAULT_HOURS_PER_MOVE = 48
DEFAULT_QUIET_START = 22 * 60  # minutes after local midnight
DEFAULT_QUIET_END = 8 * 60
DEFAULT_VACATION_DAYS = 14

CLOCK_CONFIG_KEY = "PBEM_CLOCK"


@dataclass(frozen=True)
class TimeoutPolicy:
    """A game's ``timeout_policy`` with every default filled in."""

    reminders: tuple[float, ...] = (0.5, 0.8)  # fractions of the time per move
    grace_hours: float = 12.0  # after the deadline, before the autopilot plays
    absent_after: int = 3  # consecutive timeouts that mark a seat absent
    vacation_days: int = DEFAULT_VACATION_DAYS  # days off each seat may take per game
    bank: TimeBank | None = None  # None: a fixed time per move (``games.time_per_move_hours``)

    @classmethod
    def from_json(cls, raw: Mapping[str, Any] | None) -> TimeoutPolicy:
        raw = raw or {}
        default = cls()
        reminders = raw.get("reminders", default.reminders)
        return cls(
            reminders=tuple(sorted(float(f) for f in reminders if 0 < float(f) < 1)),
            grace_hours=float(raw.get("grace_hours", default.grace_hours)),
            absent_after=max(1, int(raw.get("absent_after", default.absent_after))),
            vacation_days=max(0, int(raw.get("vacation_days", default.vacation_days))),
            bank=TimeBank.from_json(raw.get("bank")),
        )


@dataclass(frozen=True)
class TimeBank:
    """The correspondence-chess clock: each seat starts with ``hours`` and gains
    ``increment_hours`` each time one of its turns ends, never above ``max_hours``. Every wait
    of the seat (its turn, a decision in another's turn) spends from it; the reminders fall
    at the policy's fractions of what is left when the wait starts, and the autopilot plays
    once it is spent and the grace has passed."""

    hours: float
    increment_hours: float = 0.0
    max_hours: float | None = None

    @classmethod
    def from_json(cls, raw: Any) -> TimeBank | None:
        if not isinstance(raw, Mapping) or raw.get("hours") is None:
            return None
        cap = raw.get("max_hours")
        return cls(max(0.0, float(raw["hours"])), max(0.0, float(raw.get("increment_hours", 0))),
                   None if cap is None else max(0.0, float(cap)))

    def to_json(self) -> dict[str, float | None]:
        return {"hours": self.hours, "increment_hours": self.increment_hours,
                "max_hours": self.max_hours}

    @property
    def initial(self) -> timedelta:
        return timedelta(hours=self.hours)

    def after_wait(self, deadline: datetime, ended: datetime, turn_ended: bool) -> timedelta:
        """What a seat's bank holds after a wait whose clock ran out at ``deadline`` ended at
        ``ended``: the time it did not spend (a wait past its deadline spent it all), plus the
        increment when the wait ended the seat's own turn, capped."""
        left = max(as_utc(deadline) - as_utc(ended), timedelta(0))
        if turn_ended:
            left += timedelta(hours=self.increment_hours)
        if self.max_hours is not None:
            left = min(left, timedelta(hours=self.max_hours))
        return timedelta(seconds=int(left.total_seconds()))  # whole seconds: the stored unit


def now() -> datetime:
    """The current time in UTC; ``app.config["PBEM_CLOCK"]`` overrides it (tests)."""
    try:
        from flask import current_app, has_app_context
    except ImportError:  # pragma: no cover - Flask is always installed with the server
        return datetime.now(UTC)
    if has_app_context():
        clock: Callable[[], datetime] | None = current_app.config.get(CLOCK_CONFIG_KEY)
        if clock is not None:
            return as_utc(clock())
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime; a naive one is taken to be UTC (SQLite reads)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def zone(name: str | None) -> ZoneInfo:
    """The IANA zone ``name``; an unknown or empty name falls back to UTC."""
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def in_quiet_hours(local: time, start_minute: int, end_minute: int) -> bool:
    """True when the local wall time lies in [start, end), a window that may wrap midnight."""
    minute = local.hour * 60 + local.minute
    if start_minute == end_minute:
        return False  # no quiet hours
    if start_minute < end_minute:
        return start_minute <= minute < end_minute
    return minute >= start_minute or minute < end_minute


def quiet_hours(start_minute: int | None, end_minute: int | None) -> tuple[int, int]:
    """A seat's quiet hours (minutes after local midnight), the defaults where it set none."""
    start = DEFAULT_QUIET_START if start_minute is None else start_minute
    end = DEFAULT_QUIET_END if end_minute is None else end_minute
    return start, end


def out_of_quiet_hours(
    due: datetime,
    timezone: str | None,
    start_minute: int = DEFAULT_QUIET_START,
    end_minute: int = DEFAULT_QUIET_END,
) -> datetime:
    """``due`` itself, or (when it falls in the quiet hours) the end of those quiet hours."""
    tz = zone(timezone)
    local = as_utc(due).astimezone(tz)
    if not in_quiet_hours(local.time(), start_minute, end_minute):
        return as_utc(due)
    end = time(end_minute // 60, end_minute % 60)
    wake = datetime.combine(local.date(), end, tzinfo=tz)
    if wake <= local:
        wake = datetime.combine(local.date() + timedelta(days=1), end, tzinfo=tz)
    return as_utc(wake)


def next_morning(after: datetime, timezone: str | None, wake_minute: int | None) -> datetime:
    """The first local morning (``wake_minute`` after local midnight, the end of the quiet
    hours; 08:00 by default) strictly after ``after``, in UTC: when a daily digest is next due.

    Each candidate is built on its own local date, so a DST change between ``after`` and the
    morning moves the UTC instant, never the local hour."""
    after = as_utc(after)
    tz = zone(timezone)
    minute = DEFAULT_QUIET_END if wake_minute is None else wake_minute
    wake = time(minute // 60, minute % 60)
    day = after.astimezone(tz).date() - timedelta(days=1)  # a gap or fold may shift an hour
    while True:
        morning = as_utc(datetime.combine(day, wake, tzinfo=tz))
        if morning > after:  # compared in UTC: same-zone datetimes compare by wall time
            return morning
        day += timedelta(days=1)


def every(marks: MutableMapping[str, Any], key: str, period: timedelta, now: datetime) -> bool:
    """True when ``period`` has passed since the time recorded under ``key`` in ``marks`` (or
    none is, or the clock went back), and then ``now`` is recorded: a pass that runs at most
    once per ``period`` in a process, e.g. a repair pass kept in ``app.extensions``."""
    last = marks.get(key)
    if last is not None and last <= now < last + period:
        return False
    marks[key] = now
    return True


@dataclass(frozen=True)
class Schedule:
    """When the reminders fall, when the deadline is and when the autopilot plays."""

    reminders: tuple[datetime, ...]
    deadline: datetime
    timeout: datetime


def schedule(
    started: datetime,
    hours_per_move: float,
    policy: TimeoutPolicy,
    timezone: str | None = "UTC",
    quiet: tuple[int, int] = (DEFAULT_QUIET_START, DEFAULT_QUIET_END),
) -> Schedule:
    """The times of one seat's clock that started at ``started``.

    A reminder pushed by quiet hours past the deadline is dropped: the deadline has come.
    """
    started = as_utc(started)
    per_move = timedelta(hours=hours_per_move)
    deadline = started + per_move
    reminders: list[datetime] = []
    for fraction in policy.reminders:
        due = out_of_quiet_hours(started + per_move * fraction, timezone, *quiet)
        if due < deadline and due not in reminders:
            reminders.append(due)
    return Schedule(tuple(reminders), deadline, deadline + timedelta(hours=policy.grace_hours))


def clock_start(now_: datetime, vacation_until: datetime | None) -> datetime:
    """A seat's clock starts now, or when its vacation ends if it is away."""
    now_ = as_utc(now_)
    if vacation_until is not None and as_utc(vacation_until) > now_:
        return as_utc(vacation_until)
    return now_


def vacation_end(start: datetime, days: int, used: int, allowance: int) -> datetime:
    """When a vacation of ``days`` from ``start`` ends; ValueError past the allowance."""
    if days < 1:
        raise ValueError("A vacation lasts at least one day.")
    left = allowance - used
    if days > left:
        raise ValueError(f"Only {max(left, 0)} day(s) of vacation are left in this game.")
    return as_utc(start) + timedelta(days=days)
