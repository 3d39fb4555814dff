"""inbound_messages.wait_key: the wait a reply came in, so an auto-responder's answers stop

Revision ID: 0009_inbound_wait
Revises: 0008_levels
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_inbound_wait"
down_revision = "0008_levels"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch:
        batch.add_column(sa.Column("wait_key", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch:
        batch.drop_column("wait_key")
