"""The ASGI application: the HTTP API (OpenAPI at /docs), the WebSockets and the web
client, each concern a router of its own module:

- :mod:`.sessions` guest sessions, :mod:`.accounts` accounts, chips and the ranking;
- :mod:`.lobby` games, tables and seats; :mod:`.history` finished games;
- :mod:`.operators` health and metrics; :mod:`.sockets` the WebSockets
  (messages in :mod:`.protocol`); :mod:`.pages` the web client's pages.

    taverna serve

which runs it with :func:`server_config` (uvicorn on its own would leave out the
limits set there). See ``docs/protocol.md`` for the WebSocket messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import socket
import time
from collections.abc import AsyncIterator
from functools import partial

import uvicorn
from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .. import __version__, native
from ..games import titles
from ..store.db import DATABASE_AWAY
from ..store.errors import Conflict, NotFound
from ..store.repo import Store
from . import (
    accounts,
    chat_api,
    club,
    errors,
    gate,
    history,
    lobby,
    matchmaking,
    moderation,
    operators,
    pages,
    reviews,
    sessions,
    sockets,
    text,
    tournaments,
)
from .cluster import Cluster
from .config import Config
from .errors import ERRORS
from .frames import guarded_websocket
from .guard import Guard, timed_http
from .hub import RoomHub

log = logging.getLogger("taverna.server")


def create_app(config: Config | None = None) -> FastAPI:
    config = config or Config()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, config.database_url)
        hub = club.ClubHub(store, config)
        app.state.store = store
        app.state.hub = hub
        # several nodes (docs/scaling.md): this node's part of the cluster
        cluster = Cluster(config.redis_url, config.node, hub) if config.redis_url else None
        resumed = await hub.open(cluster, jobs=(matchmaking.keep_filling, tournaments.keep_running))
        reviewer = reviews.Reviewer(store, hub)
        app.state.reviewer = reviewer
        reviewer.start()
        aside = len(await store.tables_set_aside())
        log.info("engines: %s", native.status().said)
        log.info(
            "Taverna %s ready: %d table(s) resumed%s",
            __version__,
            resumed,
            f", {aside} set aside (see /api/health)" if aside else "",
        )
        try:
            yield
        finally:
            reviewer.close()
            hub.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="Taverna",
        version=__version__,
        description=f"{titles()}: lobby, tables and live play.",
        lifespan=lifespan,
        # the API page is our own (static/api-docs.html): Swagger UI would load from a CDN
        docs_url=None,
        redoc_url=None,
        responses=ERRORS,
    )
    app.state.config = config
    app.state.game_parts = pages.game_parts()
    # the last added runs first: the guard sees every request before anything else
    # does, and puts its headers on every answer, compressed or not
    app.add_middleware(pages.Compressed)
    # no control character in a path or a query (an id "ab%00c"): 422 before any route
    app.add_middleware(text.PlainUrls)
    # the club's own pages only, JSON bodies of a bounded size, security headers
    app.add_middleware(Guard, config=config)

    # every error body: {"detail": English, "code": for clients to translate, "params"};
    # a page nobody has, opened in a browser: the site's own "not found" page
    app.add_exception_handler(StarletteHTTPException, _http_error)
    # one readable sentence per problem, naming the field: "turn_seconds: ... at least 5"
    app.add_exception_handler(RequestValidationError, errors.invalid)
    app.add_exception_handler(NotFound, partial(errors.coded, status=404))
    app.add_exception_handler(Conflict, partial(errors.coded, status=409))
    app.add_exception_handler(gate.TooMany, gate.too_many)
    # the database away (stopped, cut off, locked): 503 and a plain sentence, never a 500
    for fault in DATABASE_AWAY:
        app.add_exception_handler(fault, _database_away)
    for router in (
        sessions.router,
        accounts.router,
        lobby.router,
        matchmaking.router,
        tournaments.router,
        moderation.router,
        chat_api.router,
        history.router,
        reviews.router,
        operators.router,
        sockets.router,
        pages.router,
    ):
        app.include_router(router, responses=ERRORS)
    if pages.WEB.is_dir():
        app.mount("/static", pages.ClientFiles(directory=pages.WEB), name="static")
    # each game's part of the client (its board module and strings), found as it is
    # installed: Taverna's own games and plug-ins alike
    for name, folder in app.state.game_parts.items():
        app.mount(f"/games/{name}", pages.ClientFiles(directory=folder), name=f"game {name}")
    return app


#: gc thresholds of a serving process: the young generations as CPython has them, the
#: oldest only by :func:`_collect_now_and_then`
GC_THRESHOLDS = (700, 10, 1_000_000)
#: seconds between two full collections of a serving process
GC_FULL_SECONDS = 600.0


async def _collect_now_and_then() -> None:
    """A full collection every GC_FULL_SECONDS: the cyclic garbage that lived long
    enough to grow old is freed, at a cost paid every ten minutes rather than every few
    seconds (its pause touches a few moves in ten thousand)."""
    while True:
        await asyncio.sleep(GC_FULL_SECONDS)
        started = time.perf_counter()
        found = gc.collect()
        log.debug(
            "full collection: %d objects freed in %.3f s", found, time.perf_counter() - started
        )


def server_config(app: FastAPI, config: Config) -> uvicorn.Config:
    """uvicorn's settings for the club: every way of serving it (``taverna serve``, the
    benches and tests through it) takes these, for its limits live here as much as in
    the app: request headers on time (:func:`.guard.timed_http`), and a WebSocket's
    frames, reading and keepalive (:mod:`.frames`)."""

    def cut(limit: str) -> None:
        hub: RoomHub | None = getattr(app.state, "hub", None)
        if hub is not None:
            hub.metrics.connections_refused.labels(limit=limit).inc()

    return uvicorn.Config(
        app,
        log_config=None,  # uvicorn's lines go through the same log as ours
        log_level="warning",
        access_log=config.access_log,
        http=timed_http(config.header_timeout),
        ws=guarded_websocket(cut),
        # a message over this closes the socket (1009); one over TAVERNA_MAX_MESSAGE and
        # up to this gets a clear error from the app, the socket kept
        ws_max_size=1 << 20,
        ws_ping_interval=config.ws_ping_interval,
        ws_ping_timeout=config.ws_ping_timeout,
        ws_per_message_deflate=config.ws_compression,
    )


class ClubServer(uvicorn.Server):
    """uvicorn for the club: on SIGTERM or SIGINT the tables stop taking moves, store what
    is under way and tell every connection that the server is restarting, before uvicorn
    closes the connections (code 1012, "service restart") and the app shuts down."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.club = app

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        # The cyclic garbage collector, tuned for a server's tail latency (measured with
        # `taverna bench server`, 500 tables: docs/scaling.md). What exists once the
        # club is up (modules, the password dictionaries) lives as long as the process:
        # frozen, out of the collector's sight (a table resumed at the start is frozen
        # too: what of it is cyclic when it ends stays, once per process). Every open
        # socket holds a chain of some fifteen coroutines (the ASGI layers), so at 500
        # tables a full collection walks 200,000 objects and stops the loop for 0.2 s;
        # CPython ran one every few seconds. Young collections stay as they are (cheap,
        # and most cycles die young); full ones come every ten minutes, from a timer.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        self.collector = asyncio.create_task(_collect_now_and_then())

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        collector = getattr(self, "collector", None)
        if collector is not None:
            collector.cancel()
        hub: RoomHub | None = getattr(self.club.state, "hub", None)
        if hub is not None:
            try:
                await hub.begin_shutdown()
            except Exception:  # stopping must never hang on a table
                log.exception("could not stop the tables gracefully")
        await super().shutdown(sockets)


def wants_page(request: Request) -> bool:
    """A person's browser asking for a page (not an API client, not a script or image)."""
    return (
        request.method in ("GET", "HEAD")
        and not request.url.path.startswith(("/api/", "/ws/"))
        and "text/html" in request.headers.get("accept", "")
    )


async def _database_away(request: Request, exc: Exception) -> Response:
    log.warning("%s %s: the database is not answering (%s)", request.method, request.url.path, exc)
    hub = getattr(request.app.state, "hub", None)
    if hub is not None:
        hub.database_lost()
    return JSONResponse(
        {
            "detail": "the club's database is not answering; try again in a moment",
            "code": "database_unavailable",
            "params": {},
        },
        status_code=503,
        headers={"Retry-After": "2"},
    )


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and wants_page(request):
        # the web client shows its "no such page" for any path but its own (js/app.js)
        return pages.page(request, pages.WEB / "index.html", status_code=404)
    return await errors.http_error(request, exc)
