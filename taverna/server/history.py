"""Finished games: the list, each one's record and its replay, step by step."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request

from ..games.record import replay_steps
from ..store.errors import Conflict
from . import errors
from .deps import store_of

router = APIRouter(tags=["history"])


@router.get("/api/games/{table_id}/record", tags=["history"], summary="A finished game's record")
async def game_record(table_id: str, request: Request) -> dict[str, Any]:
    record = await store_of(request).finished_record(table_id)
    if record is None:
        # a running game's record would show every hidden tile: never
        raise Conflict(f"game {table_id} is not finished", "not_finished")
    return {"record": record}


@router.get(
    "/api/games/{table_id}/replay", tags=["history"], summary="A finished game, step by step"
)
async def game_replay(table_id: str, request: Request) -> dict[str, Any]:
    store = store_of(request)
    table = await store.table(table_id)
    record = await store.finished_record(table_id)
    if record is None:
        raise Conflict(f"game {table_id} is not finished", "not_finished")
    steps = await asyncio.to_thread(replay_steps, record)
    # Mus señas (docs/rules.md §3.8.3): none is secret once the game is over; each shown at its
    # moment (``after``: the step it follows)
    return {"table": table.public(), "steps": steps, "signals": record.get("signals", [])}


@router.get("/api/history", tags=["history"], summary="Finished games")
async def history(request: Request, game: str | None = None) -> dict[str, Any]:
    name = errors.game_named(game).game if game else None
    tables = await store_of(request).tables(("finished",), name)
    return {"tables": [t.public() for t in tables if t.options.get("public", True)]}
