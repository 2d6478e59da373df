"""The lobby over HTTP: the games, the tables, their seats and their start."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ..bots import ALIASES, LEVELS, ratings
from ..bots.levels import DEFAULT
from ..games import GAMES, SettingsError, short_names
from ..games.base import State
from ..store.errors import Conflict, NotFound
from ..store.tables import TableInfo
from . import club, errors
from .deps import Player, SeatNumber, config_of, hub_of, store_of
from .errors import Refused
from .pages import web_facts
from .table import DEFAULT_OPTIONS

router = APIRouter(tags=["lobby"])

#: the largest number a table setting may be (a target of 10^4000 is no table)
SETTING_MAX = 1_000_000


class TableIn(BaseModel):
    game: str = Field(description=f"the game's record name or alias: {short_names()}")
    seats: int | None = Field(default=None, description="seat count (default: the game's own)")
    settings: dict[str, Any] = Field(default_factory=dict, description="the game's settings")
    turn_seconds: int = Field(default=30, ge=5, le=600)
    muggins_wait: float = Field(default=3, ge=0, le=30)
    official: bool = Field(default=False, description="ranked, for a stake, registered humans")
    stake: int | None = Field(default=None, ge=1, le=1_000_000, description="official: chips")
    public: bool = Field(default=True, description="listed in the lobby and open to spectators")
    chat: bool = Field(
        default=True, description="people may chat at the table (the host may switch it)"
    )
    bots: dict[int, str | int] = Field(
        default_factory=dict,
        description="seat -> bot level: 1 (a beginner) to 8 (the strongest), as a number or "
        "text; random, greedy and expert name levels 1, 4 and 7",
    )
    hints: bool = Field(
        default=False,
        description="casual tables: a seated player may ask the strong bot for a hint "
        "(its move from the seat's view, and why); never at official tables",
    )
    bot_forget: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="practice tables: the chance that this table's bots forget a claim or a "
        "Muggins! call (default: each level's own)",
    )


def table_settings(cls: type[State], seats: int, given: dict[str, Any]) -> dict[str, Any]:
    """A table's settings as the game allows them (its declared limits,
    ``State.check_settings``) and within :data:`SETTING_MAX`, with the game's defaults
    filled in; Refused 422 ``bad_setting`` saying why not. A tournament's tables are
    tables: their settings pass here too."""
    try:
        settings = cls.check_settings(seats, given)
    except SettingsError as e:
        raise Refused(422, "bad_setting", str(e)) from None
    for key, value in settings.items():
        big = isinstance(value, int | float) and not isinstance(value, bool)
        if big and abs(value) > SETTING_MAX:
            raise Refused(
                422,
                "bad_setting",
                f"{key} must be at most {SETTING_MAX:,}, not {value!r}",
                setting=key,
                limit=SETTING_MAX,
            )
    return settings


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


class BotIn(BaseModel):
    level: str | int = Field(
        default=str(DEFAULT),
        description="1 (a beginner) to 8 (the strongest), as a number or text; random, "
        "greedy and expert name levels 1, 4 and 7",
    )


@router.get("/api/games", tags=["lobby"], summary="The games and their settings")
async def list_games(request: Request) -> dict[str, Any]:
    # each game as it declares itself (taverna.games.base.State.facts), and where a
    # page finds its board module and strings
    parts = request.app.state.game_parts
    config = config_of(request)
    out = [
        {
            **cls.facts(),
            "web": web_facts(cls.game, parts.get(cls.game)),
            # each level's rating as measured (taverna ladder): the lobby says "Level 5 ·
            # about 1650"; none for a game not measured
            "bot_ratings": {
                str(level): {"rating": round(r), "rd": round(rd)}
                for level, (r, rd) in ratings.level_ratings(cls.game).items()
            },
        }
        for cls in GAMES.values()
    ]
    return {
        "games": out,
        # the bot levels, weakest first, the one a seat gets by default, and the names
        # the levels had before they were numbered (a table stored then still says them)
        "bots": list(LEVELS),
        "bot_default": str(DEFAULT),
        "bot_aliases": {name: str(n) for name, n in ALIASES.items()},
        "table_defaults": DEFAULT_OPTIONS,
        "table_limits": TABLE_LIMITS,
        # how often the web client pings its sockets, and how long it waits for the pong
        # before it takes a socket for dead and opens another (docs/protocol.md)
        "keepalive": {
            "ping_every": config.client_ping_every,
            "pong_within": config.client_pong_within,
        },
    }


@router.get("/api/tables", tags=["lobby"], summary="Open and running public tables")
async def list_tables(request: Request, game: str | None = None) -> dict[str, Any]:
    name = errors.game_named(game).game if game else None
    tables = await store_of(request).tables(("open", "playing"), name)
    return {"tables": [t.public() for t in tables if t.options.get("public", True)]}


@router.post("/api/tables", tags=["lobby"], status_code=201, summary="Create a table")
async def create_table(body: TableIn, request: Request, player: Player) -> dict[str, Any]:
    cls = errors.game_named(body.game, status=422)
    seats = body.seats if body.seats is not None else cls.default_seats
    settings = table_settings(cls, seats, body.settings)
    bots: dict[int, str] = {}
    for seat, level in body.bots.items():
        if not 0 <= seat < seats:
            raise Refused(422, "invalid", f"bots: there is no seat {seat} at a {seats}-seat table")
        bots[seat] = errors.bot_level(level)
    options = {
        "turn_seconds": body.turn_seconds,
        "muggins_wait": body.muggins_wait,
        "public": body.public,
        "chat": body.chat,
        **club.official_options(body.official, body.stake, bots, player),
    }
    if body.bot_forget is not None:
        options["bot_forget"] = body.bot_forget
    if body.hints:
        if body.official:
            raise Refused(422, "hints_official", "official tables give no hints; casual ones may")
        options["hints"] = True
    store = store_of(request)
    table = await store.create_table(cls.game, seats, settings, options, player)
    for seat, level in sorted(bots.items()):
        table = await store.set_seat(table.id, seat, bot=level)
    hub_of(request).lobby_changed()
    return {"table": table.public()}


@router.get("/api/tables/{table_id}", tags=["lobby"], summary="One table")
async def get_table(table_id: str, request: Request) -> dict[str, Any]:
    return {"table": (await store_of(request).table(table_id)).public()}


@router.post("/api/tables/{table_id}/seats/{seat}", tags=["lobby"], summary="Take a seat")
async def take_seat(
    table_id: str, seat: SeatNumber, request: Request, player: Player
) -> dict[str, Any]:
    await club.check_official_seat(request, table_id, player)
    table = await store_of(request).set_seat(table_id, seat, player=player)
    await club.note_seated(
        hub_of(request), config_of(request), table, player["id"], request.headers, request.client
    )
    await _table_changed(request, table)
    return {"table": table.public()}


@router.delete("/api/tables/{table_id}/seats/{seat}", tags=["lobby"], summary="Leave a seat")
async def leave_seat(
    table_id: str, seat: SeatNumber, request: Request, player: Player
) -> dict[str, Any]:
    store = store_of(request)
    table = await store.table(table_id)
    if not 0 <= seat < table.seat_count:
        raise NotFound(f"table {table_id} has no seat {seat}", "no_seat", seat=seat)
    info = table.seats[seat]
    is_owner = table.owner_id == player["id"]
    if info.player_id != player["id"] and not (is_owner and info.bot and table.status == "open"):
        raise Refused(403, "not_your_seat", f"seat {seat} is not yours", seat=seat)
    if table.status == "open":
        table = await store.set_seat(table_id, seat, only_if_empty=False)
    elif table.status == "playing":
        table = await hub_of(request).leave_game(table_id, seat)
    else:
        raise Conflict(f"table {table_id} is {table.status}", "table_not_open", status=table.status)
    await _table_changed(request, table)
    return {"table": table.public()}


@router.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["lobby"], summary="Seat a bot")
async def add_bot(
    table_id: str, seat: SeatNumber, body: BotIn, request: Request, player: Player
) -> dict[str, Any]:
    level = errors.bot_level(body.level)
    store = store_of(request)
    table = await store.table(table_id)
    club.refuse_bots_at_official(table)
    if table.owner_id != player["id"] and all(s.player_id != player["id"] for s in table.seats):
        raise Refused(403, "not_host", "only the host or a seated player may add bots")
    table = await store.set_seat(table_id, seat, bot=level)
    await _table_changed(request, table)
    return {"table": table.public()}


@router.post("/api/tables/{table_id}/start", tags=["lobby"], summary="Start the game")
async def start_table(table_id: str, request: Request, player: Player) -> dict[str, Any]:
    store = store_of(request)
    table = await store.table(table_id)
    if table.owner_id != player["id"] and all(s.player_id != player["id"] for s in table.seats):
        raise Refused(403, "not_host", "only the host or a seated player may start the game")
    if table.status != "open":
        raise Conflict(f"table {table_id} is {table.status}", "table_not_open", status=table.status)
    empty = [s.seat for s in table.seats if s.empty]
    if empty:
        raise Conflict(
            f"every seat must be taken first (empty: {', '.join(map(str, empty))})",
            "seats_empty",
            seats=empty,
        )
    return {"table": await hub_of(request).start_table(table_id, table)}


async def _table_changed(request: Request, table: TableInfo) -> None:
    hub_of(request).table_changed(table)
