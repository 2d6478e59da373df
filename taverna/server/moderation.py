"""Moderation (PLATFORM.md, Moderation): moderators — accounts an operator made so with
``taverna admin grant NAME moderator`` — see the reported chat messages and the pairs of
accounts worth a look, and ban an account (no sitting, playing nor chatting) or silence
it (no chatting: a mute for everyone, not the personal mute of the table chat) for a
time, or lift either. Every action is logged with who and why; an action asked by
anyone else is refused (403) and logged too.

A ban or silence holds on every node at once: the HTTP routes read it with the session
(:func:`~.deps.require_player`), and the table sockets keep each connected account's
restrictions in :attr:`RoomHub.restricted` (:mod:`.restrictions`), refreshed when the
account connects and when a moderator acts (told to the other nodes over Redis).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field, field_validator

from ..store.moderation import ModerationStore
from . import text
from .deps import Player, hub_of, store_of
from .errors import Refused
from .pages import CLUB, page
from .passwords import username_key
from .restrictions import active, restricted

router = APIRouter(tags=["moderation"])
log = logging.getLogger("taverna.moderation")

#: the longest reason a moderator gives, in characters (``players.ban_reason``)
REASON_LENGTH = 300


def _store(request: Request) -> ModerationStore:
    return ModerationStore(store_of(request))


async def _moderator(request: Request, player: dict[str, Any], action: str) -> None:
    """Refuse (403) and log an action asked by an account that is not a moderator."""
    store = _store(request)
    if not await store.is_moderator(player["id"]):
        await store.log(player["id"], action, allowed=False, reason="not a moderator")
        log.warning("refused %s to %s: not a moderator", action, player.get("name"))
        raise Refused(403, "not_moderator", "only a moderator may do that")


class LiftIn(BaseModel):
    player: str = Field(max_length=40, description="the account's username")
    reason: str = Field(min_length=1, max_length=300, description="why (told to the account)")

    @field_validator("player")
    @classmethod
    def _player(cls, value: str) -> str:
        return text.word(value, "a username")

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str) -> str:
        return text.prose(value, "a reason", REASON_LENGTH)


class RestrictIn(LiftIn):
    minutes: int = Field(ge=1, le=60 * 24 * 365 * 10, description="how long")


async def _restrict(
    request: Request, player: dict[str, Any], what: str, who: str, until: datetime | None, why: str
) -> dict[str, Any]:
    await _moderator(request, player, what if until else f"lift_{what}")
    done = await _store(request).restrict(player["id"], username_key(who), what, until, why)
    told = {
        "banned": active(done["banned_until"], done["ban_reason"]),
        "silenced": active(done["silenced_until"], done["silence_reason"]),
    }
    restricted(hub_of(request), done["id"], told)
    log.info("%s: %s %s until %s (%s)", player.get("name"), what, done["name"], until, why)
    return {"player": done}


@router.post("/api/moderation/ban", summary="Ban an account for a time (moderators)")
async def ban(body: RestrictIn, request: Request, player: Player) -> dict[str, Any]:
    until = datetime.now(UTC) + timedelta(minutes=body.minutes)
    return await _restrict(request, player, "ban", body.player, until, body.reason)


@router.post("/api/moderation/silence", summary="Silence an account for a time (moderators)")
async def silence(body: RestrictIn, request: Request, player: Player) -> dict[str, Any]:
    until = datetime.now(UTC) + timedelta(minutes=body.minutes)
    return await _restrict(request, player, "silence", body.player, until, body.reason)


@router.post("/api/moderation/unban", summary="Lift a ban (moderators)")
async def unban(body: LiftIn, request: Request, player: Player) -> dict[str, Any]:
    return await _restrict(request, player, "ban", body.player, None, body.reason)


@router.post("/api/moderation/unsilence", summary="Lift a silence (moderators)")
async def unsilence(body: LiftIn, request: Request, player: Player) -> dict[str, Any]:
    return await _restrict(request, player, "silence", body.player, None, body.reason)


@router.get("/api/moderation/reports", summary="Reported chat messages (moderators)")
async def reports(request: Request, player: Player) -> dict[str, Any]:
    await _moderator(request, player, "see_reports")
    return {"reports": await _store(request).reports()}


@router.get("/api/moderation/suspicious", summary="Pairs of accounts worth a look (moderators)")
async def suspicious(
    request: Request,
    player: Player,
    min_tables: Annotated[int, Query(ge=1, le=1000)] = 3,
) -> dict[str, Any]:
    await _moderator(request, player, "see_suspicious")
    return {"pairs": await _store(request).suspicious(min_tables)}


@router.get("/api/moderation/log", summary="Every moderator's action (moderators)")
async def moderation_log(request: Request, player: Player) -> dict[str, Any]:
    await _moderator(request, player, "see_log")
    return {"entries": await _store(request).entries()}


@router.get("/moderation", include_in_schema=False)
async def moderation_page(request: Request) -> Response:
    return page(request, CLUB / "moderation.html")
