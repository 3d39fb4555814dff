"""seats.next_digest_at: the digest step reads only the seats due, by an index; partial
indexes for the repair pass (digest seats left without a time) and for unsent mail and notices

Revision ID: 0015_digest_due
Revises: 0014_reply_waits
Create Date: 2026-12-04
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0015_digest_due"
down_revision = "0014_reply_waits"
branch_labels = None
depends_on = None

UNSET = "notify = 'digest' AND next_digest_at IS NULL"
UNSENT = "status IN ('pending', 'sending')"


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("next_digest_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_seats_next_digest_at", "seats", ["next_digest_at"])
    op.create_index("ix_seats_digest_unset", "seats", ["game_id"],
                    postgresql_where=sa.text(UNSET), sqlite_where=sa.text(UNSET))
    for table in ("outbox", "notices"):  # the claims' ordered scan of the unsent rows only
        op.create_index(f"ix_{table}_unsent", table, ["id"], postgresql_where=sa.text(UNSENT),
                        sqlite_where=sa.text(UNSENT))
    # Every digest seat of a live game is looked at by the next tick, which mails it if its
    # digest is due (as before this revision) or else moves it to its next morning.
    seats = sa.table("seats", sa.column("notify", sa.String()), sa.column("game_id", sa.Integer()),
                     sa.column("next_digest_at", sa.DateTime(timezone=True)))
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("status", sa.String()))
    live = sa.select(games.c.id).where(games.c.status.in_(("active", "paused")))
    op.execute(seats.update().where(seats.c.notify == "digest", seats.c.game_id.in_(live))
               .values(next_digest_at=datetime.now(UTC)))


def downgrade() -> None:
    for table in ("notices", "outbox"):
        op.drop_index(f"ix_{table}_unsent", table_name=table)
    op.drop_index("ix_seats_digest_unset", table_name="seats")
    op.drop_index("ix_seats_next_digest_at", table_name="seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("next_digest_at")
