"""A table socket's messages, answered by its room: ``hello``, ``act``, ``signal``,
``chat``, ``hint`` and ``ping`` (docs/protocol.md).

One dispatch for every socket at a table: a socket held by this node
(:mod:`.sockets`), and one another node holds, whose messages reach the table's owner
through a proxy (:mod:`.owner`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import Any

from ..bots.hint import LEVEL as HINT_LEVEL
from ..bots.hint import hint as bot_hint
from ..bots.hint import request as hint_request
from ..bots.levels import options_for
from .chat import chat_message
from .conns import Conn
from .logs import TableLog
from .protocol import SERVER_ERROR, UNAVAILABLE, error
from .table import Room
from .thinking import Busy

log = logging.getLogger("taverna.sockets")


async def table_message(
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
            conn.send(room.welcome(conn, last))
        else:
            await room.join(conn, last)
            return True
    elif kind == "act":
        await _act(room, conn, msg, joined, arrived)
    elif kind == "signal":
        await _signal(room, conn, msg, joined)
    elif kind == "chat":
        await chat_message(room, conn, msg, joined)
    elif kind == "hint":
        await _hint(room, conn, msg, joined)
    elif kind == "ping":
        conn.send({"type": "pong", "id": mid})
    else:
        known = "hello, act, signal, chat, hint, ping"
        conn.send(error("unknown_type", f"unknown message type {kind!r} ({known})", mid))
    return joined


def _player_seat(room: Room, conn: Conn, joined: bool, mid: Any) -> int | dict[str, Any]:
    """The seat this connection acts (or makes señas) for; else the error that says why
    it cannot."""
    if not joined:
        return error("not_joined", "say hello first", mid)
    if conn.seat is None:
        return error("spectator", "spectators cannot act", mid)
    if room.bot_plays(conn.seat):
        return error("replaced", "a bot plays this seat now", mid)
    return conn.seat


async def _act(room: Room, conn: Conn, msg: dict[str, Any], joined: bool, arrived: float) -> None:
    """An intent: the room judges it, unless it cannot be one from this connection."""
    mid, seat = msg.get("id"), _player_seat(room, conn, joined, msg.get("id"))
    if isinstance(seat, dict):
        refusal = seat
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


async def _signal(room: Room, conn: Conn, msg: dict[str, Any], joined: bool) -> None:
    """A Mus seña (docs/rules.md §3.8.2): refused as an ``act`` would be from this connection,
    else the room judges it. Not a move: its ack carries the seq as it stands."""
    mid, seat = msg.get("id"), _player_seat(room, conn, joined, msg.get("id"))
    if isinstance(seat, dict):
        refusal = seat
    elif not isinstance(msg.get("sign"), str):
        refusal = error("bad_message", "a signal message needs a 'sign' (a string)", mid)
    else:
        why = await room.signal(seat, msg["sign"])
        if why is not None:
            code = "unavailable" if why.reason in UNAVAILABLE else "illegal"
            conn.send(error(code, why.message, mid, why.reason, why.params))
        elif mid is not None:
            conn.send({"type": "ack", "id": mid, "seq": room.seq})
        return
    room.hub.metrics.refused(refusal["code"])  # refused before the room saw it
    conn.send(refusal)


def hints_refused(room: Room, conn: Conn, joined: bool, mid: Any) -> dict[str, Any] | None:
    """Why this connection may not have a hint now (an ``error``), or None."""
    options = room.table.options
    if options.get("official") or options.get("tournament"):
        return error("hints_official", "official and tournament tables give no hints", mid)
    if not options.get("hints"):
        return error("hints_off", "this table gives no hints (the option hints is off)", mid)
    seat = _player_seat(room, conn, joined, mid)
    if isinstance(seat, dict):
        return seat
    state = room.state
    if state is None or state.over or seat not in state.to_act:
        return error("not_your_turn", "a hint is for the seat that may act now", mid)
    # each hint is a strong bot's search: one every few seconds (TAVERNA_HINT_EVERY) a
    # connection, and so many a while an account and an address, whatever their sockets
    every, now = room.config.hint_every, time.monotonic()
    if conn.hinted_at is not None and now - conn.hinted_at < every:
        wait = every - (now - conn.hinted_at)
        return _too_fast(f"one hint every {every:g} seconds", wait, "connection", mid)
    limited = room.hub.think_limits.refusal(conn.player_id, conn.address, 1)
    if limited is not None:
        limit, wait = limited
        return _too_fast(f"too many hints from your {limit}", wait, limit, mid)
    return None


def _too_fast(why: str, wait: float, limit: str, mid: Any) -> dict[str, Any]:
    seconds = max(0.1, round(wait, 1))
    return error(
        "hint_too_fast",
        f"{why}: ask again in {seconds:.1f} s",
        mid,
        "hint_too_fast",
        {"seconds": seconds, "limit": limit},
    )


async def _hint(room: Room, conn: Conn, msg: dict[str, Any], joined: bool) -> None:
    """Queue the strong bot's move for the connection's seat, from its view alone, and
    why; answered to this connection only, when it is ready (docs/protocol.md, Hints).
    The socket reads on meanwhile: a hint may wait for the node's hint process."""
    mid = msg.get("id")
    hub = room.hub
    refusal = hints_refused(room, conn, joined, mid)
    if refusal is not None:
        hub.metrics.refused(refusal["code"])
        conn.send(refusal)
        return
    seat, seq = conn.seat, room.seq
    assert seat is not None

    def wanted() -> bool:
        """Whether the hint is still worth its search: its socket open at the table,
        which still shows the position it was asked for."""
        return (
            conn in room.conns
            and not conn.cut
            and conn.farewell is None
            and hub.rooms.get(room.table.id) is room
            and room.seq == seq
            and conn.seat == seat
        )

    try:
        answer = _queue_hint(room, seat, wanted)
    except Busy:
        hub.metrics.refused("hints_busy")
        conn.send(
            error(
                "hints_busy",
                "the strong bot has too many hints to think about: ask again in a moment",
                mid,
            )
        )
        return
    # spent once queued, not when refused: a refusal costs the server nothing
    conn.hinted_at = time.monotonic()
    hub.think_limits.spend(conn.player_id, conn.address, 1)
    hub.spawn(_answer_hint(room, conn, mid, seq, wanted, answer))


