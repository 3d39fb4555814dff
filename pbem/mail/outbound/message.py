"""Headers and the MIME message, built with the standard library's ``EmailMessage``.

Rules every mail follows (docs/mail.md): one recipient, never Cc or Bcc; a Message-ID in our
own domain; every mail of a game in one thread (same subject, ``In-Reply-To`` and
``References`` naming the game's first message); ``Auto-Submitted: auto-generated``; one-click
``List-Unsubscribe`` (RFC 8058). A header value holding CR or LF is refused outright, so header
injection cannot happen whatever a player types as a game or seat name.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime

from pbem.mail.addresses import UnmailableAddress, mailable_address

MAX_SUBJECT = 200
# RFC 5322's hard limit: long List-Unsubscribe URLs stay literal instead of being folded into
# RFC 2047 encoded words, which mail clients would not recognise as a URL.
POLICY = SMTP.clone(max_line_length=998)
# Headers we set; anything else in a row's ``headers`` is refused when the message is built.
ALLOWED_HEADERS = frozenset({
    "Message-ID", "In-Reply-To", "References", "Date", "List-Unsubscribe",
    "List-Unsubscribe-Post", "List-Id", "Auto-Submitted", "X-Auto-Response-Suppress",
    "Reply-To",  # a seat's own reply address, set by pbem.mail.outbound.notify
})
FORBIDDEN_HEADERS = frozenset({"to", "cc", "bcc", "from", "sender"})


class BadHeader(ValueError):
    """A header value or address we refuse to put in a mail."""


def check_header_value(name: str, value: str) -> str:
    """Return ``value`` if it is safe for header ``name``; raise ``BadHeader`` otherwise."""
    if not isinstance(value, str):
        raise BadHeader(f"{name}: header values must be text")
    if any(ch in value for ch in "\r\n\0"):
        raise BadHeader(f"{name}: line breaks are not allowed in a header")
    return value


class BadAddress(BadHeader):
    """An address pbem cannot mail (``pbem.mail.addresses``): the outbox skips such a mail
    instead of failing the change that caused it."""


def check_address(addr: str) -> str:
    """Return ``addr`` normalised if it is one plain mailbox pbem can mail."""
    check_header_value("To", addr)
    try:
        return mailable_address(addr)
    except UnmailableAddress as exc:
        raise BadAddress(exc.message) from None


def check_subject(subject: str) -> str:
    check_header_value("Subject", subject)
    return subject[:MAX_SUBJECT]


def new_message_id(domain: str) -> str:
    """A globally unique Message-ID in our domain: ``<random@domain>``."""
    check_header_value("Message-ID domain", domain)
    return f"<{secrets.token_urlsafe(18)}@{domain}>"


def thread_headers(message_id: str, thread_id: str | None, created: datetime) -> dict[str, str]:
    """Message-ID and Date, plus In-Reply-To/References when the game already has a thread."""
    headers = {
        "Message-ID": message_id,
        "Date": format_datetime(created),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if thread_id and thread_id != message_id:
        headers["In-Reply-To"] = thread_id
        headers["References"] = thread_id
    return headers


def unsubscribe_headers(https_url: str, mailto: str | None = None) -> dict[str, str]:
    """RFC 2369 + RFC 8058 one-click unsubscribe headers."""
    targets = [f"<{https_url}>"]
    if mailto:
        targets.append(f"<mailto:{mailto}?subject=unsubscribe>")
    return {
        "List-Unsubscribe": ", ".join(targets),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def check_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Refuse unknown or recipient headers and any value with a line break."""
    checked: dict[str, str] = {}
    for name, value in headers.items():
        if name.lower() in FORBIDDEN_HEADERS or name not in ALLOWED_HEADERS:
            raise BadHeader(f"{name}: not a header pbem sets")
        checked[name] = check_header_value(name, value)
    return checked


def build(
    *,
    mail_from: str,
    to_addr: str,
    subject: str,
    text_body: str,
    html_body: str | None,
    headers: Mapping[str, str],
) -> EmailMessage:
    """The message as sent: text/plain, with a text/html alternative when there is one."""
    msg = EmailMessage(policy=POLICY)
    msg["From"] = check_header_value("From", mail_from)
    msg["To"] = check_address(to_addr)
    msg["Subject"] = check_subject(subject)
    for name, value in check_headers(headers).items():
        msg[name] = value
    msg.set_content(text_body, cte="quoted-printable")
    if html_body:
        msg.add_alternative(html_body, subtype="html", cte="quoted-printable")
    return msg
