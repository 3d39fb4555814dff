"""Cleaning what people type when they create a game: names, addresses, hours, timezones.

Every refusal is a ``BadInput`` whose message names the field, so the create form and the CLI
can show it as is. Addresses are checked for syntax only: no DNS look-up is made while a
request waits (a bad domain shows up later as a bounce, see ``Seat.email_failing``).
"""

from __future__ import annotations

import unicodedata
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from email_validator import EmailNotValidError, validate_email

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
    """The normalised address (domain lower-cased, IDNA), or BadInput saying what is wrong."""
    try:
        result = validate_email((raw or "").strip(), check_deliverability=False)
    except EmailNotValidError as exc:
        raise BadInput(f"{what} '{raw}' is not valid: {exc}") from None
    return str(result.normalized)


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
