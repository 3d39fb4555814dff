"""Table talk: a game's one public message board (issue 27, point 1).

Players post from the turn page, the JSON API or a reply by mail (its ``say …`` lines); a
player may delete their own message for ``DELETE_MINUTES`` and edit nothing; the host may
hide one. Each change is one transaction, with the mail it causes: a posting by reply is
applied in the reply's own transaction, next to its moves, and its answer mail. A message is
only what a person typed: it is stored as written (line ends made ``\\n``) and every page and
mail escapes it. ``TABLE_TALK_RATE_LIMIT`` messages per seat in ``TABLE_TALK_RATE_WINDOW``
seconds, counted from the stored rows, so every process and worker sees the same count.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app

from pbem import clock
from pbem.extensions import db
from pbem.mail.outbound.answers import Answer
from pbem.mail.outbound.chat import notices as chat_notices
from pbem.models import Game, Seat, TableMessage
from pbem.models import table_talk as board
from pbem.services.errors import BadInput, GameNotActive, NotAllowed, ServiceError
from pbem.services.transaction import transaction
from pbem.services.turns import GameRef, lock_game

MAX_CHARS = 1000
DELETE_MINUTES = 10
SAY = "say "  # a reply's line that begins so is table talk, not a move
# Characters that change how the text around them reads (bidirectional overrides): a message
# could otherwise show another player's words reversed or hide part of itself.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class TooManyMessages(ServiceError):
    """The seat posted its limit of messages in the window: wait a little."""

    status = 429
    code = "too_many_requests"


def clean_text(text: object) -> str:
    """The message as written, line ends made ``\\n``, or ``BadInput`` saying what is wrong:
    1 to 1,000 characters of plain text (no control characters but line ends and tabs)."""
    if not isinstance(text, str):
        raise BadInput("A message is text.")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise BadInput("Write something first: a message is 1 to 1,000 characters.")
    if len(text) > MAX_CHARS:
        raise BadInput(f"A message is at most 1,000 characters; this one has {len(text):,}.")
    for char in text:
        if char in BIDI_CONTROLS or (unicodedata.category(char) in ("Cc", "Cs")
                                     and char not in "\n\t"):
            raise BadInput(f"A message is plain text: it may not hold the control character "
                           f"U+{ord(char):04X}.")
    return text


def _rate(seat: Seat, game_id: int, new: int, now: datetime) -> None:
    limit = int(current_app.config.get("TABLE_TALK_RATE_LIMIT", 10))
    window = int(current_app.config.get("TABLE_TALK_RATE_WINDOW", 600))
    posted = board.posted_since(game_id, seat.index, now - timedelta(seconds=window))
    if posted + new > limit:
        minutes = max(1, round(window / 60))
        raise TooManyMessages(
            f"{seat.name}, you have posted {posted} message{'' if posted == 1 else 's'} in the "
            f"last {minutes} minutes: at most {limit} in {minutes} minutes. Wait a little "
            "before the next one.")


def _check_poster(game: Game, seat: Seat) -> None:
    if game.status == "cancelled":
        raise GameNotActive("This game was cancelled: its table is closed.")
    if seat.is_bot:
        raise NotAllowed("A computer player does not talk at the table.")


def post_locked(game: Game, seat: Seat, texts: Sequence[str],
                now: datetime | None = None) -> list[TableMessage]:
    """Post ``texts`` in order as ``seat``'s, inside the caller's transaction, which holds the
    game's lock (``turns.lock_game``): the rate limit's count cannot race."""
    moment = clock.as_utc(now) if now is not None else clock.now()
    cleaned = [clean_text(text) for text in texts]
    _check_poster(game, seat)
    _rate(seat, game.id, len(cleaned), moment)
    seq = board.last_seq(game.id)
    rows = [TableMessage(game_id=game.id, seat=seat.index, text=text, log_seq=seq,
                         posted_at=moment) for text in cleaned]
    db.session.add_all(rows)
    for text in cleaned:  # the group's chat channel hears the table too (docs/notices.md)
        chat_notices.post_to_table(game, seat.name, text)
    db.session.flush()
    return rows


def post(game_id: GameRef, seat_index: int, text: object,
         now: datetime | None = None) -> TableMessage:
    """Post one message as the seat's (the turn page, the API): one transaction."""
    with transaction():
        game = lock_game(game_id)
        row = post_locked(game, _seat(game, seat_index), [clean_text(text)], now)[0]
    return row


def _seat(game: Game, seat_index: int) -> Seat:
    try:
        return game.seat(seat_index)
    except LookupError:
        raise NotAllowed("There is no such seat in this game.") from None


def _message(game: Game, message_id: int) -> TableMessage:
    row = db.session.get(TableMessage, message_id)
    if row is None or row.game_id != game.id or row.deleted_at is not None:
        raise BadInput("There is no such message at this table.")
    return row


