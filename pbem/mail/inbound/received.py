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
from email.header import decode_header, make_header
from email.message import EmailMessage, Message
from email.parser import BytesHeaderParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from mailparser_reply import EmailReplyParser
from mailparser_reply.constants import MAIL_LANGUAGES

from pbem.mail.addresses import UnmailableAddress, mailable_address
from pbem.mail.inbound import limits
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
_FOLD = re.compile(r"\r?\n[ \t]*")


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
    unreadable: str | None = None  # why the text was not read (a key of ``limits.WHY``)
    size: int = 0  # of the whole mail, when that is why it was not read

    @property
    def key(self) -> str:
        """The at-most-once key: one mail is one key whatever a client or relay did to the
        spelling of its Message-ID (``normalised_message_id``)."""
        source = normalised_message_id(self.message_id) or self.key_source
        return hashlib.sha256(source.encode()).hexdigest()

    def reply_token(self) -> str | None:
        """The token of the first recipient that is our plus-address, if any."""
        for address in self.recipients:
            token = token_of(address)
            if token:
                return token
        return None


def normalised_message_id(value: str) -> str:
    """A Message-ID as the at-most-once key reads it: no angle brackets or white space, and
    lower-case (RFC 5322 leaves the case of its left part to the sender, but relays and
    clients that re-send a mail are known to change it; two mails whose ids differ in case
    alone are taken for one)."""
    return "".join(value.split()).strip("<>").lower()


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
    """The lines written above the quote, signature dropped, one stripped line each (read
    from the first ``TEXT_CHARS`` of ``text``, bounded for the reply parser)."""
    text = text[:limits.TEXT_CHARS]
    normalised = limits.for_reply_parser(
        _printable(text.replace("\r\n", "\n").replace("\r", "\n")))
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


def recipients_of(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(address.lower() for _, address in getaddresses(list(values)) if address)


def message_ids(value: str, keep: int = 20) -> tuple[str, ...]:
    """The Message-IDs of a header (visible ASCII only: they go back out in our answer's
    headers and into the database), the first and the last ``keep - 1`` of a long list."""
    ids = ["".join(ch for ch in word if " " < ch < "\x7f")[:255] for word in value.split()]
    ids = [word for word in ids if word]
    return tuple(ids) if len(ids) <= keep else tuple(ids[:1] + ids[len(ids) - keep + 1:])


def _unfolded(value: str, limit: int) -> str:
    return _FOLD.sub(" ", value[:limit]).strip()


def _decoded(value: str) -> str:
    try:
        return str(make_header(decode_header(value)))
    except (LookupError, ValueError, UnicodeError):  # an unknown charset in an encoded word
        return value


def _text_of(part: EmailMessage) -> str:
    """A text part's content; undecodable bytes (an unknown or lying charset) as U+FFFD."""
    try:
        return str(part.get_content())
    except (LookupError, UnicodeError, ValueError):
        payload = part.get_payload(decode=True)
        return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


def _body_text(msg: Message) -> str:
    """The text part; an HTML-only mail's visible text (its first ``HTML_CHARS``)."""
    if isinstance(msg, EmailMessage):
        part = msg.get_body(preferencelist=("plain", "html"))
        if isinstance(part, EmailMessage):
            content = _text_of(part)
            if part.get_content_subtype() == "html":
                return text_of_html(content[:limits.HTML_CHARS])
            return content
    return ""


def from_head(head: bytes, *, key_source: str, lines: tuple[str, ...] = (),
              unreadable: str | None = None, size: int = 0) -> Inbound:
    """The mail as its header block tells it. Values are read raw and cut (a header of
    thousands of addresses or encoded words costs no more than its first kilobytes); the
    automatic-mail headers keep their raw values, which is all ``automatic_reason`` reads."""
    msg = BytesHeaderParser(policy=policy.default).parsebytes(head)
    raw = [(str(name), _unfolded(str(value), 8192))
           for name, value in list(msg.raw_items())[:limits.MAX_HEADER_FIELDS]]
    first = {name.lower(): value for name, value in reversed(raw)}
    sender = clean_sender(first.get("from", "")[:1024])
    addresses = [value for name, value in raw
                 if name.lower() in ("to", "cc", "delivered-to", "x-original-to")][:20]
    return Inbound(
        message_id=next(iter(message_ids(first.get("message-id", ""), 1)), ""),
        sender=sender, recipients=recipients_of(addresses),
        subject=_decoded(first.get("subject", "")[:998]), lines=lines,
        automatic=automatic_reason(dict(raw), sender, first.get("content-type", "text/plain")),
        references=message_ids(first.get("references", "")),
        key_source=key_source, unreadable=unreadable, size=size,
    )


def from_bytes(raw: bytes) -> Inbound:
    """A mail as IMAP or a maildir holds it. Never raises: a mail past ``limits`` is not
    parsed (``unreadable``), and a body the parser cannot walk has no new text."""
    key_source = hashlib.sha256(raw).hexdigest()
    head = limits.split_head(raw)[:limits.HEADER_BYTES]
    if limits.too_complex(raw):
        return from_head(head, key_source=key_source, unreadable="too_complex", size=len(raw))
    try:
        body = _body_text(message_from_bytes(raw, policy=policy.default))
    except Exception:  # noqa: BLE001 -- whatever a broken part raises (RecursionError too)
        body = ""
    return from_head(head, key_source=key_source, lines=new_lines(body))
