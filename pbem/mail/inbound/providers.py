"""A provider's inbound webhook, read as one ``received.Inbound`` (docs/mail.md "Playing by
reply"): Postmark's JSON, a Mailgun route's form and SendGrid Inbound Parse's form.

Every field is optional and may be of any type: a missing or mistyped field reads as empty,
so any body gives an ``Inbound`` (which then matches no seat) and never an error. When the
provider hands over the raw mail (Mailgun's ``body-mime``, SendGrid's "raw" ``email``), that
is read as IMAP mail is, through the same bounds.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import replace

from pbem.mail.inbound import limits
from pbem.mail.inbound.received import (
    Inbound,
    automatic_reason,
    clean_sender,
    from_bytes,
    from_head,
    message_ids,
    new_lines,
    recipients_of,
    text_of_html,
)

PROVIDERS = ("postmark", "mailgun", "sendgrid")


def _text(payload: Mapping[str, object], name: str) -> str:
    value = payload.get(name)
    return value if isinstance(value, str) else ""


def _key_source(payload: Mapping[str, object]) -> str:
    """What the at-most-once key hashes when the mail has no Message-ID: the fields' text."""
    fields = sorted((str(name), str(value)[:limits.TEXT_CHARS]) for name, value in
                    list(payload.items())[:limits.MAX_HEADER_FIELDS])
    return hashlib.sha256(repr(fields).encode()).hexdigest()


def _body(text: str, html: str) -> tuple[str, ...]:
    return new_lines(text or text_of_html(html[:limits.HTML_CHARS]))


def _lines_of(value: object) -> str:
    """A field that is one text, or (Mailgun's ``body-html``) a list of them."""
    if isinstance(value, list):
        return next((item for item in value if isinstance(item, str)), "")
    return value if isinstance(value, str) else ""


# -- Postmark: JSON, {From, FromFull, To, ToFull, Cc, CcFull, OriginalRecipient, Subject,
#    TextBody, HtmlBody, Headers [{Name, Value}], MessageID} -----------------------------------


def _postmark_headers(payload: Mapping[str, object]) -> dict[str, str]:
    headers: dict[str, str] = {}
    raw = payload.get("Headers")
    for item in raw[:limits.MAX_HEADER_FIELDS] if isinstance(raw, list) else []:
        if isinstance(item, dict) and isinstance(item.get("Name"), str):
            value = item.get("Value", "")
            headers[str(item["Name"])] = value[:8192] if isinstance(value, str) else ""
    return headers


def _postmark_recipients(payload: Mapping[str, object]) -> tuple[str, ...]:
    addresses = [_text(payload, "OriginalRecipient"), _text(payload, "To"), _text(payload, "Cc")]
    for name in ("ToFull", "CcFull"):
        full = payload.get(name)
        for item in full[:20] if isinstance(full, list) else []:
            if isinstance(item, dict) and isinstance(item.get("Email"), str):
                addresses.append(str(item["Email"]))
    return recipients_of([address[:8192] for address in addresses if address])


def from_postmark(payload: Mapping[str, object]) -> Inbound:
    """Postmark's inbound JSON; its ``MessageID`` (Postmark's own id) stands in for a missing
    Message-ID header."""
    headers = _postmark_headers(payload)
    sender = clean_sender(_text(payload, "From")[:1024])
    full = payload.get("FromFull")
    if not sender and isinstance(full, dict) and isinstance(full.get("Email"), str):
        sender = clean_sender(str(full["Email"])[:1024])
    message_id = headers.get("Message-ID") or headers.get("Message-Id") or ""
    postmark_id = _text(payload, "MessageID")[:200]
    return Inbound(
        message_id=next(iter(message_ids(
            message_id or (f"<{postmark_id}@postmark>" if postmark_id else ""), 1)), ""),
        sender=sender, recipients=_postmark_recipients(payload),
        subject=_text(payload, "Subject")[:998],
        lines=_body(_text(payload, "TextBody"), _text(payload, "HtmlBody")),
        automatic=automatic_reason(headers, sender, headers.get("Content-Type", "text/plain")),
        references=message_ids(headers.get("References", "")),
        key_source=_key_source(payload),
    )


