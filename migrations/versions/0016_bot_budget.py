"""bot budget: the rollouts per decision of a game's strong computer players

Revision ID: 0016_bot_budget
Revises: 0015_digest_due
Create Date: 2026-12-05
"""

import sqlalchemy as sa
from alembic import op

revision = "0016_bot_budget"
down_revision = "0015_digest_due"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # NULL: the strong bot's default budget (ROLLOUTS), read when it decides.
        batch.add_column(sa.Column("bot_budget", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("bot_budget")
