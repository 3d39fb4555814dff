"""The IMAP half of play by reply: the unseen mail of the host's mailbox (imap-tools).

``INBOUND_IMAP_HOST/PORT/USER/PASSWORD/FOLDER/SSL`` name the mailbox (docs/mail.md). A poll
first lists the unseen mail (UIDs, sizes, flags: nothing of a mail is parsed), then takes
each mail on its own, oldest first, inside its own guard: a mail larger than
``INBOUND_MAX_BYTES`` is not downloaded (its header block is, for the short answer); any
other mail is fetched and handed over whole. A mail is marked seen once handled, so a crash
re-reads it, and the service's ``inbound_messages`` row makes that second reading apply
nothing twice. A mail whose handling raises is tried on ``MAX_TRIES`` polls (each failure
leaves a ``PbemTry<n>`` keyword on it) and then moved to the quarantine folder
(``INBOUND_IMAP_QUARANTINE``), or, when the server keeps no keywords, at once; where no such
folder can be made, it is flagged seen and ``PbemQuarantined``. So no mail stays at the head
of the queue. A poll stops when its time budget is spent; the rest waits for the next tick.
"""

from __future__ import annotations

import imaplib
import logging
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from flask import current_app

if TYPE_CHECKING:  # imap_tools is imported when a mailbox is opened: a site that reads no
    from imap_tools import BaseMailBox  # IMAP never loads it (every web worker would)

from pbem.mail.inbound import limits

log = logging.getLogger(__name__)
POLL_LIMIT = 500  # mails listed per poll: the budget usually ends a poll long before
LIST_CHUNK = 200  # UIDs per FETCH of sizes and flags
IMAP_TIMEOUT = 30.0
MAX_TRIES = 3
TRY_KEYWORD = "PbemTry"
QUARANTINED_KEYWORD = "PbemQuarantined"
SEEN = "\\Seen"  # the IMAP system flag (imap_tools' MailMessageFlags.SEEN)

_UID = re.compile(rb"UID (\d+)")
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")
_FLAGS = re.compile(rb"FLAGS \(([^)]*)\)")


@dataclass(frozen=True)
class Listed:
    """One unseen mail as the listing gives it, before any of it is downloaded."""

    uid: str
    size: int
    tries: int  # polls whose handling of it raised


class Handler(Protocol):
    """What the service does with each mail (``pbem.services.inbox``)."""

    def mail(self, raw: bytes) -> None: ...

    def too_large(self, head: bytes, size: int) -> None: ...

    def quarantined(self, listed: Listed, raw: bytes | None, error: BaseException) -> None: ...


class Unavailable(Exception):
    """Raised by a handler that can handle no mail now (the database does not answer): the
    poll stops there and the mail stays unseen, with no try counted against it."""


# Not the mail's fault (the database, a dropped connection, a timeout): the poll stops.
STOPS: tuple[type[Exception], ...] = (Unavailable, imaplib.IMAP4.abort, OSError)


@dataclass
class PollReport:
    read: int = 0  # mails fetched and handled
    too_large: int = 0  # handled from their header block alone
    failed: int = 0  # raised; tried again at the next poll
    quarantined: int = 0
    left: int = 0  # listed but left for the next poll (the time budget ran out)


def configured() -> bool:
    config = current_app.config
    return bool(config.get("INBOUND_IMAP_HOST") and config.get("INBOUND_IMAP_USER"))


@contextmanager
def _mailbox() -> Iterator[BaseMailBox]:
    from imap_tools import MailBox, MailBoxUnencrypted

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


def poll(handler: Handler, *, max_bytes: int, budget_seconds: float,
         clock: Callable[[], float] = time.monotonic) -> PollReport:
    """Hand each unseen mail to ``handler``, oldest first, until ``budget_seconds`` are spent."""
    report = PollReport()
    started = clock()
    with _mailbox() as box:
        keywords = _keeps_keywords(box)
        listed = _unseen(box)
        for number, item in enumerate(listed):
            if clock() - started >= budget_seconds:
                report.left = len(listed) - number
                break
            _take(box, item, handler, max_bytes, keywords, report)
    return report


def _keeps_keywords(box: BaseMailBox) -> bool:
    """Whether the selected folder keeps keywords of our own (``\\*`` in PERMANENTFLAGS)."""
    _, data = box.client.response("PERMANENTFLAGS")
    return any(item and b"\\*" in item for item in data if isinstance(item, bytes))


