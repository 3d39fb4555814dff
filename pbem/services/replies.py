"""Play by replying: a received mail becomes steps of its seat, applied through the
play path of the turn page (``pbem.services.play``), and gets one answer in the game's thread.

``receive(inbound)`` is the one entry of both inbound paths (IMAP polling, the provider
webhook). A reply is applied at most once: its ``inbound_messages`` row (keyed by the
Message-ID) is written in the transaction that applies it. A reply answers one wait
(``reply_waits``): written for a position the game has left, or applied once already under
another Message-ID, it plays nothing and its answer says why. Machines' mail (auto-replies,
bounces) is recorded and never answered; a reply whose token is not ours is recorded and
not answered either (its From cannot be trusted, so an answer would be backscatter); every
other reply gets exactly one answer, to the seat's own address.

The steps of one reply are applied in order in one transaction; if one is refused nothing of
the reply is applied. A step that reveals something (a roll, a card drawn, a display
cycled), or that hands the turn over, ends what is applied: the answer shows what was
revealed and asks for the rest.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pbem import engine, tokens
from pbem.engine import GameState
from pbem.extensions import db
from pbem.mail.inbound import limits
from pbem.mail.inbound.received import Inbound
from pbem.mail.outbound import answers, reply_hints
from pbem.mail.outbound.answers import Answer
from pbem.models import Game, InboundMessage, Seat
from pbem.services import answer_caps, play, reply_waits, resignation, table_talk, turns
from pbem.services.errors import NotAllowed
from pbem.services.transaction import transaction

log = logging.getLogger(__name__)

WORDS = frozenset({"undo", "status", "help"})
RESIGN = "resign"  # alone in a reply: the seat resigns (``pbem.services.resignation``)


@dataclass
class Refused(Exception):
    """A line of the reply the game refuses: nothing of the reply is applied."""

    line: str
    reason: str


def _seen(key: str) -> bool:
    found = db.session.execute(
        select(InboundMessage.id).where(InboundMessage.message_key == key)).first()
    return found is not None


def _record(inbound: Inbound, outcome: str, game: Game | None = None,
            seat: Seat | None = None) -> InboundMessage:
    row = InboundMessage(
        message_key=inbound.key, message_id=inbound.message_id or "(none)",
        game_id=game.id if game is not None else None,
        seat=seat.index if seat is not None else None, outcome=outcome,
        wait_key=answer_caps.wait_of(game) if game is not None else None,
    )
    db.session.add(row)
    return row


def receive(inbound: Inbound) -> str:
    """Handle one received mail; returns its outcome (also stored with it)."""
    if _seen(inbound.key):
        db.session.rollback()
        return "duplicate"
    try:
        with transaction():
            outcome = _handle(inbound)
    except IntegrityError:  # the same mail handled at once by another worker
        return "duplicate"
    except Refused as refused:
        try:
            with transaction():
                outcome = _refuse(inbound, refused)
        except IntegrityError:
            return "duplicate"
    log.info("reply %s: %s", inbound.key[:12], outcome)
    return outcome


def _seat_of(inbound: Inbound) -> tuple[Game, Seat] | str:
    """The game and seat the reply's token names, or why there is none."""
    try:
        token = tokens.read_reply_token(inbound.reply_token())
    except tokens.BadToken:
        return "unknown_token"
    game = db.session.get(Game, token.game_id)
    if game is None:
        return "unknown_game"
    try:
        seat = game.seat(token.seat)
    except LookupError:
        return "unknown_seat"
    if seat.link_counter != token.counter:
        return "revoked"
    return game, seat


def _handle(inbound: Inbound) -> str:
    if inbound.automatic:
        _record(inbound, "automatic")
        return "automatic"
    found = _seat_of(inbound)
    if isinstance(found, str):
        _record(inbound, found)
        return found
    game, seat = found
    if not seat.email or inbound.sender != seat.email.lower():
        return _answer_only(inbound, game, seat, "forged_from", (
            "a mail reached your reply address from another address, so nothing of it was "
            "applied. Replies count only when they come from the address this game mails "
            "(a forwarded mail does not)."))
    if inbound.unreadable:  # too large or too complex to read: why, and nothing applied
        return _answer_only(inbound, game, seat, inbound.unreadable, limits.why(
            inbound.unreadable, inbound.size, int(current_app.config["INBOUND_MAX_BYTES"])))
    if game.status != "active":
        return _answer_only(inbound, game, seat, "inactive",
                            f"this game is {game.status}: it takes no more moves.")
    if seat.autopilot:
        return _answer_only(inbound, game, seat, "autopilot",
                            "your seat is played by the computer now, so your reply was not "
                            "applied.")
    game = turns.lock_game(game.id)
    if any(_word(line) == RESIGN for line in inbound.lines):
        return _resign(inbound, game, game.seat(seat.index))
    talk = table_talk.split_reply(inbound.lines)  # its ``say …`` lines: table talk, not moves
    wait = reply_waits.check(inbound, game, game.seat(seat.index),
                             reply_waits.move_lines(talk.moves))
    if wait.outcome is not None:  # written for a wait that has passed, or applied already
        return _answer_only(inbound, game, seat, wait.outcome, wait.headline)
    refused = table_talk.post_says(game, game.seat(seat.index), talk.says)
    if refused is not None:
        raise Refused(*refused)
    answer = _play(game, game.seat(seat.index), talk.moves)
    table_talk.tell_posted(answer, talk.says)
    row = _record(inbound, "applied" if answer.applied else "answered", game, seat)
    if answer.applied:
        row.reply_key = wait.reply_key
    _answer(inbound, game, game.seat(seat.index), answer, row)
    return row.outcome


def _word(line: str) -> str:
    return line.lower().strip(" .!")


