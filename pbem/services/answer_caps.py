"""Whether a reply may be answered: the caps that end a loop with an auto-responder that
marks nothing as automatic (docs/mail.md "Who may play"). Such a responder answers each of
our answers as if a person wrote it; two caps stop it, and what a reply applied stays
applied (only the answer is left out):

- after ``MUTE_AFTER`` (3) answers in a row to a seat's mails carrying no move within one
  wait, the seat's next mails get none until a move of the seat is applied or a new wait
  opens (the game's open deadline rows change their ``turn_key``, which each mail's
  ``inbound_messages.wait_key`` keeps); app config ``REPLY_MUTE_AFTER`` changes the count;
- at most ``REPLY_ANSWERS_PER_HOUR`` answers reach one seat in any hour.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from flask import current_app
from sqlalchemy import func, select

from pbem.extensions import db
from pbem.mail.outbound import answers
from pbem.models import Deadline, Game, InboundMessage, Outbox, Seat

MUTE_AFTER = 3
MUTED = "muted"  # the outcome of a mail that applied nothing and was not answered
NO_MOVE_ANSWERED = frozenset({"answered", "refused", "forged_from", "inactive", "autopilot",
                              "too_large", "too_complex", "passed", "resent"})
ANSWER_WINDOW = timedelta(hours=1)


def wait_of(game: Game) -> str | None:
    """The wait the game is in: its open deadline rows' key (None when no clock runs)."""
    return db.session.scalar(select(func.min(Deadline.turn_key)).where(
        Deadline.game_id == game.id, Deadline.done_at.is_(None)))


def why_not_answered(game: Game, seat: Seat, row: InboundMessage) -> str | None:
    """Why the mail of ``row`` gets no answer (None: it gets one)."""
    since = datetime.now(UTC) - ANSWER_WINDOW  # the outbox's own clock (``enqueue``)
    answered = db.session.scalar(
        select(func.count()).select_from(Outbox).where(
            Outbox.game_id == game.id, Outbox.seat == seat.index,
            Outbox.kind == answers.ANSWER_KIND, Outbox.created_at >= since))
    if int(answered or 0) >= int(current_app.config["REPLY_ANSWERS_PER_HOUR"]):
        return f"{answered} answers this hour"
    if _streak_full(game, seat, row):
        return "answers in a row to mails with no move"
    return None


def _streak_full(game: Game, seat: Seat, row: InboundMessage) -> bool:
    if row.outcome == "applied":
        return False
    limit = int(current_app.config.get("REPLY_MUTE_AFTER", MUTE_AFTER))
    earlier = db.session.execute(
        select(InboundMessage.outcome, InboundMessage.wait_key).where(
            InboundMessage.game_id == game.id, InboundMessage.seat == seat.index,
            InboundMessage.message_key != row.message_key)
        .order_by(InboundMessage.id.desc()).limit(limit)).all()
    streak = 0
    for outcome, wait in earlier:
        if outcome == "applied" or wait != row.wait_key:
            break  # a move, or another wait: the count starts again
        if outcome == MUTED:
            return True  # muted already in this wait, and no move since
        streak += outcome in NO_MOVE_ANSWERED
    return streak >= limit
