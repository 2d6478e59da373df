"""The WebSockets: a table's (play, watch) and the lobby's (its tables, live).

A socket's loop reads a frame, makes it a message (``protocol``), spends the
connection's budget, and hands it to its room; every answer goes back through
the connection's :class:`~.conns.Conn`. See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..store.db import DATABASE_AWAY
from ..store.errors import NotFound
from ..store.repo import Store
from ..store.tables import TableInfo
from . import restrictions
from .club import note_seated
from .config import Config
from .conns import Conn
from .deps import COOKIE
from .gate import client_address
from .guard import Budget
from .hub import RoomHub
from .logs import TableLog
from .protocol import (
    SERVER_ERROR,
    TOO_FAST,
    TOO_MANY_SOCKETS,
    error,
)
from .table import Room, seat_at
from .table_messages import table_message

if TYPE_CHECKING:
    from .edge import Edge, Link

log = logging.getLogger("taverna.sockets")

router = APIRouter()


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    hub: RoomHub = websocket.app.state.hub
    store: Store = websocket.app.state.store
    config: Config = websocket.app.state.config
    token = websocket.cookies.get(COOKIE)
    try:
        player = await store.player_by_token(token) if token else None
        # the table's room here, or (several nodes) the node that owns it
        where = await hub.locate(table_id)
        table = where.table if isinstance(where, Room) else await store.table(table_id)
    except NotFound:
        # accepted, then closed with 4404 and a word: a refused handshake reaches a
        # client only as a bare HTTP 403 (docs/protocol.md)
        await _refuse_socket(websocket, 4404, error("no_table", f"there is no table {table_id!r}"))
        return
    except DATABASE_AWAY:
        hub.database_lost()
        # 1013, "try again later": the client comes back by itself
        await websocket.close(code=1013, reason="the database is not answering")
        return
    except Exception:  # several nodes: Redis does not answer
        log.warning("table %s: no node to reach it", table_id, exc_info=True)
        await websocket.close(code=1013, reason="the table cannot be reached now")
        return
    pid = player["id"] if player else None
    restrictions.note_player(hub, player)
    address = client_address(config, websocket.headers, websocket.client)
    admitted = _admit(hub, address, pid)
    if admitted is None:
        await _refuse_socket(websocket, 1008, TOO_MANY_SOCKETS)
        return
    try:
        await _table_session(websocket, hub, config, where, table, pid, address)
    finally:
        hub.sockets.release(admitted)


class TableSession:
    """One table socket's messages, to its room — here, or (several nodes) on the
    node that owns the table, through a link — following the table when it moves."""

    def __init__(
        self, hub: RoomHub, conn: Conn, table_id: str, player_id: str | None, where: Room | str
    ) -> None:
        self.hub = hub
        self.conn = conn
        self.table_id = table_id
        self.player_id = player_id
        self.room: Room | None = where if isinstance(where, Room) else None
        self.link: Link | None = None
        self.joined = False
        conn.on_moved = self.moved

    async def handle(self, msg: dict[str, Any], arrived: float) -> None:
        room = self.room
        if room is not None and self.hub.rooms.get(self.table_id) is room:
            self.joined = await table_message(room, self.conn, msg, self.joined, arrived)
            return
        if room is not None:  # the table left this node since
            self._to_remote()
        link = self._remote_link()
        if not await self._edge().forward(link, msg, arrived):
            await self.take_over(msg)

    def _edge(self) -> Edge:
        cluster = self.hub.cluster
        assert cluster is not None
        return cluster.edge

    def _remote_link(self) -> Link:
        if self.link is None:
            self.link = self._edge().link(self.table_id, self.conn, self.player_id)
            self.hub.spawn(self._watch(self.link))
        return self.link

    def _to_remote(self) -> None:
        self.room = None
        self.joined = False

    def moved(self) -> None:
        """The table left this node (hub.disown): follow it, saying hello again with the
        last update the client had."""
        was = self.joined
        last = self.conn.seq
        self._to_remote()
        if was:
            link = self._remote_link()
            link.seq = last
            hello = {"type": "hello", "last_seq": last if last is not None else 0}
            self.hub.spawn(self._forward_hello(link, hello))

    async def _forward_hello(self, link: Link, hello: dict[str, Any]) -> None:
        if not await self._edge().forward(link, hello, time.perf_counter()):
            await self.take_over(hello)

    async def _watch(self, link: Link) -> None:
        """The link's table became this node's: the socket takes it over here."""
        await link.local.wait()
        if self.link is link:
            await self.take_over(None)

    async def take_over(self, pending: dict[str, Any] | None) -> None:
        """The table lives on this node now: join its room with the last update the
        client had, then answer ``pending`` (the message that found it out) here."""
        link = self.link
        if link is None:
            return
        self.link = None
        self._edge().unlink(link)
        room = self.hub.rooms.get(self.table_id)
        if room is None:
            self.conn.close_after(1012, "the table moved")
            return
        self.room = room
        self.conn.seat = room.seat_of(self.player_id)
        if link.hello is not None:
            await room.join(self.conn, link.seq if link.seq is not None else 0)
            self.joined = True
        if pending is not None and not (pending.get("type") == "hello" and self.joined):
            self.joined = await table_message(
                room, self.conn, pending, self.joined, time.perf_counter()
            )

    def close(self) -> None:
        if self.room is not None and self.joined and self.hub.rooms.get(self.table_id) is self.room:
            self.room.leave(self.conn)
        if self.link is not None and self.hub.cluster is not None:
            self.hub.cluster.edge.unlink(self.link)
            self.link = None


async def _table_session(
    websocket: WebSocket,
    hub: RoomHub,
    config: Config,
    where: Room | str,
    table: TableInfo,
    player_id: str | None,
    address: str,
) -> None:
    # a private table is unlisted: whoever has its link may watch
    seat = seat_at(table, player_id)
    if seat is not None and player_id is not None:
        try:
            await note_seated(hub, config, table, player_id, websocket.headers, websocket.client)
        except DATABASE_AWAY:
            hub.database_lost()
            await websocket.close(code=1013, reason="the database is not answering")
            return
    await websocket.accept()
    conn = Conn(
        websocket,
        seat,
        player_id,
        config.socket_queue_bytes,
        table=table.id,
        metrics=hub.metrics,
        address=address,
    )
    pump = asyncio.create_task(conn.pump())
    budget = Budget(config.socket_rate)
    received = hub.metrics.received["table"]
    session = TableSession(hub, conn, table.id, player_id, where)
    try:
        while not conn.cut:
            text = await _receive_text(websocket)
            if text is None:
                break
            arrived = time.perf_counter()  # a move's latency is counted from here
            received.inc()
            msg = _parse_message(conn, text, config.max_message)
            if msg is None:
                continue
            kind, mid = msg["type"], msg.get("id")
            # a welcome costs the server more than a move: a hello spends ten
            if not budget.spend(10 if kind == "hello" else 1):
                if budget.refused > budget.count:
                    hub.metrics.connections_refused.labels(limit="rate").inc()
                    # after what it was told (its pongs, "too_fast"), not before
                    conn.close_after(1008, "too many messages")
                    break
                conn.send(error("too_fast", TOO_FAST.format(config.socket_rate), mid))
                continue
            barred = restrictions.refusal(hub, player_id, kind, mid)
            if barred is not None:  # a moderator's ban or silence
                conn.send(barred)
                continue
            try:
                await session.handle(msg, arrived)
            except Exception:
                # a bug must not take the connection (or the table) with it
                TableLog(log, table.id).exception("a %s message failed", kind, seat=conn.seat)
                conn.send(error("server_error", SERVER_ERROR, mid))
    finally:
        session.close()
        await _stop(conn, pump)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    hub: RoomHub = websocket.app.state.hub
    store: Store = websocket.app.state.store
    config: Config = websocket.app.state.config
    address = client_address(config, websocket.headers, websocket.client)
    admitted = _admit(hub, address, None)
    if admitted is None:
        await _refuse_socket(websocket, 1008, TOO_MANY_SOCKETS)
        return
    try:
        try:
            tables = await store.tables(("open", "playing"))
        except DATABASE_AWAY:
            hub.database_lost()
            await websocket.close(code=1013, reason="the database is not answering")
            return
        await websocket.accept()
        conn = Conn(websocket, None, None, config.socket_queue_bytes, metrics=hub.metrics)
        hub.lobby.add(conn)
        pump = asyncio.create_task(conn.pump())
        conn.send(
            {
                "type": "tables",
                "tables": [t.public() for t in tables if t.options.get("public", True)],
            }
        )
        budget = Budget(config.socket_rate)
        received = hub.metrics.received["lobby"]
        try:
            while not conn.cut:
                text = await _receive_text(websocket)
                if text is None:
                    break
                received.inc()
                if budget.spend():
                    pong = _pong(text, config.max_message)
                    if pong is not None:
                        conn.send(pong)
                elif budget.refused > budget.count:
                    hub.metrics.connections_refused.labels(limit="rate").inc()
                    conn.close_after(1008, "too many messages")
                    break
        finally:
            hub.lobby.discard(conn)
            await _stop(conn, pump)
    finally:
        hub.sockets.release(admitted)


def _pong(text: str, limit: int) -> dict[str, Any] | None:
    """The lobby's answer to a client message: a pong to a ping (the page's keepalive),
    nothing to anything else (the lobby only speaks)."""
    if len(text) > limit:
        return None
    try:
        msg = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if isinstance(msg, dict) and msg.get("type") == "ping":
        return {"type": "pong", "id": msg.get("id")}
    return None


def _admit(hub: RoomHub, address: str, session: str | None) -> list[str] | None:
    """A socket counted against its address's and session's limits, or None (and the
    refusal counted) when one is reached."""
    limit = hub.sockets.full(address, session)
    if limit is not None:
        hub.metrics.connections_refused.labels(limit=limit).inc()
        return None
    return hub.sockets.admit(address, session)


def _parse_message(conn: Conn, text: str, limit: int) -> dict[str, Any] | None:
    """A client message as an object with a string ``type``; else the client hears why."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        conn.send(error("too_large", f"message of {size} bytes; the limit is {limit}"))
        return None
    try:
        msg = json.loads(text)
    except json.JSONDecodeError as e:
        conn.send(error("bad_json", f"not JSON: {e.msg} at character {e.pos}"))
        return None
    except RecursionError:
        conn.send(error("bad_json", "not JSON this server reads: nested too deep"))
        return None
    except ValueError as e:  # a number of more than 4,300 digits
        conn.send(error("bad_json", f"not JSON this server reads: {e}"))
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.send(error("bad_message", "a message is an object with a string 'type'"))
        return None
    return msg


async def _stop(conn: Conn, pump: asyncio.Task[None]) -> None:
    """End a connection's sender; one cut off or closing is given a moment to say so."""
    if (conn.cut or conn.farewell is not None) and not pump.done():
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(asyncio.shield(pump), 10)
    pump.cancel()
    with contextlib.suppress(BaseException):
        await pump


async def _refuse_socket(websocket: WebSocket, code: int, error: dict[str, Any]) -> None:
    """Accept, say why in an error message, and close with ``code``."""
    await websocket.accept()
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps(error))
        await websocket.close(code=code, reason=error["code"])


async def _receive_text(websocket: WebSocket) -> str | None:
    if websocket.application_state == WebSocketState.DISCONNECTED:
        return None
    try:
        message = await websocket.receive()
    except (WebSocketDisconnect, RuntimeError):
        return None
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    try:
        return data.decode()
    except UnicodeDecodeError:
        return "\x00"  # not JSON: answered as such
