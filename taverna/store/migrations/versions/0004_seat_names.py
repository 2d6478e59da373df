"""Seats say their player's name as it is now.

A guest who registers becomes the same player under their username; the
seats they sat in kept the guest name (new registrations rename them: see
``taverna.store.accounts``). This brings the older seats in line.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute(
        "UPDATE seats SET player_name = "
        "(SELECT players.name FROM players WHERE players.id = seats.player_id) "
        "WHERE player_id IS NOT NULL"
    )


def downgrade() -> None:
    pass  # the guest names are gone; the current ones are right either way
