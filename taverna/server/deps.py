"""What the HTTP routes share: the store, the hub and the config of the app, and who
the request's player is (the session cookie)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Cookie, Depends, Request
from fastapi import Path as FastAPIPath

from ..store.repo import Store
from .config import Config
from .errors import Refused
from .hub import RoomHub

COOKIE = "taverna_session"


def config_of(request: Request) -> Config:
    return request.app.state.config  # type: ignore[no-any-return]


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


#: what a banned account may still do besides looking: end its session
BANNED_MAY = frozenset({"/api/logout"})


async def require_player(
    request: Request,
    player: Annotated[dict[str, Any] | None, Depends(current_player)],
) -> dict[str, Any]:
    if player is None:
        raise Refused(401, "no_session", "start a session first: POST /api/session with your name")
    banned = player.get("banned")
    if banned and request.method not in ("GET", "HEAD") and request.url.path not in BANNED_MAY:
        # a moderator's ban: no sitting, playing nor chatting, and said why and until when
        raise Refused(
            403,
            "banned",
            f"your account is banned until {banned['until']}: {banned['reason']}",
            until=banned["until"],
            reason=banned["reason"],
        )
    return player


Player = Annotated[dict[str, Any], Depends(require_player)]
#: a seat of a table (0 to 3); a number a client sends is bounded before it is used
SeatNumber = Annotated[int, FastAPIPath(ge=0, le=9, description="the seat, from 0")]
MaybePlayer = Annotated[dict[str, Any] | None, Depends(current_player)]
