"""A WebSocket as a table or the lobby sees it: :class:`Conn`, which queues what is
written to it and sends it in order, and :class:`ProxyConn`, a socket another node holds
(several nodes, docs/scaling.md)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from .logs import TableLog
from .metrics import Metrics

log = logging.getLogger("taverna.rooms")


@dataclass(eq=False)
class Conn:
    """One WebSocket: a seat's player or a spectator (seat None).

    Messages are written once, as JSON text (ASCII: a lone surrogate in a name travels
    escaped rather than breaking the sender), and queued for :meth:`pump`. What is
    queued is bounded in bytes: a client that does not read is cut loose (1008) rather
    than grow the server without bound.
    """

    ws: WebSocket
    seat: int | None
    player_id: str | None
    #: the most bytes waiting to be sent to this client
    limit: int = 4 << 20
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    queued: int = 0
    cut: bool = False
    #: the table it is a connection of (None: the lobby's), for the log
    table: str | None = None
    #: the node's figures: messages written, a client cut off for not reading
    metrics: Metrics | None = None
    #: the close to send once what is queued is sent (:meth:`close_after`)
    farewell: tuple[int, str] | None = None
    #: the last update (or welcome) sent: what the client would ask for again
    seq: int | None = None
    #: called when the table moves to another node (several nodes: the socket's
    #: session follows it, docs/scaling.md)
    on_moved: Callable[[], None] | None = None
    #: when (monotonic) this connection last asked for a hint (a search costs CPU)
    hinted_at: float | None = None
    #: the client's address (its proxy's header when trusted), for the limits of an
    #: address across its sockets; None when not known (another node's socket)
    address: str | None = None

    @property
    def socket(self) -> str:
        """Which socket this is: a table's or the lobby's."""
        return "lobby" if self.table is None else "table"

    def send(self, msg: dict[str, Any]) -> None:
        if self.cut or self.farewell is not None:
            return
        if msg["type"] in ("update", "welcome"):
            self.seq = msg["seq"]
        self.send_text(json.dumps(msg, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a message already written (one its table's owner wrote, on another node)."""
        if self.cut or self.farewell is not None:
            return
        if self.queued + len(text) > self.limit:
            self.cut = True
            if self.metrics is not None:
                self.metrics.connections_refused.labels(limit="queue").inc()
            self.queue.put_nowait(None)
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    def close_after(self, code: int, reason: str) -> None:
        """Close once every message queued so far is sent; nothing sent later is."""
        if self.cut or self.farewell is not None:
            return
        self.farewell = (code, reason)
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        sent = None if self.metrics is None else self.metrics.sent[self.socket]
        try:
            while True:
                text = await self.queue.get()
                if text is None or self.cut:  # what is still queued is dropped
                    code, reason = self.farewell or (1008, "the client does not read its messages")
                    await self.ws.close(code=code, reason=reason)
                    return
                self.queued -= len(text)
                await self.ws.send_text(text)
                if sent is not None:
                    sent.inc()
        except asyncio.CancelledError:
            raise
        except WebSocketDisconnect:
            self.cut = True  # the client went away while a message was on its way: no fault
        except Exception:
            # the sender never dies alone: without it the connection would only seem open
            self.cut = True
            about = log if self.table is None else TableLog(log, self.table)
            about.warning("a connection's sender failed; closing it", exc_info=True)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1011)


@dataclass(eq=False)
class ProxyConn(Conn):
    """A socket held by another node (its *edge*), seen from the room that owns the
    table: what the room sends it is written once, cut for its seat, and travels to the
    edge (docs/scaling.md)."""

    link: str = ""
    edge: str = ""
    #: the lease the edge talks to (messages of another lease are not for it)
    lease: str = ""
    post: Callable[[str, dict[str, Any]], None] | None = None
    joined: bool = False

    def send(self, msg: dict[str, Any]) -> None:
        if self.post is None:
            return
        if msg["type"] in ("update", "welcome"):
            self.seq = msg["seq"]
        self.post(
            self.edge,
            {
                "kind": "out",
                "link": self.link,
                "lease": self.lease,
                "seq": self.seq if msg["type"] in ("update", "welcome") else None,
                "text": json.dumps(msg, separators=(",", ":")),
            },
        )

    def send_text(self, text: str) -> None:  # pragma: no cover - the owner writes dicts
        raise TypeError("a proxy connection sends what its room writes")
