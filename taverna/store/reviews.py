"""Reviews of finished games in the database (:mod:`taverna.bots.review`): one row per
table and seat, asked once, computed in the background by whichever node took it.

A node marks the reviews it works on as it goes (``updated_at`` after every decision);
one that stopped leaves a review ``running`` and stale, and the next node to look
(:meth:`ReviewStore.claim_stale`) takes it up from the start.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from .models import GameReview, now
from .repo import Store

#: the review's states: waiting for a node, under way, finished, given up
STATUSES = ("queued", "running", "done", "failed")


def _iso(t: datetime) -> str:
    return (t if t.tzinfo is not None else t.replace(tzinfo=UTC)).isoformat()


def as_json(r: GameReview) -> dict[str, Any]:
    return {
        "table": r.table_id,
        "seat": r.seat,
        "status": r.status,
        "done": r.done,
        "total": r.total,
        "result": r.result,
        "error": r.error,
        "created_at": _iso(r.created_at),
        "updated_at": _iso(r.updated_at),
    }


class ReviewStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def get(self, table_id: str, seat: int) -> dict[str, Any] | None:
        def q(s: Session) -> dict[str, Any] | None:
            r = s.get(GameReview, (table_id, seat))
            return None if r is None else as_json(r)

        return await self.store.run(q)

    async def of_table(self, table_id: str) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(GameReview).where(GameReview.table_id == table_id).order_by(GameReview.seat)
            ).scalars()
            return [as_json(r) for r in rows]

        return await self.store.run(q)

    async def ask(
        self, table_id: str, seat: int, player_id: str | None
    ) -> tuple[dict[str, Any], bool]:
        """The review of ``seat`` at ``table_id``, queued now if there was none (or the
        last one failed): ``(review, new)``."""

        def q(s: Session) -> tuple[dict[str, Any], bool]:
            r = s.get(GameReview, (table_id, seat), with_for_update=True)
            if r is not None and r.status != "failed":
                return as_json(r), False
            if r is None:
                r = GameReview(table_id=table_id, seat=seat)
                s.add(r)
            r.status, r.done, r.total, r.result, r.error = "queued", 0, None, None, None
            r.asked_by = player_id
            r.attempt = 0
            r.created_at = r.updated_at = now()
            s.flush()
            return as_json(r), True

        return await self.store.run(q)

    async def progress(self, table_id: str, seat: int, done: int, total: int) -> None:
        def q(s: Session) -> None:
            s.execute(
                update(GameReview)
                .where(GameReview.table_id == table_id, GameReview.seat == seat)
                .values(status="running", done=done, total=total, updated_at=now())
            )

        await self.store.run(q)

    async def finish(
        self, table_id: str, seat: int, result: dict[str, Any] | None, error: str | None = None
    ) -> None:
        def q(s: Session) -> None:
            values: dict[str, Any] = {"updated_at": now()}
            if error is None:
                values.update(status="done", result=result, error=None, done=GameReview.total)
            else:
                values.update(status="failed", error=error[:300])
            s.execute(
                update(GameReview)
                .where(GameReview.table_id == table_id, GameReview.seat == seat)
                .values(**values)
            )

        await self.store.run(q)

    async def claim_stale(self, seconds: float) -> list[tuple[str, int]]:
        """The reviews queued or running that nobody has touched for ``seconds`` (their
        node stopped): each taken for this node (marked afresh; another node that looks
        at the same moment takes none of them twice)."""
        cutoff = datetime.now(UTC) - timedelta(seconds=seconds)

        def q(s: Session) -> list[tuple[str, int]]:
            rows = s.execute(
                select(GameReview.table_id, GameReview.seat, GameReview.attempt).where(
                    or_(GameReview.status == "queued", GameReview.status == "running"),
                    GameReview.updated_at < cutoff,
                )
            ).all()
            taken = []
            for table_id, seat, attempt in rows:
                # compare and set: only the node whose update finds the count it read
                done = s.execute(
                    update(GameReview)
                    .where(
                        GameReview.table_id == table_id,
                        GameReview.seat == seat,
                        GameReview.attempt == attempt,
                    )
                    .values(status="queued", done=0, attempt=attempt + 1, updated_at=now())
                )
                if done.rowcount == 1:  # type: ignore[attr-defined]
                    taken.append((table_id, seat))
            return taken

        return await self.store.run(q)
