"""The ASGI application: HTTP API (OpenAPI at /docs), WebSockets, static client.

    uvicorn --factory taverna.server.app:create_app

or ``taverna serve``. See ``docs/protocol.md`` for the WebSocket messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import AsyncIterator
from functools import partial
from pathlib import Path
from typing import Annotated, Any

import uvicorn
from fastapi import Cookie, Depends, FastAPI, Request, Response, WebSocket
from fastapi import Path as FastAPIPath
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import __version__
from ..bots import LEVELS
from ..games import GAMES, SettingsError, event_json
from ..games.record import parse_record
from ..store.db import DATABASE_AWAY
from ..store.repo import Conflict, NotFound, Store, TableInfo
from . import accounts, errors
from .config import Config
from .errors import Refused
from .guard import Budget, Guard
from .rooms import DEFAULT_OPTIONS, Conn, Room, RoomHub

log = logging.getLogger("taverna.server")
WEB = Path(__file__).parent.parent / "web" / "static"
COOKIE = "taverna_session"


# ------------------------------------------------------------------ bodies


class SessionIn(BaseModel):
    name: str = Field(min_length=1, max_length=40, description="the name others see")


class TableIn(BaseModel):
    game: str = Field(description="muggins-dominoes, muggins-cards or mus")
    seats: int | None = Field(default=None, description="2–4 (Mus: 4)")
    settings: dict[str, Any] = Field(default_factory=dict, description="the game's settings")
    turn_seconds: int = Field(default=30, ge=5, le=600)
    muggins_wait: float = Field(default=3, ge=0, le=30)
    official: bool = Field(default=False, description="ranked, for a stake, registered humans")
    stake: int | None = Field(default=None, ge=1, le=1_000_000, description="official: chips")
    public: bool = Field(default=True, description="listed in the lobby and open to spectators")
    bots: dict[int, str] = Field(
        default_factory=dict,
        description="seat -> bot level: random, greedy or expert (easy, medium, strong on the web)",
    )
    bot_forget: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="practice tables: the chance that this table's bots forget a claim or a "
        "Muggins! call (default: each level's own)",
    )


def _limits(model: type[BaseModel], *names: str) -> dict[str, dict[str, Any]]:
    """The bounds of some number fields, from the model that enforces them."""
    props = model.model_json_schema()["properties"]
    out = {}
    for name in names:
        field = next(x for x in props[name].get("anyOf", [props[name]]) if "minimum" in x)
        out[name] = {"type": "int" if field["type"] == "integer" else "number"}
        for key, short in (("minimum", "min"), ("maximum", "max")):
            if key in field:
                out[name][short] = field[key]
    return out


#: what a new table's number options may be (GET /api/games), as TableIn checks them
TABLE_LIMITS = _limits(TableIn, "turn_seconds", "muggins_wait", "stake", "bot_forget")


class ErrorBody(BaseModel):
    """Every refused HTTP request (docs/protocol.md, HTTP errors)."""

    detail: str = Field(description="what went wrong, in English")
    code: str = Field(description="the kind of refusal, stable, for a client to translate")
    params: dict[str, Any] = Field(description="the facts a translation needs")
    retry_after: int | None = Field(default=None, description="429: seconds to wait")


#: what any call may answer besides its own success (the schema says so, truly)
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why}
    for status, why in {
        400: "the request body could not be read as JSON text",
        401: "no session, or not logged in",
        403: "not yours to do, or a page of another origin (bad_origin)",
        404: "no such table, seat, player or game",
        409: "the table's or the account's state does not allow it",
        413: "the request body is too large",
        415: "the request body is not JSON",
        422: "a field, a setting or a value is not allowed (params.fields names them)",
        429: "too many tries: wait retry_after seconds",
        503: "the club's database does not answer: try again in a moment",
    }.items()
}


class BotIn(BaseModel):
    level: str = Field(
        default="greedy",
        description="random, greedy or expert (the web's easy, medium and strong)",
    )


# ----------------------------------------------------------- dependencies


def store_of(request: Request) -> Store:
    return request.app.state.store  # type: ignore[no-any-return]


def hub_of(request: Request) -> RoomHub:
    return request.app.state.hub  # type: ignore[no-any-return]


async def current_player(
    request: Request, taverna_session: Annotated[str | None, Cookie()] = None
) -> dict[str, Any] | None:
    if not taverna_session:
        return None
    return await store_of(request).player_by_token(taverna_session)


async def require_player(
    player: Annotated[dict[str, Any] | None, Depends(current_player)],
) -> dict[str, Any]:
    if player is None:
        raise Refused(401, "no_session", "start a session first: POST /api/session with your name")
    return player


Player = Annotated[dict[str, Any], Depends(require_player)]
#: a seat of a table (0 to 3); a number a client sends is bounded before it is used
SeatNumber = Annotated[int, FastAPIPath(ge=0, le=9, description="the seat, from 0")]
#: the largest number a table setting may be (a target of 10^4000 is no table)
SETTING_MAX = 1_000_000
MaybePlayer = Annotated[dict[str, Any] | None, Depends(current_player)]


# ---------------------------------------------------------------- the app


def create_app(config: Config | None = None) -> FastAPI:
    config = config or Config()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, config.database_url)
        hub = accounts.ClubHub(store, config)
        app.state.store = store
        app.state.hub = hub
        resumed = await hub.open()
        aside = len(await store.tables_set_aside())
        log.info(
            "Taverna %s ready: %d table(s) resumed%s",
            __version__,
            resumed,
            f", {aside} set aside (see /api/health)" if aside else "",
        )
        try:
            yield
        finally:
            hub.close()
            await asyncio.to_thread(store.close)

    app = FastAPI(
        title="Taverna",
        version=__version__,
        description="Muggins dominoes, Muggins cards and Mus: lobby, tables and live play.",
        lifespan=lifespan,
        # the API page is our own (static/api-docs.html): Swagger UI would load from a CDN
        docs_url=None,
        redoc_url=None,
        responses=ERRORS,
    )
    app.state.config = config
    # the club's own pages only, JSON bodies of a bounded size, security headers
    app.add_middleware(Guard, config=config)

    # every error body: {"detail": English, "code": for clients to translate, "params"};
    # a page nobody has, opened in a browser: the site's own "not found" page
    app.add_exception_handler(StarletteHTTPException, _http_error)
    # one readable sentence per problem, naming the field: "turn_seconds: ... at least 5"
    app.add_exception_handler(RequestValidationError, errors.invalid)
    app.add_exception_handler(NotFound, partial(errors.coded, status=404))
    app.add_exception_handler(Conflict, partial(errors.coded, status=409))
    app.add_exception_handler(accounts.TooMany, accounts.too_many)
    # the database away (stopped, cut off, locked): 503 and a plain sentence, never a 500
    for fault in DATABASE_AWAY:
        app.add_exception_handler(fault, _database_away)
    app.include_router(accounts.router, responses=ERRORS)

    # ----------------------------------------------------------- sessions

    @app.post("/api/session", tags=["session"], summary="Start a guest session")
    async def start_session(
        body: SessionIn, request: Request, response: Response
    ) -> dict[str, Any]:
        name = accounts.guest_name(body.name)
        await accounts.check_guest_name(request, name)
        player, token = await store_of(request).create_guest(name)
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="lax",
            secure=config.secure_cookies,
            max_age=60 * 60 * 24 * 30,
        )
        return {"player": player}

    @app.get("/api/session", tags=["session"], summary="Who am I (player null: no session yet)")
    async def get_session(
        player: MaybePlayer,
        request: Request,
        response: Response,
        taverna_session: Annotated[str | None, Cookie()] = None,
    ) -> dict[str, Any]:
        # a first visit is not an error: the page asks before anybody has a name
        if player is None and taverna_session:
            response.delete_cookie(
                COOKIE, httponly=True, samesite="lax", secure=config.secure_cookies
            )  # ended or unknown: forget it
        if player is not None and player.get("registered"):
            # every page's top bar says a member's chips
            hub: accounts.ClubHub = request.app.state.hub
            player = {**player, "chips": await hub.accounts.chips(player["id"])}
        return {"player": player}

    # -------------------------------------------------------------- lobby

    @app.get("/api/games", tags=["lobby"], summary="The games and their settings")
    async def list_games() -> dict[str, Any]:
        out = []
        for name, cls in sorted(GAMES.items()):
            out.append(
                {
                    "game": name,
                    "min_seats": cls.min_seats,
                    "max_seats": cls.max_seats,
                    "defaults": {
                        n: cls.check_settings(n, {})
                        for n in range(cls.min_seats, cls.max_seats + 1)
                    },
                    "settings": cls.setting_specs,
                }
            )
        return {
            "games": out,
            "bots": list(LEVELS),
            "table_defaults": DEFAULT_OPTIONS,
            "table_limits": TABLE_LIMITS,
        }

    @app.get("/api/tables", tags=["lobby"], summary="Open and running public tables")
    async def list_tables(request: Request, game: str | None = None) -> dict[str, Any]:
        name = errors.game_named(game).game if game else None
        tables = await store_of(request).tables(("open", "playing"), name)
        return {"tables": [t.public() for t in tables if t.options.get("public", True)]}

    @app.post("/api/tables", tags=["lobby"], status_code=201, summary="Create a table")
    async def create_table(body: TableIn, request: Request, player: Player) -> dict[str, Any]:
        cls = errors.game_named(body.game, status=422)
        seats = body.seats if body.seats is not None else cls.min_seats
        try:
            settings = cls.check_settings(seats, body.settings)
        except SettingsError as e:
            raise Refused(422, "bad_setting", str(e)) from None
        for key, value in settings.items():
            big = isinstance(value, int | float) and not isinstance(value, bool)
            if big and abs(value) > SETTING_MAX:
                raise Refused(422, "bad_setting", f"{key} must be at most {SETTING_MAX:,}")
        for seat, level in body.bots.items():
            if not 0 <= seat < seats:
                raise Refused(
                    422, "invalid", f"bots: there is no seat {seat} at a {seats}-seat table"
                )
            _check_level(level)
        options = {
            "turn_seconds": body.turn_seconds,
            "muggins_wait": body.muggins_wait,
            "public": body.public,
            **accounts.official_options(body.official, body.stake, body.bots, player),
        }
        if body.bot_forget is not None:
            options["bot_forget"] = body.bot_forget
        store = store_of(request)
        table = await store.create_table(cls.game, seats, settings, options, player)
        for seat, level in sorted(body.bots.items()):
            table = await store.set_seat(table.id, seat, bot=level)
        hub_of(request).lobby_changed()
        return {"table": table.public()}

    @app.get("/api/tables/{table_id}", tags=["lobby"], summary="One table")
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return {"table": (await store_of(request).table(table_id)).public()}

    @app.post("/api/tables/{table_id}/seats/{seat}", tags=["lobby"], summary="Take a seat")
    async def take_seat(
        table_id: str, seat: SeatNumber, request: Request, player: Player
    ) -> dict[str, Any]:
        await accounts.check_official_seat(request, table_id, player)
        table = await store_of(request).set_seat(table_id, seat, player=player)
        await accounts.note_seated(
            hub_of(request), config, table, player["id"], request.headers, request.client
        )
        await _table_changed(request, table)
        return {"table": table.public()}

    @app.delete("/api/tables/{table_id}/seats/{seat}", tags=["lobby"], summary="Leave a seat")
    async def leave_seat(
        table_id: str, seat: SeatNumber, request: Request, player: Player
    ) -> dict[str, Any]:
        store = store_of(request)
        table = await store.table(table_id)
        if not 0 <= seat < table.seat_count:
            raise NotFound(f"table {table_id} has no seat {seat}", "no_seat", seat=seat)
        info = table.seats[seat]
        is_owner = table.owner_id == player["id"]
        if info.player_id != player["id"] and not (
            is_owner and info.bot and table.status == "open"
        ):
            raise Refused(403, "not_your_seat", f"seat {seat} is not yours", seat=seat)
        if table.status == "open":
            table = await store.set_seat(table_id, seat, only_if_empty=False)
        elif table.status == "playing":
            room = await hub_of(request).room(table_id)
            await room.replace_with_bot(seat, reason="left")
            table = room.table
        else:
            raise Conflict(
                f"table {table_id} is {table.status}", "table_not_open", status=table.status
            )
        await _table_changed(request, table)
        return {"table": table.public()}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["lobby"], summary="Seat a bot")
    async def add_bot(
        table_id: str, seat: SeatNumber, body: BotIn, request: Request, player: Player
    ) -> dict[str, Any]:
        _check_level(body.level)
        store = store_of(request)
        table = await store.table(table_id)
        accounts.refuse_bots_at_official(table)
        if table.owner_id != player["id"] and all(s.player_id != player["id"] for s in table.seats):
            raise Refused(403, "not_host", "only the host or a seated player may add bots")
        table = await store.set_seat(table_id, seat, bot=body.level)
        await _table_changed(request, table)
        return {"table": table.public()}

    @app.post("/api/tables/{table_id}/start", tags=["lobby"], summary="Start the game")
    async def start_table(table_id: str, request: Request, player: Player) -> dict[str, Any]:
        store = store_of(request)
        table = await store.table(table_id)
        if table.owner_id != player["id"] and all(s.player_id != player["id"] for s in table.seats):
            raise Refused(403, "not_host", "only the host or a seated player may start the game")
        if table.status != "open":
            raise Conflict(
                f"table {table_id} is {table.status}", "table_not_open", status=table.status
            )
        empty = [s.seat for s in table.seats if s.empty]
        if empty:
            raise Conflict(
                f"every seat must be taken first (empty: {', '.join(map(str, empty))})",
                "seats_empty",
                seats=empty,
            )
        hub = hub_of(request)
        room = await hub.room(table_id)
        room.table = table
        await room.start()
        return {"table": room.table.public()}

    async def _table_changed(request: Request, table: TableInfo) -> None:
        hub = hub_of(request)
        room = hub.rooms.get(table.id)
        if room is not None and room.table.status == "open":
            room.table = table
            room._broadcast_table()
        hub.lobby_changed()

    # ------------------------------------------------------------ history

    @app.get("/api/games/{table_id}/record", tags=["history"], summary="A finished game's record")
    async def game_record(table_id: str, request: Request) -> dict[str, Any]:
        record = await store_of(request).finished_record(table_id)
        if record is None:
            # a running game's record would show every hidden tile: never
            raise Conflict(f"game {table_id} is not finished", "not_finished")
        return {"record": record}

    @app.get(
        "/api/games/{table_id}/replay", tags=["history"], summary="A finished game, step by step"
    )
    async def game_replay(table_id: str, request: Request) -> dict[str, Any]:
        store = store_of(request)
        table = await store.table(table_id)
        record = await store.finished_record(table_id)
        if record is None:
            raise Conflict(f"game {table_id} is not finished", "not_finished")
        steps = await asyncio.to_thread(replay_steps, record)
        return {"table": table.public(), "steps": steps}

    @app.get("/api/history", tags=["history"], summary="Finished games")
    async def history(request: Request, game: str | None = None) -> dict[str, Any]:
        name = errors.game_named(game).game if game else None
        tables = await store_of(request).tables(("finished",), name)
        return {"tables": [t.public() for t in tables if t.options.get("public", True)]}

    # ---------------------------------------------------------- operators

    @app.get(
        "/api/health",
        tags=["operators"],
        summary="Liveness and load; 503 while the database is away",
        responses={503: {"description": "the database does not answer"}},
    )
    async def health(request: Request, response: Response) -> dict[str, Any]:
        hub = hub_of(request)
        store = store_of(request)
        live = sum(1 for r in hub.rooms.values() if r.state is not None and not r.state.over)
        database = await hub.recover() if hub.database_down_since else await store.ping()
        if not database:
            response.status_code = 503
            hub.database_lost()
        return {
            "ok": database,
            "version": __version__,
            "database": "ok" if database else "unavailable",
            "tables": live,
            "connections": hub.connections(),
            # tables whose stored game could not be resumed: kept, and said here until an
            # operator looks at them
            "set_aside": await store.tables_set_aside() if database else None,
        }

    @app.get("/metrics", tags=["operators"], response_class=PlainTextResponse)
    async def metrics(request: Request) -> str:
        hub = hub_of(request)
        live = sum(1 for r in hub.rooms.values() if r.state is not None and not r.state.over)
        return (
            "# TYPE taverna_moves_total counter\n"
            f"taverna_moves_total {hub.moves}\n"
            "# TYPE taverna_tables_live gauge\n"
            f"taverna_tables_live {live}\n"
            "# TYPE taverna_connections gauge\n"
            f"taverna_connections {hub.connections()}\n"
            "# TYPE taverna_bots_thinking gauge\n"
            f"taverna_bots_thinking {hub.thinking}\n"
            "# TYPE taverna_database_up gauge\n"
            f"taverna_database_up {0 if hub.database_down_since is not None else 1}\n"
            "# TYPE taverna_tables_set_aside gauge\n"
            f"taverna_tables_set_aside {hub.set_aside}\n"
        )

    # --------------------------------------------------------- websockets

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        hub: RoomHub = websocket.app.state.hub
        store: Store = websocket.app.state.store
        token = websocket.cookies.get(COOKIE)
        try:
            player = await store.player_by_token(token) if token else None
            room = await hub.room(table_id)
        except NotFound:
            # accepted, then closed with 4404 and a word: a refused handshake reaches a
            # client only as a bare HTTP 403 (docs/protocol.md)
            await _refuse_socket(
                websocket, 4404, _error("no_table", f"there is no table {table_id!r}")
            )
            return
        except DATABASE_AWAY:
            hub.database_lost()
            # 1013, "try again later": the client comes back by itself
            await websocket.close(code=1013, reason="the database is not answering")
            return
        pid = player["id"] if player else None
        address = accounts.client_address(config, websocket.headers, websocket.client)
        admitted = hub.sockets.admit(address, pid)
        if admitted is None:
            await _refuse_socket(websocket, 1008, TOO_MANY_SOCKETS)
            return
        try:
            await _table_session(websocket, hub, room, player)
        finally:
            hub.sockets.release(admitted)

    async def _table_session(
        websocket: WebSocket, hub: RoomHub, room: Room, player: dict[str, Any] | None
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
        conn = Conn(websocket, seat, player["id"] if player else None, config.socket_queue_bytes)
        pump = asyncio.create_task(conn.pump())
        budget = Budget(config.socket_rate)
        joined = False
        try:
            while not conn.cut:
                text = await _receive_text(websocket)
                if text is None:
                    break
                msg = _parse_message(conn, text, config.max_message)
                if msg is None:
                    continue
                kind, mid = msg["type"], msg.get("id")
                # a welcome costs the server more than a move: a hello spends ten
                if not budget.spend(10 if kind == "hello" else 1):
                    if budget.refused > budget.count:
                        await websocket.close(code=1008, reason="too many messages")
                        break
                    conn.send(_error("too_fast", TOO_FAST.format(config.socket_rate), mid))
                    continue
                try:
                    joined = await _table_message(room, conn, msg, joined)
                except Exception:
                    # a bug must not take the connection (or the table) with it
                    log.exception("table %s: a %s message failed", room.table.id, kind)
                    conn.send(_error("server_error", SERVER_ERROR, mid))
        finally:
            if joined:
                room.leave(conn)
            await _stop(conn, pump)

    @app.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        hub: RoomHub = websocket.app.state.hub
        store: Store = websocket.app.state.store
        address = accounts.client_address(config, websocket.headers, websocket.client)
        admitted = hub.sockets.admit(address, None)
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
            conn = Conn(websocket, None, None, config.socket_queue_bytes)
            hub.lobby.add(conn)
            pump = asyncio.create_task(conn.pump())
            conn.send(
                {
                    "type": "tables",
                    "tables": [t.public() for t in tables if t.options.get("public", True)],
                }
            )
            budget = Budget(config.socket_rate)
            try:
                while not conn.cut and await _receive_text(websocket) is not None:
                    if not budget.spend() and budget.refused > budget.count:
                        await websocket.close(code=1008, reason="too many messages")
                        break
            finally:
                hub.lobby.discard(conn)
                await _stop(conn, pump)
        finally:
            hub.sockets.release(admitted)

    # -------------------------------------------------------------- static

    if WEB.is_dir():
        app.mount("/static", StaticFiles(directory=WEB), name="static")

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> FileResponse:
        return FileResponse(WEB / "api-docs.html")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB / "index.html")

    # every page links /favicon.svg; /favicon.ico is what browsers and tools ask for unbidden
    @app.get("/favicon.svg", include_in_schema=False)
    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(
            WEB / "favicon.svg",
            media_type="image/svg+xml",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    return app


class ClubServer(uvicorn.Server):
    """uvicorn for the club: on SIGTERM or SIGINT the tables stop taking moves, store what
    is under way and tell every connection that the server is restarting, before uvicorn
    closes the connections (code 1012, "service restart") and the app shuts down."""

    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.club = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
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


#: refusals that say nothing about the move, only that the server could not take it now
UNAVAILABLE = ("not_stored", "restarting")


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
        return FileResponse(WEB / "index.html", status_code=404)
    return await errors.http_error(request, exc)


def replay_steps(record: dict[str, Any]) -> list[dict[str, Any]]:
    """A finished game's record replayed: for each step, the action, every event and
    the table with all hands revealed (step 0 is the first deal).

    The spectator's view plus each seat's ``hand`` (and, in Mus, its ``discarded``
    cards): what a replay shows once the game is over and nothing is secret.
    """
    rec = parse_record(record)
    state = rec.game.start(rec.seats, rec.settings, rec.deals)

    def step(action: Any, events: list[Any]) -> dict[str, Any]:
        view = state.view(None)
        seat_views = [state.view(s) for s in range(rec.seats)]
        view["hands"] = [v.get("hand", []) for v in seat_views]
        if "discarded" in seat_views[0]:
            view["discarded_by"] = [v["discarded"] for v in seat_views]
        return {
            "action": None if action is None else action.to_json(),
            "events": [event_json(e) for e in events],
            "view": view,
        }

    steps = [step(None, state.initial_events)]
    for action in rec.actions:
        steps.append(step(action, state.apply(action)))
    # JSON keys of private parts are strings; a round trip makes the answer plain JSON
    plain: list[dict[str, Any]] = json.loads(json.dumps(steps))
    return plain


TOO_FAST = "too many messages: at most {} (count/seconds), a hello counting ten"
SERVER_ERROR = "the server failed on that message; nothing changed (it is logged)"


def _parse_message(conn: Conn, text: str, limit: int) -> dict[str, Any] | None:
    """A client message as an object with a string ``type``; else the client hears why."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limit:
        conn.send(_error("too_large", f"message of {size} bytes; the limit is {limit}"))
        return None
    try:
        msg = json.loads(text)
    except json.JSONDecodeError as e:
        conn.send(_error("bad_json", f"not JSON: {e.msg} at character {e.pos}"))
        return None
    except RecursionError:
        conn.send(_error("bad_json", "not JSON this server reads: nested too deep"))
        return None
    except ValueError as e:  # a number of more than 4,300 digits
        conn.send(_error("bad_json", f"not JSON this server reads: {e}"))
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
        conn.send(_error("bad_message", "a message is an object with a string 'type'"))
        return None
    return msg


