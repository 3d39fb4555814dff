"""Signed tokens: the links in mail and the version stamp of every form (itsdangerous).

Signing and checking only (no database), so the mail that writes links and the services and
pages that read them share one module; what a seat link opens, and revoking it, needs the
database and is ``pbem.services.links``.

One salt per purpose, so a token made for one purpose never passes as another. Tokens are
signed with ``SECRET_KEY`` and still accepted under any key in ``SECRET_KEY_FALLBACKS`` (key
rotation). A seat link carries the seat's ``link_counter``: bumping the counter revokes every
link of that seat without a table of issued tokens.

Max ages (seconds, ``None`` = no limit) come from the app config:
``SEAT_LINK_MAX_AGE``, ``FORM_TOKEN_MAX_AGE``, ``HOST_TOKEN_MAX_AGE``,
``UNSUBSCRIBE_TOKEN_MAX_AGE``, ``CALENDAR_LINK_MAX_AGE``; ``MAGIC_LINK_MAX_AGE`` is the life
of a "my games" link, which is not signed but an opaque random key stored by
``pbem.services.magic_links``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from pbem.errors import ServiceError

DAY = 24 * 3600
DEFAULT_MAX_AGES: dict[str, int | None] = {
    "SEAT_LINK_MAX_AGE": 365 * DAY,  # a game by mail can last months
    "FORM_TOKEN_MAX_AGE": 30 * DAY,  # a turn page left open over a long weekend still posts
    "HOST_TOKEN_MAX_AGE": 365 * DAY,
    "MAGIC_LINK_MAX_AGE": 3600,  # sign-in links are short-lived
    "UNSUBSCRIBE_TOKEN_MAX_AGE": None,  # RFC 8058: one-click unsubscribe must keep working
    "CALENDAR_LINK_MAX_AGE": None,  # a calendar app polls a subscribed feed for years
}

REASONS = {
    "missing": "No link was given: open the link from your latest game mail.",
    "forged": "This link is not valid: it was changed or was not issued by this server.",
    "expired": "This link has expired: use the link in your latest game mail.",
    "revoked": "This link was replaced by a newer one: use the link in your latest game mail.",
    "handed_over": "The host handed this seat over to another player: this link no longer "
                   "opens it.",
    "other_game": "This link belongs to another game.",
    "other_seat": "This link belongs to another player's seat.",
}


class BadToken(ServiceError):
    """A token that cannot be used; ``reason`` is one of ``REASONS``' keys."""

    code = "bad_token"

    def __init__(self, reason: str, message: str | None = None) -> None:
        super().__init__(message or REASONS[reason])
        self.reason = reason
        # Unknown or unreadable credentials: 401; a good token used in the wrong place: 403.
        self.status = 403 if reason in ("other_game", "other_seat") else 401


def _serializer(salt: str) -> URLSafeTimedSerializer:
    config = current_app.config
    keys = [str(key) for key in (*config.get("SECRET_KEY_FALLBACKS", []), config["SECRET_KEY"])]
    return URLSafeTimedSerializer(keys, salt=f"pbem.{salt}")  # the newest key signs


def _dump(salt: str, payload: Any) -> str:
    return _serializer(salt).dumps(payload)


def max_age(key: str) -> int | None:
    """The configured life in seconds of a link of kind ``key`` (``None``: no limit)."""
    value: int | None = current_app.config.get(key, DEFAULT_MAX_AGES[key])
    return value


def _load(salt: str, token: str | None, max_age_key: str) -> Any:
    if not token:
        raise BadToken("missing")
    try:
        return _serializer(salt).loads(token, max_age=max_age(max_age_key))
    except SignatureExpired:
        raise BadToken("expired") from None
    except BadSignature:
        raise BadToken("forged") from None


# -- seat link: the turn link in mails ----------------------------------------------------


@dataclass(frozen=True)
class SeatLink:
    public_id: str
    seat: int
    counter: int


class LinkedGame(Protocol):
    """What a seat link names of its game (a ``pbem.models.Game`` has it)."""

    @property
    def public_id(self) -> str: ...


class LinkedSeat(Protocol):
    """What a seat link names of its seat: bumping ``link_counter`` revokes its links."""

    @property
    def index(self) -> int: ...

    @property
    def link_counter(self) -> int: ...


