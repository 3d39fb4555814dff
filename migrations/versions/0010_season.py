"""season: a host link that can be replaced, and the rematch chain of a group's games

Revision ID: 0010_season
Revises: 0009_inbound_wait
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0010_season"
down_revision = "0009_inbound_wait"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # Bumped when the host replaces a leaked host link: older host links stop working.
        batch.add_column(sa.Column("host_link_counter", sa.Integer(), nullable=False,
                                   server_default="0"))
        # The game this one is the rematch of; a game has at most one rematch, so the chain
        # of rematches (the group's season) has no branches.
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        batch.create_foreign_key("fk_games_rematch_of_games", "games", ["rematch_of"], ["id"],
                                 ondelete="SET NULL")
        batch.create_unique_constraint("uq_games_rematch_of", ["rematch_of"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_rematch_of", type_="unique")
        batch.drop_constraint("fk_games_rematch_of_games", type_="foreignkey")
        batch.drop_column("rematch_of")
        batch.drop_column("host_link_counter")
