"""time bank: what each seat's bank holds (a game's bank itself is in its timeout_policy)

Revision ID: 0011_time_bank
Revises: 0010_season
Create Date: 2026-12-03
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_time_bank"
down_revision = "0010_season"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        # NULL: the game's whole bank (a seat that has not waited yet) or no bank at all.
        batch.add_column(sa.Column("bank_seconds", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bank_seconds")
