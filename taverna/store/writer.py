"""The group-commit writer: many tables' moves in one transaction.

A thread of its own takes the actions waiting in its queue (up to a thousand at a
time) and stores them, with the deals they caused, in one transaction; each move's
future resolves once its row is committed, so a move is on disk before anybody hears
of it, at a fraction of a commit per move. One refused row does not refuse the
others: then each write of the batch is tried alone.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, delete, insert

from .fencing import check_fences
from .models import Action, Deal, now


@dataclass(frozen=True)
class Write:
    """One action on its way to the database, with the deals it caused."""

    table_id: str
    index: int
    data: dict[str, Any]
    deals: tuple[tuple[int, dict[str, Any]], ...]
    fut: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop
    #: the owner's fencing token the table must still have (None: a single node)
    fence: int | None = None


class Writer:
    """The writer's thread and queue, for one engine (:meth:`write`, :meth:`close`)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._writes: queue.Queue[Write | None] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, daemon=True, name="taverna-wal")
        self._thread.start()

    async def write(
        self,
        table_id: str,
        index: int,
        data: dict[str, Any],
        deals: Sequence[tuple[int, dict[str, Any]]],
        fence: int | None,
    ) -> None:
        """Store action ``index`` and its ``deals``; returns once they are committed,
        raises what the database raised if they are not."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._writes.put(Write(table_id, index, data, tuple(deals), fut, loop, fence))
        await fut

    def close(self) -> None:
        """Stop the thread once the writes before this call are done."""
        self._writes.put(None)
        self._thread.join(timeout=5)

    def _loop(self) -> None:
        while True:
            item = self._writes.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < 1000:
                try:
                    more = self._writes.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._writes.put(None)
                    break
                batch.append(more)
            try:
                commit(self.engine, batch)
                errors: list[BaseException | None] = [None] * len(batch)
            except BaseException as e:
                if len(batch) == 1:
                    errors = [e]
                else:
                    # one table's refused row must not refuse every table's move: alone,
                    # each write stands or falls by itself
                    errors = []
                    for w in batch:
                        try:
                            commit(self.engine, [w])
                            errors.append(None)
                        except BaseException as e1:
                            errors.append(e1)
            for w, error in zip(batch, errors, strict=True):
                w.loop.call_soon_threadsafe(_settle, w.fut, error)


def commit(engine: Engine, batch: list[Write]) -> None:
    """Store a batch of writes in one transaction (``Fenced`` if one's fence is old:
    then none of them is stored)."""
    stamp = now()
    with engine.begin() as conn:
        check_fences(conn, [(w.table_id, w.fence) for w in batch if w.fence is not None])
        for w in batch:
            for i, _ in w.deals:
                conn.execute(delete(Deal).where(Deal.table_id == w.table_id, Deal.index == i))
        deal_rows = [
            {"table_id": w.table_id, "index": i, "data": d, "created_at": stamp}
            for w in batch
            for i, d in w.deals
        ]
        if deal_rows:
            conn.execute(insert(Deal), deal_rows)
        conn.execute(
            insert(Action),
            [
                {"table_id": w.table_id, "index": w.index, "data": w.data, "created_at": stamp}
                for w in batch
            ],
        )


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