def _unseen(box: BaseMailBox) -> list[Listed]:
    status, data = box.client.uid("SEARCH", "UNSEEN")
    if status != "OK":
        raise imaplib.IMAP4.error(f"UID SEARCH UNSEEN answered {status}")
    uids = sorted(int(uid) for uid in (data[0] or b"").split())[:POLL_LIMIT]
    listed: dict[int, Listed] = {}
    for start in range(0, len(uids), LIST_CHUNK):
        chunk = ",".join(str(uid) for uid in uids[start:start + LIST_CHUNK])
        status, lines = box.client.uid("FETCH", chunk, "(UID RFC822.SIZE FLAGS)")
        if status != "OK":
            raise imaplib.IMAP4.error(f"UID FETCH of sizes answered {status}")
        for line in lines:
            item = _listed(line if isinstance(line, bytes) else b"")
            if item is not None:
                listed[int(item.uid)] = item
    return [listed[uid] for uid in uids if uid in listed]


def _listed(line: bytes) -> Listed | None:
    uid, size, flags = _UID.search(line), _SIZE.search(line), _FLAGS.search(line)
    if uid is None or size is None:
        return None
    words = (flags.group(1) if flags else b"").decode("ascii", "replace").split()
    if QUARANTINED_KEYWORD in words:
        return None
    tries = sum(1 for word in words if word.startswith(TRY_KEYWORD))
    return Listed(uid.group(1).decode(), int(size.group(1)), tries)


def _fetch(box: BaseMailBox, uid: str, part: str) -> bytes | None:
    """The bytes of one item of one mail (None when it was expunged meanwhile)."""
    status, data = box.client.uid("FETCH", uid, f"({part})")
    if status != "OK":
        raise imaplib.IMAP4.error(f"UID FETCH {uid} answered {status}")
    for item in data:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def _take(box: BaseMailBox, item: Listed, handler: Handler, max_bytes: int, keywords: bool,
          report: PollReport) -> None:
    raw: bytes | None = None
    try:
        if item.size > max_bytes:
            head = _fetch(box, item.uid, f"BODY.PEEK[HEADER]<0.{limits.HEADER_BYTES}>")
            if head is None:
                return
            handler.too_large(head, item.size)
            report.too_large += 1
        else:
            raw = _fetch(box, item.uid, "BODY.PEEK[]")
            if raw is None:
                return
            handler.mail(raw)
            report.read += 1
    except STOPS:
        raise
    except Exception as error:  # the guard of one mail: RecursionError and the rest
        _failed(box, item, raw, error, handler, keywords, report)
        return
    box.flag(item.uid, SEEN, True)


def _failed(box: BaseMailBox, item: Listed, raw: bytes | None, error: Exception,
            handler: Handler, keywords: bool, report: PollReport) -> None:
    tries = item.tries + 1
    if keywords and tries < MAX_TRIES:
        log.warning("reply mail uid %s could not be handled (try %d of %d): %r", item.uid,
                    tries, MAX_TRIES, error, exc_info=error)
        box.flag(item.uid, f"{TRY_KEYWORD}{tries}", True)
        report.failed += 1
        return
    where = _quarantine(box, item.uid)
    report.quarantined += 1
    log.error("reply mail uid %s (%d bytes) quarantined after %d tries (%s): %r", item.uid,
              item.size, tries, where, error, exc_info=error)
    try:
        handler.quarantined(item, raw, error)
    except Exception:  # the count is lost, not the poll
        log.exception("the quarantine of reply mail uid %s could not be recorded", item.uid)


def _quarantine(box: BaseMailBox, uid: str) -> str:
    """Move the mail to the quarantine folder (made when missing); if the server refuses,
    flag it seen and ``PbemQuarantined`` where it is. Returns where it went."""
    folder = str(current_app.config.get("INBOUND_IMAP_QUARANTINE") or "Quarantine")
    try:
        if not box.folder.exists(folder):
            box.folder.create(folder)
        box.move(uid, folder)
        return f"moved to {folder}"
    except STOPS:
        raise
    except Exception as refused:  # no such folder allowed here: flag it and leave it
        log.warning("quarantine folder %s refused (%r): the mail is flagged instead", folder,
                    refused)
        box.flag(uid, (SEEN, QUARANTINED_KEYWORD), True)
        return f"flagged {QUARANTINED_KEYWORD}"
