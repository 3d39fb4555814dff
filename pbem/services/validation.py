"""Cleaning what people type when they create a game: names, addresses, hours, timezones.

Every refusal is a ``BadInput`` whose message names the field, so the create form and the CLI
can show it as is. Addresses are checked for syntax only: no DNS look-up is made while a
request waits (a bad domain shows up later as a bounce, see ``Seat.email_failing``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pbem.clock import TimeBank
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


@cache
def _zones_by_folded_name() -> dict[str, str]:
    return {zone.casefold(): zone for zone in available_timezones()}


def clean_timezone(raw: str | None) -> str:
    """The IANA name as the database spells it, whatever the case typed: ``europe/lisbon``
    is Europe/Lisbon (a phone's keyboard capitalises at will)."""
    typed = (raw or "UTC").strip() or "UTC"
    name = _zones_by_folded_name().get(typed.casefold(), typed)
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        message = f"Unknown timezone '{typed}': use an IANA name such as Europe/Lisbon."
        raise BadInput(message) from None
    return name


def shared_addresses(seats: Sequence[tuple[str, str | None]]) -> list[str]:
    """A warning per address that two or more of the (name, address) ``seats`` share: each
    seat's private mail (its hand, its Agendas) then goes to the one inbox. Allowed (a
    couple may share a mailbox), but never by accident."""
    by_address: dict[str, list[str]] = {}
    for name, address in seats:
        if address and address.strip():
            by_address.setdefault(address.strip().casefold(), []).append(name)
    return [f"{' and '.join(names)} have the same address ({address}): each seat's private "
            "mail, its cards and Agendas, goes to that one inbox."
            for address, names in by_address.items() if len(names) > 1]


def clean_hours(hours: int) -> int:
    if isinstance(hours, bool) or not isinstance(hours, int) or not 1 <= hours <= MAX_HOURS:
        raise BadInput(f"Time per move is a whole number of hours from 1 to {MAX_HOURS}.")
    return hours


MAX_BANK_HOURS = 60 * 24  # a bank of 60 days: far beyond any correspondence habit
MAX_INCREMENT_HOURS = MAX_HOURS


def clean_time_bank(bank: TimeBank) -> TimeBank:
    """A time bank a game can run on: whole hours, a bank of at least one hour, an increment
    of at most two weeks, and a cap (if any) no smaller than the bank it starts with."""
    if not (float(bank.hours).is_integer() and 1 <= bank.hours <= MAX_BANK_HOURS):
        raise BadInput(f"The time bank is a whole number of hours from 1 to {MAX_BANK_HOURS}.")
    if not (float(bank.increment_hours).is_integer()
            and 0 <= bank.increment_hours <= MAX_INCREMENT_HOURS):
        raise BadInput("The time added after each turn is a whole number of hours from 0 to "
                       f"{MAX_INCREMENT_HOURS}.")
    if bank.max_hours is not None and not (
            float(bank.max_hours).is_integer() and bank.hours <= bank.max_hours <= MAX_BANK_HOURS):
        raise BadInput("The time bank's cap is a whole number of hours, at least the bank "
                       f"it starts with and at most {MAX_BANK_HOURS}.")
    return bank
