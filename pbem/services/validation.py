"""Cleaning what people type when they create a game: names, addresses, hours, timezones.

Every refusal is a ``BadInput`` whose message names the field, so the create form and the CLI
can show it as is. Addresses are checked for syntax only: no DNS look-up is made while a
request waits (a bad domain shows up later as a bounce, see ``Seat.email_failing``).
"""

from __future__ import annotations

import unicodedata
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.mail.addresses import UnmailableAddress, mailable_address
from pbem.services.errors import BadInput

NAME_MAX = 40
GAME_NAME_MAX = 80
MAX_HOURS = 14 * 24


def clean_name(raw: str, *, what: str = "Player name", limit: int = NAME_MAX) -> str:
    """Trimmed, single-spaced, printable and not too long."""
    name = " ".join((raw or "").split())
    if not name:
        raise BadInput(f"{what} is empty.")
    if len(name) > limit:
        raise BadInput(f"{what} '{name[:limit]}…' is longer than {limit} characters.")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadInput(f"{what} contains control characters.")
    return name


def clean_email(raw: str, *, what: str = "Email address") -> str:
    """The address as stored and mailed, or BadInput saying in plain words what is wrong.
    The same rule as the outbox's (``pbem.mail.addresses``): what is accepted can be mailed."""
    try:
        return mailable_address(raw, what=what)
    except UnmailableAddress as exc:
        raise BadInput(exc.message) from None


def clean_timezone(raw: str | None) -> str:
    name = (raw or "UTC").strip() or "UTC"
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        message = f"Unknown timezone '{name}': use an IANA name such as Europe/Lisbon."
        raise BadInput(message) from None
    return name


def clean_hours(hours: int) -> int:
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_HOURS:
        raise BadInput(f"Time per move is a whole number of hours from 1 to {MAX_HOURS}.")
    return hours
