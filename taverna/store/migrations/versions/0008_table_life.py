"""Life at the table: Mus señas, table chat and its reports, play again.

- ``signals``: the señas made at a table (docs/rules.md §3.8.4), stored as they are made, apart
  from the actions (a seña changes no stone and no turn): who, which, after how many
  actions, and which opponents caught it (drawn once, so a restart never draws again).
- ``chat_messages``: what was said at a table, in the players' room or the
  spectators'; not part of the game record, shown on the replay page.
- ``chat_reports``: a message a person reported, kept for moderators (one report per
  person and message).
- ``tables.again``: the table that "play again" made after this one (its players are
  offered a seat there at the seat they had).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "signals",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("index", sa.Integer(), primary_key=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("name", sa.String(40), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(300), nullable=True),
        sa.Column("phrase", sa.String(32), nullable=True),
        sa.Column("event", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat_messages.id"), nullable=False),
        sa.Column("reporter_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("message_id", "reporter_id", name="uq_chat_reports_once"),
    )
    with op.batch_alter_table("tables") as b:
        b.add_column(sa.Column("again", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as b:
        b.drop_column("again")
    op.drop_table("chat_reports")
    op.drop_index("ix_chat_messages_table_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("signals")
