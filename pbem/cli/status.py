"""``pbem status``: which rules engine runs (compiled or pure Python), how full the database
is, the games by status, the outbox by state, the notices in chat apps by state (and the paused
channels), and the mail received at the reply address by outcome (quarantined and muted
included).

For a free database with a size cap: the figure to watch is the size, and the sent mail
bodies are what ``MAIL_RETENTION_DAYS`` prunes (pbem/mail/outbound/retention.py).
"""

from __future__ import annotations

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from pbem.engine.compiled import which_engine
from pbem.extensions import db
from pbem.mail.outbound import delivery
from pbem.mail.outbound.chat import delivery as chat_delivery
from pbem.models.game import GAME_STATUSES, Game
from pbem.models.outbox import STATUSES
from pbem.services import inbox


def database_bytes() -> int:
    """The whole database's size on disk, as the host's quota counts it."""
    if db.engine.dialect.name == "postgresql":
        size = db.session.execute(sa.text("SELECT pg_database_size(current_database())"))
        return int(size.scalar_one())
    pages = db.session.execute(sa.text("PRAGMA page_count")).scalar_one()
    page_size = db.session.execute(sa.text("PRAGMA page_size")).scalar_one()
    return int(pages) * int(page_size)


def human(size: int) -> str:
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GB"


@click.command("status")
@with_appcontext
def status() -> None:
    """Show which engine runs, the database's size, the games by status, the outbox by state
    and the replies received by outcome."""
    click.echo(f"engine: {which_engine()}")  # tools/compile_engine.py, docs/compiled-engine.md
    click.echo(f"database: {human(database_bytes())} ({db.engine.dialect.name})")
    rows = db.session.execute(sa.select(Game.status, sa.func.count()).group_by(Game.status))
    games = {str(name): int(count) for name, count in rows}
    click.echo("games: " + "  ".join(f"{name}: {games.get(name, 0)}" for name in GAME_STATUSES))
    counts = delivery.status_counts()
    click.echo("outbox: " + "  ".join(f"{name}: {counts.get(name, 0)}" for name in STATUSES))
    notices, paused = chat_delivery.status_counts()  # chat apps (docs/notices.md)
    click.echo("notices: " + "  ".join(f"{name}: {notices.get(name, 0)}" for name in STATUSES)
               + f"  paused channels: {paused}")
    received = inbox.counts()
    other = sum(count for name, count in received.items() if name not in inbox.SHOWN)
    click.echo("replies: " + "  ".join(f"{name}: {received.get(name, 0)}"
                                       for name in inbox.SHOWN) + f"  other: {other}")
