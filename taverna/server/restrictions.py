"""A moderator's ban or silence as the table sockets hold it (:mod:`.moderation` makes
them): each connected account's restrictions in :attr:`.hub.RoomHub.restricted`,
noted when the account connects and when a moderator acts, on every node."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from .protocol import error

if TYPE_CHECKING:
    from .hub import RoomHub

#: what a banned account may not do on a table's socket; a silenced one, only chat
BANNED_KINDS = frozenset({"act", "signal", "chat"})
SILENCED_KINDS = frozenset({"chat"})


def active(until: Any, reason: Any) -> dict[str, Any] | None:
    """A restriction that lasts until ``until`` (for ``reason``), as the sockets tell it;
    None when there is none, or it is over."""
    if until is None:
        return None
    when = until if isinstance(until, datetime) else datetime.fromisoformat(str(until))
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    if when <= datetime.now(UTC):
        return None
    return {"until": when.isoformat(), "reason": reason or ""}


def restricted(hub: RoomHub, player_id: str, told: dict[str, Any], *, local: bool = False) -> None:
    """Note an account's ban and silence on this node (and, unless ``local``, on every
    other node of the cluster)."""
    hub.restricted[player_id] = told
    if not local and hub.cluster is not None:
        hub.cluster.publish_lobby({"kind": "restrict", "player": player_id, "told": told})


def note_player(hub: RoomHub, player: dict[str, Any] | None) -> None:
    """A connecting account's restrictions, as its session read them."""
    if player is None:
        return
    hub.restricted[player["id"]] = {
        "banned": player.get("banned"),
        "silenced": player.get("silenced"),
    }


def refusal(hub: RoomHub, player_id: str | None, kind: str, mid: Any) -> dict[str, Any] | None:
    """The error a table socket's message gets when a moderator's ban or silence forbids
    it (None: allowed)."""
    if player_id is None or kind not in BANNED_KINDS:
        return None
    told = hub.restricted.get(player_id) or {}
    banned: dict[str, Any] | None = told.get("banned")
    if banned and _lasts(banned):
        return error(
            "banned",
            f"your account is banned until {banned['until']}: {banned['reason']}",
            mid,
            "banned",
            banned,
        )
    silenced: dict[str, Any] | None = told.get("silenced")
    if kind in SILENCED_KINDS and silenced and _lasts(silenced):
        return error(
            "silenced",
            f"a moderator silenced your account until {silenced['until']}: {silenced['reason']}",
            mid,
            "silenced",
            silenced,
        )
    return None


def _lasts(restriction: dict[str, Any] | None) -> bool:
    if not restriction:
        return False
    return active(restriction["until"], restriction.get("reason")) is not None
