"""Helpers of the IMAP tests: a plain imaplib session to the test's dovecot, to put mail in
and count what is left unseen, and one scheduler tick that must run the ``replies`` step."""

from __future__ import annotations

import imaplib
import re
from email.message import EmailMessage

from flask import Flask

from pbem import scheduler

from .dovecot import Imap


def session(server: Imap) -> imaplib.IMAP4:
    box = imaplib.IMAP4(server.host, server.port)
    box.login(server.user, server.password)
    return box


def count(box: imaplib.IMAP4, folder: str = "INBOX") -> int:
    status, data = box.select(folder)
    assert status == "OK", data
    return int(data[0] or 0)


def empty(server: Imap) -> None:
    """Every folder emptied, not the INBOX only: the quarantine of the test before (the
    module's dovecot is shared by the sqlite and postgresql runs) must not be counted."""
    with session(server) as box:
        _, listing = box.list()
        for line in listing:
            # (\HasNoChildren) "." INBOX, or (...) "." "Quarantine"
            match = re.match(r'\(.*?\) (?:NIL|"[^"]*") (.+)$', line.decode())
            name = match.group(1).strip('"') if match else ""
            if name and count(box, f'"{name}"'):
                box.store("1:*", "+FLAGS", "\\Deleted")
                box.expunge()


def append(server: Imap, msg: EmailMessage | bytes) -> None:
    raw = msg if isinstance(msg, bytes) else msg.as_bytes()
    with session(server) as box:
        status, _ = box.append("INBOX", None, None, raw)
        assert status == "OK"


def unseen(server: Imap, folder: str = "INBOX") -> int:
    with session(server) as box:
        box.select(folder)
        status, data = box.search(None, "UNSEEN")
        assert status == "OK"
        return len(data[0].split())


def tick(app: Flask) -> scheduler.TickReport:
    report = scheduler.tick(app)
    assert "replies" in report.ran and not report.failed, report
    return report