def make_seat_link(game: LinkedGame, seat: LinkedSeat) -> str:
    """The long-lived token that lets its holder play ``seat`` of ``game``."""
    return _dump("seat_link", [game.public_id, seat.index, seat.link_counter])


def read_seat_link(token: str | None) -> SeatLink:
    """Check the signature and age only (no database)."""
    data = _load("seat_link", token, "SEAT_LINK_MAX_AGE")
    if not (isinstance(data, list) and len(data) == 3):
        raise BadToken("forged")
    return SeatLink(str(data[0]), int(data[1]), int(data[2]))


# -- form token: every form and API submit carries the version it was made from -------------


def make_form_token(public_id: str, seat: int, version: int) -> str:
    return _dump("form", [public_id, seat, version])


def read_form_token(token: str | None, public_id: str, seat: int) -> int:
    """The game version the form was rendered from; refuses another game's or seat's form."""
    data = _load("form", token, "FORM_TOKEN_MAX_AGE")
    if not (isinstance(data, list) and len(data) == 3):
        raise BadToken("forged")
    if data[0] != public_id:
        raise BadToken("other_game")
    if data[1] != seat:
        raise BadToken("other_seat")
    return int(data[2])


# -- host, unsubscribe ------------------------------------------------------------


@dataclass(frozen=True)
class HostLink:
    public_id: str
    counter: int  # the game's ``host_link_counter`` when the link was made


def make_host_token(public_id: str, counter: int = 0) -> str:
    """The host page's token; ``counter`` is the game's ``host_link_counter``, so replacing a
    leaked host link (which bumps it) revokes every host link made before."""
    return _dump("host", [public_id, counter])


def read_host_link(token: str | None) -> HostLink:
    """The game and counter a host token names (no database)."""
    data = _load("host", token, "HOST_TOKEN_MAX_AGE")
    if isinstance(data, str):  # issued before the counter was carried: the game's first link
        return HostLink(data, 0)
    if not (isinstance(data, list) and len(data) == 2 and isinstance(data[0], str)
            and isinstance(data[1], int)):
        raise BadToken("forged")
    return HostLink(data[0], data[1])


def read_host_token(token: str | None) -> str:
    """The public id of the game whose host page this token opens (its counter is checked
    against the game by ``pbem.services.host_links.resolve_host_link``)."""
    return read_host_link(token).public_id


def make_unsubscribe_token(public_id: str, seat: int, counter: int) -> str:
    """The seat's mail-settings link; ``counter`` is the seat's ``link_counter``, so a
    substitution (which bumps it) revokes the old player's unsubscribe links too."""
    return _dump("unsubscribe", [public_id, seat, counter])


def read_unsubscribe_token(token: str | None) -> SeatLink:
    """The game, seat and link counter an unsubscribe token names (no database)."""
    data = _load("unsubscribe", token, "UNSUBSCRIBE_TOKEN_MAX_AGE")
    if not isinstance(data, list) or len(data) not in (2, 3):
        raise BadToken("forged")
    # Issued before the counter was carried: such a link belongs to the seat's first player.
    counter = int(data[2]) if len(data) == 3 else 0
    return SeatLink(str(data[0]), int(data[1]), counter)


def make_calendar_token(public_id: str, seat: int, counter: int) -> str:
    """The seat's private deadlines feed (iCalendar); ``counter`` is the seat's
    ``link_counter``, so replacing the seat's links (a substitution) revokes it too."""
    return _dump("calendar", [public_id, seat, counter])


def read_calendar_token(token: str | None) -> SeatLink:
    """The game, seat and link counter a calendar token names (no database)."""
    data = _load("calendar", token, "CALENDAR_LINK_MAX_AGE")
    if not (isinstance(data, list) and len(data) == 3 and isinstance(data[0], str)
            and all(isinstance(n, int) for n in data[1:])):
        raise BadToken("forged")
    return SeatLink(data[0], data[1], data[2])


# -- reply token: the plus-address part of a seat's Reply-To ----------------------------------
# Not an itsdangerous token: its base64 is case-sensitive, and mail systems may fold the case
# of an address's local part. This one is lower-case hex (an HMAC-SHA256 cut to 96 bits) over
# game id, seat, link counter and the wait the mail was sent for, so it survives case folding,
# fits the 64-character local part, and bumping ``link_counter`` revokes it like every other
# link of the seat. The wait is ``position_stamp`` of the game when the mail was composed:
# a reply is played only against the position its mail showed (``pbem.services.reply_waits``).
# Tokens made before the wait was carried (four fields) still read, with ``wait`` None.

