"""A table's game as stored: its deals, actions and signals, the rows a running table
resumes from and its record (docs/rules.md §4.1) is made of. Actions go through the
group-commit writer (:mod:`.writer`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from .base import Database
from .errors import NotFound
from .fencing import check_fence
from .models import Action, Deal, Signal, Table, aware, now


@dataclass(frozen=True)
class StoredGame:
    """A table's stored game: deals and actions in record notation (docs/rules.md §4.1)."""

    deals: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    #: when its last deal or action was stored (the turn then began)
    last_at: datetime | None
    #: its Mus señas as the record lists them (docs/rules.md §3.8.4), in the order they were made
    signals: list[dict[str, Any]] = field(default_factory=list)


def _signals(s: Session, table_id: str) -> list[dict[str, Any]]:
    """A table's stored señas, in order."""
    rows = s.execute(select(Signal.data).where(Signal.table_id == table_id).order_by(Signal.index))
    return [r[0] for r in rows]


class RecordStore(Database):
    """The store's game records (a part of :class:`taverna.store.repo.Store`)."""

    async def append_action(
        self,
        table_id: str,
        index: int,
        data: dict[str, Any],
        deals: Sequence[tuple[int, dict[str, Any]]] = (),
        *,
        fence: int | None = None,
    ) -> None:
        """Store action ``index`` and the deals it caused (``(deal index, deal)``, a
        deal stored before being replaced: a Mus reshuffle) in one transaction; with
        ``fence``, only while that is still the table's fencing token (else
        :class:`Fenced`).

        Returns once it is committed; raises what the database raised if it is not.
        """
        await self.writer.write(table_id, index, data, deals, fence)

    async def append_signal(
        self, table_id: str, index: int, data: dict[str, Any], *, fence: int | None = None
    ) -> None:
        """Store seña ``index`` of a table (docs/rules.md §3.8.4: ``{"seat", "sign", "after",
        "caught_by"}``); with ``fence``, only while that is still the table's fencing
        token (else :class:`Fenced`). A seña is not an action: it has its own rows and
        its own numbering, and goes straight to the database (they are few)."""

        def q(s: Session) -> None:
            check_fence(s, table_id, fence)
            s.execute(
                insert(Signal),
                [{"table_id": table_id, "index": index, "data": data, "created_at": now()}],
            )

        await self.run(q)

    async def actions(self, table_id: str) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(Action.data).where(Action.table_id == table_id).order_by(Action.index)
            )
            return [r[0] for r in rows]

        return await self.run(q)

    async def game_rows(self, table_id: str) -> StoredGame:
        """What a table stored of its game: deals, actions, and when the last was stored."""

        def q(s: Session) -> StoredGame:
            deals = s.execute(
                select(Deal.data, Deal.created_at)
                .where(Deal.table_id == table_id)
                .order_by(Deal.index)
            ).all()
            actions = s.execute(
                select(Action.data, Action.created_at)
                .where(Action.table_id == table_id)
                .order_by(Action.index)
            ).all()
            times = [aware(r[1]) for r in [*deals[-1:], *actions[-1:]] if r[1] is not None]
            return StoredGame(
                [r[0] for r in deals],
                [r[0] for r in actions],
                max(times) if times else None,
                _signals(s, table_id),
            )

        return await self.run(q)

    async def put_deals(self, table_id: str, deals: Sequence[dict[str, Any]]) -> None:
        """Store the whole list of a table's deals (a table stored before deals were)."""

        def q(s: Session) -> None:
            s.execute(delete(Deal).where(Deal.table_id == table_id))
            if deals:
                s.execute(
                    insert(Deal),
                    [{"table_id": table_id, "index": i, "data": d} for i, d in enumerate(deals)],
                )

        await self.run(q)

    async def start_table(self, table_id: str, deals: Sequence[dict[str, Any]]) -> None:
        """The table is playing, with its first deal: one transaction."""

        def q(s: Session) -> None:
            s.execute(
                update(Table).where(Table.id == table_id).values(status="playing", started_at=now())
            )
            s.execute(delete(Deal).where(Deal.table_id == table_id))
            s.execute(
                insert(Deal),
                [{"table_id": table_id, "index": i, "data": d} for i, d in enumerate(deals)],
            )

        await self.run(q)

    async def record(self, table_id: str) -> dict[str, Any]:
        """A table's record (docs/rules.md §4.1) from its stored deals and actions."""

        def q(s: Session) -> dict[str, Any]:
            t = s.get(Table, table_id)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            deals = s.execute(
                select(Deal.data).where(Deal.table_id == table_id).order_by(Deal.index)
            )
            actions = s.execute(
                select(Action.data).where(Action.table_id == table_id).order_by(Action.index)
            )
            record = {
                "game": t.game,
                "seats": t.seat_count,
                "settings": dict(t.settings),
                "deals": [r[0] for r in deals],
                "actions": [r[0] for r in actions],
            }
            signals = _signals(s, table_id)
            if signals:  # docs/rules.md §3.8.4: a record without señas has no "signals"
                record["signals"] = signals
            return record

        return await self.run(q)
