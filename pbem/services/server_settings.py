"""The settings every mail depends on, as the server runs with them.

A mail's links are built on the host the server answers at, its reply address on
``INBOUND_ADDRESS``, and both are signed with ``SECRET_KEY``. A command run from a shell
(``pbem new-game``, ``rematch``, ``substitute`` …) composes mail too, with the settings of that
shell: without the server's ``INBOUND_ADDRESS`` its invitations had no ``Reply-To``, without
its ``SERVER_NAME`` their links named 127.0.0.1:5000. So each server process (gunicorn's
master, ``pbem serve``, ``pbem clock``) records, at start, what a mail needs in ``app_meta``
(the secret key only as a keyed fingerprint), and the commands that mail ``reconcile`` their
own settings with it first.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from pbem import clock
from pbem.extensions import db
from pbem.mail.outbound.links import DEV_SERVER_NAME, SERVED_AT
from pbem.models.meta import AppMeta

log = logging.getLogger(__name__)

RECORD_KEY = "server_settings"


@dataclass(frozen=True)
class Setting:
    recorded_as: str  # the name in the record
    config_key: str  # where a shell takes it into its app's config
    environ: str  # the environment variable that sets it
    default: str | None  # its value where that variable is not set


# What a shell may take from the record when it lacks it: none of them is a secret (each is
# in every mail the server sends). The link host is what ``links.server_name`` reads:
# SERVER_NAME, or the address ``pbem serve`` listens on.
TAKEN = (Setting("link_host", SERVED_AT, "SERVER_NAME", DEV_SERVER_NAME),
         Setting("scheme", "PREFERRED_URL_SCHEME", "PREFERRED_URL_SCHEME", "http"),
         Setting("inbound_address", "INBOUND_ADDRESS", "INBOUND_ADDRESS", None))


def fingerprint(secret_key: str) -> str:
    """Tells two secret keys apart without storing either (an HMAC of a fixed text)."""
    return hmac.new(secret_key.encode(), b"pbem server settings", hashlib.sha256).hexdigest()[:16]


def _settings(config: MutableMapping[str, Any]) -> dict[str, Any]:
    link_host = config.get("SERVER_NAME") or config.get(SERVED_AT) or DEV_SERVER_NAME
    return {"link_host": link_host, "scheme": config.get("PREFERRED_URL_SCHEME") or "http",
            "inbound_address": config.get("INBOUND_ADDRESS") or None,
            "secret_key": fingerprint(str(config["SECRET_KEY"]))}


def record(config: MutableMapping[str, Any]) -> None:
    """Store the server's settings (app context). A database not migrated yet, or not
    answering, is logged and skipped: a server never fails to start for this."""
    value = json.dumps({**_settings(config), "recorded_at": clock.now().isoformat()})
    try:
        db.session.merge(AppMeta(key=RECORD_KEY, value=value))
        db.session.commit()
    except SQLAlchemyError as exc:  # one line, no traceback: a deploy's log stays readable
        db.session.rollback()
        log.warning("could not record the server's mail settings in app_meta: %s",
                    str(exc).splitlines()[0])


def recorded() -> dict[str, Any] | None:
    row = db.session.get(AppMeta, RECORD_KEY)
    return json.loads(row.value) if row is not None else None


@dataclass
class Reconciled:
    """What ``reconcile`` found: ``record`` is None when no server has recorded any."""

    record: dict[str, Any] | None
    # by environment variable: the server's value taken, or (the shell's, the server's)
    taken: dict[str, str] = field(default_factory=dict)
    differing: dict[str, tuple[str, str]] = field(default_factory=dict)
    wrong_key: bool = False


def reconcile(config: MutableMapping[str, Any]) -> Reconciled:
    """Take into ``config`` each mail setting the shell left at its default from the
    server's record; note those the shell set otherwise (app context)."""
    found = recorded()
    result = Reconciled(found)
    if found is None:
        return result
    result.wrong_key = found["secret_key"] != fingerprint(str(config["SECRET_KEY"]))
    mine = _settings(config)
    for setting in TAKEN:
        ours, theirs = mine[setting.recorded_as], found.get(setting.recorded_as)
        if ours == theirs:
            continue
        if ours != setting.default:
            result.differing[setting.environ] = (str(ours), str(theirs))
        elif theirs:
            config[setting.config_key] = theirs
            result.taken[setting.environ] = str(theirs)
    return result
