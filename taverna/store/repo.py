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
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import delete, insert, select, tuple_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, object_session, sessionmaker

from .db import make_engine, migrate
from .models import (
    Action,
    ChatMessage,
    ChatReport,
    Deal,
    LoginSession,
    NameKey,
    Node,
    Player,
    Seat,
    SeatAddress,
    Signal,
    Table,
    now,
)

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


#: how often a guest's use of their session is written down (``players.seen_at``)
SEEN_EVERY = timedelta(seconds=60)


def add_guest(s: Session, name: str, keys: Sequence[str]) -> tuple[dict[str, Any], str]:
    """Add a guest player called ``name``, seen now, with its session and the ``keys``
    of its name (``NameKey``); the player and the session's token."""
    token = secrets.token_urlsafe(32)
    pid = new_id(16)
    s.add(Player(id=pid, name=name, chips=0, seen_at=now()))
    s.flush()
    s.add(LoginSession(token_hash=hash_token(token), player_id=pid))
    s.add_all(NameKey(key=k, player_id=pid) for k in keys)
    return {"id": pid, "name": name, "registered": False}, token


def _restriction(until: datetime | None, reason: str | None, at: datetime) -> dict[str, Any] | None:
    """A ban or silence that still lasts at ``at``: ``{"until": ISO, "reason"}``."""
    if until is None or _aware(until) <= at:
        return None
    return {"until": _aware(until).isoformat(), "reason": reason or ""}


def kept_for(options: dict[str, Any], seat: int, at: float | None = None) -> str | None:
    """Who a seat of a "play again" table is kept for (None: anybody may sit): the player
    who had it in the last game, until the hold ends (``options.reserved_until``, epoch s)."""
    held = options.get("reserved") or {}
    until = options.get("reserved_until") or 0
    if (time.time() if at is None else at) >= until:
        return None
    who = held.get(str(seat))
    return who if isinstance(who, str) else None


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
    #: why a table was set aside (status "set_aside"): its stored game could not be resumed
    problem: str | None = None
    #: the timers when the server last stopped (see :meth:`Store.save_clocks`); not public
    clock: dict[str, Any] | None = None
    #: an official table where two players sat or connected from one address: the game
    #: will move no points and no chips (PLATFORM.md), and everybody is told before it
    shared_address: bool = False
    #: "play again": the table made after this one (its players are offered their seats)
    again: str | None = None

    def reserved_for(self, seat: int) -> str | None:
        """Who a seat of a "play again" table is kept for (None: anybody may sit)."""
        return kept_for(self.options, seat)

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
            "problem": self.problem,
            "shared_address": self.shared_address,
            "again": self.again,
        }


def shared_address(s: Session, table_id: str, player_ids: list[str]) -> bool:
    """Do two different players of the table share an address they sat or connected from?"""
    if len(set(player_ids)) < 2:
        return False
    seen: dict[str, set[str]] = {}
    for address, pid in s.execute(
        select(SeatAddress.address, SeatAddress.player_id).where(
            SeatAddress.table_id == table_id, SeatAddress.player_id.in_(player_ids)
        )
    ):
        seen.setdefault(address, set()).add(pid)
    return any(len(ids) > 1 for ids in seen.values())


def _table_info(t: Table) -> TableInfo:
    shares = False
    if t.options.get("official"):
        session = object_session(t)
        ids = [x.player_id for x in t.seats if x.player_id]
        shares = session is not None and shared_address(session, t.id, ids)
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
        problem=t.problem,
        clock=t.clock,
        shared_address=shares,
        again=t.again,
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


def _check_fence(conn: Any, table_id: str, token: int | None) -> None:
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


