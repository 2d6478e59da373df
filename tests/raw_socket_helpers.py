"""A WebSocket client written by hand, for attacks a library will not make: a real HTTP
upgrade, then whatever frames a test writes (masked, as a client's must be), read or
never read. And a person's table played alongside, its moves timed."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import statistics
import struct
import time
from typing import Any

from .server_helpers import Seat, Server

TEXT, CONT, CLOSE, PING = 0x1, 0x0, 0x8, 0x9


def frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """One client frame: ``opcode``, ``payload`` masked with a random key."""
    n = len(payload)
    mask = os.urandom(4)
    key = (mask * (n // 4 + 1))[:n]
    masked = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
    return head(opcode, n, fin, mask) + masked


def head(opcode: int, length: int, fin: bool = True, mask: bytes = b"\0\0\0\0") -> bytes:
    """A client frame's header, its mask key last: what precedes ``length`` bytes."""
    first = bytes([(0x80 if fin else 0) | opcode])
    if length < 126:
        return first + bytes([0x80 | length]) + mask
    if length < 1 << 16:
        return first + bytes([0x80 | 126]) + struct.pack("!H", length) + mask
    return first + bytes([0x80 | 127]) + struct.pack("!Q", length) + mask


def text(message: Any) -> bytes:
    """A whole text frame of ``message`` as JSON."""
    return frame(TEXT, json.dumps(message).encode())


class RawSocket:
    """A socket upgraded to WebSocket by hand; what the server sends is left unread
    unless :meth:`read_close` is called."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        #: the client's address as the server sees it (and logs it)
        host, port = writer.get_extra_info("sockname")[:2]
        self.address = f"{host}:{port}"

    @classmethod
    async def open(cls, server: Server, path: str, rcvbuf: int | None = None) -> RawSocket:
        """Upgraded to WebSocket at ``path``; ``rcvbuf``: the kernel's receive buffer
        made that small, for the server's writes to back up sooner."""
        sock = socket.socket()
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
        reader, writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 101"), head
        return cls(reader, writer)

    async def write(self, data: bytes) -> bool:
        """Write and wait for the kernel to take it; False once the server cut us off."""
        try:
            self.writer.write(data)
            await self.writer.drain()
        except (ConnectionError, OSError):
            return False
        return True

    async def read_close(self, timeout: float) -> int | None:
        """Read (and drop) what the server sends until it closes: the code of its close
        frame, 1006 for a connection dropped without one, None if still open after
        ``timeout`` seconds."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    b0, b1 = await self.reader.readexactly(2)
                    n = b1 & 0x7F
                    if n == 126:
                        (n,) = struct.unpack("!H", await self.reader.readexactly(2))
                    elif n == 127:
                        (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
                    payload = await self.reader.readexactly(n)
                    if b0 & 0x0F == CLOSE:
                        return int(struct.unpack("!H", payload[:2])[0]) if payload else 1005
        except TimeoutError:
            return None
        except (asyncio.IncompleteReadError, ConnectionError):
            return 1006

    def abort(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.transport.abort()


class TimedPlay:
    """A person plays a table with a greedy bot's choices, ``think`` seconds before each
    move (a game lasts long enough to be measured), each move's round trip timed (from
    the act sent to its update), until :meth:`stop`."""

    def __init__(self, seat: Seat, think: float = 0.15) -> None:
        self.seat = seat
        self.think = think
        self.times: list[float] = []
        self.stopped = asyncio.Event()

    def stop(self) -> None:
        self.stopped.set()

    async def run(self) -> None:
        from taverna.bots import make_bot
        from taverna.games import get_game

        seat = self.seat
        assert seat.view is not None and seat.seat is not None
        bot = make_bot("greedy", get_game(seat.view["game"]), seat.seat, seed=1)
        while not self.stopped.is_set():
            view = seat.view
            if view.get("over"):
                return
            if view.get("legal") and seat.seat in view.get("to_act", []):
                action = bot.choose(view)
                await asyncio.sleep(self.think)
                sent = time.perf_counter()
                await seat.send({"type": "act", "action": action.to_json(), "id": seat.seq})
                while (await seat.recv(60))["type"] not in ("update", "error"):
                    pass
                self.times.append(time.perf_counter() - sent)
                continue
            await seat.recv(60)

    def figures(self) -> str:
        if not self.times:
            return "no move"
        ms = sorted(t * 1000 for t in self.times)
        return f"{len(ms)} moves, p50 {statistics.median(ms):.0f} ms, max {ms[-1]:.0f} ms"
