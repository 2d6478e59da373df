"""The fence: a table's game is written only by the node that owns it now.

Each owner holds a fencing token (its lease's); a takeover stores a newer one in the
table's row, and every write of the game checks, in its own transaction, that the
writer's token is still the stored one (docs/scaling.md, "Who owns a table").
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import tuple_, update

from .errors import Conflict
from .models import Table


class Fenced(Conflict):
    """A write of a table's game by a node that is no longer its owner: another node
    took the table over (a newer fencing token is stored), so this write changed
    nothing (docs/scaling.md)."""

    def __init__(self, table_id: str, token: int, stored: int | None = None) -> None:
        super().__init__(
            f"table {table_id}: another node owns it now (this node's token {token} is old)",
            "not_owner",
        )
        self.table_id = table_id
        self.token = token
        #: the table's fence as stored, when known
        self.stored = stored


def check_fence(conn: Any, table_id: str, token: int | None) -> None:
    """Within a write's transaction: this node still owns the table (its ``token`` is
    the table's fence), else :class:`Fenced`. The update locks the table's row until
    the transaction ends, so a takeover that stores a newer token waits for it, and
    every write after that takeover fails here. ``None``: a single node, nothing to
    check."""
    if token is None:
        return
    done = conn.execute(
        update(Table).where(Table.id == table_id, Table.fence == token).values(fence=token)
    )
    if done.rowcount != 1:
        raise Fenced(table_id, token)


def check_fences(conn: Any, tokens: list[tuple[str, int]]) -> None:
    """:func:`check_fence` for the tables of a batch of writes at once: one statement,
    not one round trip per move (a node's writer spent a third of its time on them)."""
    if len(tokens) <= 1 or conn.dialect.name != "postgresql":
        for table_id, token in tokens:
            check_fence(conn, table_id, token)
        return
    done = conn.execute(
        update(Table)
        .where(tuple_(Table.id, Table.fence).in_(tokens))
        .values(fence=Table.fence)
        .returning(Table.id)
    )
    held = {row[0] for row in done}
    for table_id, token in tokens:
        if table_id not in held:
            raise Fenced(table_id, token)
