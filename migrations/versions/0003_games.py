"""games, seats and action_log: a game, its players and its append-only history

Revision ID: 0003_games
Revises: 0002_outbox
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_games"
down_revision = "0002_outbox"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("public_id", sa.String(length=22), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("turn_start_state", sa.JSON(), nullable=False),
        sa.Column("turn_steps", sa.JSON(), nullable=False),
        sa.Column("host_email", sa.String(length=254), nullable=False),
        sa.Column("host_seat", sa.Integer(), nullable=True),
        sa.Column("time_per_move_hours", sa.Integer(), nullable=False),
        sa.Column("timeout_policy", sa.JSON(), nullable=True),
        sa.Column("thread_message_id", sa.String(length=255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('active', 'paused', 'finished', 'cancelled')",
            name=op.f("ck_games_status"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("public_id", name=op.f("uq_games_public_id")),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("colour", sa.String(length=16), nullable=False),
        sa.Column("faction", sa.String(length=40), nullable=True),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("notify", sa.String(length=16), nullable=False),
        sa.Column("link_counter", sa.Integer(), nullable=False),
        sa.Column("resigned", sa.Boolean(), nullable=False),
        sa.Column("absent", sa.Boolean(), nullable=False),
        sa.Column("consecutive_timeouts", sa.Integer(), nullable=False),
        sa.Column("email_failing", sa.Boolean(), nullable=False),
        sa.CheckConstraint(
            "notify IN ('every_turn', 'my_turn', 'digest')", name=op.f("ck_seats_notify")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "index", name="uq_seats_game_id_index"),
    )
    op.create_index(op.f("ix_seats_game_id"), "seats", ["game_id"], unique=False)
    op.create_table(
        "action_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("notation", sa.Text(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("by", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "by IN ('player', 'bot', 'timeout', 'host')", name=op.f("ck_action_log_by")
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_action_log_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_action_log")),
        sa.UniqueConstraint("game_id", "seq", name="uq_action_log_game_id_seq"),
    )
    op.create_index(op.f("ix_action_log_game_id"), "action_log", ["game_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_action_log_game_id"), table_name="action_log")
    op.drop_table("action_log")
    op.drop_index(op.f("ix_seats_game_id"), table_name="seats")
    op.drop_table("seats")
    op.drop_table("games")
