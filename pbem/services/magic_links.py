"""The "my games" sign-in link: a random key mailed to an address, and the games it opens.

The link carries nothing readable: it is a random key (``secrets``), and the database keeps
only its SHA-256 with the normalised address and an expiry. Asking for a link does the same
work whether or not the address plays here (a row, one mail, one commit), so neither the
answer nor its timing tells who plays; a stranger's inbox gets at most
``MAGIC_LINKS_PER_ADDRESS`` links an hour, whoever asks (the per-client rate limit of
``POST /me`` comes on top).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

import sqlalchemy as sa

from pbem import clock, tokens
from pbem.extensions import db
from pbem.mail.addresses import UnmailableAddress, address_key
from pbem.mail.outbound import links, notify
from pbem.models import Game, MagicLink, Seat
from pbem.services.errors import BadInput

MAGIC_LINKS_PER_ADDRESS = 3  # mailed per address and hour, known or not
WINDOW = timedelta(hours=1)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def request_link(raw_address: str, *, now: datetime | None = None) -> None:
    """Mail a sign-in link to the address (unless it had its share this hour); commits.

    ``BadInput`` for an address that could never be mailed (nothing is written)."""
    try:
        address = address_key(raw_address, what="This address")
    except UnmailableAddress as exc:
        raise BadInput(exc.message) from None
    now = clock.as_utc(now) if now is not None else clock.now()
    db.session.execute(sa.delete(MagicLink).where(MagicLink.expires_at < now))
    recent = db.session.execute(
        sa.select(sa.func.count()).select_from(MagicLink)
        .where(MagicLink.address == address, MagicLink.created_at > now - WINDOW)
    ).scalar_one()
    if recent < MAGIC_LINKS_PER_ADDRESS:
        key = issue_key(address, now=now)
        # Built against SERVER_NAME, never this request's Host header (a mailed link).
        url = links.dashboard_url(key)
        notify.magic_link(address, url)
    db.session.commit()


def issue_key(address: str, *, now: datetime | None = None) -> str:
    """A new key opening the dashboard of the normalised ``address`` (the caller commits)."""
    now = clock.as_utc(now) if now is not None else clock.now()
    key = secrets.token_urlsafe(32)
    life = tokens.max_age("MAGIC_LINK_MAX_AGE") or int(WINDOW.total_seconds())
    db.session.add(MagicLink(key_hash=_hash(key), address=address, created_at=now,
                             expires_at=now + timedelta(seconds=life)))
    return key


def resolve_link(key: str | None, *, now: datetime | None = None) -> str:
    """The normalised address whose dashboard ``key`` opens, or ``BadToken``."""
    if not key:
        raise tokens.BadToken("missing")
    now = clock.as_utc(now) if now is not None else clock.now()
    row = db.session.execute(
        sa.select(MagicLink).where(MagicLink.key_hash == _hash(key))
    ).scalar_one_or_none()
    if row is None:
        raise tokens.BadToken("forged")
    if clock.as_utc(row.expires_at) <= now:
        raise tokens.BadToken("expired")
    return row.address


def _same_address(stored: str | None, address: str) -> bool:
    try:
        return stored is not None and address_key(stored) == address
    except UnmailableAddress:  # stored before every entry point checked addresses
        return False


def seats_of_address(address: str) -> list[tuple[Game, Seat]]:
    """Every seat played from the normalised ``address``, newest game first.

    The database narrows by a case-insensitive match; the normalised forms decide (SQL
    ``lower`` folds other letters than Python does, and differently on each database)."""
    rows = db.session.execute(
        sa.select(Game, Seat).join(Seat, Seat.game_id == Game.id)
        .where(sa.func.lower(Seat.email) == address)
        .order_by(Game.created_at.desc())
    ).all()
    return [(game, seat) for game, seat in rows if _same_address(seat.email, address)]
