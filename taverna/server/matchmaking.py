"""Finding a game without setting a table up: play again, play now (PLATFORM.md, Table
life).

- **Play again**: after a game, any of its players asks for a new game at the same seats
  with the same settings. The first who asks makes the table (its bots sit at once, each
  person's seat is kept for them for a while); the others find it through the finished
  table's ``again`` and take their seats. The game starts when every seat is taken: at a
  table of one person and bots, that is the click itself.
- **Play now**, per game: a free seat at a public casual table that is waiting for
  players, else a new table whose empty seats go to bots of the chosen level (unless
  one is chosen, the level whose measured rating is nearest the player's own,
  :mod:`taverna.bots.ratings`) after a short wait (:data:`Config.play_now_wait`). Every
  node looks for such tables that are due (:func:`fill_due_tables`), so the wait ends even
  if the node that made the table is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from .. import glicko2
from ..bots import ratings
from ..bots.levels import DEFAULT
from ..store.errors import Conflict, NotFound
from ..store.tables import TableInfo
from . import club, errors
from .deps import Player, config_of, hub_of, store_of
from .errors import Refused
from .hub import RoomHub

router = APIRouter(tags=["lobby"])
log = logging.getLogger("taverna.matchmaking")

#: seconds between two looks for play-now tables whose wait is over
FILL_EVERY = 1.0
#: chips each player stakes at a "play ranked" table unless they choose
RANKED_STAKE = 10


@router.post(
    "/api/tables/{table_id}/again",
    tags=["lobby"],
    summary="Play again: a new game at the same seats with the same settings",
)
async def play_again(table_id: str, request: Request, player: Player) -> dict[str, Any]:
    store, hub = store_of(request), hub_of(request)
    old = await store.table(table_id)
    seat = next((s.seat for s in old.seats if s.player_id == player["id"]), None)
    if seat is None:
        raise Refused(
            403, "not_at_table", "only who played at this table may ask to play again there"
        )
    if old.status != "finished":
        raise Conflict(
            f"table {table_id} is {old.status}: play again once it is finished",
            "table_not_finished",
            status=old.status,
        )
    new = await store.again_table(table_id, player, config_of(request).again_hold)
    if old.again is None:
        hub.table_changed_anywhere(await store.table(table_id))  # its players are offered
    if new.seats[seat].player_id != player["id"]:
        await club.check_official_seat(request, new.id, player)
        try:
            new = await store.set_seat(new.id, seat, player=player)
        except Conflict as e:
            if e.code != "already_seated":
                raise
            new = await store.table(new.id)
        await club.note_seated(
            hub, config_of(request), new, player["id"], request.headers, request.client
        )
        hub.table_changed(new)
    return {"table": await _start_if_full(hub, new)}


class PlayNowIn(BaseModel):
    game: str = Field(description="the game's record name or alias")
    level: str | int | None = Field(
        default=None,
        description="the level of the bots that take the empty seats of a new table after "
        "the wait: 1 (a beginner) to 8 (the strongest); random, greedy and expert name "
        "levels 1, 4 and 7. None: the level whose measured rating in the game is nearest "
        "the player's own (a newcomer's 1500 without one)",
    )


@router.post("/api/play-now", tags=["lobby"], summary="Play now: a seat at a game, at once")
async def play_now(body: PlayNowIn, request: Request, player: Player) -> dict[str, Any]:
    cls = errors.game_named(body.game, status=422)
    store, hub, config = store_of(request), hub_of(request), config_of(request)
    if body.level is None:
        level = str(await level_for(hub, player, cls.game))
    else:
        level = errors.bot_level(body.level)
    waiting = await store.tables(("open",), cls.game)
    for table in sorted(waiting, key=lambda t: t.created_at):
        if any(s.player_id == player["id"] for s in table.seats):
            return {"table": table.public(), "seat": _seat_of(table, player["id"])}
    for table in sorted(waiting, key=lambda t: t.created_at):
        if not _welcoming(table):
            continue
        for seat in (s.seat for s in table.seats if s.empty):
            if table.reserved_for(seat) is not None:
                continue
            try:
                seated = await store.set_seat(table.id, seat, player=player)
            except (Conflict, NotFound):
                continue  # taken meanwhile, or gone: the next one
            hub.table_changed(seated)
            return {"table": await _start_if_full(hub, seated), "seat": seat}
    settings = cls.check_settings(cls.default_seats, {})
    options = {
        "turn_seconds": 30,
        "muggins_wait": 3,
        "public": True,
        "play_now": {"level": level, "fill_at": time.time() + config.play_now_wait},
    }
    table = await store.create_table(cls.game, cls.default_seats, settings, options, player)
    table = await store.set_seat(table.id, 0, player=player)
    hub.lobby_changed()
    return {"table": table.public(), "seat": 0}


async def player_rating(hub: RoomHub, player: dict[str, Any], game: str) -> float:
    """``player``'s skill rating in ``game``: a newcomer's (1500) for a guest or a player
    not rated yet."""
    accounts_store = getattr(hub, "accounts", None)
    if accounts_store is None or not player.get("registered"):
        return glicko2.START
    skills = await accounts_store.skills(player["id"])
    return float(skills.get(game, {}).get("rating", glicko2.START))


async def level_for(hub: RoomHub, player: dict[str, Any], game: str) -> int:
    """The bots' level for ``player`` at play now: the one whose measured rating in
    ``game`` is nearest the player's (:func:`ratings.nearest_level`), else the default."""
    nearest = ratings.nearest_level(game, await player_rating(hub, player, game))
    return DEFAULT if nearest is None else nearest


