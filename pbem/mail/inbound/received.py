"""Mail received at the reply address, normalised (docs/mail.md "Playing by reply").

Both inbound paths (IMAP polling and a provider's webhook) turn what they receive into one
``Inbound``: who sent it, the reply token found in its recipient addresses, its Message-ID,
whether it was written by a machine (an auto-reply, a bounce: never answered), and the new
text above the quoted mail, one line a step. Nothing here touches the database.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from mailparser_reply import EmailReplyParser
from mailparser_reply.constants import MAIL_LANGUAGES

from pbem.mail.addresses import UnmailableAddress, mailable_address
from pbem.mail.reply_address import token_of

# mail-parser-reply knows no Portuguese: its table of quote headers gets Gmail's and
# Outlook's ("Em ter., 1 de dez. de 2026 às 10:00, Ana <…> escreveu:", "De: … Enviado: …").
MAIL_LANGUAGES.setdefault("pt", {
    "wrote_header": r"^(?!Em\s.+\sescreveu:)((?:> ?)*Em\s.+\sescreveu:)$",
    "from_header": r"((?:(?:^|\n|\n(?:> ?)*)[* ]*(?:De|Enviado|Enviada|Para|Assunto|Data|Cc):"
                   r"[ *]*(?:\s{,2}).*){2,}(?:\n.*){,1})",
    "disclaimers": ["Aviso:", "Confidencialidade:"],
    "signatures": ["Cumprimentos,", "Obrigado,", "Obrigada,", "Abraços,", "Atenciosamente,"],
    "sent_from": "Enviado do meu.*",
})
LANGUAGES = ["en", "pt", "es", "fr", "de", "it", "nl"]
# A quote header the parser may miss when a client wraps it over two lines.
QUOTE_HEADER = re.compile(
    r"^(on|em|el|le|am|il|op)\b.*(wrote|escreveu|escribió|a écrit|schrieb|ha scritto|schreef)"
    r"\s*:\s*$", re.IGNORECASE)
OUTLOOK_RULE = re.compile(r"^(_{10,}|-{3,}\s*original message\s*-{3,}|-{3,}\s*mensagem original)",
                          re.IGNORECASE)
# A phone's sign-off, which starts the signature when there is no "-- " line.
SENT_FROM = re.compile(r"^(sent from my |enviado do meu |enviado desde mi |get outlook for )",
                       re.IGNORECASE)
MACHINE_SENDERS = ("mailer-daemon", "postmaster", "noreply", "no-reply")
MAX_LINES = 40  # more lines than any turn: the rest is not read


@dataclass(frozen=True)
class Inbound:
    """One received mail, as both paths give it to ``pbem.services.replies``."""

    message_id: str
    sender: str  # the From address, normalised ('' when it cannot be mailed)
    recipients: tuple[str, ...]
    subject: str
    lines: tuple[str, ...]  # the new text, one stripped line each, blank lines dropped
    automatic: str | None = None  # why a machine wrote it (never answered), or None
    references: tuple[str, ...] = field(default_factory=tuple)
    key_source: str = ""  # what the at-most-once key hashes when there is no Message-ID

    @property
    def key(self) -> str:
        return hashlib.sha256((self.message_id or self.key_source).encode()).hexdigest()

    def reply_token(self) -> str | None:
        """The token of the first recipient that is our plus-address, if any."""
        for address in self.recipients:
            token = token_of(address)
            if token:
                return token
        return None


# -- the text of the reply ------------------------------------------------------------------


class _TextOfHtml(HTMLParser):
    """The visible text of an HTML-only mail, quoted blocks left out (Gmail's gmail_quote,
    Apple's and Outlook's blockquote), one line per block element."""

    BLOCKS = frozenset({"p", "div", "br", "li", "tr", "h1", "h2", "h3", "table"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0  # depth inside blockquote, style, script or a quote div

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = " ".join(value or "" for name, value in attrs if name in ("class", "id"))
        quoted = tag == "blockquote" or "quote" in classes or "divRplyFwdMsg" in classes
        if self.skip or quoted or tag in ("style", "script", "head"):
            if tag not in ("br", "img", "hr", "meta"):
                self.skip += 1
            return
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.skip -= 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def text_of_html(html: str) -> str:
    parser = _TextOfHtml()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts).replace("\xa0", " ")


def _printable(text: str) -> str:
    """Control, format and surrogate characters dropped (a NUL cannot even be stored, and
    none is part of a move)."""
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")


def new_lines(text: str) -> tuple[str, ...]:
    """The lines written above the quote, signature dropped, one stripped line each."""
    normalised = _printable(text.replace("\r\n", "\n").replace("\r", "\n"))
    latest = EmailReplyParser(languages=LANGUAGES).parse_reply(text=normalised) or ""
    lines: list[str] = []
    candidates = latest.split("\n")
    for number, raw in enumerate(candidates):
        line = raw.strip()
        wrapped = f"{line} {candidates[number + 1].strip()}" if number + 1 < len(candidates) \
            else line
        if raw.rstrip() == "--" or raw.startswith("-- ") or line.startswith(">") \
                or OUTLOOK_RULE.match(line) or SENT_FROM.match(line) or QUOTE_HEADER.match(line) \
                or QUOTE_HEADER.match(wrapped):
            break  # a signature, the quoted mail or its header: nothing after it is new
        if line:
            lines.append(line)
        if len(lines) == MAX_LINES:
            break
    return tuple(lines)


# -- machines -------------------------------------------------------------------------------


def automatic_reason(headers: Mapping[str, str], sender: str, content_type: str) -> str | None:
    """Why a machine, not a person, wrote this mail (RFC 3834, RFC 3464, common practice)."""
    lowered = {name.lower(): str(value).strip().lower() for name, value in headers.items()}
    if lowered.get("auto-submitted", "no") not in ("", "no"):
        return "auto-submitted"
    if lowered.get("precedence") in ("bulk", "junk", "list", "auto_reply"):
        return "precedence"
    if any(name in lowered for name in ("x-autoreply", "x-autorespond", "x-failed-recipients")):
        return "auto-reply header"
    if content_type.lower().startswith("multipart/report") or "delivery-status" in content_type:
        return "delivery report"
    local = sender.partition("@")[0].lower()
    if not sender or any(local.startswith(name) for name in MACHINE_SENDERS):
        return "machine sender"
    return None


def clean_sender(raw: str) -> str:
    """The From address as pbem stores addresses (or as written, lower-cased, when it is not
    one pbem could mail: it then matches no seat)."""
    address = parseaddr(raw or "")[1]
    try:
        return mailable_address(address).lower()
    except UnmailableAddress:
        return address.strip().lower()


def _recipients(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(address.lower() for _, address in getaddresses(list(values)) if address)


def _body_text(msg: Message) -> str:
    """The text part; an HTML-only mail's visible text."""
    if isinstance(msg, EmailMessage):
        part = msg.get_body(preferencelist=("plain", "html"))
        if part is not None:
            content = str(part.get_content())
            return text_of_html(content) if part.get_content_subtype() == "html" else content
    return ""


