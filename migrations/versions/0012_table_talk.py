"""table talk: a game's public message board, and a seat's choice of it in mail

Revision ID: 0012_table_talk
Revises: 0011_time_bank
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0012_table_talk"
down_revision = "0011_time_bank"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        # the game's last logged step when it was posted: "since your last turn" compares it
        sa.Column("log_seq", sa.Integer(), nullable=False),
        sa.Column("posted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"],
                                name=op.f("fk_table_messages_game_id_games"), ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_messages")),
    )
    # The board and the mail read a game's newest messages; the rate limit a seat's latest.
    op.create_index("ix_table_messages_game_id_posted_at", "table_messages",
                    ["game_id", "posted_at"])
    with op.batch_alter_table("seats") as batch:
        # The seat's mails carry "At the table since your last turn" unless it turned it off.
        batch.add_column(sa.Column("table_talk_mail", sa.Boolean(), nullable=False,
                                   server_default=sa.true()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("table_talk_mail")
    op.drop_index("ix_table_messages_game_id_posted_at", table_name="table_messages")
    op.drop_table("table_messages")
