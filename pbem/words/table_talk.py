"""Table talk in words, for the pages and the mail: who said it, when (in the reader's time
zone), and the message as written, or "hidden by the host". Pure: the moment is passed in.

A message is kept to one line in mail (its line ends become spaces and a long one is cut), so
no message can pose as the mail's own lines; the page shows it whole. Nothing here escapes:
the templates do, wherever a message is shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from pbem import clock

HIDDEN = "hidden by the host"
MAIL_CHARS = 280  # of one message in a mail; the page shows all of it


@dataclass(frozen=True)
class TalkLine:
    """One message as a reader sees it."""

    id: int
    seat: int
    name: str
    when: str  # "Thu 3 Dec 18:02", the reader's time zone
    text: str  # as written; "" when hidden
    hidden: bool
    mine: bool = False  # posted by the reader's seat
    deletable: bool = False  # the reader may still delete it


def short_time(moment: datetime, timezone: str | None) -> str:
    """ "Thu 3 Dec 18:02" in ``timezone`` (an unknown zone reads as UTC)."""
    local = clock.as_utc(moment).astimezone(clock.zone(timezone))
    return f"{local:%a} {local.day} {local:%b %H:%M}"


def one_line(text: str, limit: int = MAIL_CHARS) -> str:
    """The message on one line (runs of white space as one space), cut at ``limit``."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1].rstrip() + "…"


def mail_line(line: TalkLine) -> str:
    """ "Ana (Thu 3 Dec 18:02): nice move" or "Ana (…): hidden by the host"."""
    said = f"[{HIDDEN}]" if line.hidden else one_line(line.text)
    return f"{line.name} ({line.when}): {said}"


def earlier_words(earlier: int) -> str:
    """ "2 earlier messages", for the line before the newest ten."""
    return f"{earlier} earlier message{'' if earlier == 1 else 's'}"