def _resign(inbound: Inbound, game: Game, seat: Seat) -> str:
    """The word ``resign``: the seat resigns (``resignation.resign_locked``), and the answer
    is its one mail about it. Alone in its reply, so no move is half-applied before it."""
    moves = [line for line in inbound.lines if _word(line) not in (RESIGN, "status", "help")]
    if moves:
        raise Refused(moves[0], "Write resign alone in a reply, with no moves: nothing of "
                                "this reply was applied.")
    resignation.resign_locked(game, seat.index, by="player", tell_resigner=False)
    row = _record(inbound, "applied", game, seat)
    _answer(inbound, game, seat, Answer(
        headline=(f"you resigned from {game.name}. The computer plays your seat from now on, "
                  "at the host's level; you get one more mail from this game, when it ends."),
        applied=[RESIGN]), row)
    return row.outcome


def _answer_only(inbound: Inbound, game: Game, seat: Seat, outcome: str, headline: str) -> str:
    row = _record(inbound, outcome, game, seat)
    _answer(inbound, game, seat, Answer(headline=headline), row)
    return row.outcome


def _refuse(inbound: Inbound, refused: Refused) -> str:
    found = _seat_of(inbound)
    assert not isinstance(found, str)  # a refusal comes only after the seat was found
    game, seat = found
    row = _record(inbound, "refused", game, seat)
    answer = Answer(headline="one line of your reply was refused.",
                    refused_line=refused.line, refusal=refused.reason,
                    working=_working_line(inbound, game, seat, refused.line))
    _answer(inbound, game, seat, answer, row)
    return row.outcome


def _working_line(inbound: Inbound, game: Game, seat: Seat, refused: str) -> str | None:
    """A line that works where ``refused`` was read (``reply_hints``); none for a reply
    that resigns, whose refusal is about the reply, not a move."""
    if any(_word(line) == RESIGN for line in inbound.lines):
        return None
    moves = table_talk.split_reply(inbound.lines).moves
    at = reply_hints.where_refused(GameState.from_json(game.state), seat.index, moves, refused)
    return reply_hints.working_line(at, seat.index, refused) if at is not None else None


def _answer(inbound: Inbound, game: Game, seat: Seat, answer: Answer,
            row: InboundMessage) -> None:
    """Queue the answer, unless ``answer_caps`` says why not (an auto-responder's loop): then
    a reply that applied nothing is recorded as ``muted``."""
    why = answer_caps.why_not_answered(game, seat, row)
    if why is not None:
        log.warning("reply %s: seat %s of game %s: %s; no answer sent", inbound.key[:12],
                    seat.index, game.id, why)
        if row.outcome != "applied":
            row.outcome = answer_caps.MUTED
        return
    answers.send_answer(game, seat, answer, in_reply_to=inbound.message_id,
                        references=inbound.references)


# -- applying the lines -----------------------------------------------------------------------


def _play(game: Game, seat: Seat, lines: list[str]) -> Answer:
    """Apply the reply's lines to the locked ``game`` in order (raises ``Refused``)."""
    state = GameState.from_json(game.state)
    answer = Answer(headline="")
    names = [s.name for s in sorted(game.seats, key=lambda s: s.index)]
    handed_over = False
    for number, line in enumerate(lines):
        word = line.lower().strip(" .!")
        if word in ("status", "help"):
            answer.show_help = answer.show_help or word == "help"
            continue
        awaited = engine.awaited(state)
        if awaited != seat.index:
            if answer.applied:  # the turn went on to another seat: the rest waits
                answer.unread = lines[number:]
                break
            waiting = names[awaited] if awaited is not None else "nobody"
            raise Refused(line, f"It is not your move now: the game waits for {waiting}.")
        if word == "undo":
            state = _undo(game, seat.index)
            answer.applied.append("undo")
            continue
        played = _step(game, state, line, seat.index)
        answer.applied.append(played.step["notation"])
        answer.events[len(answer.applied) - 1] = played.step["events"]
        answer.revealed += answers.revealed_sentences(played.step["events"], names, seat.index)
        if played.handed_over:
            handed_over = True
        if (played.handed_over or played.step["barrier"]) and number + 1 < len(lines):
            answer.unread = lines[number + 1:]
            break
    if answer.applied:
        _commit_steps(game, seat, state, handed_over)
    answer.headline = _headline(answer, lines)
    return answer


def _step(game: Game, state: GameState, line: str, seat: int) -> play.Outcome:
    """The line's step, taken on the play path; a refusal refuses the reply."""
    try:
        action = engine.parse_action(line, seat, game.players)
        return play.step_locked(game, state, action)
    except engine.RulesError as exc:
        raise Refused(line, exc.message) from None


def _undo(game: Game, seat_index: int) -> GameState:
    """The turn page's undo (``play.undo_locked``), inside this reply's transaction."""
    try:
        return play.undo_locked(game, seat_index).state
    except NotAllowed as refused:
        raise Refused("undo", refused.message) from None


def _commit_steps(game: Game, seat: Seat, state: GameState, handed_over: bool) -> None:
    """What follows the reply's steps on the play path (``play.after_steps``), once for the
    reply; the replier's own answer shows its new turn, so no mail tells it."""
    play.after_steps(game, state, seat.index, "player", handed_over=handed_over,
                     tell_player=False)


def _headline(answer: Answer, lines: list[str]) -> str:
    if answer.unread and answer.revealed:
        return "your reply was applied up to a step that revealed something new."
    if answer.unread:
        return "your reply was applied up to the end of your move."
    if answer.applied:
        return "your reply was applied."
    if any(line.lower().strip(" .!") in WORDS for line in lines):
        return "here is your game as it stands."
    return "I found no moves in your reply: write one move a line, above the quoted mail."
