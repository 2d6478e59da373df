"""Several nodes (docs/scaling.md): who owns which table, and how the others reach it.

Nodes share the database and a Redis. Each running table is owned by one node at a
time: a lease in Redis (:mod:`.leases`) whose token comes from a counter that only
grows. The owner stores the token as the table's fence in the
database, and every write of the table's game checks it in its own transaction
(``Store.append_action(fence=)``): a node that lost its lease — paused, cut off from
Redis — can store nothing more, and no move is stored twice or by two owners.

A player may connect to any node. The node that holds the socket (the *edge*) sends
the player's messages to the owner, and the owner answers through a *proxy*
connection in its room, which writes each message, cut for that seat by the owner
itself, to the edge (``taverna:node:<node>``, Redis pub/sub). When the owner dies,
the edge notices the lease change, finds (or becomes) the new owner and says hello
again with the last update it passed on: the player sees a pause, not a break.

:class:`Cluster` is this node's part: its leases, its messages to and from the other
nodes, and the calls it makes; as an edge (:mod:`.edge`) and as an owner
(:mod:`.owner`) it does the rest. Without Redis none of this exists: one node serves
the club as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
import time
import uuid
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from ..store.errors import Conflict
from .chat import heard_elsewhere
from .edge import Edge
from .leases import (
    ACQUIRE,
    BATCH,
    LEASE_MS,
    LOBBY_CHANNEL,
    NODES_KEY,
    RAISE,
    RELEASE,
    RENEW,
    RENEW_MANY,
    RENEW_SECONDS,
    SCAN_SECONDS,
    fence_key,
    lease_key,
    node_channel,
    owner_of,
)
from .owner import Owner
from .restrictions import restricted
from .table import Room
from .tasks import spawn

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from .hub import RoomHub

log = logging.getLogger("taverna.cluster")


class Cluster:
    """This node's part of a cluster: its leases, its messages, its links and proxies."""

    def __init__(self, url: str, node: str, hub: RoomHub) -> None:
        import redis.asyncio as aioredis  # only a node of a cluster needs Redis

        self.url = url
        self.node = node
        self.hub = hub
        self.redis: Redis = aioredis.Redis.from_url(
            url, decode_responses=True, socket_timeout=2, socket_connect_timeout=2
        )
        # what it hears: a connection of its own that waits as long as the channels are
        # quiet (a read timeout would drop the subscription, and messages with it), and
        # pings now and then to find out that Redis went away
        self.listener: Redis = aioredis.Redis.from_url(
            url, decode_responses=True, socket_connect_timeout=2, health_check_interval=5
        )
        self._acquire = self.redis.register_script(ACQUIRE)
        self._renew = self.redis.register_script(RENEW)
        self._renew_many = self.redis.register_script(RENEW_MANY)
        self._release = self.redis.register_script(RELEASE)
        self._raise = self.redis.register_script(RAISE)
        #: table id -> this node's lease value, for the tables it owns
        self.leases: dict[str, str] = {}
        #: when this node's leases were last renewed (monotonic): past a lease's length
        #: without Redis, none of them is this node's any more
        self.renewed_at = time.monotonic()
        self._ids = itertools.count()
        #: this run of the node: a node killed and started again under its name counts
        #: its sockets anew, and an owner must never take a socket of this run for one
        #: of a run before (:meth:`.owner.Owner.heard_from`); its links' ids and
        #: messages carry it
        self.run = uuid.uuid4().hex[:8]
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._calls: dict[str, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.closing = False
        #: the sockets held here whose table another node owns
        self.edge = Edge(self)
        #: the tables this node owns: takeovers, other nodes' sockets, calls
        self.owner = Owner(self)

    # ------------------------------------------------------------- lifecycle

    async def open(self) -> None:
        """Reach Redis (or raise), then listen, renew and scan."""
        await self.redis.ping()
        await self._beat()
        listening = asyncio.Event()
        self._keep(self._listen(listening))
        await listening.wait()
        self._keep(self._send_loop())
        self._keep(self._renewer())
        self._keep(self._keeper())
        log.info("node %s joined the cluster at %s", self.node, self.url)

    def _keep(self, coro: Awaitable[Any]) -> None:
        task = spawn(coro)  # type: ignore[arg-type]
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def stop(self) -> None:
        """Stop at once (the app ends): no lease given up, they lapse."""
        self.closing = True
        for task in list(self._tasks):
            task.cancel()

    async def close(self) -> None:
        """A graceful stop: give every lease up at once, so that another node takes the
        tables over now rather than when the leases run out."""
        self.closing = True
        with contextlib.suppress(Exception):
            for table_id, value in list(self.leases.items()):
                await self._release(keys=[lease_key(table_id)], args=[value])
            await self.redis.zrem(NODES_KEY, self.node)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
            await self.listener.aclose()

    # ------------------------------------------------------------- ownership

    def owns(self, table_id: str) -> bool:
        return table_id in self.leases

    def token(self, table_id: str) -> int | None:
        """This node's fencing token for a table it owns."""
        value = self.leases.get(table_id)
        return int(value.rpartition("|")[2]) if value else None

    async def acquire(self, table_id: str) -> int | None:
        """Take a table nobody holds: its token, or None if another node holds it."""
        token = await self._acquire(
            keys=[lease_key(table_id), fence_key(table_id)], args=[self.node, LEASE_MS]
        )
        if token is None:
            return None
        self.leases[table_id] = f"{self.node}|{token}"
        return int(token)

    async def raise_fence(self, table_id: str, at_least: int) -> None:
        """The table's next token beyond ``at_least`` (the database's fence)."""
        await self._raise(keys=[fence_key(table_id)], args=[at_least])

    def forget(self, table_id: str) -> None:
        """This node no longer owns a table (its lease lapsed, or another node has it)."""
        self.leases.pop(table_id, None)

    def let_go(self, room: Room) -> None:
        """A room this node disowned: its lease forgotten, and the other nodes' sockets
        at it (their edges find the new owner)."""
        self.forget(room.table.id)
        self.owner.drop(room.conns)

    async def give_up(self, table_id: str) -> None:
        value = self.leases.pop(table_id, None)
        if value is not None:
            with contextlib.suppress(Exception):
                await self._release(keys=[lease_key(table_id)], args=[value])

    async def hold(self, key: str, ttl: float) -> bool:
        """Hold a lease of this node's own (a job one node at a time does, such as the
        tournaments' scheduler): taken if nobody holds it, renewed if this node does;
        whether this node holds it now, for ``ttl`` seconds."""
        ms = int(ttl * 1000)
        if await self.redis.set(key, self.node, nx=True, px=ms):
            return True
        return bool(await self._renew(keys=[key], args=[self.node, ms]))

    async def leases_of(self, table_ids: list[str]) -> list[str | None]:
        """Each table's lease value (None: nobody holds it), in one ``MGET`` a
        :data:`BATCH`."""
        values: list[str | None] = []
        for i in range(0, len(table_ids), BATCH):
            values += await self.redis.mget([lease_key(t) for t in table_ids[i : i + BATCH]])
        return values

    async def lease(self, table_id: str) -> str | None:
        value = await self.redis.get(lease_key(table_id))
        return None if value is None else str(value)

    async def locate(self, table_id: str) -> Room | str:
        """Where a table lives: its room here (taken over now if nobody owned it), or
        the name of the node that owns it."""
        for _ in range(50):
            room = self.hub.rooms.get(table_id)
            if room is not None and self.owns(table_id):
                return room
            if await self.owner.adopted(table_id):
                continue  # this node was taking it over: look again
            value = await self.lease(table_id)
            owner = owner_of(value)
            if owner is not None and owner != self.node:
                return owner
            if owner is None:
                adopted = await self.owner.adopt(table_id)
                if adopted is not None:
                    return adopted
            await asyncio.sleep(0.1)  # another node is taking it over: ask again
        raise RuntimeError(f"table {table_id}: no node could take it")

    async def _renewer(self) -> None:
        """Renew this node's leases and say it is alive (to every node, and to the owners
        of its sockets' tables), and nothing else: a task of its own, so that no
        takeover, scan or slow answer elsewhere delays a renewal past the lease (a node
        busy taking tables over lost every table it had)."""
        while not self.closing:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self._renew_all()
                await self._beat()
                self.renewed_at = time.monotonic()
                self.edge.tell_owners()
            except Exception:
                log.warning("node %s: Redis does not answer", self.node)
                if time.monotonic() - self.renewed_at > LEASE_MS / 1000 * 0.8:
                    await self._lost_everything()

    async def _keeper(self) -> None:
        """Take over tables nobody owns, and keep each link talking to its table's
        owner, while Redis answers the renewals."""
        while not self.closing:
            await asyncio.sleep(SCAN_SECONDS)
            if time.monotonic() - self.renewed_at > 2 * RENEW_SECONDS + 1:
                continue  # Redis is away (the renewer says what it does about it)
            with contextlib.suppress(Exception):
                await self._scan()
                await self.edge.check()
            self.owner.drop_gone_edges()

    async def _renew_all(self) -> None:
        if not self.leases:
            return
        items = list(self.leases.items())
        answers: list[Any] = []
        for i in range(0, len(items), BATCH):
            chunk = items[i : i + BATCH]
            answers += await self._renew_many(
                keys=[lease_key(t) for t, _ in chunk], args=[*(v for _, v in chunk), LEASE_MS]
            )
        for (table_id, value), ok in zip(items, answers, strict=True):
            if not ok and self.leases.get(table_id) == value:
                log.warning("table %s: its lease is gone; another node may own it now", table_id)
                self.forget(table_id)
                await self.hub.disown(table_id)

    async def _lost_everything(self) -> None:
        """Redis has not answered for most of a lease: none of this node's tables is its
        own any more (another node may take them over), so it stores nothing more, and
        no socket here can reach its table. Every player is told the server is
        reconnecting and comes back by itself (docs/protocol.md, ``closing``), to find
        the table again once Redis answers."""
        if not self.leases and not self.edge.links:
            return
        log.warning(
            "node %s: cut off from Redis; giving up %d table(s) and %d socket(s)",
            self.node,
            len(self.leases),
            len(self.edge.links),
        )
        for table_id in list(self.leases):
            self.forget(table_id)
            await self.hub.disown(table_id, reconnect=True)
        self.edge.cut_off()

    async def _beat(self) -> None:
        await self.redis.zadd(NODES_KEY, {self.node: time.time()})

    async def nodes(self) -> dict[str, float]:
        """Every node seen lately, with when (Unix time)."""
        seen: list[Any] = await self.redis.zrangebyscore(
            NODES_KEY, time.time() - 30, "+inf", withscores=True
        )
        return {str(name): float(score) for name, score in seen}

    async def _scan(self) -> None:
        """Take over the tables nobody owns (their owner died, or stopped), a few at a
        time and after a pause that grows with what this node owns already, so that
        the nodes share them."""
        tables = await self.hub.store.table_ids(("open", "playing"))
        if not tables:
            return
        held = await self.leases_of(tables)
        orphans = [t for t, h in zip(tables, held, strict=True) if h is None]
        if not orphans:
            return
        random.shuffle(orphans)
        await asyncio.sleep(random.random() * 0.2 + min(1.0, len(self.leases) / 500))
        for table_id in orphans[:50]:
            await self.owner.adopt(table_id)

    # -------------------------------------------------------------- messages

    def post(self, node: str, payload: dict[str, Any]) -> None:
        """Send a message to a node (in order, without waiting)."""
        self._outbox.put_nowait((node_channel(node), json.dumps(payload, separators=(",", ":"))))

    def publish_lobby(self, payload: dict[str, Any]) -> None:
        self._outbox.put_nowait((LOBBY_CHANNEL, json.dumps(payload, separators=(",", ":"))))

    async def _send_loop(self) -> None:
        while not self.closing:
            first = await self._outbox.get()
            batch = [first]
            while not self._outbox.empty() and len(batch) < 500:
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except Exception:
                log.warning(
                    "node %s: %d message(s) not sent: Redis does not answer", self.node, len(batch)
                )

    async def _listen(self, ready: asyncio.Event) -> None:
        while not self.closing:
            try:
                pubsub = self.listener.pubsub()
                await pubsub.subscribe(node_channel(self.node), LOBBY_CHANNEL)
                ready.set()
                async for message in pubsub.listen():
                    if message.get("type") != "message":
                        continue
                    try:
                        await self._receive(json.loads(message["data"]))
                    except Exception:
                        log.exception("node %s: a cluster message failed", self.node)
            except asyncio.CancelledError:
                raise
            except Exception:
                ready.set()
                log.warning("node %s: listening on Redis failed; again in a moment", self.node)
                await asyncio.sleep(0.5)

    async def _receive(self, msg: dict[str, Any]) -> None:
        kind = msg.get("kind")
        sender = str(msg.get("from") or "")
        if sender:
            run = msg.get("run")
            self.owner.heard_from(sender, None if run is None else str(run))
        if kind == "out":  # edge side: a message of the owner for a socket here
            self.edge.heard(msg)
        elif kind == "in":  # owner side: a socket's message, from its edge
            self.owner.in_lane(sender, msg)
        elif kind == "alive":  # owner side: an edge with sockets here, heard (above)
            pass
        elif kind == "call":
            self._keep(self._answer_call(sender, msg))
        elif kind == "reply":
            fut = self._calls.pop(msg["id"], None)
            if fut is not None and not fut.done():
                fut.set_result(msg)
        elif kind == "lobby":
            self.hub.lobby_changed(local=True)
        elif kind == "renamed":
            self.hub.renamed(msg["player"], msg["name"], local=True)
        elif kind == "refresh":
            await self.hub.refresh(msg["table"])
        elif kind == "chat":  # a finished table's chat, said on another node
            heard_elsewhere(self.hub, msg)
        elif kind == "restrict":  # a moderator's ban or silence, made on another node
            restricted(self.hub, msg["player"], msg["told"], local=True)

    async def health(self) -> dict[str, Any]:
        """What /api/health says of this node's part of the cluster."""
        try:
            nodes = await self.nodes()
            redis = "ok"
        except Exception:
            nodes, redis = {}, "unavailable"
        return {
            "redis": redis,
            "tables_owned": len(self.leases),
            "lease_seconds": LEASE_MS / 1000,
            "renewed_seconds_ago": round(time.monotonic() - self.renewed_at, 1),
            "links": len(self.edge.links),
            "proxies": len(self.owner.proxies),
            "intents_forwarded": self.edge.forwarded,
            "takeovers": self.owner.takeovers,
            "nodes": sorted(nodes),
        }

    # ----------------------------------------------------------------- calls

    async def call(self, node: str, op: str, **args: Any) -> dict[str, Any]:
        """Ask the owner of a table to do something (start it, give a seat to a bot):
        its answer, ``{"ok": ..., "table" or "error": ...}``."""
        call_id = f"{self.node}:{next(self._ids)}"
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = fut
        self.post(node, {"kind": "call", "from": self.node, "id": call_id, "op": op, "args": args})
        try:
            answer: dict[str, Any] = await asyncio.wait_for(fut, timeout=10)
            return answer
        finally:
            self._calls.pop(call_id, None)

    async def _answer_call(self, sender: str, msg: dict[str, Any]) -> None:
        handler = self.owner.handler(msg.get("op"))
        if handler is None:
            answer: dict[str, Any] = {"ok": False, "error": {"message": "unknown call"}}
        else:
            try:
                answer = await handler(**msg.get("args", {}))
            except Exception as e:
                answer = {
                    "ok": False,
                    "error": {
                        "message": str(e),
                        "code": getattr(e, "code", "conflict"),
                        "params": getattr(e, "params", {}),
                    },
                }
        self.post(sender, {"kind": "reply", "from": self.node, "id": msg["id"], **answer})

    async def ask(self, node: str, op: str, **args: Any) -> dict[str, Any] | None:
        """Have ``node``, the owner of a table, do ``op`` (:meth:`call`); the table as it
        is then, or None if that node does not own it any more (the caller looks for it
        again). Conflict if the owner refused."""
        answer = await self.call(node, op, **args)
        if not answer.get("ok"):
            err = answer.get("error") or {}
            if err.get("code") == "moved":
                return None
            raise Conflict(
                err.get("message", "refused"), err.get("code", "conflict"), **err.get("params", {})
            )
        table: dict[str, Any] = answer["table"]
        return table
