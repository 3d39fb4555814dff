"""initial schema: app_meta, stamped with the schema creation time

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-29
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    app_meta = op.create_table(
        "app_meta",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_app_meta")),
    )
    op.bulk_insert(
        app_meta, [{"key": "schema_created_at", "value": datetime.now(UTC).isoformat()}]
    )


def downgrade() -> None:
    op.drop_table("app_meta")
