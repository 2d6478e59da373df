"""The server's only door to the database.

Every method is a small transaction run in a worker thread and returns
plain data (no ORM objects leak out). Actions go through a group-commit
writer: many tables' moves share one transaction, and each move's future
resolves once its row is committed — so a move is on disk before anybody
hears of it, at a fraction of a commit per move.
"""

from __future__ import annotations

import asyncio
import hashlib
import queue
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session, sessionmaker

from .db import make_engine, migrate
from .models import Action, LoginSession, Player, Seat, Table, now

T = TypeVar("T")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_id(n: int = 10) -> str:
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(n))


@dataclass
class SeatInfo:
    seat: int
    player_id: str | None = None
    player_name: str | None = None
    bot: str | None = None
    replaced: bool = False
    left: bool = False  # replaced because the player left the game on purpose

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player_name,
            # whose seat it is, as in the table's "owner" and the session's "id": a client
            # knows its own seats by it (names need not be unique); it opens nothing
            "player_id": self.player_id,
            "bot": self.bot,
            "replaced": self.replaced,
            "left": self.left,
            "empty": self.empty,
        }


@dataclass
class TableInfo:
    id: str
    game: str
    seat_count: int
    settings: dict[str, Any]
    options: dict[str, Any]
    owner_id: str | None
    status: str
    seed: int
    seats: list[SeatInfo] = field(default_factory=list)
    result: dict[str, Any] | None = None
    created_at: str = ""

    def public(self) -> dict[str, Any]:
        """What anybody may know about the table (never the seed)."""
        return {
            "id": self.id,
            "game": self.game,
            "seats": self.seat_count,
            "settings": self.settings,
            "options": self.options,
            # official tables seat registered humans only, for a stake, and count for the ranking
            "official": bool(self.options.get("official")),
            "stake": self.options.get("stake"),
            "status": self.status,
            "owner": self.owner_id,
            "seating": [s.public() for s in self.seats],
            "free_seats": [s.seat for s in self.seats if s.empty],
            "result": self.result,
            "created_at": self.created_at,
        }


def _table_info(t: Table) -> TableInfo:
    return TableInfo(
        id=t.id,
        game=t.game,
        seat_count=t.seat_count,
        settings=dict(t.settings),
        options=dict(t.options),
        owner_id=t.owner_id,
        status=t.status,
        seed=t.seed,
        seats=[
            SeatInfo(s.seat, s.player_id, s.player_name, s.bot, s.replaced, s.left) for s in t.seats
        ],
        result=t.result,
        created_at=t.created_at.isoformat() if t.created_at else "",
    )


