"""What the turn page's "Your seat" section shows: vacation allowance, mail settings, absence.

Read-only: the forms post to ``pbem.web.blueprints.seat``, which calls the services.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem import clock
from pbem.models import Game, Seat
from pbem.services import deadlines, seat_settings

NOTIFY_LABELS = {
    "every_turn": "Every turn: a mail after each player’s turn, and when it is mine",
    "my_turn": "Only my turn: when it is my turn (and when the game ends)",
    "digest": "Daily digest: one mail a day of what happened, and my turn",
}
COMMON_ZONES = (
    "UTC", "Europe/London", "Europe/Lisbon", "Europe/Paris", "Europe/Berlin", "Europe/Madrid",
    "Europe/Rome", "Europe/Warsaw", "Europe/Athens", "Europe/Helsinki", "Europe/Moscow",
    "Africa/Johannesburg", "Asia/Dubai", "Asia/Kolkata", "Asia/Singapore", "Asia/Shanghai",
    "Asia/Tokyo", "Australia/Perth", "Australia/Sydney", "Pacific/Auckland",
    "America/St_Johns", "America/Halifax", "America/New_York", "America/Chicago",
    "America/Denver", "America/Phoenix", "America/Los_Angeles", "America/Anchorage",
    "Pacific/Honolulu", "America/Sao_Paulo", "America/Mexico_City",
)
LIVE = ("active", "paused")


@dataclass
class SeatPanel:
    live: bool  # the game still takes changes (active or paused)
    absent: bool  # show the "I'm back" banner
    missed: int  # turns timed out in a row
    allowance: int
    days_left: int
    away_until: str  # the current vacation's end, in the seat's time zone; "" if none
    notify: str
    timezone: str
    quiet_start: int  # whole local hours
    quiet_end: int
    notify_labels: dict[str, str]
    zones: tuple[str, ...]
    bounced: bool = False  # mail to this seat bounced: show "I fixed my mailbox"
    offered_timezone: str | None = None  # the address's zone in its last game, to prefill
    table_talk_mail: bool = True  # its mails show "At the table since your last turn"


def local_time(moment: datetime, timezone: str | None) -> str:
    """E.g. "Tue 10 Mar 2026, 14:00 (Europe/Lisbon)"."""
    local = clock.as_utc(moment).astimezone(clock.zone(timezone))
    return f"{local:%a} {local.day} {local:%b %Y, %H:%M} ({timezone or 'UTC'})"


def seat_panel(game: Game, seat: Seat, now: datetime | None = None) -> SeatPanel:
    now = clock.as_utc(now) if now is not None else clock.now()
    allowance = deadlines.policy_of(game).vacation_days
    until = seat.vacation_until
    away = until is not None and clock.as_utc(until) > now
    live = game.status in LIVE and not seat.is_bot and not seat.resigned
    return SeatPanel(
        live=live, absent=live and bool(seat.absent) and not seat.resigned,
        bounced=live and bool(seat.email_failing),
        missed=seat.consecutive_timeouts or 0, allowance=allowance,
        days_left=max(0, allowance - (seat.vacation_days_used or 0)),
        away_until=local_time(until, seat.timezone) if away and until is not None else "",
        notify=seat.notify, timezone=seat.timezone or "UTC",
        quiet_start=(seat.quiet_start if seat.quiet_start is not None
                     else clock.DEFAULT_QUIET_START) // 60,
        quiet_end=(seat.quiet_end if seat.quiet_end is not None
                   else clock.DEFAULT_QUIET_END) // 60,
        notify_labels=NOTIFY_LABELS,
        zones=COMMON_ZONES if seat.timezone in COMMON_ZONES else (seat.timezone, *COMMON_ZONES),
        offered_timezone=seat_settings.remembered_timezone(seat),
        table_talk_mail=seat.table_talk_mail is not False,
    )


# After a saved form the page is shown again with one of these (``?done=…``: fixed words,
# so nothing from the URL reaches the page).
DONE = {
    "vacation": ("Vacation saved.", "Your clock stops until it ends; the other players have "
                                    "been told."),
    "settings": ("Settings saved.", "Your mail settings, time zone and quiet hours are "
                                    "updated."),
    "notices": ("Notices saved.", "Your chat channels and their order are updated."),
    "back": ("Welcome back.", "The autopilot has stopped: your turns are yours to play again."),
    "mailbox": ("Mail is on its way again.", "The mails that bounced are queued again; if "
                                             "they bounce again, the host is told."),
    "asked": ("The host has been asked.", "We mailed the host that you would like a rematch; "
                                          "everyone gets an invitation when it starts."),
    "asked_again": ("You asked already.", "The host was mailed when you first asked; nothing "
                                          "more was sent."),
    "resigned": ("You resigned.", "The computer plays your seat from now on; every player "
                                  "has been mailed once."),
}
