"""What every request passes before the app sees it: the club's own pages only, JSON
bodies of a bounded size, and headers that keep a page from running what it did not
ship.

- **Origin**: a browser says which page sent a request. A state-changing request
  (any method but GET, HEAD and OPTIONS) or a WebSocket handshake whose ``Origin``
  is not the club's own (the host it was sent to, or one of
  ``TAVERNA_ALLOWED_ORIGINS``) is refused: another site's page cannot take a seat
  with its visitor's cookie, nor read their hand over a socket. A request with no
  ``Origin`` is not a browser's page (the CLI, the benches, bot clients) and passes.
- **Bodies**: a request body is JSON (``Content-Type: application/json``) or refused
  with 415, and at most ``TAVERNA_MAX_BODY`` bytes or refused with 413, on every route
  (those that read no body too): by its ``Content-Length`` before it is read, or
  counted as it comes when it is sent chunked.
- **Headers**: a strict Content-Security-Policy (scripts and styles from the club's
  own files only, nothing inline, no framing), ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy``.
- **Slow requests**: :class:`TimedHttp` closes a connection whose request headers
  do not arrive whole within ``TAVERNA_HEADER_TIMEOUT`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .config import Config

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: the page may run and style only what the club serves; it talks only to its own host
CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def origin_allowed(headers: Headers, allowed: frozenset[str]) -> bool:
    """Whether a request's ``Origin`` is the club's own (or absent: not a browser's page)."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin in allowed:
        return True
    host = headers.get("host")
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    # "null" (a sandboxed frame, a file) and any other site's page: not the club's
    return host is not None and netloc.lower() == host.lower()


def allowed_origins(config: Config) -> frozenset[str]:
    return frozenset(o.strip().rstrip("/") for o in config.allowed_origins.split(",") if o.strip())


class Guard:
    """ASGI middleware: origin, body and header rules for every request (module doc)."""

    def __init__(self, app: ASGIApp, config: Config) -> None:
        self.app = app
        self.allowed = allowed_origins(config)
        self.max_body = config.max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if not origin_allowed(Headers(scope=scope), self.allowed):
                # refused before the handshake is accepted: the browser sees a 403
                await send({"type": "websocket.close", "code": 4403, "reason": "bad origin"})
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        method = scope["method"]
        head = method == "HEAD"
        if head:  # answered as GET is, without the body (FastAPI's routes take GET only)
            scope = {**scope, "method": "GET"}

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        if method not in SAFE_METHODS and not origin_allowed(headers, self.allowed):
            await _refuse(
                send_with_headers,
                403,
                "bad_origin",
                "this request came from a page that is not the club's own",
            )
            return
        length = headers.get("content-length")
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        has_body = chunked or (length is not None and length.strip() not in ("", "0"))
        if has_body:
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            if kind != "application/json":
                await _refuse(
                    send_with_headers,
                    415,
                    "not_json",
                    f"a request body must be JSON (Content-Type: application/json), not "
                    f"{kind or 'untyped'}",
                )
                return
            if length is not None and (not length.isdigit() or int(length) > self.max_body):
                await _refuse_too_large(send_with_headers, self.max_body)
                return
            await self._bounded(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    async def _bounded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A body of unknown length (chunked), read here as it comes and counted, before
        the app runs: past the limit the client gets 413 at once and the connection is
        closed. Read here, not as the app reads it, because a route that takes no body
        never reads one, and the server would take in whatever was sent."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before its body was whole: nothing to do
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.max_body:
                await _refuse_too_large(send, self.max_body)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        given = False

        async def replay() -> Message:
            nonlocal given
            if given:
                return await receive()  # after the body: what the client does next
            given = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _refuse_too_large(send: Send, limit: int) -> None:
    await _refuse(send, 413, "too_large", f"the request body is larger than {limit} bytes")


async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
    body = json.dumps({"detail": detail, "code": code, "params": {}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class TimedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with a time limit on each request's headers: a client
    that sends them a byte at a time, or never, is cut off (slowloris)."""

    header_timeout = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._header_timer: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def timed_http(seconds: float) -> type[TimedHttp]:
    """The protocol class with its own header time limit (uvicorn takes a class)."""
    return type("TimedHttp", (TimedHttp,), {"header_timeout": seconds})


class Budget:
    """A token bucket: on average at most ``count`` messages per ``seconds``, and never
    more than ``count`` at once. ``spec`` is "count/seconds"."""

    def __init__(self, spec: str) -> None:
        count, _, seconds = spec.partition("/")
        self.count = float(count)
        self.rate = self.count / float(seconds or 1)
        self.tokens = self.count
        self.at = time.monotonic()
        #: messages refused in a row: a client that goes on regardless is cut off
        self.refused = 0

    def spend(self, cost: float = 1) -> bool:
        self._refill()
        if self.tokens >= cost:
            self.tokens -= cost
            self.refused = 0
            return True
        self.refused += 1
        return False

    def wait(self, cost: float = 1) -> float:
        """Seconds until ``cost`` could be spent (0: now); a cost beyond the bucket's
        size waits for a full bucket."""
        self._refill()
        return max(0.0, min(cost, self.count) - self.tokens) / self.rate

    def full(self) -> bool:
        """Whether the bucket is full again (its owner has spent nothing lately)."""
        self._refill()
        return self.tokens >= self.count

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.count, self.tokens + (now - self.at) * self.rate)
        self.at = now


class Budgets:
    """A :class:`Budget` per key (an account, an address), all of one ``spec``. A key's
    bucket is forgotten once it is full again, so the memory held is that of the keys
    that spent lately, however many came by."""

    #: buckets held before the full ones are looked for and forgotten
    PRUNE_AT = 1024

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.buckets: dict[str, Budget] = {}
        self.prune_at = self.PRUNE_AT

    def wait(self, key: str, cost: float = 1) -> float:
        """Seconds until ``key`` could spend ``cost`` (0: now)."""
        bucket = self.buckets.get(key)
        return 0.0 if bucket is None else bucket.wait(cost)

    def spend(self, key: str, cost: float = 1) -> None:
        """Spend ``cost`` of ``key``'s bucket (its owner checked :meth:`wait` first)."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.prune_at:
                self._prune()
            bucket = self.buckets[key] = Budget(self.spec)
        bucket.spend(min(cost, bucket.count))

    def _prune(self) -> None:
        self.buckets = {k: b for k, b in self.buckets.items() if not b.full()}
        # the next look when as many again have come: pruning stays linear overall
        self.prune_at = max(self.PRUNE_AT, 2 * len(self.buckets))


class SocketCounts:
    """How many WebSockets each address and each session holds open at once."""

    def __init__(self, per_address: int, per_session: int) -> None:
        self.per_address = per_address
        self.per_session = per_session
        self.open: Counter[str] = Counter()

    def full(self, address: str, session: str | None) -> str | None:
        """The limit one more socket would pass ("address" or "session"), or None."""
        if self.open[f"address {address}"] >= self.per_address:
            return "address"
        if session is not None and self.open[f"session {session}"] >= self.per_session:
            return "session"
        return None

    def admit(self, address: str, session: str | None) -> list[str] | None:
        """The keys to :meth:`release` later, or None when one limit is reached."""
        if self.full(address, session) is not None:
            return None
        keys = [f"address {address}"]
        if session is not None:
            keys.append(f"session {session}")
        for k in keys:
            self.open[k] += 1
        return keys

    def release(self, keys: list[str]) -> None:
        for k in keys:
            self.open[k] -= 1
            if self.open[k] <= 0:
                del self.open[k]
