"""Accounts remember what their name looks like, to refuse look-alike names.

``players.skeleton`` is the name with every character replaced by one that
stands for all it may be taken for (Cyrillic "А" and Latin "A"; see
``taverna.server.names.skeleton``). Accounts made before have none yet: the
server fills them in when it starts, and accounts that already look alike
keep their names (``taverna admin look-alikes`` lists them).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as b:
        b.add_column(sa.Column("skeleton", sa.String(80), nullable=True))
        b.create_index("ix_players_skeleton", ["skeleton"])


def downgrade() -> None:
    with op.batch_alter_table("players") as b:
        b.drop_index("ix_players_skeleton")
        b.drop_column("skeleton")
