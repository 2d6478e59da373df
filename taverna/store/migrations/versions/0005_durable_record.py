"""The stored game is its record: deals beside the actions.

Until now a table kept only its actions and a seed, and a restart dealt the
hands again from the seed, which a trial copy of the game had already moved
on (issue "A restart changes no hand"). ``deals`` keeps every deal as it is
dealt. A finished game's record moves from ``tables.record`` into the deals
(its actions are stored already), so the replay, the finished record and a
resumed game read the same rows. Running tables stored before this change
are given their deals by the server on their first resume (it replays them
the way they were played).

Also: ``tables.problem`` (why a table was set aside), ``tables.clock`` (the
timers when the server stopped) and ``nodes`` (a heartbeat per server).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

import json
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deals",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("index", sa.Integer, primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("tables") as b:
        b.add_column(sa.Column("problem", sa.String(500), nullable=True))
        b.add_column(sa.Column("clock", sa.JSON, nullable=True))

    conn = op.get_bind()
    tables = sa.table(
        "tables",
        sa.column("id", sa.String),
        sa.column("record", sa.JSON),
        sa.column("finished_at", sa.DateTime(timezone=True)),
    )
    deals = sa.table(
        "deals",
        sa.column("table_id", sa.String),
        sa.column("index", sa.Integer),
        sa.column("data", sa.JSON),
        sa.column("created_at", sa.DateTime(timezone=True)),
    )
    rows = conn.execute(
        sa.select(tables.c.id, tables.c.record, tables.c.finished_at).where(
            tables.c.record.is_not(None)
        )
    ).all()
    stamp = datetime.now(UTC)
    for tid, record, finished_at in rows:
        if isinstance(record, str):  # a driver that hands JSON back as text
            record = json.loads(record)
        items = [
            {"table_id": tid, "index": i, "data": d, "created_at": finished_at or stamp}
            for i, d in enumerate(record.get("deals") or [])
        ]
        if items:
            conn.execute(sa.insert(deals), items)
    with op.batch_alter_table("tables") as b:
        b.drop_column("record")


def downgrade() -> None:
    with op.batch_alter_table("tables") as b:
        b.add_column(sa.Column("record", sa.JSON, nullable=True))
        b.drop_column("clock")
        b.drop_column("problem")
    # a finished game's record goes back where 0004 kept it, made from its rows
    conn = op.get_bind()
    t = sa.table(
        "tables",
        sa.column("id", sa.String),
        sa.column("game", sa.String),
        sa.column("seat_count", sa.Integer),
        sa.column("settings", sa.JSON),
        sa.column("status", sa.String),
        sa.column("record", sa.JSON),
    )
    d = sa.table("deals", sa.column("table_id"), sa.column("index"), sa.column("data", sa.JSON))
    a = sa.table("actions", sa.column("table_id"), sa.column("index"), sa.column("data", sa.JSON))
    for tid, game, seats, settings in conn.execute(
        sa.select(t.c.id, t.c.game, t.c.seat_count, t.c.settings).where(t.c.status == "finished")
    ).all():
        record = {
            "game": game,
            "seats": seats,
            "settings": settings,
            "deals": [
                r[0]
                for r in conn.execute(
                    sa.select(d.c.data).where(d.c.table_id == tid).order_by(d.c.index)
                )
            ],
            "actions": [
                r[0]
                for r in conn.execute(
                    sa.select(a.c.data).where(a.c.table_id == tid).order_by(a.c.index)
                )
            ],
        }
        conn.execute(sa.update(t).where(t.c.id == tid).values(record=record))
    op.drop_table("nodes")
    op.drop_table("deals")
