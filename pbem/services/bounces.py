"""A seat whose mail bounced (``Seat.email_failing``) gets mail again.

A permanent refusal (5xx) stops all mail to a seat, so a dead mailbox is not hammered. Two
ways out besides a host substitution: ``pbem mail retry`` (the operator fixed the cause),
and the player's "I fixed my mailbox — send again" on their seat page. Both clear the flag
and put the seat's failed mails back in the queue, in one commit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa

from pbem.extensions import db
from pbem.mail.outbound import delivery
from pbem.models import Game, Seat
from pbem.models.outbox import FAILED, Outbox
from pbem.services.errors import NotAllowed


def _clear_flags(pairs: Sequence[tuple[int, int]]) -> None:
    for game_id, index in pairs:
        db.session.execute(sa.update(Seat).where(
            Seat.game_id == game_id, Seat.index == index).values(email_failing=False))


def retry_failed(ids: Sequence[int] | None = None, *, all_failed: bool = False,
                 now: datetime | None = None) -> int:
    """``pbem mail retry``: re-queue failed mails (``ids``, or all) and let their seats get
    mail again; returns how many mails were queued. Commits."""
    query = sa.select(Outbox.game_id, Outbox.seat).where(
        Outbox.status == FAILED, Outbox.game_id.is_not(None), Outbox.seat.is_not(None))
    if not all_failed:
        query = query.where(Outbox.id.in_(list(ids or [])))
    pairs = [(int(g or 0), int(s or 0)) for g, s in db.session.execute(query.distinct()).all()]
    _clear_flags(pairs)
    return delivery.retry(ids, all_failed=all_failed, now=now)  # commits the flags with it


def clear_bounce(game_id: int, seat_index: int, *, now: datetime | None = None) -> int:
    """The player says their mailbox works again: mail the seat again and re-queue its
    failed mails; returns how many. ``NotAllowed`` when the seat's mail is not failing."""
    seat = db.session.execute(sa.select(Seat).where(
        Seat.game_id == game_id, Seat.index == seat_index)).scalar_one_or_none()
    game = db.session.get(Game, game_id)
    if seat is None or game is None or seat.is_bot:
        raise NotAllowed("There is no such seat in this game.")
    if not seat.email_failing:
        raise NotAllowed("Mail to this seat is not failing: nothing to send again.")
    ids = list(db.session.scalars(sa.select(Outbox.id).where(
        Outbox.game_id == game_id, Outbox.seat == seat_index, Outbox.status == FAILED)))
    seat.email_failing = False
    return delivery.retry(ids, now=now)  # commits the flag with the queued mails
