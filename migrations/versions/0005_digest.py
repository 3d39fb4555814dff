"""digest: when each seat last got its daily digest, and the last log step it covered

Revision ID: 0005_digest
Revises: 0004_deadlines
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_digest"
down_revision = "0004_deadlines"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("digest_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("digest_seq", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("digest_seq")
        batch.drop_column("digest_at")
