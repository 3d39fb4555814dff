"""What a received mail may cost before pbem reads it (docs/mail.md "Hostile mail").

A reply is a few lines of text; nothing a player sends needs a thousand parts, a nested tree
or megabytes. The bounds here are checked on the raw bytes with a few linear scans, before
the ``email`` parser (whose cost grows with the parts and whose walks recurse) or the reply
parser (whose quote-header patterns are quadratic in a line's length) sees the mail. A mail
past a bound is not read: its sender, when it is a seat's player, gets the short answer of
``WHY``; the reply parser gets at most ``SCAN_LINES`` lines of at most ``LINE_CHARS``.
"""

from __future__ import annotations

import re

DEFAULT_MAX_BYTES = 1024 * 1024  # INBOUND_MAX_BYTES: read from the size before download
HEADER_BYTES = 64 * 1024  # the header block read of a mail too large to download
MAX_HEADER_FIELDS = 500  # a mail relayed many times has ~50
MAX_PARTS = 100  # MIME parts: a reply with a few inline pictures has ~10
MAX_CONTAINERS = 16  # multipart or message/rfc822 parts, each one more level of nesting
TEXT_CHARS = 64 * 1024  # the text part read (after HTML becomes text)
HTML_CHARS = 256 * 1024  # the HTML read of an HTML-only mail
SCAN_LINES = 100  # lines handed to the reply parser: 40 moves, blank lines, the quote header
LINE_CHARS = 100  # a longer line keeps its start and end ("On …" and "… wrote:")
# Table talk by reply (``say …``, pbem.services.table_talk): a message of up to 1,000
# characters is read whole, in at most ten lines a reply (the rate limit's default).
SAY_CHARS = 1100
SAY_LINES = 10

# Why a mail was not read, in the answer's headline (the sentence after "Ana, ").
WHY: dict[str, str] = {
    "too_large": "your mail was too large to read ({size}, past {limit}), so nothing of it was "
                 "applied: reply with your moves as plain text, without attachments.",
    "too_complex": "your mail had too many parts or headers to read, so nothing of it was "
                   "applied: reply with your moves as plain text, without attachments.",
}

_BOUNDARY = re.compile(rb'boundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))')
_FIELD = re.compile(rb"^[^\s:]+:", re.MULTILINE)


def split_head(raw: bytes) -> bytes:
    """The header block (up to the first blank line), looked for in the first
    ``HEADER_BYTES`` only: past them it is cut there (and is too long, one byte over)."""
    ends = [at for at in (raw.find(b"\r\n\r\n", 0, HEADER_BYTES + 4),
                          raw.find(b"\n\n", 0, HEADER_BYTES + 2)) if at >= 0]
    return raw[:min(ends)] if ends else raw[:HEADER_BYTES + 1]


def too_complex(raw: bytes) -> bool:
    """More header fields, parts or nesting than any mail a person writes. Counted on the
    lower-cased bytes with ``bytes.count`` (each mention counts, so these are upper bounds)."""
    head = split_head(raw)
    if len(head) > HEADER_BYTES or len(_FIELD.findall(head)) > MAX_HEADER_FIELDS:
        return True
    lowered = raw.lower()  # ASCII only, the same length: offsets still point into ``raw``
    containers = lowered.count(b"multipart/") + lowered.count(b"message/rfc822")
    if containers > MAX_CONTAINERS or lowered.count(b"content-type:") > MAX_PARTS + 1:
        return True
    boundaries: set[bytes] = set()
    for found in _BOUNDARY.finditer(lowered):
        value = raw[found.start(found.lastindex or 1):found.end(found.lastindex or 1)]
        boundaries.add(value)
        if len(boundaries) > MAX_CONTAINERS:
            return True
    delimiters = sum(raw.count(b"\n--" + boundary) for boundary in boundaries)
    return delimiters > MAX_PARTS + containers  # each container also has its closing line


def for_reply_parser(text: str) -> str:
    """The first ``SCAN_LINES`` lines, each long one cut to its start and end: a move is
    short, and a quote header is told by how it starts and ends. The first ``SAY_LINES``
    lines of table talk (``say …``) are kept whole up to ``SAY_CHARS``: a message is read as
    written, and no quote header starts with "say"."""
    lines = text.split("\n", SCAN_LINES)[:SCAN_LINES]
    half = LINE_CHARS // 2
    kept, says = [], 0
    for line in lines:
        if len(line) > LINE_CHARS and says < SAY_LINES and _is_say(line):
            says += 1
            kept.append(line[:SAY_CHARS])
        else:
            kept.append(line if len(line) <= LINE_CHARS else f"{line[:half]} {line[-half:]}")
    return "\n".join(kept)


def _is_say(line: str) -> bool:
    return line.lstrip()[:4].lower() == "say "


def why(reason: str, size: int, limit: int) -> str:
    return WHY[reason].format(size=human_size(size), limit=human_size(limit))


def human_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    return f"{max(size // 1024, 1)} KB"
