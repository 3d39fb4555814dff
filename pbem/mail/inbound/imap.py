"""The IMAP half of play by reply: the unseen mail of the host's mailbox (imap-tools).

``INBOUND_IMAP_HOST/PORT/USER/PASSWORD/FOLDER/SSL`` name the mailbox (docs/mail.md). Mail is
marked seen only after it has been handled, so a crash re-reads it; the service's
``inbound_messages`` row makes that second reading apply nothing twice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flask import current_app
from imap_tools import AND, BaseMailBox, MailBox, MailBoxUnencrypted, MailMessageFlags

log = logging.getLogger(__name__)
FETCH_LIMIT = 50  # per tick: a flood of mail cannot hold the tick for long
IMAP_TIMEOUT = 30.0


def configured() -> bool:
    config = current_app.config
    return bool(config.get("INBOUND_IMAP_HOST") and config.get("INBOUND_IMAP_USER"))


@contextmanager
def _mailbox() -> Iterator[BaseMailBox]:
    config = current_app.config
    host, port = str(config["INBOUND_IMAP_HOST"]), int(config["INBOUND_IMAP_PORT"])
    box: BaseMailBox = (MailBox(host, port, timeout=IMAP_TIMEOUT) if config["INBOUND_IMAP_SSL"]
                        else MailBoxUnencrypted(host, port, timeout=IMAP_TIMEOUT))
    box.login(str(config["INBOUND_IMAP_USER"]), str(config.get("INBOUND_IMAP_PASSWORD") or ""),
              initial_folder=str(config.get("INBOUND_IMAP_FOLDER") or "INBOX"))
    try:
        yield box
    finally:
        box.logout()


def poll(handle: Callable[[bytes], object]) -> int:
    """Give every unseen mail's raw bytes to ``handle``, then mark it seen; returns how many.
    A mail whose handling raises is logged and stays unseen for the next tick."""
    handled = 0
    with _mailbox() as box:
        for message in box.fetch(AND(seen=False), mark_seen=False, limit=FETCH_LIMIT,
                                 bulk=True):
            try:
                handle(message.obj.as_bytes())
            except Exception:  # one mail that cannot be handled must not stop the others
                log.exception("reply mail uid %s could not be handled; kept unseen", message.uid)
                continue
            if message.uid:
                box.flag(message.uid, MailMessageFlags.SEEN, True)
            handled += 1
    return handled
