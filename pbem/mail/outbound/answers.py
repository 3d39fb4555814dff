"""The answer to a reply by mail: what was applied or refused, what was revealed,
the seat's summary and menu, in the game's thread under the reply itself.

Composed from the game as the service leaves it (``engine.view`` of the seat only) and added
to the outbox in the caller's transaction, like every other mail.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.engine import action_from_json, format_action
from pbem.mail.outbound import compose, links, reply_hints
from pbem.mail.outbound.message import check_header_value
from pbem.mail.outbound.outbox import enqueue
from pbem.mail.reply_address import reply_address
from pbem.models.game import Game, Seat
from pbem.words import describe

ANSWER_KIND = "reply_answer"  # the outbox kind of an answer to a reply


@dataclass
class Answer:
    """What the service did with a reply, in the words the answer mail shows."""

    headline: str
    applied: list[str] = field(default_factory=list)  # notation of each step applied
    revealed: list[str] = field(default_factory=list)  # sentences of what a step revealed
    refused_line: str | None = None
    refusal: str | None = None
    unread: list[str] = field(default_factory=list)  # lines left for the next reply
    show_help: bool = False
    # The events of each applied step, by its place in ``applied`` (what each line did).
    events: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    working: str | None = None  # for a refused line: a line that works in its place


def examples_per_kind(picture: dict[str, Any]) -> list[str]:
    """One legal line of each kind of move (``help``)."""
    seen: dict[str, str] = {}
    for action in picture.get("legal") or []:
        seen.setdefault(str(action.get("kind")), format_action(action_from_json(action)))
    return list(seen.values())


def two_examples(picture: dict[str, Any]) -> list[str]:
    """Two lines from the seat's actual menu, for the how-to-reply block of the turn mail."""
    return examples_per_kind(picture)[:2]


def revealed_sentences(events: list[dict[str, Any]], names: list[str], seat: int) -> list[str]:
    return describe.describe([ev for ev in events if ev.get("barrier")], names, viewer=seat)


def send_answer(game: Game, seat: Seat, answer: Answer, *, in_reply_to: str,
                references: tuple[str, ...]) -> None:
    """Queue the answer to the seat's own address, threaded under its reply."""
    if not seat.email or seat.email_failing:
        return
    context = compose.game_context(game, seat)
    picture = context["view"]
    names = [s.name for s in sorted(game.seats, key=lambda s: s.index)]
    groups = reply_hints.menu_groups(picture, whole=answer.show_help)
    context.update(
        answer=answer, menu=groups, menu_cut=any(group.more for group in groups),
        menu_total=sum(group.total for group in groups), examples=examples_per_kind(picture),
        did=reply_hints.what_lines_did(answer.applied, answer.events, names, seat.index),
        rolled=picture["turn"]["rolled"] if picture["awaiting"] == seat.index else None,
        my_turn=picture["awaiting"] == seat.index, over=picture.get("phase") == "over",
        notation_url=links.notation_help_url(),
    )
    text, html = compose.render("reply_answer", context)
    mail = compose.Mail(kind=ANSWER_KIND, subject=compose.subject_of(game), text=text,
                        html=html, unsubscribe_url=context.get("unsubscribe_url"))
    row = enqueue(to_addr=seat.email, mail=mail, game=game, seat=seat.index)
    if row is None:
        return
    headers = dict(row.headers)
    if in_reply_to:
        thread = [ref for ref in references if ref != in_reply_to][-5:]
        if game.thread_message_id and game.thread_message_id not in thread:
            thread.insert(0, game.thread_message_id)
        headers["In-Reply-To"] = check_header_value("In-Reply-To", in_reply_to)
        headers["References"] = check_header_value("References", " ".join([*thread, in_reply_to]))
    reply_to = reply_address(game, seat)
    if reply_to:
        headers["Reply-To"] = check_header_value("Reply-To", reply_to)
    row.headers = headers