class Conflict(Exception):
    """A request that the table's current state does not allow (HTTP 409).

    ``code`` and ``params`` tell a client what kind of conflict it is, so that
    it can say so in its own language (``taverna.server.errors``).
    """

    def __init__(self, message: str, code: str = "conflict", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class NotFound(Exception):
    """Nothing by that name or number (HTTP 404); ``code`` and ``params`` as for Conflict."""

    def __init__(self, message: str, code: str = "not_found", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class Store:
    def __init__(self, url: str, *, run_migrations: bool = True) -> None:
        if run_migrations:
            migrate(url)
        self.engine = make_engine(url)
        self.sqlite = self.engine.dialect.name == "sqlite"
        self.Session = sessionmaker(self.engine, expire_on_commit=False)
        self.pool = ThreadPoolExecutor(1 if self.sqlite else 6, thread_name_prefix="taverna-db")
        self._writes: queue.Queue[Any] = queue.Queue()
        self._writer = threading.Thread(target=self._write_loop, daemon=True, name="taverna-wal")
        self._writer.start()

    async def run(self, fn: Callable[[Session], T]) -> T:
        def job() -> T:
            with self.Session() as session, session.begin():
                return fn(session)

        return await asyncio.get_running_loop().run_in_executor(self.pool, job)

    def close(self) -> None:
        self._writes.put(None)
        self._writer.join(timeout=5)
        self.pool.shutdown(wait=True)
        self.engine.dispose()

    # ------------------------------------------------------------ actions

    async def append_action(self, table_id: str, index: int, data: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._writes.put((table_id, index, data, fut, loop))
        await fut

    def _write_loop(self) -> None:
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
            rows = [
                {"table_id": t, "index": i, "data": d, "created_at": now()}
                for t, i, d, _, _ in batch
            ]
            error: BaseException | None = None
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(Action), rows)
            except BaseException as e:  # reported to every waiting move
                error = e
            for _, _, _, fut, loop in batch:
                loop.call_soon_threadsafe(_settle, fut, error)

    async def actions(self, table_id: str) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(Action.data).where(Action.table_id == table_id).order_by(Action.index)
            )
            return [r[0] for r in rows]

        return await self.run(q)

    # ------------------------------------------------------------ players

    async def create_guest(self, name: str) -> tuple[dict[str, Any], str]:
        token = secrets.token_urlsafe(32)
        pid = new_id(16)

        def q(s: Session) -> None:
            s.add(Player(id=pid, name=name, chips=0))
            s.flush()
            s.add(LoginSession(token_hash=hash_token(token), player_id=pid))

        await self.run(q)
        return {"id": pid, "name": name, "registered": False}, token

    async def player_by_token(self, token: str) -> dict[str, Any] | None:
        """The player of a session cookie: ``{"id", "name", "registered"}``, or None."""
        h = hash_token(token)

        def q(s: Session) -> dict[str, Any] | None:
            row = s.execute(
                select(Player.id, Player.name, Player.username, LoginSession.expires_at)
                .join(LoginSession, LoginSession.player_id == Player.id)
                .where(LoginSession.token_hash == h)
            ).one_or_none()
            if row is None:
                return None
            expires = row.expires_at
            if expires is not None and _aware(expires) <= now():
                return None
            return {"id": row.id, "name": row.name, "registered": row.username is not None}

        return await self.run(q)

    # ------------------------------------------------------------- tables

    async def create_table(
        self,
        game: str,
        seat_count: int,
        settings: dict[str, Any],
        options: dict[str, Any],
        owner: dict[str, Any] | None,
    ) -> TableInfo:
        tid = new_id()
        seed = secrets.randbits(62)

        def q(s: Session) -> TableInfo:
            t = Table(
                id=tid,
                game=game,
                seat_count=seat_count,
                settings=settings,
                options=options,
                owner_id=owner["id"] if owner else None,
                status="open",
                seed=seed,
            )
            s.add(t)
            for i in range(seat_count):
                s.add(Seat(table_id=tid, seat=i, replaced=False))
            s.flush()
            s.refresh(t)
            return _table_info(t)

        return await self.run(q)

    async def table(self, table_id: str) -> TableInfo:
        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            return _table_info(t)

        return await self.run(q)

    async def tables(self, statuses: tuple[str, ...], game: str | None = None) -> list[TableInfo]:
        def q(s: Session) -> list[TableInfo]:
            stmt = select(Table).where(Table.status.in_(statuses)).order_by(Table.created_at.desc())
            if game:
                stmt = stmt.where(Table.game == game)
            return [_table_info(t) for t in s.execute(stmt.limit(500)).scalars()]

        return await self.run(q)

    async def set_seat(
        self,
        table_id: str,
        seat: int,
        *,
        player: dict[str, Any] | None = None,
        bot: str | None = None,
        replaced: bool = False,
        left: bool = False,
        only_if_empty: bool = True,
        statuses: tuple[str, ...] = ("open",),
    ) -> TableInfo:
        """Put a player or a bot in a seat (or empty it with neither)."""

        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id, with_for_update=not self.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if t.status not in statuses:
                raise Conflict(f"table {table_id} is {t.status}", "table_not_open", status=t.status)
            if not 0 <= seat < t.seat_count:
                raise NotFound(f"table {table_id} has no seat {seat}", "no_seat", seat=seat)
            row = s.get(Seat, (table_id, seat))
            assert row is not None
            if only_if_empty and (row.player_id or row.bot):
                raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
            if player is not None:
                for other in t.seats:
                    if other.player_id == player["id"] and other.seat != seat:
                        raise Conflict(
                            f"you already sit at seat {other.seat} of this table",
                            "already_seated",
                            seat=other.seat,
                        )
            row.player_id = player["id"] if player else None
            row.player_name = player["name"] if player else None
            row.bot = bot
            row.replaced = replaced
            row.left = left
            s.flush()
            s.refresh(t)
            return _table_info(t)

        return await self.run(q)

    async def set_status(
        self,
        table_id: str,
        status: str,
        *,
        result: dict[str, Any] | None = None,
        record: dict[str, Any] | None = None,
    ) -> None:
        def q(s: Session) -> None:
            values: dict[str, Any] = {"status": status}
            if status == "playing":
                values["started_at"] = now()
            if status in ("finished", "abandoned"):
                values["finished_at"] = now()
                values["result"] = result
                values["record"] = record
            s.execute(update(Table).where(Table.id == table_id).values(**values))

        await self.run(q)

    async def finished_record(self, table_id: str) -> dict[str, Any] | None:
        def q(s: Session) -> dict[str, Any] | None:
            t = s.get(Table, table_id)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            return t.record if t.status == "finished" else None

        return await self.run(q)

    async def delete_table(self, table_id: str) -> None:
        def q(s: Session) -> None:
            s.execute(delete(Seat).where(Seat.table_id == table_id))
            s.execute(delete(Table).where(Table.id == table_id))

        await self.run(q)


def _aware(t: datetime) -> datetime:
    """SQLite hands back naive datetimes (stored in UTC): make them comparable."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _settle(fut: asyncio.Future[None], error: BaseException | None) -> None:
    if fut.done():
        return
    if error is None:
        fut.set_result(None)
    else:
        fut.set_exception(error)