def _queue_hint(
    room: Room, seat: int, wanted: Callable[[], bool]
) -> asyncio.Future[dict[str, Any] | None]:
    """Queue the strong bot's move for ``seat`` from its view alone, and why
    (:mod:`taverna.bots.hint`), for this node's hint process: its future is
    ``{"action", "why"}``, or None when the hint was dropped uncomputed (no longer
    ``wanted`` when its turn came). Raises :class:`~.thinking.Busy` when the queue
    is full. The view is taken now: the hint is for the position as it stands."""
    view = room.view(seat)
    # a seed of its own: a hint takes nothing from the table's generator, whose
    # draws make its bots' decisions
    seed = random.randrange(1 << 30)
    options = options_for(room.config.bot_options, HINT_LEVEL)
    request = hint_request(room.cls, seat, view, seed, options)
    return room.hub.thinkers.hint(bot_hint, request, wanted)


async def _answer_hint(
    room: Room,
    conn: Conn,
    mid: Any,
    seq: int,
    wanted: Callable[[], bool],
    answer: asyncio.Future[dict[str, Any] | None],
) -> None:
    """Send a hint when it is ready: to a connection still there; and for a position the
    table has left, without its move (the page drops it by its seq)."""
    try:
        hint = await answer
    except asyncio.CancelledError:
        raise
    except Exception:
        TableLog(log, room.table.id).exception("a hint failed", seat=conn.seat)
        conn.send(error("server_error", SERVER_ERROR, mid))
        return
    if hint is None or not wanted():
        if conn not in room.conns and room.hub.rooms.get(room.table.id) is room:
            return  # its socket left the table: nobody to tell
        # the table moved on (or to another node, which the socket follows)
        hint = {"action": None, "why": {"key": "stale"}}
    # ``seq``: the update the hint is for; a page that has seen a later one drops it
    conn.send({"type": "hint", "id": mid, "seq": seq, **hint})