class PlayRankedIn(BaseModel):
    game: str = Field(description="the game's record name or alias")
    stake: int = Field(default=RANKED_STAKE, ge=1, le=1_000_000, description="chips each")


@router.post(
    "/api/play-ranked",
    tags=["lobby"],
    summary="Play ranked: an official table of registered players near your rating",
)
async def play_ranked(body: PlayRankedIn, request: Request, player: Player) -> dict[str, Any]:
    """A seat at an official table (no bots) that waits for registered players whose
    skill rating is near this player's, else a new one that waits for them. The window
    of "near" widens the longer the table has waited (:func:`rating_window`); the game
    starts when the table is full."""
    cls = errors.game_named(body.game, status=422)
    if not player.get("registered"):
        raise Refused(403, "not_registered", "ranked games are for registered players: log in")
    store, hub = store_of(request), hub_of(request)
    mine = await player_rating(hub, player, cls.game)
    waiting = sorted(await store.tables(("open",), cls.game), key=lambda t: t.created_at)
    for table in waiting:
        if any(s.player_id == player["id"] for s in table.seats):
            return {"table": table.public(), "seat": _seat_of(table, player["id"])}
    now = time.time()
    for table in waiting:
        ranked = table.options.get("ranked")
        if not isinstance(ranked, dict) or table.options.get("stake") != body.stake:
            continue
        if not any(s.empty for s in table.seats):
            continue
        waited = now - float(ranked.get("since", now))
        if abs(mine - float(ranked.get("rating", 1500.0))) > rating_window(waited):
            continue
        seat = next(s.seat for s in table.seats if s.empty)
        await club.check_official_seat(request, table.id, player)
        try:
            seated = await store.set_seat(table.id, seat, player=player)
        except (Conflict, NotFound):
            continue
        await club.note_seated(
            hub, config_of(request), seated, player["id"], request.headers, request.client
        )
        hub.table_changed(seated)
        return {"table": await _start_if_full(hub, seated), "seat": seat}
    options = {
        "turn_seconds": 30,
        "muggins_wait": 3,
        "public": True,
        **club.official_options(True, body.stake, {}, player),
        "ranked": {"rating": round(mine, 1), "since": now},
    }
    settings = cls.check_settings(cls.default_seats, {})
    table = await store.create_table(cls.game, cls.default_seats, settings, options, player)
    await club.check_official_seat(request, table.id, player)
    table = await store.set_seat(table.id, 0, player=player)
    await club.note_seated(
        hub, config_of(request), table, player["id"], request.headers, request.client
    )
    hub.lobby_changed()
    return {"table": table.public(), "seat": 0}


def rating_window(waited: float) -> float:
    """How far apart two ratings may be to meet at a ranked table that has waited
    ``waited`` seconds: 150 points at once, 50 more every 10 seconds, anyone after two
    minutes (better a game than an empty room)."""
    if waited >= 120:
        return float("inf")
    return 150.0 + 50.0 * (waited // 10)


def _seat_of(table: TableInfo, player_id: str) -> int | None:
    return next((s.seat for s in table.seats if s.player_id == player_id), None)


def _welcoming(table: TableInfo) -> bool:
    """A table "play now" may seat a stranger at: public, casual, waiting, a seat free."""
    o = table.options
    return (
        table.status == "open"
        and bool(o.get("public", True))
        and not o.get("official")
        and any(s.empty for s in table.seats)
    )


async def _start_if_full(hub: RoomHub, table: TableInfo) -> dict[str, Any]:
    """Start a table whose every seat is taken (a game starts when the seats are full,
    PLATFORM.md); the table as it is then. Started by somebody else meanwhile: as is."""
    if table.status != "open" or any(s.empty for s in table.seats):
        return table.public()
    try:
        return await hub.start_table(table.id, table)
    except Conflict:
        return (await hub.store.table(table.id)).public()


async def fill_due_tables(hub: RoomHub, now: float | None = None) -> int:
    """Play now: seat bots in the empty seats of every table whose wait is over, and
    start every such table that is full; how many were started here."""
    now = time.time() if now is None else now
    started = 0
    for table_id, options in await hub.store.open_tables_options():
        wanted = options.get("play_now")
        if not isinstance(wanted, dict):
            continue
        table = await hub.store.table(table_id)
        if float(wanted.get("fill_at", 0)) <= now:
            level = str(wanted.get("level", DEFAULT))
            for seat in [s.seat for s in table.seats if s.empty]:
                with contextlib.suppress(Conflict, NotFound):
                    table = await hub.store.set_seat(table.id, seat, bot=level)
            hub.table_changed(table)
        if all(not s.empty for s in table.seats):
            before = table.status
            answer = await _start_if_full(hub, table)
            started += before == "open" and answer.get("status") == "playing"
    return started


async def keep_filling(hub: RoomHub) -> None:
    """The node's loop of :func:`fill_due_tables` (every node runs one: the first to find
    a table due fills it; the others find its seats taken)."""
    while not hub.closing:
        await asyncio.sleep(FILL_EVERY)
        try:
            await fill_due_tables(hub)
        except Exception:  # the database is away: the next look tries again
            log.debug("play now: could not look for tables due", exc_info=True)
