"""What operators look at: health and metrics (docs/operations.md)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from .. import __version__
from .deps import config_of, hub_of, store_of

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
    database = await hub.recover() if hub.database_down_since else await store.ping()
    if not database:
        response.status_code = 503
        hub.database_lost()
    answer: dict[str, Any] = {
        "ok": database,
        "node": config_of(request).node,
        "version": __version__,
        "database": "ok" if database else "unavailable",
        "tables": hub.tables_live(),
        "connections": hub.connections(),
        # tables whose stored game could not be resumed: kept, and said here until an
        # operator looks at them
        "set_aside": await store.tables_set_aside() if database else None,
    }
    if hub.cluster is not None:
        answer["cluster"] = await hub.cluster.health()
    if hub.bot_queue is not None:
        # a node with Redis: the strong bots' queue and the workers seen (docs/scaling.md)
        answer["bots"] = hub.bot_queue.health()
    return answer


@router.get(
    "/metrics",
    tags=["operators"],
    summary="This node's figures, in Prometheus's text format",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}}},
)
async def metrics(request: Request) -> Response:
    body, media_type = hub_of(request).metrics.exposition(request.headers.get("accept"))
    return Response(body, media_type=media_type)