def delete(game_id: GameRef, seat_index: int, message_id: int,
           now: datetime | None = None) -> None:
    """The seat deletes its own message, within ``DELETE_MINUTES`` of posting it: the text is
    dropped (the row stays, for the rate limit)."""
    moment = clock.as_utc(now) if now is not None else clock.now()
    with transaction():
        game = lock_game(game_id)
        row = _message(game, message_id)
        if row.seat != seat_index:
            raise NotAllowed("You can delete only your own messages.")
        if moment - clock.as_utc(row.posted_at) > timedelta(minutes=DELETE_MINUTES):
            raise NotAllowed(f"A message can be deleted only in the {DELETE_MINUTES} minutes "
                             "after it was posted; ask the host to hide it.")
        row.deleted_at, row.text = moment, ""


def hide(game_id: GameRef, message_id: int, now: datetime | None = None) -> None:
    """The host hides a message: every page and mail shows "hidden by the host" instead."""
    moment = clock.as_utc(now) if now is not None else clock.now()
    with transaction():
        row = _message(lock_game(game_id), message_id)
        if row.hidden_at is None:
            row.hidden_at = moment


# -- a reply by mail ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplyTalk:
    """A reply's lines parted: its ``say …`` lines (the messages, in order) and the rest."""

    says: list[str]
    moves: list[str]


def split_reply(lines: Sequence[str]) -> ReplyTalk:
    """The lines that begin with ``say `` (any case: phones capitalise) are table talk; the
    message is what follows the word."""
    says, moves = [], []
    for line in lines:
        if line[:len(SAY)].lower() == SAY and line[len(SAY):].strip():
            says.append(line[len(SAY):].strip())
        else:
            moves.append(line)
    return ReplyTalk(says, moves)


def post_says(game: Game, seat: Seat, says: Sequence[str]) -> tuple[str, str] | None:
    """Post a reply's ``says`` in the reply's transaction (the game is locked), before its
    moves are applied, so the mail a hand-over of the same reply sends already carries
    them. A message refused returns the reply's line and why: then nothing of the reply is
    applied (the caller refuses the whole reply, and its transaction rolls back)."""
    if not says:
        return None
    try:
        post_locked(game, seat, says)
    except ServiceError as refused:
        line = next((s for s in says if _refusal_of(s) is not None), says[0])
        return SAY + line, refused.message
    return None


def tell_posted(answer: Answer, says: Sequence[str]) -> None:
    """The reply's answer says its messages were posted, after what else it applied."""
    if not says:
        return
    if not answer.applied:
        answer.headline = ("your message was posted at the table." if len(says) == 1
                           else "your messages were posted at the table.")
    answer.applied += [SAY + text for text in says]


def _refusal_of(text: str) -> str | None:
    try:
        clean_text(text)
    except BadInput as refused:
        return refused.message
    return None


# -- the game's export (``pbem.services.archive``, format pbem-game/1) -------------------------


def export_messages(game_id: int) -> list[dict[str, Any]]:
    """The table as the export carries it: every message not deleted, oldest first."""
    return [{"seat": row.seat, "text": row.text, "posted_at": clock.as_utc(row.posted_at)
             .isoformat(), "log_seq": row.log_seq, "hidden": row.hidden}
            for row in board.every_message(game_id)]


def imported_messages(data: object, players: int, last_seq: int) -> list[TableMessage]:
    """The rows of an export's ``messages`` (an export made before table talk has none),
    checked as a posting is; ``BadInput`` names the first message that is not."""
    if data is None:
        return []
    if not isinstance(data, list):
        raise BadInput("The export's table talk ('messages') is not a list.")
    rows = []
    for number, item in enumerate(data, start=1):
        try:
            rows.append(_imported(item, players, last_seq))
        except (BadInput, KeyError, TypeError, ValueError) as exc:
            why = exc.message if isinstance(exc, BadInput) else repr(exc)
            raise BadInput(f"The export's table talk, message {number}: {why}") from None
    return rows


def _imported(item: dict[str, Any], players: int, last_seq: int) -> TableMessage:
    seat, seq, hidden = item["seat"], item.get("log_seq", last_seq), item.get("hidden", False)
    if not (isinstance(seat, int) and 0 <= seat < players):
        raise BadInput("its seat is not one of the game's.")
    if not (isinstance(seq, int) and 0 <= seq <= last_seq) or not isinstance(hidden, bool):
        raise BadInput("its place in the log or its hidden mark is wrong.")
    posted = clock.as_utc(datetime.fromisoformat(item["posted_at"]))
    return TableMessage(seat=seat, text=clean_text(item["text"]), posted_at=posted,
                        log_seq=seq, hidden_at=posted if hidden else None)
