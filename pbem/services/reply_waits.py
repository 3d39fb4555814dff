"""Which wait a reply answers (docs/mail.md "A reply answers one wait").

Every mail to a seat carries a reply address naming the position it was composed in
(``tokens.position_stamp``, signed in the token). A reply whose moves were written for a
position the game has left — a turn mail delivered a turn late, a client sending again an
hour after — is not applied: its answer says so and shows the position now, with a reply
address for it. Lines that are not moves (``status``, ``help``, ``say …``) answer no wait and
are never refused for it.

The same reply sent again under a new Message-ID, or with none through a webhook, is not
played twice: an applied reply keeps ``reply_key``, the hash of its seat, the wait it answered
and its move lines, and a later mail with the same key is ``resent``.

Reply addresses made before the wait was carried (mails already in players' inboxes) name no
position. Their replies are played against the position now, as they always were, unless
their ``References`` name a mail of ours to that seat and every such mail was sent before the
seat's current wait opened (then the reply is for a wait that has passed); the same reply is
still played once per wait.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import func, select

from pbem import tokens
from pbem.extensions import db
from pbem.mail.inbound.received import Inbound, normalised_message_id
from pbem.models import Deadline, Game, InboundMessage, Outbox, Seat
from pbem.services import answer_caps

PASSED = "passed"  # the outcome of a reply for a wait that has passed
RESENT = "resent"  # the outcome of a reply applied once already
NOT_MOVES = frozenset({"status", "help"})
PASSED_HEADLINE = (
    "your reply answers a mail sent for an earlier moment of the game, and the game has moved "
    "on since (a step was played or the turn went on), so nothing of it was applied. Here is "
    "the game as it stands now: reply to this mail with your moves.")
RESENT_HEADLINE = (
    "this reply reached me a second time (your mail program sent it again), and it was "
    "applied the first time, so nothing of it was played twice. Here is the game as it "
    "stands now.")


@dataclass(frozen=True)
class ReplyWait:
    """What the reply's wait says about it: ``outcome`` is None to play it, else why not."""

    outcome: str | None
    reply_key: str | None  # None: a reply without moves, which answers no wait

    @property
    def headline(self) -> str:
        return RESENT_HEADLINE if self.outcome == RESENT else PASSED_HEADLINE


def move_lines(lines: list[str]) -> list[str]:
    """The lines of a reply that change the game (``say`` lines already taken out)."""
    return [line for line in lines if line.lower().strip(" .!") not in NOT_MOVES]


def check(inbound: Inbound, game: Game, seat: Seat, moves: list[str]) -> ReplyWait:
    """Whether the reply's ``moves`` may be played in the locked ``game`` now."""
    if not moves:
        return ReplyWait(None, None)
    token = tokens.read_reply_token(inbound.reply_token())  # read before: it is valid
    wait = token.wait or answer_caps.wait_of(game) or tokens.position_stamp(game.state)
    key = _reply_key(game, seat, wait, moves)
    if _applied_before(key):
        return ReplyWait(RESENT, key)
    if token.wait is not None and not tokens.is_position(game.state, token.wait):
        return ReplyWait(PASSED, key)
    if token.wait is None and _answers_an_earlier_wait(inbound, game, seat):
        return ReplyWait(PASSED, key)
    return ReplyWait(None, key)


def _reply_key(game: Game, seat: Seat, wait: str, moves: list[str]) -> str:
    text = "\n".join(" ".join(line.lower().split()) for line in moves)
    return hashlib.sha256(f"{game.id}:{seat.index}:{wait}:{text}".encode()).hexdigest()


def _applied_before(key: str) -> bool:
    found = db.session.execute(select(InboundMessage.id).where(
        InboundMessage.reply_key == key, InboundMessage.outcome == "applied")).first()
    return found is not None


def _answers_an_earlier_wait(inbound: Inbound, game: Game, seat: Seat) -> bool:
    """An old reply address: the mails of ours its References name were all sent to the seat
    before its current wait opened (none named: nothing says so)."""
    named = {normalised_message_id(ref) for ref in inbound.references}
    if not named:
        return False
    opened = db.session.scalar(select(func.min(Deadline.created_at)).where(
        Deadline.game_id == game.id, Deadline.done_at.is_(None)))
    if opened is None:
        return False
    sent = [created for headers, created in db.session.execute(
        select(Outbox.headers, Outbox.created_at).where(
            Outbox.game_id == game.id, Outbox.seat == seat.index))
        if normalised_message_id(str((headers or {}).get("Message-ID", ""))) in named]
    return bool(sent) and max(sent) < opened
