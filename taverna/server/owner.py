"""A node as the owner of tables (docs/scaling.md): tables it takes over, the sockets
other nodes hold at them, and what other nodes ask of them.

- **Takeover.** A table nobody owns (its owner died, or let it go) is taken by the
  first node that finds it: its lease and fencing token, the token stored, its room
  resumed from the stored record with the timers its last owner left
  (:meth:`Owner.adopt`).
- **Proxies.** A socket another node (its *edge*) holds is a
  :class:`~.conns.ProxyConn` in the room: its messages come in order, each socket's
  after its own (:meth:`Owner.in_lane`), and are answered as a local socket's are
  (:func:`~.table_messages.table_message`). An edge not heard from for a while
  (:data:`EDGE_GONE_SECONDS`), or heard from in a new run, lost its sockets: their
  players are away.
- **Calls.** Another node asks the owner to start a table, give a seat to a bot, or
  take new options (:meth:`Owner.handler`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..store.errors import Conflict
from ..store.fencing import Fenced
from .conns import Conn, ProxyConn
from .leases import LEASE_MS
from .restore import Unresumable
from .table import Room
from .table_messages import table_message

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("taverna.cluster")

#: seconds an owner waits for an edge that said nothing before it drops its proxies (an
#: edge says it is alive to each owner it has sockets with every second)
EDGE_GONE_SECONDS = LEASE_MS / 1000 + 2


class Owner:
    """This node's side as the owner of tables: takeovers, proxies, calls answered."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self.hub = cluster.hub
        #: link id -> (edge node, proxy connection in a room)
        self.proxies: dict[str, tuple[str, Conn]] = {}
        #: when each edge node was last heard from (monotonic), and its run then
        self.edges_seen: dict[str, float] = {}
        self.edge_runs: dict[str, str] = {}
        #: each edge socket's messages, one after the other: link id -> its last task
        self._lanes: dict[str, asyncio.Future[None]] = {}
        #: the takeovers under way: table id -> the room it gives (None: another node's)
        self._adopting: dict[str, asyncio.Future[Room | None]] = {}
        #: the tables taken over (for /api/health)
        self.takeovers = 0

    # ------------------------------------------------------------- takeover

    async def adopt(self, table_id: str) -> Room | None:
        """Take over a table nobody owns: its lease, its fencing token stored, its room
        resumed from the stored record with the timers its last owner left. None if
        another node got it first."""
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = fut
        try:
            room = await self._adopt(table_id)
            fut.set_result(room)
            return room
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: the caller raises it
            raise
        finally:
            del self._adopting[table_id]

    async def adopted(self, table_id: str) -> bool:
        """Wait for this node's takeover of a table, if one is under way (whether it is)."""
        pending = self._adopting.get(table_id)
        if pending is None:
            return False
        with contextlib.suppress(Exception):
            await asyncio.shield(pending)
        return True

    async def _adopt(self, table_id: str) -> Room | None:
        cluster, hub = self.cluster, self.hub
        for _ in range(2):
            token = await cluster.acquire(table_id)
            if token is None:
                return None
            try:
                previous = await hub.store.claim(table_id, token, hub.config.node)
                table = await hub.store.table(table_id)
                break
            except Fenced as e:
                await cluster.give_up(table_id)
                if e.stored is None:
                    return None
                # the database has seen a newer token than Redis hands out (Redis lost
                # its data): count on from the stored one, and take the table again
                await cluster.raise_fence(table_id, e.stored)
            except BaseException:
                await cluster.give_up(table_id)
                raise
        else:
            return None
        if table.status not in ("open", "playing"):
            await cluster.give_up(table_id)
            return await hub.room(table_id)
        room = Room(table, hub.store, hub.config, hub)
        room.fence = token
        if table.status == "playing":
            # the timers go on from when the last owner was last seen alive
            stopped = await hub.store.last_seen(previous) if previous else None
            try:
                await room.resume(stopped)
            except Unresumable:
                await hub.resume_room(room)  # set aside, said once
        # only now: whoever finds the room finds it whole
        hub.rooms[table_id] = room
        self.takeovers += 1
        room.log.info("taken over (token %d, from %s)", token, previous or "nobody")
        return room

    # -------------------------------------------------------------- proxies

    def in_lane(self, edge: str, msg: dict[str, Any]) -> None:
        """Handle a socket's message after the ones before it from that socket, and
        beside every other socket's: a move being stored holds up only its own socket."""
        link_id = msg["link"]
        before = self._lanes.get(link_id)

        async def run() -> None:
            if before is not None:
                with contextlib.suppress(BaseException):
                    await before
            try:
                await self._from_edge(edge, msg)
            except Exception:
                log.exception("table %s: a message of %s failed", msg.get("table"), edge)
            finally:
                if self._lanes.get(link_id) is lane:
                    del self._lanes[link_id]

        lane = asyncio.ensure_future(run())
        self._lanes[link_id] = lane

    async def _from_edge(self, edge: str, msg: dict[str, Any]) -> None:
        """A message of a socket another node holds, for a table this node owns."""
        cluster, hub = self.cluster, self.hub
        link_id, table_id = msg["link"], msg["table"]
        await self.adopted(table_id)  # a takeover under way ends first
        if msg.get("leave"):
            found = self.proxies.pop(link_id, None)
            room = hub.rooms.get(table_id)
            if found is not None and room is not None:
                room.leave(found[1])
            return
        room = hub.rooms.get(table_id)
        lease = cluster.leases.get(table_id)
        if room is None or lease is None or msg.get("lease") != lease:
            return  # not this node's (any more): the edge finds the owner
        known = self.proxies.get(link_id)
        if known is None:
            player = msg.get("player")
            proxy = ProxyConn(
                ws=None,  # type: ignore[arg-type]
                seat=room.seat_of(player),
                player_id=player,
                table=table_id,
                metrics=hub.metrics,
                address=msg.get("address"),
                link=link_id,
                edge=edge,
                lease=lease,
                post=cluster.post,
            )
            self.proxies[link_id] = (edge, proxy)
        else:
            proxy = known[1]  # type: ignore[assignment]
        arrived = time.perf_counter() - float(msg.get("waited", 0))
        proxy.joined = await table_message(room, proxy, msg["msg"], proxy.joined, arrived)

    def drop(self, conns: Iterable[Conn]) -> None:
        """Forget the proxies among ``conns`` (their table is not this node's any more:
        their edges find the new owner)."""
        gone = set(conns)
        for link_id, (_, conn) in list(self.proxies.items()):
            if conn in gone:
                del self.proxies[link_id]

    def _left(self, conn: Conn) -> None:
        """A proxy's socket is gone: its player is away, as when a socket closes."""
        for room in self.hub.rooms.values():
            if conn in room.conns:
                room.leave(conn)

    def heard_from(self, edge: str, run: str | None) -> None:
        """A message of ``edge`` (its ``run`` if it said one): alive, and the sockets of
        its runs before (a node that died and came back under its name) died with them."""
        self.edges_seen[edge] = time.monotonic()
        if run is None or self.edge_runs.get(edge) == run:
            return
        self.edge_runs[edge] = run
        this_run = f"{edge}:{run}:"
        for link_id, (node, conn) in list(self.proxies.items()):
            if node == edge and not link_id.startswith(this_run):
                self.proxies.pop(link_id, None)
                self._left(conn)

    def drop_gone_edges(self) -> None:
        """Forget the sockets of edges not heard from for a while (a node that died):
        their players are away, as when a socket closes."""
        now = time.monotonic()
        for link_id, (edge, conn) in list(self.proxies.items()):
            gone = now - self.edges_seen.get(edge, now) > EDGE_GONE_SECONDS
            if edge != self.cluster.node and gone:
                self.proxies.pop(link_id, None)
                self._left(conn)

    # ---------------------------------------------------------------- calls

    def handler(self, op: Any) -> Callable[..., Awaitable[dict[str, Any]]] | None:
        """What answers a call another node makes (None: no such call)."""
        calls: dict[str, Callable[..., Awaitable[dict[str, Any]]]] = {
            "start": self._start,
            "leave": self._leave,
            "options": self._options,
        }
        return calls.get(op) if isinstance(op, str) else None

    async def _owned_room(self, table: str) -> Room:
        """This node's room of a table another node asked about: waited for if this node
        is taking the table over (its lease is there before its room is); Conflict
        "moved" if it lives elsewhere."""
        where = await self.hub.locate(table)
        if not isinstance(where, Room):
            raise Conflict(f"table {table} is not on this node", "moved")
        return where

    async def _start(self, table: str) -> dict[str, Any]:
        room = await self._owned_room(table)
        room.table = await self.hub.store.table(table)
        await room.start()
        return {"ok": True, "table": room.table.public()}

    async def _leave(self, table: str, seat: int) -> dict[str, Any]:
        room = await self._owned_room(table)
        await room.replace_with_bot(seat, reason="left")
        return {"ok": True, "table": room.table.public()}

    async def _options(self, table: str) -> dict[str, Any]:
        room = await self._owned_room(table)
        room.table.options = (await self.hub.store.table(table)).options
        room.broadcast_table()
        return {"ok": True, "table": room.table.public()}
