"""What operators look at: health and metrics."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import PlainTextResponse

from .. import __version__
from .deps import hub_of, store_of

router = APIRouter(tags=["operators"])


@router.get(
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


@router.get("/metrics", tags=["operators"], response_class=PlainTextResponse)
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
