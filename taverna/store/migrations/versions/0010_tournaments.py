"""Tournaments, and who may run them.

- ``players.role``: ``moderator`` for the accounts an operator made moderators
  (``taverna admin grant NAME moderator``); none for everybody else.
- ``tournaments``: one per game, scheduled by an operator or a moderator: its format
  (``swiss`` or ``knockout``), rounds, the tables' settings and stake, when it starts,
  and how far it has come (``status``, ``round``).
- ``tournament_entries``: who signed up: one player, or for Mus a pair (the second
  player confirms by signing up naming the first).
- ``tournament_games``: one pairing of a round: its table (none for a bye), the entries
  by side, and once decided the points each entry took.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as b:
        b.add_column(sa.Column("role", sa.String(16), nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("stake", sa.Integer(), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("note", sa.String(200), nullable=True),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("partner_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tournament_entries_tournament_id", "tournament_entries", ["tournament_id"])
    op.create_table(
        "tournament_games",
        sa.Column(
            "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
        ),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("board", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(16), nullable=True),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=True),
        sa.Column("how", sa.String(16), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_entries_tournament_id", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournaments_status", table_name="tournaments")
    op.drop_table("tournaments")
    with op.batch_alter_table("players") as b:
        b.drop_column("role")
