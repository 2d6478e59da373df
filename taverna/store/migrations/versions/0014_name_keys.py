"""Names in use, guests' too, are compared as they look (UTS #39 skeletons).

- ``name_keys``: the keys of each player's name (``taverna.server.names.name_keys``:
  the hashes of its skeletons in the case it is written, in small letters and in
  capitals), replacing ``players.skeleton`` (one skeleton per account, made with a
  union of look-alike letters that chained unrelated letters together). The server
  fills in the keys of the accounts, and of the guests seated at an unfinished table,
  when it starts.
- ``players.seen_at``: when a guest's session was last used: a guest's name counts as
  in use while they are in the club.
- ``ix_seats_player_id``: whether a guest is seated at an unfinished table, and a
  player's history, without reading every seat.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "name_keys",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
    )
    op.create_index("ix_name_keys_player_id", "name_keys", ["player_id"])
    with op.batch_alter_table("players") as b:
        b.add_column(sa.Column("seen_at", sa.DateTime(timezone=True), nullable=True))
        b.drop_index("ix_players_skeleton")
        b.drop_column("skeleton")
    op.create_index("ix_seats_player_id", "seats", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_player_id", "seats")
    with op.batch_alter_table("players") as b:
        # the old server fills the skeletons of the accounts in again when it starts
        b.add_column(sa.Column("skeleton", sa.String(80), nullable=True))
        b.create_index("ix_players_skeleton", ["skeleton"])
        b.drop_column("seen_at")
    op.drop_index("ix_name_keys_player_id", "name_keys")
    op.drop_table("name_keys")
