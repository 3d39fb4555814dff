"""notices: chat-app channels, their outbox, escalations, and a seat's handle and hours

Revision ID: 0013_notices
Revises: 0012_table_talk
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_notices"
down_revision = "0012_table_talk"
branch_labels = None
depends_on = None


def _delivery_columns() -> list[sa.Column]:  # type: ignore[type-arg]
    """The columns ``notices`` shares with ``outbox``: one claim and lease serve both."""
    return [
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "notice_channels",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),  # None: the game's table channel
        sa.Column("service", sa.String(length=16), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("shown", sa.String(length=160), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notice_channels_game_id", "notice_channels", ["game_id"])
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("channel_id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("title", sa.String(length=255), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        *_delivery_columns(),
        sa.ForeignKeyConstraint(["channel_id"], ["notice_channels.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_notices_channel_id", "notices", ["channel_id"])
    op.create_index("ix_notices_game_id", "notices", ["game_id"])
    op.create_index("ix_notices_due", "notices", ["status", "next_attempt_at"])
    op.create_table(
        "notice_escalations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", name="uq_notice_escalations_game_id_seat"),
    )
    op.create_index("ix_notice_escalations_due", "notice_escalations", ["due_at"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("chat_handle", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("escalate_hours", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("escalate_hours")
        batch.drop_column("chat_handle")
    op.drop_index("ix_notice_escalations_due", table_name="notice_escalations")
    op.drop_table("notice_escalations")
    op.drop_index("ix_notices_due", table_name="notices")
    op.drop_index("ix_notices_game_id", table_name="notices")
    op.drop_index("ix_notices_channel_id", table_name="notices")
    op.drop_table("notices")
    op.drop_index("ix_notice_channels_game_id", table_name="notice_channels")
    op.drop_table("notice_channels")