REPLY_SIGNATURE_HEX = 24
WAIT_HEX = 8  # 32 bits of the position's hash: a late reply passing as current is 1 in 4e9
# ASCII digits only, each number within bounds (a game id of at most 12 digits, a seat of 1,
# a link counter of at most 9), the wait's and the signature's hex: anything else is refused
# before a number is read, so no Unicode digit ("²") or 5,000-digit field reaches int().
REPLY_TOKEN = re.compile(
    rf"([0-9]{{1,12}})-([0-9])-([0-9]{{1,9}})(?:-([0-9a-f]{{{WAIT_HEX}}}))?"
    rf"-([0-9a-f]{{{REPLY_SIGNATURE_HEX}}})")
REPLY_TOKEN_MAX = 64  # a local part is at most 64 characters (RFC 5321)


class RepliedGame(Protocol):
    @property
    def id(self) -> int: ...

    @property
    def state(self) -> dict[str, Any]: ...


def position_stamp(state: Mapping[str, Any], key: str | None = None) -> str:
    """Names a position (a game's ``state`` column): the wait a mail was composed in. Keyed
    (an HMAC under ``SECRET_KEY``, or ``key``): the state holds the dice's seed and the
    hidden cards, and a plain hash in every address would let one test guesses about them."""
    # Through JSON and back first: the stamp of a state just written (whose keys may be
    # numbers) is that of the same state read back from the database (whose keys are text).
    stored = json.loads(json.dumps(state))
    canonical = json.dumps(stored, sort_keys=True, separators=(",", ":"))
    secret = key if key is not None else str(current_app.config["SECRET_KEY"])
    return hmac.new(secret.encode(), b"pbem.wait:" + canonical.encode(),
                    hashlib.sha256).hexdigest()[:WAIT_HEX]


def is_position(state: Mapping[str, Any], wait: str) -> bool:
    """Whether ``wait`` (a reply token's) names ``state``, under the key or a fallback key."""
    config = current_app.config
    keys = [str(key) for key in (*config.get("SECRET_KEY_FALLBACKS", []), config["SECRET_KEY"])]
    return any(hmac.compare_digest(wait, position_stamp(state, key)) for key in keys)


def _reply_signature(key: str, *fields: str) -> str:
    """Over the fields as written: only the canonical spelling (``str`` of each) verifies."""
    message = ":".join(("pbem.reply", *fields)).encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:REPLY_SIGNATURE_HEX]


def make_reply_token(game: RepliedGame, seat: LinkedSeat) -> str:
    """``<game id>-<seat>-<counter>-<wait>-<signature>``: names the seat a reply plays and
    the position it answers."""
    key = str(current_app.config["SECRET_KEY"])
    fields = (str(game.id), str(seat.index), str(seat.link_counter),
              position_stamp(game.state))
    return "-".join((*fields, _reply_signature(key, *fields)))


@dataclass(frozen=True)
class ReplyToken:
    game_id: int
    seat: int
    counter: int
    wait: str | None = None  # None: a token made before the wait was carried


def read_reply_token(token: str | None) -> ReplyToken:
    """Check the shape, then the signature (under the key or any fallback key), and only then
    read the numbers; no database. Raises ``BadToken`` for anything else, never another error."""
    if not token:
        raise BadToken("missing")
    token = token.strip()
    matched = REPLY_TOKEN.fullmatch(token.lower()) if len(token) <= REPLY_TOKEN_MAX else None
    if matched is None:
        raise BadToken("forged")
    game_id, seat, counter, wait, signature = matched.groups()
    fields = (game_id, seat, counter) if wait is None else (game_id, seat, counter, wait)
    config = current_app.config
    keys = [str(key) for key in (*config.get("SECRET_KEY_FALLBACKS", []), config["SECRET_KEY"])]
    if not any(hmac.compare_digest(signature, _reply_signature(key, *fields)) for key in keys):
        raise BadToken("forged")
    return ReplyToken(int(game_id), int(seat), int(counter), wait)
