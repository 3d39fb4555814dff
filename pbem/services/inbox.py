"""The inbox: every way a reply comes in, guarded, bounded and counted (docs/mail.md
"Hostile mail").

Three ways in end in ``replies.receive``: the IMAP poll (the scheduler step ``replies``), a
provider's webhook and the dev mailbox's reply box. Here each gets its guard: a mail that
raises is counted and kept aside (quarantined) instead of being tried for ever, a database
that does not answer stops the poll without blaming the mail, and the poll keeps to its time
budget inside the tick. ``counts`` gives ``pbem status`` the outcomes.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping
from typing import Any

from flask import current_app
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from pbem.extensions import db
from pbem.mail.inbound import imap, limits, providers, received
from pbem.models import InboundMessage
from pbem.services import replies
from pbem.services.transaction import transaction

log = logging.getLogger(__name__)

DEFAULT_POLL_SECONDS = 10.0  # INBOUND_POLL_SECONDS: the part of a tick replies may take
# The database does not answer: no mail is to blame, so none is counted or kept aside.
UNAVAILABLE = (OperationalError, InterfaceError, PoolTimeout)
QUARANTINED = "quarantined"
# ``pbem status`` lists these outcomes of ``inbound_messages`` (others are summed as "other").
SHOWN = ("applied", "answered", "refused", "passed", "resent", "muted", "automatic",
         "unknown_token", "forged_from", "too_large", "too_complex", QUARANTINED)


def max_bytes() -> int:
    return int(current_app.config.get("INBOUND_MAX_BYTES") or limits.DEFAULT_MAX_BYTES)


def receive_mail(raw: bytes) -> str:
    """One mail as a mailbox holds it (IMAP, the dev mailbox's reply box)."""
    if len(raw) > max_bytes():  # the dev mailbox and the webhooks' raw mails: same limit
        head = limits.split_head(raw)[:limits.HEADER_BYTES]
        return _receive(received.from_head(head, key_source=hashlib.sha256(head).hexdigest(),
                                           unreadable="too_large", size=len(raw)))
    return _receive(received.from_bytes(raw))


def _receive(inbound: received.Inbound) -> str:
    try:
        return replies.receive(inbound)
    except UNAVAILABLE as error:
        db.session.rollback()
        raise imap.Unavailable(str(error)) from error


class _ImapHandler:
    """``imap.Handler``: each mail through ``receive_mail``; a quarantine recorded."""

    def mail(self, raw: bytes) -> None:
        receive_mail(raw)

    def too_large(self, head: bytes, size: int) -> None:
        _receive(received.from_head(head, key_source=hashlib.sha256(head).hexdigest(),
                                    unreadable="too_large", size=size))

    def quarantined(self, listed: imap.Listed, raw: bytes | None, error: BaseException) -> None:
        source = hashlib.sha256(raw).hexdigest() if raw is not None else \
            f"imap:{listed.uid}:{listed.size}"
        record_quarantine(f"imap:{source}")


def record_quarantine(source: str) -> None:
    """Count a mail kept aside (``pbem status``); once per mail."""
    db.session.rollback()
    try:
        with transaction():
            db.session.add(InboundMessage(
                message_key=hashlib.sha256(f"quarantine:{source}".encode()).hexdigest(),
                message_id="(quarantined)", outcome=QUARANTINED))
    except IntegrityError:
        pass  # the same mail kept aside once before


def poll_step() -> None:
    """The scheduler step ``replies``: the IMAP mailbox's unseen mail, within the budget."""
    if not imap.configured():
        return
    budget = float(current_app.config.get("INBOUND_POLL_SECONDS") or DEFAULT_POLL_SECONDS)
    report = imap.poll(_ImapHandler(), max_bytes=max_bytes(), budget_seconds=budget)
    if report.read or report.too_large or report.failed or report.quarantined or report.left:
        log.info("replies: %d mail(s) read, %d too large, %d failed (tried again), "
                 "%d quarantined, %d left for the next tick", report.read, report.too_large,
                 report.failed, report.quarantined, report.left)


def receive_webhook(provider: str, payload: Mapping[str, Any], digest: str) -> str:
    """A provider's post. Any body gives an outcome: a mail whose handling raises is logged,
    counted and answered as ``quarantined`` (the provider must not post it again for ever);
    only a database that does not answer raises (``imap.Unavailable``: retry later).
    ``digest`` names the post (the SHA-256 of its body) in the quarantine count."""
    try:
        inbound = providers.READERS[provider](payload)
        return _receive(inbound)
    except imap.Unavailable:
        raise
    except Exception:  # the guard of one post, as of one IMAP mail
        log.exception("a %s inbound post could not be handled; quarantined", provider)
        record_quarantine(f"{provider}:{digest}")
        return QUARANTINED


def counts() -> dict[str, int]:
    """The received mail by outcome (``pbem status``)."""
    rows = db.session.execute(select(InboundMessage.outcome, func.count())
                              .group_by(InboundMessage.outcome))
    return {str(outcome): int(count) for outcome, count in rows}
