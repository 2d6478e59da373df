"""A table's chat over HTTP: its messages (the replay page), the host's switch, and
reports for the moderators. The messages themselves travel on the table's socket
(taverna.server.chat; docs/protocol.md, Chat)."""

from __future__ import annotations

import hashlib
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, field_validator

from ..store.errors import NotFound
from ..store.tables import TableInfo
from . import text
from .chat import PLAYERS, SPECTATORS
from .deps import MaybePlayer, Player, hub_of, store_of
from .errors import Refused
from .gate import client_address
from .table import seat_at

router = APIRouter(tags=["chat"])

#: the most messages one answer carries (the newest)
HISTORY = 1000


class ChatSwitch(BaseModel):
    on: bool = Field(description="whether people may chat at the table")


class ReportIn(BaseModel):
    reason: str | None = Field(default=None, max_length=200, description="why, in a few words")

    @field_validator("reason")
    @classmethod
    def _reason(cls, value: str | None) -> str | None:
        if value is None:
            return None
        try:
            return text.prose(value, "a reason", 200)
        except text.TextProblem as e:
            if e.problem == "blank":
                return None  # only spaces: a report without a reason
            raise


def rooms_for(table: TableInfo, player_id: str | None) -> list[str]:
    """The rooms of a table's chat that a person may read: a seated player the players'
    only while the game is not over; anybody else (and everybody once it is) both."""
    over = table.status not in ("open", "playing")
    if not over and seat_at(table, player_id) is not None:
        return [PLAYERS]
    return [PLAYERS, SPECTATORS]


@router.get("/api/tables/{table_id}/chat", summary="A table's chat")
async def table_chat(table_id: str, request: Request, player: MaybePlayer) -> dict[str, Any]:
    """The chat of a table that the session may read (a finished table's: both rooms),
    oldest first; the newest 1,000 messages at most."""
    store = store_of(request)
    table = await store.table(table_id)
    rooms = rooms_for(table, player["id"] if player else None)
    return {"rooms": rooms, "messages": await store.chat(table_id, rooms, HISTORY)}


@router.put("/api/tables/{table_id}/chat", summary="Turn a table's chat off or on")
async def switch_chat(
    table_id: str, body: ChatSwitch, request: Request, player: Player
) -> dict[str, Any]:
    """The host's switch (the table's option ``chat``); everybody at the table sees the
    change in a ``table`` message."""
    store = store_of(request)
    table = await store.table(table_id)
    if table.owner_id != player["id"]:
        raise Refused(403, "host_only", "only the host of the table may turn its chat off or on")
    table = await store.set_option(table_id, "chat", body.on)
    await hub_of(request).options_changed(table)
    return {"table": table.public()}


@router.post("/api/tables/{table_id}/chat/{message_id}/report", summary="Report a chat message")
async def report_message(
    table_id: str, message_id: int, body: ReportIn, request: Request, player: Player
) -> dict[str, Any]:
    """Keep a message for the moderators. Only a person who could read it may report it;
    reporting it again changes nothing (``new``: whether this report is the first)."""
    store = store_of(request)
    found = await store.chat_message(message_id) if 0 < message_id < 1 << 62 else None
    if found is None or found[0] != table_id:
        raise NotFound(
            f"table {table_id} has no chat message {message_id}",
            "no_message",
            message_id=message_id,
        )
    message = found[1]
    table = await store.table(table_id)
    if message["room"] not in rooms_for(table, player["id"]):
        raise Refused(
            403,
            "not_readable",
            "that message was said among the spectators, and you play at this table",
        )
    if player["registered"]:
        reporter = f"player:{player['id']}"
    else:  # a guest costs nothing to make: the guests of one address are one reporter
        address = client_address(request.app.state.config, request.headers, request.client)
        reporter = f"address:{hashlib.sha256(address.encode()).hexdigest()[:32]}"
    new = await store.report_chat(message_id, player["id"], reporter, body.reason)
    return {"reported": True, "new": new}
