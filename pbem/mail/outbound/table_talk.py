"""The table talk block of every game mail to a player: "At the table since your last turn",
the newest ``TALK_LIMIT`` messages (newest last), how many came before them, and the link to
the table (``templates/mail/_table_talk.txt`` and ``.html``).

Pure: ``pbem.mail.outbound.given`` reads the rows (``pbem.models.table_talk``) and the seat's
choice (``Seat.table_talk_mail``); ``talk_block`` turns them into words and ``context``
is the block's piece of a mail's template context. The plain-text part takes the block
before its closing "You get this because…" paragraph (``insert_block``); the HTML part
includes it after the mail's body (``templates/mail/_layout.html``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pbem.words.table_talk import TalkLine, earlier_words, mail_line, short_time

TALK_LIMIT = 10
FOOTER = "\nYou get this because"


@dataclass(frozen=True)
class TableTalk:
    """What a mail shows of the table: one line per message, and the earlier ones' count."""

    lines: tuple[str, ...]
    earlier: int

    @property
    def earlier_words(self) -> str:
        return earlier_words(self.earlier) if self.earlier else ""


def talk_block(rows: Sequence[Any], total: int, names: Sequence[str],
               timezone: str) -> TableTalk | None:
    """The block of ``rows`` (the newest messages, oldest first: ``id``, ``seat``, ``text``,
    ``posted_at``, ``hidden_at``) of ``total`` since the reader's last turn, times in the
    reader's ``timezone``; None when there is none."""
    if not rows:
        return None
    lines = tuple(mail_line(TalkLine(
        id=row.id, seat=row.seat, name=names[row.seat] if row.seat < len(names) else "?",
        when=short_time(row.posted_at, timezone), text=row.text,
        hidden=row.hidden_at is not None))
        for row in rows)
    return TableTalk(lines, max(0, total - len(rows)))


def context(talk: TableTalk | None) -> dict[str, Any]:
    """The block's piece of a mail's template context (nothing when there is no talk)."""
    return {"table_talk": talk} if talk is not None else {}


def insert_block(text: str, block: str) -> str:
    """The plain-text mail with the block before its closing paragraph (or at its end)."""
    block = block.strip("\n")
    at = text.rfind(FOOTER)
    if at < 0:
        return f"{text.rstrip()}\n\n{block}\n"
    return f"{text[:at].rstrip()}\n\n{block}\n{text[at:]}"
