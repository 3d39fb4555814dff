"""inbound_messages.reply_key: the wait and text a reply answered, so one re-sent is not
played twice

Revision ID: 0014_reply_waits
Revises: 0013_notices
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0014_reply_waits"
down_revision = "0013_notices"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch:
        batch.add_column(sa.Column("reply_key", sa.String(64), nullable=True))
        batch.create_index("ix_inbound_messages_reply_key", ["reply_key"])


def downgrade() -> None:
    with op.batch_alter_table("inbound_messages") as batch:
        batch.drop_index("ix_inbound_messages_reply_key")
        batch.drop_column("reply_key")
