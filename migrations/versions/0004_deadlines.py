"""deadlines: reminders and autopilot turns; seats' quiet hours and vacation

Revision ID: 0004_deadlines
Revises: 0003_games
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_deadlines"
down_revision = "0003_games"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("turn_key", sa.String(length=64), nullable=False),
        sa.Column("deadline_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("done_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "kind IN ('reminder', 'timeout', 'autoplay')", name=op.f("ck_deadlines_kind")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_deadlines_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deadlines")),
    )
    op.create_index(
        "ix_deadlines_due", "deadlines", ["due_at"], unique=False,
        postgresql_where=sa.text("done_at IS NULL"), sqlite_where=sa.text("done_at IS NULL"),
    )
    op.create_index(op.f("ix_deadlines_game_id"), "deadlines", ["game_id"], unique=False)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("quiet_start", sa.Integer(), nullable=False, server_default="1320")
        )
        batch.add_column(sa.Column("quiet_end", sa.Integer(), nullable=False, server_default="480"))
        batch.add_column(sa.Column("vacation_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("vacation_days_used", sa.Integer(), nullable=False, server_default="0")
        )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("vacation_days_used")
        batch.drop_column("vacation_until")
        batch.drop_column("quiet_end")
        batch.drop_column("quiet_start")
    op.drop_index(op.f("ix_deadlines_game_id"), table_name="deadlines")
    op.drop_index("ix_deadlines_due", table_name="deadlines")
    op.drop_table("deadlines")
