"""Moderation: bans, silences and the log of every moderator's action.

- ``players.banned_until`` / ``ban_reason``: a banned account cannot sit, play or chat
  until then, and is told why and until when.
- ``players.silenced_until`` / ``silence_reason``: a moderator's mute for everyone (not
  the personal mute of the table chat): the account cannot chat until then.
- ``moderation_log``: every action a moderator took (or was refused), with who and why.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as b:
        b.add_column(sa.Column("banned_until", sa.DateTime(timezone=True), nullable=True))
        b.add_column(sa.Column("ban_reason", sa.String(300), nullable=True))
        b.add_column(sa.Column("silenced_until", sa.DateTime(timezone=True), nullable=True))
        b.add_column(sa.Column("silence_reason", sa.String(300), nullable=True))
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("moderator_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_id", sa.String(32), nullable=True),
        sa.Column("reason", sa.String(300), nullable=True),
        sa.Column("until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("allowed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moderation_log")
    with op.batch_alter_table("players") as b:
        b.drop_column("silence_reason")
        b.drop_column("silenced_until")
        b.drop_column("ban_reason")
        b.drop_column("banned_until")