def from_bytes(raw: bytes) -> Inbound:
    """A mail as IMAP or a maildir holds it."""
    msg = message_from_bytes(raw, policy=policy.default)
    sender = clean_sender(str(msg.get("From", "")))
    headers = {name: str(value) for name, value in msg.items()}
    recipients = _recipients([str(v) for name in ("To", "Cc", "Delivered-To", "X-Original-To")
                              for v in msg.get_all(name, [])])
    try:
        body = _body_text(msg)
    except (LookupError, ValueError):  # an unknown charset or a broken part: no new text
        body = ""
    return Inbound(
        message_id=str(msg.get("Message-ID", "")).strip()[:255],
        sender=sender, recipients=recipients, subject=str(msg.get("Subject", "")),
        lines=new_lines(body),
        automatic=automatic_reason(headers, sender, msg.get_content_type()),
        references=tuple(str(msg.get("References", "")).split()),
        key_source=hashlib.sha256(raw).hexdigest(),
    )


# -- a provider's inbound webhook: Postmark's inbound JSON -------------------------------------


def _text(payload: Mapping[str, object], name: str) -> str:
    value = payload.get(name)
    return value if isinstance(value, str) else ""


def _postmark_headers(payload: Mapping[str, object]) -> dict[str, str]:
    headers: dict[str, str] = {}
    raw = payload.get("Headers")
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, dict) and isinstance(item.get("Name"), str):
            headers[str(item["Name"])] = str(item.get("Value", ""))
    return headers


def _postmark_recipients(payload: Mapping[str, object]) -> tuple[str, ...]:
    addresses = [_text(payload, "OriginalRecipient"), _text(payload, "To"), _text(payload, "Cc")]
    for name in ("ToFull", "CcFull"):
        full = payload.get(name)
        for item in full if isinstance(full, list) else []:
            if isinstance(item, dict) and isinstance(item.get("Email"), str):
                addresses.append(str(item["Email"]))
    return _recipients([address for address in addresses if address])


def from_postmark(payload: Mapping[str, object]) -> Inbound:
    """Postmark's inbound webhook JSON (``From``, ``ToFull``, ``TextBody``, ``HtmlBody``,
    ``Headers`` [{Name, Value}], ``MessageID``: Postmark's own id, used only when the mail's
    Message-ID header is missing)."""
    headers = _postmark_headers(payload)
    sender = clean_sender(_text(payload, "From"))
    full = payload.get("FromFull")
    if not sender and isinstance(full, dict) and isinstance(full.get("Email"), str):
        sender = clean_sender(str(full["Email"]))
    text = _text(payload, "TextBody") or text_of_html(_text(payload, "HtmlBody"))
    content_type = headers.get("Content-Type", "text/plain")
    message_id = headers.get("Message-ID") or headers.get("Message-Id") or ""
    postmark_id = _text(payload, "MessageID")
    return Inbound(
        message_id=(message_id or (f"<{postmark_id}@postmark>" if postmark_id else "")).strip()
        [:255],
        sender=sender, recipients=_postmark_recipients(payload),
        subject=_text(payload, "Subject"), lines=new_lines(text),
        automatic=automatic_reason(headers, sender, content_type),
        references=tuple(headers.get("References", "").split()),
        key_source=hashlib.sha256(repr(sorted(payload.items())).encode()).hexdigest(),
    )
