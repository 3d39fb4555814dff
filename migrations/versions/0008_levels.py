"""levels: each computer seat's bot level, and the level of a game's autopilot

Revision ID: 0008_levels
Revises: 0007_inbound_messages
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_levels"
down_revision = "0007_inbound_messages"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(16), nullable=True))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("autopilot_level", sa.String(16), nullable=False,
                                   server_default="greedy"))
    # Computer players from before levels played the greedy bot: say so.
    op.execute(sa.text("UPDATE seats SET bot_level = 'greedy' WHERE is_bot"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("autopilot_level")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
