"""inbound_messages: so a reply by mail is applied at most once

Revision ID: 0007_inbound_messages
Revises: 0006_magic_links
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0007_inbound_messages"
down_revision = "0006_magic_links"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbound_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_key", sa.String(length=64), nullable=False),
        sa.Column("message_id", sa.String(length=255), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("outcome", sa.String(length=32), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("message_key"),
    )
    op.create_index("ix_inbound_messages_game_id", "inbound_messages", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_inbound_messages_game_id", table_name="inbound_messages")
    op.drop_table("inbound_messages")
