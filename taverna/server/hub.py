"""The hub: every live table of this process, and what they share.

A :class:`RoomHub` finds a table's :class:`~.table.Room` (opened, resumed from its
record, or — several nodes — located on the node that owns it), feeds the lobby's
watchers, stops every table's timers while the database is away (:mod:`.outage`), and
stops the tables gracefully when the server stops. Its hooks (:meth:`RoomHub.before_start`,
:meth:`~RoomHub.on_finished`, :meth:`~RoomHub.on_replaced`) are where accounts hold and
settle the stakes (:class:`~.club.ClubHub`).

Several nodes (docs/scaling.md): the app gives the hub its part of the cluster
(:class:`~.cluster.Cluster`), which takes tables over and reaches the others' tables;
the hub asks it where a table lives and tells it what every node must hear.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..store.db import DATABASE_AWAY
from ..store.errors import Conflict
from ..store.repo import Store
from ..store.tables import TableInfo
from . import clock, outage
from .config import Config
from .conns import Conn, ProxyConn
from .guard import SocketCounts
from .metrics import Metrics
from .restore import Unresumable
from .table import Room
from .tasks import spawn
from .thinking import Thinkers, ThinkingLimits

if TYPE_CHECKING:
    from .botqueue import BotQueue
    from .cluster import Cluster

log = logging.getLogger("taverna.rooms")

#: seconds between two heartbeats of a node (a restart's timers are that precise)
HEARTBEAT = 1.0
#: seconds between two tries to reach the database while it is away
DATABASE_PROBE = 0.5
#: how often a start or a leave follows a table that moved to another node meanwhile
MOVED_TRIES = 5

#: a job the hub runs as long as it is open (the matchmaker, the tournaments' scheduler)
Job = Callable[["RoomHub"], Coroutine[Any, Any, None]]


class RoomHub:
    """Every live room of this process, plus lobby watchers and counters."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.lobby: set[Conn] = set()
        #: every figure of this node (/metrics); the live ones are read from this hub
        self.metrics = Metrics(config.node)
        self.metrics.watch(self)
        #: this node's own thinking processes: bots' decisions first, then hints, then
        #: reviews (taverna.server.thinking)
        self.thinkers = Thinkers(self.metrics, config.hint_queue)
        #: the hints and reviews one account and one address may ask for
        self.think_limits = ThinkingLimits(config.hint_limit_account, config.hint_limit_address)
        #: the strong bots' decisions queued for bot workers (a node with Redis)
        self.bot_queue: BotQueue | None = None
        self.set_aside = 0  # tables whose stored game could not be resumed
        self._lobby_pending = False
        #: when this node was last seen alive before it started (its previous run)
        self.stopped_at: datetime | None = None
        #: since when (monotonic) the database has not answered; None while it does
        self.database_down_since: float | None = None
        self.closing = False
        self.sockets = SocketCounts(config.sockets_per_address, config.sockets_per_session)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._recovering = asyncio.Lock()
        #: several nodes (docs/scaling.md): this node's part of the cluster (None: alone)
        self.cluster: Cluster | None = None
        #: moderators' bans and silences of the accounts connected here (moderation.py)
        self.restricted: dict[str, dict[str, Any]] = {}

    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            table = await self.store.table(table_id)
            room = self.rooms.get(table_id)
            if room is None:
                room = Room(table, self.store, self.config, self)
                self.rooms[table_id] = room
                try:
                    if table.status == "playing":
                        await self.resume_room(room)
                    elif table.status == "finished":
                        await self._reopen(room)
                except BaseException:
                    del self.rooms[table_id]  # the database failed: try again next time
                    raise
        return room

    async def _reopen(self, room: Room) -> None:
        """A finished table shows its last state to whoever opens it (after a restart too)."""
        try:
            room.install(*room.rebuild(await self.store.game_rows(room.table.id)))
        except Unresumable as e:
            room.log.error("its finished game does not replay: %s", e)

    async def open(self, cluster: Cluster | None = None, jobs: Iterable[Job] = ()) -> int:
        """Start the node: note when it last ran, resume every playing table, beat, and
        run ``jobs``. A node of a ``cluster`` resumes none itself: it takes over the
        tables nobody owns as it finds them (:class:`~.cluster.Cluster`)."""
        self.stopped_at = await self.store.heartbeat(self.config.node, starting=True)
        self.set_aside = len(await self.store.tables_set_aside())
        if cluster is not None:
            from .botqueue import BotQueue  # redis is imported only by a node that has it

            self.cluster = cluster
            await cluster.open()
            queue = BotQueue(cluster.url, self.config.node, self.metrics, self.config.bot_deadline)
            await queue.start()
            self.bot_queue = queue
            resumed = 0
        else:
            resumed = await self.resume_all()
        self._keep(self._heartbeat())
        for job in jobs:
            self._keep(job(self))
        return resumed

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, its failure logged (kept until it ends)."""
        self._keep(coro)

    # ------------------------------------------------------------ several nodes

    async def locate(self, table_id: str) -> Room | str:
        """Where a table lives: its room on this node, or (several nodes) the name of
        the node that owns it. Raises NotFound for a table that does not exist."""
        if self.cluster is None:
            return await self.room(table_id)
        table = await self.store.table(table_id)
        if table.status not in ("open", "playing"):
            return await self.room(table_id)  # finished or set aside: any node shows it
        return await self.cluster.locate(table_id)

    async def disown(self, table_id: str, *, reconnect: bool = False) -> None:
        """This node owns a table no more (its lease lapsed or was taken): its room stops
        here, and its sockets follow the table to its new owner — or, with
        ``reconnect`` (this node is cut off from Redis), are told to come back."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        room.closing = True
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if self.cluster is not None:
            self.cluster.let_go(room)  # its lease and its proxies: their edges find the owner
        for conn in list(room.conns):
            room.conns.discard(conn)
            if isinstance(conn, ProxyConn):
                continue
            if reconnect or conn.on_moved is None:
                conn.send({"type": "closing", "reason": "restart"})
                conn.close_after(1012, "the table moved to another server")
            else:
                conn.on_moved()
        room.log.warning("no longer this node's")

    async def refresh(self, table_id: str) -> None:
        """The table changed on another node (someone seated; a finished table's "play
        again"): say it here."""
        room = self.rooms.get(table_id)
        if room is not None and room.table.status in ("open", "finished"):
            room.table = await self.store.table(table_id)
            room.broadcast_table()

    def table_changed_anywhere(self, table: TableInfo) -> None:
        """A finished table changed (its players are offered to play again): its room
        says so on this node, and every other node's too."""
        room = self.rooms.get(table.id)
        if room is not None and room.table.status == "finished":
            room.table.again = table.again
            room.broadcast_table()
        if self.cluster is not None:
            self.cluster.publish_lobby({"kind": "refresh", "table": table.id})

    async def start_table(self, table_id: str, table: TableInfo) -> dict[str, Any]:
        """Start a table (its first deal) wherever it lives; the table as it is then."""
        for _ in range(MOVED_TRIES):
            where = await self.locate(table_id)
            if isinstance(where, str):
                answer = await self._ask(where, "start", table=table_id)
                if answer is not None:
                    return answer
                continue  # it moved on meanwhile: look again
            where.table = table
            await where.start()
            return where.table.public()
        raise Conflict(f"table {table_id} keeps moving between nodes: try again", "moved")

    async def leave_game(self, table_id: str, seat: int) -> TableInfo:
        """A player leaves a running game: a bot takes the seat, wherever it lives."""
        for _ in range(MOVED_TRIES):
            where = await self.locate(table_id)
            if isinstance(where, str):
                if await self._ask(where, "leave", table=table_id, seat=seat) is None:
                    continue
                return await self.store.table(table_id)
            await where.replace_with_bot(seat, reason="left")
            return where.table
        raise Conflict(f"table {table_id} keeps moving between nodes: try again", "moved")

    async def _ask(self, node: str, op: str, **args: Any) -> dict[str, Any] | None:
        """Have ``node``, the owner of a table, do ``op`` (:meth:`.cluster.Cluster.ask`)."""
        assert self.cluster is not None  # another node owns a table only in a cluster
        return await self.cluster.ask(node, op, **args)

    def table_changed(self, table: TableInfo) -> None:
        """An open table's seats changed: its room says so, wherever it lives."""
        room = self.rooms.get(table.id)
        if room is not None and room.table.status == "open":
            room.table = table
            room.broadcast_table()
        elif self.cluster is not None:
            self.cluster.publish_lobby({"kind": "refresh", "table": table.id})
        self.lobby_changed()

    async def options_changed(self, table: TableInfo) -> None:
        """A table's options changed (the host turned its chat off or on): its room takes
        them and says so, wherever it lives."""
        if self.cluster is not None and table.status in ("open", "playing"):
            where = await self.locate(table.id)
            if isinstance(where, str):
                await self._ask(where, "options", table=table.id)
                return
        room = self.rooms.get(table.id)
        if room is not None:
            room.table.options = dict(table.options)
            room.broadcast_table()
        if self.cluster is not None and table.status not in ("open", "playing"):
            self.cluster.publish_lobby({"kind": "refresh", "table": table.id})

    async def resume_all(self) -> int:
        """Resume every playing table; one that cannot be is set aside, and the rest go on."""
        resumed = 0
        for t in await self.store.playing_tables():
            if t.id not in self.rooms:
                room = Room(t, self.store, self.config, self)
                self.rooms[t.id] = room
                resumed += await self.resume_room(room)
        return resumed

    async def resume_room(self, room: Room) -> bool:
        """Resume a playing table from its record; one that cannot be is set aside (and
        False)."""
        try:
            await room.resume(self.stopped_at)
            return True
        except Unresumable as e:
            why = str(e)
        except DATABASE_AWAY:
            raise  # not the table's fault: it is resumed when the database answers
        except Exception as e:  # a bug must not stop the club either; its trace is logged
            room.log.exception("resuming it failed")
            why = f"resuming it failed: {type(e).__name__}: {e}"
        room.log.error("set aside: %s", why)
        room.state = None
        room.table.status = "set_aside"
        room.table.problem = why
        self.set_aside += 1
        await self.store.set_aside(room.table.id, why)
        return False

    async def _heartbeat(self) -> None:
        while not self.closing:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.store.heartbeat(self.config.node)
            except Exception:
                self.database_lost()

    def _keep(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = spawn(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------ database away

    def database_lost(self) -> None:
        """A read or write failed: stop every table's timers until the database answers."""
        if self.database_down_since is not None or self.closing:
            return
        self.database_down_since = time.monotonic()
        log.warning("the database is not answering: tables wait, timers stopped")
        for room in self.rooms.values():
            outage.pause(room)
        self._keep(self._wait_for_database())

    async def _wait_for_database(self) -> None:
        while not self.closing and not await self.recover():
            await asyncio.sleep(DATABASE_PROBE)

    async def recover(self) -> bool:
        """Whether the database answers; if it is back, every table goes on first."""
        since = self.database_down_since
        if since is None:
            return True
        if self.closing or not await self.store.ping(timeout=DATABASE_PROBE):
            return False
        async with self._recovering:
            if self.database_down_since is None:
                return True  # another caller got there first
            away_for = time.monotonic() - since
            self.database_down_since = None
            log.warning("the database answers again after %.1f s: tables go on", away_for)
            for room in list(self.rooms.values()):
                await outage.unpause(room, away_for)
        self.lobby_changed()
        return True

    # ------------------------------------------------------------ stopping

    async def begin_shutdown(self) -> None:
        """A graceful stop: no more moves, every move under way stored, each table's
        timers kept, and every connection told that the server is restarting."""
        self.closing = True
        for room in self.rooms.values():
            room.closing = True
            if room.timer is not None:
                room.timer.cancel()
        for room in list(self.rooms.values()):
            async with room.lock:  # a move being stored finishes first
                pass
        clocks = {
            tid: clock.saved(r) for tid, r in self.rooms.items() if r.table.status == "playing"
        }
        try:
            await self.store.save_clocks(clocks)
            await self.store.heartbeat(self.config.node)
        except Exception:
            log.warning("could not store the timers before stopping", exc_info=True)
        if self.cluster is not None:
            # the other nodes take the tables over now, with the timers just stored
            await self.cluster.close()
        conns = list(self.lobby) + [
            c for r in self.rooms.values() for c in r.conns if not isinstance(c, ProxyConn)
        ]
        for c in conns:
            c.send({"type": "closing", "reason": "restart"})
        # let the pumps say it before the sockets close
        for _ in range(50):
            if all(c.queue.empty() for c in conns):
                break
            await asyncio.sleep(0.02)

    def tables_live(self) -> int:
        """Tables of this node being played (started, not over)."""
        return sum(1 for r in self.rooms.values() if r.state is not None and not r.state.over)

    def connections(self) -> int:
        return len(self.lobby) + sum(len(r.conns) for r in self.rooms.values())

    def renamed(self, player_id: str, name: str, *, local: bool = False) -> None:
        """A player's name changed (a guest who registered): live tables say the new one
        (on every node; ``local``: on this one, told by another)."""
        if self.cluster is not None and not local:
            self.cluster.publish_lobby({"kind": "renamed", "player": player_id, "name": name})
            return  # this node hears it too
        for room in self.rooms.values():
            seats = [s for s in room.table.seats if s.player_id == player_id]
            for seat in seats:
                seat.player_name = name
            if seats:
                room.broadcast_table()
        self.lobby_changed()

    def lobby_changed(self, *, local: bool = False) -> None:
        """Tell lobby watchers soon (changes within 0.2 s are sent once), on every node
        (``local``: on this one, told by another)."""
        if self.cluster is not None and not local:
            self.cluster.publish_lobby({"kind": "lobby"})
            return  # this node hears it too
        if self._lobby_pending or not self.lobby:
            return
        self._lobby_pending = True
        asyncio.get_running_loop().call_later(0.2, lambda: spawn(self._send_lobby()))

    async def _send_lobby(self) -> None:
        self._lobby_pending = False
        try:
            tables = await self.store.tables(("open", "playing"))
        except Exception:
            self.database_lost()  # the lobby hears again once the database is back
            return
        msg = {
            "type": "tables",
            "tables": [t.public() for t in tables if t.options.get("public", True)],
        }
        for conn in list(self.lobby):
            conn.send(msg)

    # hooks for accounts and rankings (see taverna.server.club.ClubHub)
    async def before_start(self, table: TableInfo) -> None:
        """Before the first deal; raise Conflict to refuse the start."""

    async def on_finished(self, table: TableInfo, result: dict[str, Any]) -> None:
        """The game is over; runs before the result is stored and may add to it."""

    async def on_replaced(self, table: TableInfo, seat: int, reason: str) -> None:
        """A bot took a human's seat for good (``reason``: left or disconnected)."""

    def close(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        if self.cluster is not None:
            self.cluster.stop()
        for room in self.rooms.values():
            room.close()
        if self.bot_queue is not None:
            spawn(self.bot_queue.close())
        self.thinkers.close()