async def _table_message(room: Room, conn: Conn, msg: dict[str, Any], joined: bool) -> bool:
    """Answer one message of a table's socket; whether the connection has joined now."""
    kind, mid = msg["type"], msg.get("id")
    if kind == "hello":
        last = msg.get("last_seq")
        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
            conn.send(_error("bad_message", "last_seq must be a whole number", mid))
        elif joined:
            conn.send(room._welcome(conn, last))
        else:
            await room.join(conn, last)
            return True
    elif kind == "act":
        if not joined:
            conn.send(_error("not_joined", "say hello first", mid))
        elif conn.seat is None:
            conn.send(_error("spectator", "spectators cannot act", mid))
        elif room.bot_plays(conn.seat):
            conn.send(_error("replaced", "a bot plays this seat now", mid))
        elif "action" not in msg:
            conn.send(_error("bad_message", "an act message needs an 'action'", mid))
        else:
            ok, why = await room.submit(conn.seat, msg["action"])
            if not ok and why is not None:
                code = "unavailable" if why.reason in UNAVAILABLE else "illegal"
                conn.send(_error(code, why.message, mid, why.reason, why.params))
            elif mid is not None:
                conn.send({"type": "ack", "id": mid, "seq": room.seq})
    elif kind == "ping":
        conn.send({"type": "pong", "id": mid})
    else:
        conn.send(_error("unknown_type", f"unknown message type {kind!r} (hello, act, ping)", mid))
    return joined


async def _stop(conn: Conn, pump: asyncio.Task[None]) -> None:
    """End a connection's sender; one cut off is given a moment to say so (1008)."""
    if conn.cut and not pump.done():
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


def _error(
    code: str,
    message: str,
    mid: Any = None,
    reason: str | None = None,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reason is not None:
        # what kind of refusal, and its facts: a client says it in its own language
        out["reason"] = reason
        out["params"] = params or {}
    if mid is not None:
        out["id"] = mid
    return out


def _check_level(level: str) -> None:
    # only our own levels: a remote user must never make the server import a module
    if level not in LEVELS:
        raise Refused(
            422, "unknown_bot", f"unknown bot level {level!r} (choose {', '.join(LEVELS)})"
        )


TOO_MANY_SOCKETS = _error(
    "too_many_connections",
    "too many connections at once from your address or your session: close some tabs",
)
