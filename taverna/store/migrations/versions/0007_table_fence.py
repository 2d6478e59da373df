"""A table's fencing token and owner (several nodes, docs/scaling.md).

A node that takes a table over (its lease in Redis) stores the lease's token in
``tables.fence``, a number that only grows; every later write of that table's game
checks it in its own transaction, so a node that lost its lease (paused, cut off
from Redis) can no longer store a move. ``tables.node`` is the owner's name, so
that the next owner knows whose timers it takes over. A single node without Redis
leaves both as they are (0, null) and checks nothing.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as b:
        b.add_column(sa.Column("fence", sa.BigInteger(), nullable=False, server_default="0"))
        b.add_column(sa.Column("node", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as b:
        b.drop_column("node")
        b.drop_column("fence")
