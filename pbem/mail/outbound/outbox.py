"""``enqueue``: add one mail to the outbox in the caller's session. It never commits.

The row is written in the same transaction as the change that causes it, so a committed move
always has its mail and a rolled-back move never sends one (docs/mail.md).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from flask import current_app
from sqlalchemy import delete

from pbem.extensions import db
from pbem.mail.outbound import message
from pbem.mail.outbound.compose import Mail
from pbem.models.game import Game
from pbem.models.outbox import PENDING, Outbox

log = logging.getLogger(__name__)


def message_id_domain() -> str:
    domain = current_app.config.get("MAIL_MESSAGE_ID_DOMAIN")
    if not domain:
        server = current_app.config.get("SERVER_NAME") or "pbem.invalid"
        domain = server.split(":")[0]
    return str(domain)


def _skip_unmailable(game: Game | None, seat: int | None) -> None:
    game_id = game.id if game is not None else None
    # the address itself stays out of the log: it is a player's
    log.warning("mail skipped: the address of game %s seat %s cannot be mailed",
                game_id, "host" if seat is None else seat)
    if seat is None:
        return
    for candidate in game.seats if game is not None else ():
        if candidate.index == seat:
            candidate.email_failing = True  # no more mail to it until the host fixes it


def enqueue(
    *,
    to_addr: str,
    mail: Mail,
    game: Game | None = None,
    seat: int | None = None,
    now: datetime | None = None,
) -> Outbox | None:
    """Add ``mail`` for ``to_addr`` to the session; the caller's commit makes it real.

    Headers are checked here, so a header with a line break fails the caller's transaction
    instead of a later delivery. An address that cannot be mailed (stored before every entry
    point checked it) never fails the move that causes the mail: the mail is
    skipped and logged, and a seat's address is marked failing (None is returned).

    The first mail of a game starts its thread: its Message-ID becomes
    ``game.thread_message_id`` if the game has none yet.
    """
    now = now or datetime.now(UTC)
    try:
        to_addr = message.check_address(to_addr)
    except message.BadAddress:
        _skip_unmailable(game, seat)
        return None
    subject = message.check_subject(mail.subject)
    message_id = message.new_message_id(message_id_domain())
    thread_id = game.thread_message_id if game is not None else None
    if game is not None and not thread_id:
        game.thread_message_id = thread_id = message_id
    headers = message.thread_headers(message_id, thread_id, now)
    if mail.unsubscribe_url:
        headers.update(message.unsubscribe_headers(mail.unsubscribe_url, mail.unsubscribe_mailto))
    headers = message.check_headers(headers)
    row = Outbox(
        game_id=game.id if game is not None else None,
        seat=seat,
        kind=mail.kind,
        to_addr=to_addr,
        subject=subject,
        text_body=mail.text,
        html_body=mail.html,
        headers=headers,
        status=PENDING,
        attempts=0,
        next_attempt_at=now,
        created_at=now,
    )
    db.session.add(row)
    return row


def drop_pending(game: Game) -> int:
    """Drop the game's mail that has not started to leave (``pending``), in the caller's
    session: a cancelled game sends nothing after its cancel mail. A row being sent
    (``sending``) is past recall and left to delivery. Returns the rows dropped."""
    if game.id is None:
        return 0
    result = db.session.execute(
        delete(Outbox).where(Outbox.game_id == game.id, Outbox.status == PENDING),
        execution_options={"synchronize_session": False})
    return int(getattr(result, "rowcount", 0) or 0)
