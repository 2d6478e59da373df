"""Reports counted by reporter: each chat report says who reported it as the moderators
count them (an account by itself, the guests of one address as one).

- ``chat_reports.reporter_key``: ``player:ID`` for an account, ``address:DIGEST`` for a
  guest (a digest of the address, never the address). Reports made before it are each
  their reporter's own.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("chat_reports") as batch:
        batch.add_column(sa.Column("reporter_key", sa.String(80), nullable=True))
    op.execute("UPDATE chat_reports SET reporter_key = 'player:' || reporter_id")
    with op.batch_alter_table("chat_reports") as batch:
        batch.alter_column("reporter_key", existing_type=sa.String(80), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("chat_reports") as batch:
        batch.drop_column("reporter_key")
