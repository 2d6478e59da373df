"""The WebSocket protocol under the app: uvicorn's (on the websockets library), with the
limits a client's frames keep before any message of theirs reaches the app.

- **A message's frames**: at most :data:`MAX_FRAGMENTS` (the club's clients send each
  message in one), empty ones counted too, and at most ``ws_max_size`` bytes in all
  (counted by websockets); beyond, the socket is closed with 1009 (message too big).
- **Fair reading**: what a client sends is parsed :data:`SLICE` bytes at a time, the
  event loop serving every other socket between two slices; and not at all while the
  app has not read the client's last message, nor while the client does not read what
  it is sent (the write buffer past its high-water mark). Its pings then go unanswered
  and its bytes wait in the network, not in the server.
- **Pings and pongs**: at most :data:`CONTROL_RATE`; beyond, closed with 1008.
- **Keepalive**: a ping every ``ping_interval`` seconds; a client whose pong does not
  come within ``ping_timeout`` seconds (one that does not read cannot send it) is cut
  off, dropped rather than closed with a handshake it would never read; and so is a
  connection still closing a keepalive round after it began.
- **The log**: what a client did wrong is one line, never a traceback.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, assert_never

from uvicorn.config import Config as UvicornConfig
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request

from .guard import Budget

log = logging.getLogger("taverna.sockets")

#: the most frames one message may come in
MAX_FRAGMENTS = 64
#: pings and pongs a client may send, as "count/seconds" (:class:`.guard.Budget`: 50 at
#: once, 5 a second): a browser sends none, a library one every few seconds
CONTROL_RATE = "50/10"
#: bytes of a client's parsed at once, before the event loop serves the others
SLICE = 4096


class GuardedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with the limits of the module doc; ``on_cut`` hears
    each socket closed for what its client did (the limit's name)."""

    on_cut: Callable[[str], None] | None = None

    def __init__(
        self,
        config: UvicornConfig,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        #: what the client sent and is not parsed yet
        self.unread = bytearray()
        #: the next slice is due (the loop calls :meth:`_parse`)
        self.parsing = False
        #: the client does not take what it is sent (the transport said so)
        self.stalled = False
        self.controls = Budget(CONTROL_RATE)

    # Reading, fairly and only as fast as the app and the client's own reading allow

    def data_received(self, data: bytes) -> None:
        self.unread += data
        if not self.parsing:
            self._parse()

    def _held(self) -> bool:
        """Whether the client's bytes wait: the app has its last message still unread
        (until the app closes: then its close answer is awaited), or the client does
        not read what it is sent."""
        return (self.read_paused and not self.close_sent) or self.stalled

    def _parse(self) -> None:
        """Parse one slice of what the client sent, if it may be parsed now."""
        self.parsing = False
        if self.unread and not self._held() and not self.transport.is_closing():
            piece = bytes(self.unread[:SLICE])
            del self.unread[:SLICE]
            super().data_received(piece)
        self._go_on()

    def _go_on(self) -> None:
        """The next slice once the loop has served the others (the app, too, waits for
        it: a flood of messages cannot keep the loop to itself), if it may be parsed;
        more from the transport only once all is parsed."""
        if self.transport.is_closing():  # refused or cut: the rest is not read
            self.unread.clear()
            return
        if self.unread and not self._held() and not self.parsing:
            self.parsing = True
            self.loop.call_soon(self._parse)
        if self.unread or self._held():
            self.transport.pause_reading()
        else:
            self.transport.resume_reading()

    def pause_writing(self) -> None:
        super().pause_writing()
        self.stalled = True
        self._go_on()

    def resume_writing(self) -> None:
        super().resume_writing()
        self.stalled = False
        self._go_on()

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.close":
            self._go_on()  # what the client sent meanwhile holds its close answer

    async def receive(self) -> Any:
        message = await self.queue.get()
        if self.read_paused and self.queue.empty():
            self.read_paused = False
            self._go_on()
        return message

    def handle_events(self) -> None:
        for event in self.conn.events_received():
            if self.transport.is_closing():
                return  # refused: nothing more of the client's is heard
            if isinstance(event, Request):
                self.handle_connect(event)
            elif isinstance(event, Frame):
                self.handle_frame(event)

    def handle_frame(self, frame: Frame) -> None:
        if frame.opcode == Opcode.CONT:
            if len(self.frames) >= MAX_FRAGMENTS:
                self.refuse(1009, f"a message in more than {MAX_FRAGMENTS} frames", "frames")
            else:
                self.handle_cont(frame)
        elif frame.opcode == Opcode.TEXT:
            self.handle_text(frame)
        elif frame.opcode == Opcode.BINARY:
            self.handle_bytes(frame)
        elif frame.opcode == Opcode.CLOSE:
            self.handle_close(frame)
        elif not self.controls.spend():  # a ping or a pong
            self.refuse(1008, "too many pings and pongs", "pings")
        elif frame.opcode == Opcode.PING:
            self.handle_ping()
        elif frame.opcode == Opcode.PONG:
            self.handle_pong(frame)
        else:  # pragma: no cover - websockets knows no other opcode
            assert_never(frame.opcode)

    def send_receive_event_to_app(self) -> None:
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return  # the app is past its close: only the client's close answer matters
        if self.curr_msg_data_type == "text":
            try:
                self.queue.put_nowait({"type": "websocket.receive", "text": data.decode()})
            except UnicodeDecodeError as e:
                self.refuse(1007, f"a text message that is not UTF-8 (byte {e.start})", "frames")
                return
        else:
            self.queue.put_nowait({"type": "websocket.receive", "bytes": bytes(data)})
        # the next message waits until the app has read this one (receive)
        self.read_paused = True

    # Closing for what the client did: one line each

    def refuse(self, code: int, reason: str, limit: str) -> None:
        """Close the socket with ``code`` for what the client should not have sent
        (``limit``: the name it is counted under)."""
        self.frames = []
        self.conn.fail(code, reason)
        self._close_for_client(limit)

    def handle_parser_exception(self) -> None:
        # websockets' own refusals: a protocol error, a frame too big
        self._close_for_client("frames")

    def _close_for_client(self, limit: str) -> None:
        close = self.conn.close_sent
        if close is not None:
            log.info("%s: closed with %d, %s", self._who(), close.code, close.reason)
        self._count(limit)
        super().handle_parser_exception()

    def send_keepalive_ping(self) -> None:
        if self.close_sent or self.transport.is_closing():
            # closing, and not gone yet: gone a keepalive round later, taken or not
            self.ping_timer = None
            self.pong_timer = self.loop.call_later(self.ping_timeout or 0, self.keepalive_timeout)
            return
        super().send_keepalive_ping()

    def keepalive_timeout(self) -> None:
        self.pong_timer = None
        self.pending_ping_payload = None
        if self.close_sent or self.transport.is_closing():
            self.transport.abort()
            return
        why = "does not read" if self.stalled else "does not answer"
        log.info(
            "%s: cut off, the client %s (no pong within %g s)", self._who(), why, self.ping_timeout
        )
        self._count("keepalive")
        # the close frame, for a client that reads at all; then the connection is
        # dropped whatever it still holds (a close would wait for the client to read it)
        self.conn.fail(1011, "keepalive ping timeout")
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.abort()

    def _who(self) -> str:
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        scope = getattr(self, "scope", None)
        return f"{client} {scope['path']}" if scope is not None else client

    def _count(self, limit: str) -> None:
        if self.on_cut is not None:
            self.on_cut(limit)


def guarded_websocket(on_cut: Callable[[str], None]) -> type[GuardedWebSocket]:
    """The protocol class, its cuts told to ``on_cut`` (uvicorn takes a class)."""
    return type("GuardedWebSocket", (GuardedWebSocket,), {"on_cut": staticmethod(on_cut)})
