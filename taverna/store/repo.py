"""The server's only door to the database: :class:`Store`.

Every method is a small transaction run in a worker thread (:mod:`.base`) and returns
plain data (no ORM objects leak out). Its methods live in a module a concept:
tables and seats (:mod:`.tables`), a game's record and the group-commit writer
(:mod:`.record`, :mod:`.writer`), players and sessions (:mod:`.players`), the chat
(:mod:`.chat`) and the nodes of a cluster (:mod:`.nodes`). Accounts, tournaments,
moderation and reviews are stores of their own over it (``AccountStore(store)``).
"""

from __future__ import annotations

from typing import Any

from .chat import ChatStore
from .nodes import NodeStore
from .players import PlayerStore
from .record import RecordStore
from .tables import TableStore


class Store(TableStore, RecordStore, PlayerStore, ChatStore, NodeStore):
    """The database as the server sees it: ``Store(url)`` migrates it and opens it."""

    async def finished_record(self, table_id: str) -> dict[str, Any] | None:
        """A finished game's record (None while it is not finished: it would show every
        hidden tile), from the same rows a running table resumes from."""
        table = await self.table(table_id)
        if table.status != "finished":
            return None
        return await self.record(table_id)
