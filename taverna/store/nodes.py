"""The nodes of a cluster in the database: each one's heartbeat, and which owns a
table (its fencing token, :mod:`.fencing`; docs/scaling.md)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from .base import Database
from .errors import NotFound
from .fencing import Fenced
from .models import Node, Table, aware, now


class NodeStore(Database):
    """The store's nodes (a part of :class:`taverna.store.repo.Store`)."""

    async def claim(self, table_id: str, token: int, node: str) -> str | None:
        """Make ``node`` the table's owner with fencing token ``token`` (its lease's), if
        no newer token is stored; the previous owner's name (or None, if there was none
        or this token is not newer: then the table is not this node's)."""

        def q(s: Session) -> tuple[int | None, str | None]:
            t = s.get(Table, table_id, with_for_update=not self.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if t.fence >= token:
                return t.fence, None
            previous = t.node
            t.fence, t.node = token, node
            return None, previous

        stored, previous = await self.run(q)
        if stored is not None:
            raise Fenced(table_id, token, stored)
        return previous

    async def last_seen(self, node: str) -> datetime | None:
        """When a node was last seen alive (its heartbeat), if ever."""

        def q(s: Session) -> datetime | None:
            row = s.get(Node, node)
            return aware(row.seen_at) if row is not None else None

        return await self.run(q)

    async def heartbeat(self, node: str, *, starting: bool = False) -> datetime | None:
        """Say that ``node`` is alive now; returns when it was last seen before (None: never)."""

        def q(s: Session) -> datetime | None:
            row = s.get(Node, node)
            stamp = now()
            if row is None:
                s.add(Node(id=node, started_at=stamp, seen_at=stamp))
                return None
            before = aware(row.seen_at)
            row.seen_at = stamp
            if starting:
                row.started_at = stamp
            return before

        return await self.run(q)