# -- Mailgun routes, forward(): a form {recipient, sender, from, subject, body-plain,
#    body-html, stripped-text, message-headers (JSON [[name, value], …]), Message-Id, …}, or
#    {body-mime, recipient, …} when the route's URL ends in "mime" ---------------------------


def _mailgun_headers(payload: Mapping[str, object]) -> dict[str, str]:
    raw = _text(payload, "message-headers")
    try:
        pairs = json.loads(raw) if raw else []
    except (ValueError, RecursionError):
        pairs = []
    headers: dict[str, str] = {}
    for pair in pairs[:limits.MAX_HEADER_FIELDS] if isinstance(pairs, list) else []:
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair):
            headers.setdefault(pair[0], pair[1][:8192])
    return headers


def from_mailgun(payload: Mapping[str, object]) -> Inbound:
    """A Mailgun route's post. The whole text (``body-plain``) is read, not Mailgun's
    ``stripped-text``, so the quote is cut by the same rules as every other mail."""
    mime = _text(payload, "body-mime")
    if mime:
        return _with_envelope(from_bytes(mime.encode("utf-8", "replace")),
                              _text(payload, "recipient"))
    headers = _mailgun_headers(payload)
    lowered = {name.lower(): value for name, value in headers.items()}
    sender = clean_sender((_text(payload, "from") or lowered.get("from", ""))[:1024])
    recipients = recipients_of([value[:8192] for value in (
        _text(payload, "recipient"), _text(payload, "To"), lowered.get("to", ""),
        lowered.get("cc", "")) if value])
    message_id = _text(payload, "Message-Id") or lowered.get("message-id", "")
    return Inbound(
        message_id=next(iter(message_ids(message_id, 1)), ""), sender=sender,
        recipients=recipients,
        subject=(_text(payload, "subject") or lowered.get("subject", ""))[:998],
        lines=_body(_text(payload, "body-plain"), _lines_of(payload.get("body-html"))),
        automatic=automatic_reason(headers, sender, lowered.get("content-type", "text/plain")),
        references=message_ids(_text(payload, "References") or lowered.get("references", "")),
        key_source=_key_source(payload),
    )


# -- SendGrid Inbound Parse: a form {headers (the raw header block), from, to, cc, subject,
#    text, html, envelope (JSON {to: [...], from}), charsets, …}, or {email (the raw mail),
#    envelope, …} with "POST the raw, full MIME message" ------------------------------------


def _envelope_to(payload: Mapping[str, object]) -> str:
    try:
        envelope = json.loads(_text(payload, "envelope")[:8192] or "{}")
    except (ValueError, RecursionError):
        return ""
    to = envelope.get("to") if isinstance(envelope, dict) else None
    return ", ".join(item for item in to[:20] if isinstance(item, str)) \
        if isinstance(to, list) else ""


def _with_envelope(inbound: Inbound, envelope_to: str) -> Inbound:
    """The envelope's recipient counts as one (a Bcc or a forwarding keeps the token there)."""
    if not envelope_to:
        return inbound
    extra = tuple(a for a in recipients_of([envelope_to[:8192]]) if a not in inbound.recipients)
    return replace(inbound, recipients=inbound.recipients + extra)


def from_sendgrid(payload: Mapping[str, object]) -> Inbound:
    """SendGrid Inbound Parse's post: the header block is parsed as a mail's head."""
    raw_mail = _text(payload, "email")
    if raw_mail:
        return _with_envelope(from_bytes(raw_mail.encode("utf-8", "replace")),
                              _envelope_to(payload))
    head = _text(payload, "headers")[:limits.HEADER_BYTES].encode("utf-8", "replace")
    inbound = from_head(head, key_source=_key_source(payload),
                        lines=_body(_text(payload, "text"), _text(payload, "html")))
    if not inbound.sender and _text(payload, "from"):
        inbound = replace(inbound, sender=clean_sender(_text(payload, "from")[:1024]))
    return _with_envelope(inbound, _envelope_to(payload) or _text(payload, "to"))


READERS = {"postmark": from_postmark, "mailgun": from_mailgun, "sendgrid": from_sendgrid}
