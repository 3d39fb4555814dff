"""outbox: mail written in the same transaction as the change that causes it

Revision ID: 0002_outbox
Revises: 0001_initial
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0002_outbox"
down_revision = "0001_initial"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("to_addr", sa.String(length=320), nullable=False),
        sa.Column("subject", sa.String(length=255), nullable=False),
        sa.Column("text_body", sa.Text(), nullable=False),
        sa.Column("html_body", sa.Text(), nullable=True),
        sa.Column("headers", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox")),
    )
    op.create_index(op.f("ix_outbox_game_id"), "outbox", ["game_id"], unique=False)
    op.create_index("ix_outbox_due", "outbox", ["status", "next_attempt_at"], unique=False)
    op.create_index(op.f("ix_outbox_to_addr"), "outbox", ["to_addr"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_outbox_to_addr"), table_name="outbox")
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.drop_index(op.f("ix_outbox_game_id"), table_name="outbox")
    op.drop_table("outbox")
