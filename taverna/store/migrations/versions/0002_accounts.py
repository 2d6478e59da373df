"""Accounts, sessions, the chip ledger, ratings, settlements and seat addresses.

Guests' session tokens move from ``players.token_hash`` to ``sessions``, where
logins keep theirs too (one player, many browsers; logout deletes one).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_sessions_player_id", "sessions", ["player_id"])
    op.execute(
        "INSERT INTO sessions (token_hash, player_id, created_at) "
        "SELECT token_hash, id, created_at FROM players"
    )
    with op.batch_alter_table("players") as b:
        b.drop_index("ix_players_token_hash")
        b.drop_column("token_hash")
        b.add_column(sa.Column("username", sa.String(40), nullable=True))
        b.add_column(sa.Column("password_hash", sa.String(200), nullable=True))
        b.add_column(sa.Column("registered_at", sa.DateTime(timezone=True), nullable=True))
        b.add_column(sa.Column("chips", sa.BigInteger, nullable=False, server_default="0"))
        b.create_unique_constraint("uq_players_username", ["username"])
        b.create_check_constraint("ck_players_chips", "chips >= 0")

    op.create_table(
        "chip_ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=True),
        sa.Column("delta", sa.BigInteger, nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("balance >= 0", name="ck_chip_ledger_balance"),
        sa.UniqueConstraint("player_id", "table_id", "reason", name="uq_chip_ledger_once"),
    )
    op.create_index("ix_chip_ledger_player_id", "chip_ledger", ["player_id"])

    op.create_table(
        "rating_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("delta", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("player_id", "table_id", "reason", name="uq_rating_entries_once"),
    )
    op.create_index("ix_rating_entries_player_id", "rating_entries", ["player_id"])
    op.create_index("ix_rating_entries_table_id", "rating_entries", ["table_id"])

    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("losses", sa.Integer, nullable=False),
        sa.Column("abandons", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_index("ix_ratings_points", "ratings", ["points"])

    op.create_table(
        "settlements",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("ranked", sa.Boolean, nullable=False),
        sa.Column("note", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )

    op.create_table(
        "seat_addresses",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_addresses")
    op.drop_table("settlements")
    op.drop_index("ix_ratings_points", "ratings")
    op.drop_index("ix_ratings_game", "ratings")
    op.drop_table("ratings")
    op.drop_index("ix_rating_entries_table_id", "rating_entries")
    op.drop_index("ix_rating_entries_player_id", "rating_entries")
    op.drop_table("rating_entries")
    op.drop_index("ix_chip_ledger_player_id", "chip_ledger")
    op.drop_table("chip_ledger")
    # the old schema has no accounts: their logins end; guests keep one session each
    op.execute(
        "DELETE FROM sessions WHERE player_id IN "
        "(SELECT id FROM players WHERE username IS NOT NULL)"
    )
    with op.batch_alter_table("players") as b:
        b.drop_constraint("ck_players_chips", type_="check")
        b.drop_constraint("uq_players_username", type_="unique")
        b.drop_column("chips")
        b.drop_column("registered_at")
        b.drop_column("password_hash")
        b.drop_column("username")
        b.add_column(sa.Column("token_hash", sa.String(64), nullable=True))
    op.execute(
        "UPDATE players SET token_hash = "
        "(SELECT MIN(token_hash) FROM sessions WHERE sessions.player_id = players.id)"
    )
    op.drop_index("ix_sessions_player_id", "sessions")
    op.drop_table("sessions")
    op.create_index("ix_players_token_hash", "players", ["token_hash"], unique=True)
