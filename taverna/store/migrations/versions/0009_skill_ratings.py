"""Skill ratings (Glicko-2, taverna/glicko2.py) beside the seed's ranking points.

- ``skills``: a player's rating in one game as it stands: rating, deviation,
  volatility, how many rated games, and when the last one ended (the deviation grows
  with the days since).
- ``skill_entries``: one rated game of one player: the rating before and after, at the
  game's settlement time; the plot of a rating over time, and what a recomputation
  from the stored results is checked against.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skills",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("vol", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_skills_game", "skills", ["game"])
    op.create_table(
        "skill_entries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("rating_before", sa.Float(), nullable=False),
        sa.Column("rd_before", sa.Float(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("rd", sa.Float(), nullable=False),
        sa.Column("vol", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "table_id", name="uq_skill_entries_once"),
    )
    op.create_index("ix_skill_entries_player_id", "skill_entries", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_skill_entries_player_id", table_name="skill_entries")
    op.drop_table("skill_entries")
    op.drop_index("ix_skills_game", table_name="skills")
    op.drop_table("skills")