def _check_fences(conn: Any, tokens: list[tuple[str, int]]) -> None:
    """:func:`_check_fence` for the tables of a batch of writes at once: one statement,
    not one round trip per move (a node's writer spent a third of its time on them)."""
    if len(tokens) <= 1 or conn.dialect.name != "postgresql":
        for table_id, token in tokens:
            _check_fence(conn, table_id, token)
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

    # ------------------------------------------------------------ the record

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
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        self._writes.put(_Write(table_id, index, data, tuple(deals), fut, loop, fence))
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
            try:
                self._commit(batch)
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
                            self._commit([w])
                            errors.append(None)
                        except BaseException as e1:
                            errors.append(e1)
            for w, error in zip(batch, errors, strict=True):
                w.loop.call_soon_threadsafe(_settle, w.fut, error)

    def _commit(self, batch: list[_Write]) -> None:
        stamp = now()
        with self.engine.begin() as conn:
            _check_fences(conn, [(w.table_id, w.fence) for w in batch if w.fence is not None])
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

    async def append_signal(
        self, table_id: str, index: int, data: dict[str, Any], *, fence: int | None = None
    ) -> None:
        """Store seña ``index`` of a table (docs/rules.md §3.8.4: ``{"seat", "sign", "after",
        "caught_by"}``); with ``fence``, only while that is still the table's fencing
        token (else :class:`Fenced`). A seña is not an action: it has its own rows and
        its own numbering, and goes straight to the database (they are few)."""

        def q(s: Session) -> None:
            _check_fence(s, table_id, fence)
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
            times = [_aware(r[1]) for r in [*deals[-1:], *actions[-1:]] if r[1] is not None]
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
            return _aware(row.seen_at) if row is not None else None

        return await self.run(q)

    async def set_aside(self, table_id: str, problem: str) -> None:
        """A table whose stored game cannot be resumed: kept as it is, with the reason."""

        def q(s: Session) -> None:
            s.execute(
                update(Table)
                .where(Table.id == table_id)
                .values(status="set_aside", problem=problem[:500])
            )

        await self.run(q)

    async def save_clocks(self, clocks: dict[str, dict[str, Any] | None]) -> None:
        """The running timers of many tables, at once (a stop, or the database's return)."""

        def q(s: Session) -> None:
            for tid, clock in clocks.items():
                s.execute(update(Table).where(Table.id == tid).values(clock=clock))

        if clocks:
            await self.run(q)

    # -------------------------------------------------------------- nodes

    async def heartbeat(self, node: str, *, starting: bool = False) -> datetime | None:
        """Say that ``node`` is alive now; returns when it was last seen before (None: never)."""

        def q(s: Session) -> datetime | None:
            row = s.get(Node, node)
            stamp = now()
            if row is None:
                s.add(Node(id=node, started_at=stamp, seen_at=stamp))
                return None
            before = _aware(row.seen_at)
            row.seen_at = stamp
            if starting:
                row.started_at = stamp
            return before

        return await self.run(q)

    async def ping(self, timeout: float = 2.0) -> bool:
        """Whether the database answers a trivial query within ``timeout`` seconds."""

        def q(s: Session) -> None:
            s.execute(select(1))

        try:
            await asyncio.wait_for(self.run(q), timeout)
        except Exception:
            return False
        return True

    # ------------------------------------------------------------ players

    async def create_guest(self, name: str) -> tuple[dict[str, Any], str]:
        """A guest player and its session (no look-alike check: the HTTP API's guests
        come through ``AccountStore.create_guest``); the player and the cookie's token."""
        return await self.run(lambda s: add_guest(s, name, ()))

    async def player_by_token(self, token: str) -> dict[str, Any] | None:
        """The player of a session cookie: ``{"id", "name", "registered"}``, or None."""
        h = hash_token(token)

        def q(s: Session) -> dict[str, Any] | None:
            row = s.execute(
                select(
                    Player.id,
                    Player.name,
                    Player.username,
                    Player.role,
                    Player.banned_until,
                    Player.ban_reason,
                    Player.silenced_until,
                    Player.silence_reason,
                    Player.seen_at,
                    LoginSession.expires_at,
                )
                .join(LoginSession, LoginSession.player_id == Player.id)
                .where(LoginSession.token_hash == h)
            ).one_or_none()
            if row is None:
                return None
            expires = row.expires_at
            at = now()
            if expires is not None and _aware(expires) <= at:
                return None
            seen = row.seen_at
            if row.username is None and (seen is None or at - _aware(seen) >= SEEN_EVERY):
                # a guest in the club holds their name (taverna.server.accounts)
                s.execute(update(Player).where(Player.id == row.id).values(seen_at=at))
            return {
                "id": row.id,
                "name": row.name,
                "registered": row.username is not None,
                "role": row.role,
                # a moderator's ban or silence while it lasts: until when, and why
                "banned": _restriction(row.banned_until, row.ban_reason, at),
                "silenced": _restriction(row.silenced_until, row.silence_reason, at),
            }

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

    async def again_table(
        self, table_id: str, owner: dict[str, Any], hold_seconds: float
    ) -> TableInfo:
        """The table where a finished table's players play again: made by the first who
        asks (same game, seats, settings and options; its bots at their seats; each
        person's seat kept for them for ``hold_seconds``), found by the others."""
        tid, seed = new_id(), secrets.randbits(62)

        def q(s: Session) -> TableInfo:
            old = s.get(Table, table_id, with_for_update=not self.sqlite)
            if old is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if old.status != "finished":
                raise Conflict(
                    f"table {table_id} is {old.status}: play again once it is finished",
                    "table_not_finished",
                    status=old.status,
                )
            if old.again is not None:
                found = s.get(Table, old.again)
                assert found is not None
                return _table_info(found)
            options = {
                k: v
                for k, v in old.options.items()
                if k not in ("reserved", "reserved_names", "reserved_until", "play_now")
            }
            options["reserved"] = {
                str(x.seat): x.player_id for x in old.seats if x.player_id is not None
            }
            options["reserved_names"] = {
                str(x.seat): x.player_name for x in old.seats if x.player_id is not None
            }
            options["reserved_until"] = time.time() + hold_seconds
            options["again_of"] = old.id
            t = Table(
                id=tid,
                game=old.game,
                seat_count=old.seat_count,
                settings=dict(old.settings),
                options=options,
                owner_id=owner["id"],
                status="open",
                seed=seed,
            )
            s.add(t)
            for x in old.seats:
                # a bot's seat is the bot's again at once; a person's is kept for them
                bot = x.bot if x.player_id is None else None
                s.add(Seat(table_id=tid, seat=x.seat, bot=bot, replaced=False))
            old.again = tid
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

    async def playing_tables(self) -> list[TableInfo]:
        """Every table whose game is under way (all of them: each must resume)."""

        def q(s: Session) -> list[TableInfo]:
            stmt = select(Table).where(Table.status == "playing").order_by(Table.created_at)
            return [_table_info(t) for t in s.execute(stmt).scalars()]

        return await self.run(q)

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        """The ids of every table of these statuses (several nodes: which need an owner)."""

        def q(s: Session) -> list[str]:
            return list(s.execute(select(Table.id).where(Table.status.in_(statuses))).scalars())

        return await self.run(q)

    async def open_tables_options(self) -> list[tuple[str, dict[str, Any]]]:
        """Every open table's id and options, and nothing more (a cheap look for the
        tables that wait for something, such as "play now")."""

        def q(s: Session) -> list[tuple[str, dict[str, Any]]]:
            stmt = select(Table.id, Table.options).where(Table.status == "open")
            return [(r[0], dict(r[1] or {})) for r in s.execute(stmt)]

        return await self.run(q)

    async def tables_set_aside(self) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            stmt = select(Table.id, Table.game, Table.problem).where(Table.status == "set_aside")
            return [{"id": r[0], "game": r[1], "problem": r[2]} for r in s.execute(stmt)]

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
        fence: int | None = None,
    ) -> TableInfo:
        """Put a player or a bot in a seat (or empty it with neither); with ``fence``,
        only while the table's owner has that token (:class:`Fenced`)."""

        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id, with_for_update=not self.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if fence is not None and t.fence != fence:
                raise Fenced(table_id, fence)
            if t.status not in statuses:
                raise Conflict(f"table {table_id} is {t.status}", "table_not_open", status=t.status)
            if not 0 <= seat < t.seat_count:
                raise NotFound(f"table {table_id} has no seat {seat}", "no_seat", seat=seat)
            row = s.get(Seat, (table_id, seat))
            assert row is not None
            if only_if_empty and (row.player_id or row.bot):
                raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
            if player is not None:
                kept = kept_for(t.options, seat)
                if kept is not None and kept != player["id"]:
                    raise Conflict(
                        f"seat {seat} is kept for the player who had it in the last game",
                        "seat_reserved",
                        seat=seat,
                    )
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
        fence: int | None = None,
    ) -> None:
        def q(s: Session) -> None:
            _check_fence(s, table_id, fence)
            values: dict[str, Any] = {"status": status}
            if status == "playing":
                values["started_at"] = now()
            if status == "finished":
                values["finished_at"] = now()
                values["result"] = result
                values["clock"] = None
            s.execute(update(Table).where(Table.id == table_id).values(**values))

        await self.run(q)

    async def finished_record(self, table_id: str) -> dict[str, Any] | None:
        """A finished game's record (None while it is not finished: it would show every
        hidden tile), from the same rows a running table resumes from."""
        table = await self.table(table_id)
        if table.status != "finished":
            return None
        return await self.record(table_id)

    async def delete_table(self, table_id: str) -> None:
        def q(s: Session) -> None:
            s.execute(delete(Seat).where(Seat.table_id == table_id))
            s.execute(delete(Table).where(Table.id == table_id))

        await self.run(q)

    # ---------------------------------------------------------------- chat

    async def set_option(self, table_id: str, key: str, value: Any) -> TableInfo:
        """Set one of a table's options (the host's chat switch); the table as it is then."""

        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id, with_for_update=not self.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            t.options = {**t.options, key: value}  # a new dict: the JSON column sees it
            s.flush()
            return _table_info(t)

        return await self.run(q)

    async def add_chat(
        self,
        table_id: str,
        room: str,
        *,
        player_id: str | None = None,
        name: str | None = None,
        seat: int | None = None,
        text: str | None = None,
        phrase: str | None = None,
        event: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Store one chat message (``room`` players or spectators) and return it as the
        clients see it. A person's message is signed with the name they have now (read
        in the same transaction); an ``event`` is the table's own, with the ``name`` given."""

        def q(s: Session) -> dict[str, Any]:
            signed = name
            if player_id is not None:
                person = s.get(Player, player_id)
                signed = person.name if person is not None else name
            row = ChatMessage(
                table_id=table_id,
                room=room,
                player_id=player_id,
                name=signed,
                seat=seat,
                text=text,
                phrase=phrase,
                event=event,
                created_at=now(),
            )
            s.add(row)
            s.flush()
            return _chat_json(row)

        return await self.run(q)

    async def chat(
        self, table_id: str, rooms: Sequence[str], limit: int = 50
    ) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a table's chat in these rooms, oldest first."""

        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(ChatMessage)
                .where(ChatMessage.table_id == table_id, ChatMessage.room.in_(list(rooms)))
                .order_by(ChatMessage.id.desc())
                .limit(limit)
            ).scalars()
            return [_chat_json(r) for r in reversed(list(rows))]

        return await self.run(q)

    async def chat_message(self, message_id: int) -> tuple[str, dict[str, Any]] | None:
        """One chat message and its table's id (None: there is no such message)."""

        def q(s: Session) -> tuple[str, dict[str, Any]] | None:
            row = s.get(ChatMessage, message_id)
            return None if row is None else (row.table_id, _chat_json(row))

        return await self.run(q)

    async def report_chat(
        self, message_id: int, reporter_id: str, reporter_key: str, reason: str | None
    ) -> bool:
        """Keep a report of a chat message for the moderators; once per person and
        message (whether this one is new: a second report changes nothing).
        ``reporter_key``: who reported, as moderators count reporters
        (:attr:`ChatReport.reporter_key`)."""

        def q(s: Session) -> bool:
            found = s.execute(
                select(ChatReport.id).where(
                    ChatReport.message_id == message_id, ChatReport.reporter_id == reporter_id
                )
            ).first()
            if found is not None:
                return False
            s.add(
                ChatReport(
                    message_id=message_id,
                    reporter_id=reporter_id,
                    reporter_key=reporter_key,
                    reason=reason,
                    created_at=now(),
                )
            )
            return True

        try:
            return await self.run(q)
        except IntegrityError:  # the same report at the same moment: it is kept once
            return False

    async def chat_reports(self, message_id: int) -> list[dict[str, Any]]:
        """The reports of one chat message (for moderators, and tests)."""

        def q(s: Session) -> list[dict[str, Any]]:
            stmt = select(ChatReport).where(ChatReport.message_id == message_id)
            rows = s.execute(stmt.order_by(ChatReport.id)).scalars()
            return [{"reporter": r.reporter_id, "reason": r.reason} for r in rows]

        return await self.run(q)


@dataclass(frozen=True)
class _Write:
    """One action on its way to the database, with the deals it caused."""

    table_id: str
    index: int
    data: dict[str, Any]
    deals: tuple[tuple[int, dict[str, Any]], ...]
    fut: asyncio.Future[None]
    loop: asyncio.AbstractEventLoop
    #: the owner's fencing token the table must still have (None: a single node)
    fence: int | None = None


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


def _chat_json(row: ChatMessage) -> dict[str, Any]:
    """A stored chat message as the clients see it (docs/protocol.md, Chat)."""
    out: dict[str, Any] = {
        "id": row.id,
        "room": row.room,
        "player": row.player_id,
        "name": row.name,
        "seat": row.seat,
        "at": round(_aware(row.created_at).timestamp(), 3),
    }
    if row.event is not None:
        out["event"] = row.event
    elif row.phrase is not None:
        out["phrase"] = row.phrase
    else:
        out["text"] = row.text
    return out


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
