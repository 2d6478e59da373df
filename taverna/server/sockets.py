"""The WebSockets: a table's (play, watch) and the lobby's (its tables, live).

A socket's loop reads a frame, makes it a message (``protocol``), spends the
connection's budget, and hands it to its room; every answer goes back through
the connection's :class:`~.rooms.Conn`. See docs/protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from ..store.db import DATABASE_AWAY
from ..store.repo import NotFound, Store
from . import accounts
from .config import Config
from .deps import COOKIE
from .guard import Budget
from .protocol import (
    SERVER_ERROR,
    TOO_FAST,
    TOO_MANY_SOCKETS,
    UNAVAILABLE,
    error,
)
from .rooms import Conn, Room, RoomHub

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
        room = await hub.room(table_id)
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
    pid = player["id"] if player else None
    address = accounts.client_address(config, websocket.headers, websocket.client)
    admitted = _admit(hub, address, pid)
    if admitted is None:
        await _refuse_socket(websocket, 1008, TOO_MANY_SOCKETS)
        return
    try:
        await _table_session(websocket, hub, config, room, player)
    finally:
        hub.sockets.release(admitted)


async def _table_session(
    websocket: WebSocket,
    hub: RoomHub,
    config: Config,
    room: Room,
    player: dict[str, Any] | None,
) -> None:
    # a private table is unlisted: whoever has its link may watch
    seat = room.seat_of(player["id"] if player else None)
    if seat is not None and player is not None:
        try:
            await accounts.note_seated(
                hub, config, room.table, player["id"], websocket.headers, websocket.client
            )
        except DATABASE_AWAY:
            hub.database_lost()
            await websocket.close(code=1013, reason="the database is not answering")
            return
    await websocket.accept()
    conn = Conn(
        websocket,
        seat,
        player["id"] if player else None,
        config.socket_queue_bytes,
        table=room.table.id,
        metrics=hub.metrics,
    )
    pump = asyncio.create_task(conn.pump())
    budget = Budget(config.socket_rate)
    received = hub.metrics.received["table"]
    joined = False
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
            try:
                joined = await _table_message(room, conn, msg, joined, arrived)
            except Exception:
                # a bug must not take the connection (or the table) with it
                room.log.exception("a %s message failed", kind, seat=conn.seat)
                conn.send(error("server_error", SERVER_ERROR, mid))
    finally:
        if joined:
            room.leave(conn)
        await _stop(conn, pump)


@router.websocket("/ws/lobby")
async def lobby_socket(websocket: WebSocket) -> None:
    hub: RoomHub = websocket.app.state.hub
    store: Store = websocket.app.state.store
    config: Config = websocket.app.state.config
    address = accounts.client_address(config, websocket.headers, websocket.client)
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
            while not conn.cut and await _receive_text(websocket) is not None:
                received.inc()
                if not budget.spend() and budget.refused > budget.count:
                    hub.metrics.connections_refused.labels(limit="rate").inc()
                    conn.close_after(1008, "too many messages")
                    break
        finally:
            hub.lobby.discard(conn)
            await _stop(conn, pump)
    finally:
        hub.sockets.release(admitted)


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


async def _table_message(
    room: Room, conn: Conn, msg: dict[str, Any], joined: bool, arrived: float
) -> bool:
    """Answer one message of a table's socket (``arrived``: when it came in); whether
    the connection has joined now."""
    kind, mid = msg["type"], msg.get("id")
    if kind == "hello":
        last = msg.get("last_seq")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
            conn.send(error("bad_message", "last_seq must be a whole number", mid))
        elif joined:
            conn.send(room._welcome(conn, last))
        else:
            await room.join(conn, last)
            return True
    elif kind == "act":
        await _act(room, conn, msg, joined, arrived)
    elif kind == "ping":
        conn.send({"type": "pong", "id": mid})
    else:
        conn.send(error("unknown_type", f"unknown message type {kind!r} (hello, act, ping)", mid))
    return joined


async def _act(room: Room, conn: Conn, msg: dict[str, Any], joined: bool, arrived: float) -> None:
    """An intent: the room judges it, unless it cannot be one from this connection."""
    mid, seat = msg.get("id"), conn.seat
    if not joined:
        refusal = error("not_joined", "say hello first", mid)
    elif seat is None:
        refusal = error("spectator", "spectators cannot act", mid)
    elif room.bot_plays(seat):
        refusal = error("replaced", "a bot plays this seat now", mid)
    elif "action" not in msg:
        refusal = error("bad_message", "an act message needs an 'action'", mid)
    else:
        ok, why = await room.submit(seat, msg["action"], arrived=arrived)
        if not ok and why is not None:
            code = "unavailable" if why.reason in UNAVAILABLE else "illegal"
            conn.send(error(code, why.message, mid, why.reason, why.params))
        elif mid is not None:
            conn.send({"type": "ack", "id": mid, "seq": room.seq})
        return
    room.hub.metrics.refused(refusal["code"])  # refused before the room saw it
    conn.send(refusal)


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
