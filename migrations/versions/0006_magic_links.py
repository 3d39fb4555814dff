"""magic_links: the "my games" sign-in links, stored by the hash of their random key

Revision ID: 0006_magic_links
Revises: 0005_digest
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_magic_links"
down_revision = "0005_digest"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "magic_links",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("key_hash", name="uq_magic_links_key_hash"),
    )
    op.create_index("ix_magic_links_address", "magic_links", ["address"])


def downgrade() -> None:
    op.drop_index("ix_magic_links_address", table_name="magic_links")
    op.drop_table("magic_links")
