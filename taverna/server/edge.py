"""A node as the *edge* of sockets whose table another node owns (docs/scaling.md).

A player may connect to any node. The node that holds the socket sends the player's
messages to the table's owner through a :class:`Link`, and passes on what the owner
writes back. When the owner changes (it died, or let the table go) the edge finds the
new one and says hello again with the last update it passed on: the player sees a
pause, not a break.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .conns import Conn
from .leases import owner_of

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("taverna.cluster")

#: seconds an edge waits for the answer to a hello before it says it again
HELLO_AGAIN = 3.0


@dataclass(eq=False)
class Link:
    """An edge's end of a socket whose table another node owns: where its messages go,
    and the last update it passed on (to say hello again after a change of owner)."""

    id: str
    table_id: str
    conn: Conn
    player_id: str | None
    #: the lease (``"<node>|<token>"``) of the owner it talks to, None while it has none
    lease: str | None = None
    #: the last update passed on to the client (what it would ask for again)
    seq: int | None = None
    #: the socket's hello, to say again to a new owner (None: not said yet)
    hello: dict[str, Any] | None = None
    #: set when the table is this node's now: the socket loop takes it over locally
    local: asyncio.Event = field(default_factory=asyncio.Event)
    #: when a hello went to the owner that has not been answered yet (monotonic)
    asked_at: float | None = None


class Edge:
    """This node's links: the sockets it holds whose table another node owns."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        #: link id -> link
        self.links: dict[str, Link] = {}
        self._ids = itertools.count()
        #: the messages sent on to owners (for /api/health)
        self.forwarded = 0

    def link(self, table_id: str, conn: Conn, player_id: str | None) -> Link:
        """A new link for a socket at ``table_id``."""
        cluster = self.cluster
        link = Link(f"{cluster.node}:{cluster.run}:{next(self._ids)}", table_id, conn, player_id)
        self.links[link.id] = link
        return link

    def unlink(self, link: Link) -> None:
        """The socket closed (or its table is this node's now): its owner forgets it."""
        if self.links.pop(link.id, None) is not None and link.lease is not None:
            cluster = self.cluster
            cluster.post(
                owner_of(link.lease) or "",
                {
                    "kind": "in",
                    "from": cluster.node,
                    "run": cluster.run,
                    "link": link.id,
                    "table": link.table_id,
                    "leave": True,
                },
            )

    async def forward(self, link: Link, msg: dict[str, Any], arrived: float) -> bool:
        """Send a socket's message to its table's owner; False when the table is this
        node's now (the socket takes it over locally)."""
        if link.lease is None and not await self._attach(link):
            return False
        if msg.get("type") == "hello":
            link.hello = msg
            link.asked_at = time.monotonic()
        self.forwarded += 1
        cluster = self.cluster
        cluster.post(
            owner_of(link.lease) or "",
            {
                "kind": "in",
                "from": cluster.node,
                "run": cluster.run,
                "link": link.id,
                "table": link.table_id,
                "player": link.player_id,
                # the client's address: the owner counts its hints (thinking.ThinkingLimits)
                "address": link.conn.address,
                "lease": link.lease,
                "msg": msg,
                "waited": time.perf_counter() - arrived,
            },
        )
        return True

    def heard(self, msg: dict[str, Any]) -> None:
        """A message of an owner for a socket here (``out``): passed on as written."""
        link = self.links.get(msg["link"])
        if link is not None and msg.get("lease") == link.lease:
            link.asked_at = None
            if msg.get("seq") is not None:
                link.seq = msg["seq"]
            link.conn.send_text(msg["text"])

    async def _attach(self, link: Link) -> bool:
        """Find the owner of the link's table; False if it is this node (now)."""
        # as a new socket finds it: a table whose game ended (its owner let it go) is
        # shown by this node, not taken over (:meth:`RoomHub.locate`)
        where = await self.cluster.hub.locate(link.table_id)
        if not isinstance(where, str):
            link.local.set()
            return False
        link.lease = await self.cluster.lease(link.table_id)
        if owner_of(link.lease) == self.cluster.node or link.lease is None:
            return await self._attach(link)
        return True

    async def check(self) -> None:
        """Each link's owner still holds the lease; else find the new one and say hello
        again, asking for what the client has not had."""
        links = list(self.links.values())
        if not links:
            return
        leases = await self.cluster.leases_of([link.table_id for link in links])
        now = time.monotonic()
        for link, lease in zip(links, leases, strict=True):
            if link.lease is not None and lease == link.lease:
                if link.asked_at is not None and now - link.asked_at > HELLO_AGAIN:
                    # no welcome: the hello was lost on the way (its owner was taking the
                    # table over, or its subscription was renewing): say it again
                    again = {"type": "hello", "last_seq": link.seq if link.seq is not None else 0}
                    with contextlib.suppress(Exception):
                        await self.forward(link, again, time.perf_counter())
                continue
            if link.lease is None:
                continue
            log.info("table %s: its owner changed (%s -> %s)", link.table_id, link.lease, lease)
            link.lease = None
            if link.hello is None:
                continue
            again = {"type": "hello", "last_seq": link.seq if link.seq is not None else 0}
            with contextlib.suppress(Exception):
                if not await self.forward(link, again, time.perf_counter()):
                    continue  # the socket's loop takes the table over itself

    def tell_owners(self) -> None:
        """Tell each node that owns a table with a socket here that this node is alive:
        a person who thinks sends nothing for a while, and an owner that heard nothing
        would take this node for dead and its players for gone
        (:meth:`.owner.Owner.drop_gone_edges`)."""
        cluster = self.cluster
        for node in {owner_of(link.lease) for link in self.links.values() if link.lease}:
            if node is not None and node != cluster.node:
                cluster.post(node, {"kind": "alive", "from": cluster.node, "run": cluster.run})

    def cut_off(self) -> None:
        """Redis is away: no socket here can reach its table. Each is told the server is
        reconnecting, and comes back by itself."""
        for link in list(self.links.values()):
            self.links.pop(link.id, None)
            link.conn.send({"type": "closing", "reason": "restart"})
            link.conn.close_after(1012, "the server is reconnecting")
