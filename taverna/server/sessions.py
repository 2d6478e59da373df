"""Guest sessions: a name and a cookie (accounts are in :mod:`.accounts`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Request, Response
from pydantic import BaseModel, Field, field_validator

from . import club, text
from .deps import COOKIE, MaybePlayer, config_of

router = APIRouter(tags=["session"])


class SessionIn(BaseModel):
    name: str = Field(min_length=1, max_length=40, description="the name others see")

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return text.name(value)


@router.post("/api/session", tags=["session"], summary="Start a guest session")
async def start_session(body: SessionIn, request: Request, response: Response) -> dict[str, Any]:
    player, token = await club.new_guest(request, body.name)
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=config_of(request).secure_cookies,
        max_age=60 * 60 * 24 * 30,
    )
    return {"player": player}


@router.get("/api/session", tags=["session"], summary="Who am I (player null: no session yet)")
async def get_session(
    player: MaybePlayer,
    request: Request,
    response: Response,
    taverna_session: Annotated[str | None, Cookie()] = None,
) -> dict[str, Any]:
    # a first visit is not an error: the page asks before anybody has a name
    if player is None and taverna_session:
        response.delete_cookie(
            COOKIE, httponly=True, samesite="lax", secure=config_of(request).secure_cookies
        )  # ended or unknown: forget it
    if player is not None and player.get("registered"):
        # every page's top bar says a member's chips
        hub = club.club_of(request)
        player = {**player, "chips": await hub.accounts.chips(player["id"])}
    return {"player": player}
