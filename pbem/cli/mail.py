"""``pbem mail status`` and ``pbem mail retry [ID ...|--all-failed]``."""

from __future__ import annotations

import click
import sqlalchemy as sa
from flask.cli import AppGroup

from pbem.extensions import db
from pbem.mail.outbound import delivery
from pbem.models.outbox import FAILED, STATUSES, Outbox
from pbem.services import bounces

mail = AppGroup("mail", help="The mail outbox: what is queued, sent and failed.")


@mail.command("status")
@click.option("--failed", "show_failed", is_flag=True, help="List the failed mails.")
def status(show_failed: bool) -> None:
    """Count outbox rows by status; list failed ones with their last error."""
    counts = delivery.status_counts()
    click.echo("  ".join(f"{name}: {counts.get(name, 0)}" for name in STATUSES))
    failed = db.session.scalars(
        sa.select(Outbox).where(Outbox.status == FAILED).order_by(Outbox.id).limit(50)
    ).all()
    if failed and (show_failed or len(failed) <= 10):
        for row in failed:
            click.echo(f"  #{row.id} {row.kind} game {row.game_id} seat {row.seat} "
                       f"({row.attempts} attempts): {row.last_error}")


@mail.command("retry")
@click.argument("ids", nargs=-1, type=int)
@click.option("--all-failed", is_flag=True, help="Retry every failed mail.")
def retry(ids: tuple[int, ...], all_failed: bool) -> None:
    """Put failed mails back in the queue; the next tick sends them.

    A seat silenced by a bounce of one of them gets mail again."""
    if not ids and not all_failed:
        raise click.UsageError("give outbox ids or --all-failed")
    count = bounces.retry_failed(list(ids), all_failed=all_failed)
    click.echo(f"pbem: {count} mail(s) queued again")
