"""Seats remember that their player left on purpose.

A player who leaves a running game hands the seat to a bot for good; until
now only the live room knew, so after a restart the player got a casual seat
back. ``seats.left`` keeps it.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as b:
        b.add_column(sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as b:
        b.drop_column("left")
