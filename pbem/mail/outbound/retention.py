"""Room on a free database: the bodies of sent mail are pruned after ``MAIL_RETENTION_DAYS``.

Sent mail bodies are most of a finished game's bytes, and nobody reads them once
delivered. A pruned row keeps what threading and the records need: its Message-ID and the
``In-Reply-To``/``References`` headers (a later mail of the game still threads under it), the
recipient, kind, subject and times. Only ``sent`` rows are pruned: a ``failed`` mail keeps
its body until it is retried (``pbem mail retry``) and sent, and pending or sending ones
are never touched. A pruned row has an empty text body and no HTML body.

Once a game has been over for the retention period too, its sent rows are deleted: no mail
of it will follow, and its thread's root Message-ID stays on the game
(``games.thread_message_id``). That keeps a finished 5-seat game under 200 KB (see
benchmarks/RESULTS.md); failed rows stay even then, for ``pbem mail retry``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import current_app

from pbem import clock
from pbem.extensions import db
from pbem.models.game import Game
from pbem.models.outbox import SENT, Outbox

DEFAULT_DAYS = 30
EVERY = timedelta(hours=1)  # a day's precision is plenty: no need to scan at every tick
_last_run: dict[str, datetime] = {}  # per database URL, in this process
KEPT_HEADERS = ("Message-ID", "In-Reply-To", "References", "Date")
BATCH = 500


def retention_days() -> int:
    return int(current_app.config.get("MAIL_RETENTION_DAYS") or DEFAULT_DAYS)


def _prunable(cutoff: datetime) -> sa.ColumnElement[bool]:
    return sa.and_(Outbox.status == SENT, Outbox.sent_at < cutoff,
                   sa.or_(Outbox.text_body != "", Outbox.html_body.is_not(None)))


def prune_sent(now: datetime | None = None) -> int:
    """Empty the bodies of mail sent more than the retention period ago; returns how many
    rows were pruned. Commits batch by batch, so a long backlog never holds one big lock."""
    now = clock.as_utc(now) if now is not None else clock.now()
    cutoff = now - timedelta(days=retention_days())
    pruned = 0
    while True:
        rows = db.session.execute(
            sa.select(Outbox.id, Outbox.headers).where(_prunable(cutoff))
            .order_by(Outbox.id).limit(BATCH)
        ).all()
        for row_id, headers in rows:
            kept = {name: value for name, value in (headers or {}).items()
                    if name in KEPT_HEADERS}
            # the status and age are checked again: a row retried meanwhile keeps its body
            db.session.execute(sa.update(Outbox).where(Outbox.id == row_id, _prunable(cutoff))
                               .values(text_body="", html_body=None, headers=kept))
        db.session.commit()
        pruned += len(rows)
        if len(rows) < BATCH:
            return pruned


def drop_finished(now: datetime | None = None) -> int:
    """Delete the sent rows of games over for longer than the retention period; returns how
    many rows went. Commits."""
    now = clock.as_utc(now) if now is not None else clock.now()
    cutoff = now - timedelta(days=retention_days())
    over = sa.select(Game.id).where(Game.status.in_(("finished", "cancelled")),
                                    Game.finished_at < cutoff)
    result = db.session.execute(sa.delete(Outbox).where(
        Outbox.status == SENT, Outbox.game_id.in_(over)))
    db.session.commit()
    return int(result.rowcount)  # type: ignore[attr-defined]


def run_step() -> None:
    """The scheduler step (after ``mail``): prunes at most once an hour per process."""
    now = clock.now()
    url = str(current_app.config.get("SQLALCHEMY_DATABASE_URI"))
    last = _last_run.get(url)
    if last is not None and now - last < EVERY:
        return
    prune_sent(now)
    drop_finished(now)
    _last_run[url] = now
