"""The club's hub: the room hub with accounts (docs/accounts.md).

:class:`ClubHub` holds the stakes when an official game starts, counts an abandonment
at once, and settles chips and points when it ends (the rules are in
:mod:`taverna.store.accounts`); it hashes passwords a few at a time and keeps the
login limits (:mod:`.gate`). The functions below are what the lobby's routes ask of
accounts: who may open or sit at an official table, and a guest's name.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from fastapi import Request
from starlette.datastructures import Headers

from ..games import get_game
from ..store.accounts import AccountStore, NameTaken
from ..store.repo import Store
from ..store.tables import TableInfo
from .config import Config
from .deps import config_of
from .errors import Refused
from .figures import FigureBook
from .gate import Gate, SharedGate, client_address
from .hub import Job, RoomHub
from .logs import TableLog
from .names import name_keys
from .passwords import HASHER, verify

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("taverna.accounts")


class ClubHub(RoomHub):
    """The room hub with accounts: stakes at the start, abandonments, settlements."""

    def __init__(self, store: Store, config: Config) -> None:
        super().__init__(store, config)
        self.accounts = AccountStore(store)
        #: the login and registration limits (several nodes: counted in Redis)
        self.gate = Gate(config)
        # argon2 takes 64 MiB and some CPU per hash: a few at a time, whatever the load
        self.hashing = asyncio.Semaphore(2)
        #: each game's own figures of the finished games profiles list, remembered
        self.figures = FigureBook(store)

    async def open(self, cluster: Cluster | None = None, jobs: Iterable[Job] = ()) -> int:
        filled = await self.accounts.fill_keys(name_keys)
        if filled:
            log.info("%d name(s) in use given their look-alike keys", filled)
        resumed = await super().open(cluster, jobs)
        if self.cluster is not None:
            self.gate = SharedGate(self.config, self.cluster.redis)
        return resumed

    async def hash_password(self, password: str) -> str:
        async with self.hashing:
            return await asyncio.to_thread(HASHER.hash, password)

    async def verify_password(self, stored: str, password: str) -> bool:
        async with self.hashing:
            return await asyncio.to_thread(verify, stored, password)

    async def before_start(self, table: TableInfo) -> None:
        if table.options.get("official"):
            await self.accounts.hold_stakes(table.id)

    async def on_replaced(self, table: TableInfo, seat: int, reason: str) -> None:
        player_id = table.seats[seat].player_id
        if not table.options.get("official") or player_id is None:
            return
        about = TableLog(log, table.id)
        try:
            counted = await self.accounts.abandon(table.id, table.game, player_id)
        except Exception:  # the settlement counts it then
            about.exception("could not count the abandonment", seat=seat)
            return
        about.info("%s (abandonment counted: %s)", reason, counted, seat=seat)

    async def on_finished(self, table: TableInfo, result: dict[str, Any]) -> None:
        if not table.options.get("official"):
            return
        cls = get_game(table.game)
        winner = result.get("winner")
        winners = (
            None
            if winner is None
            else {s.player_id for s in table.seats if s.player_id and cls.side_of(s.seat) == winner}
        )
        try:
            done = await self.accounts.settle(table.id, table.game, winners, result)
        except Exception:
            TableLog(log, table.id).exception("could not settle the official game")
            return
        result["settlement"] = {
            "ranked": done["ranked"],
            "note": done["note"],
            "why": done["why"],
            "seats": [
                {
                    "seat": s.seat,
                    "player": s.player_name,
                    "points": done["points"].get(s.player_id, 0),
                    "chips": done["chips"].get(s.player_id, 0),
                }
                for s in table.seats
                if s.player_id
            ],
        }


def club_of(request: Request) -> ClubHub:
    """The app's hub, with accounts."""
    return request.app.state.hub  # type: ignore[no-any-return]


# ------------------------------------------------- hooks for the lobby routes


def official_options(
    official: bool, stake: int | None, bots: dict[int, str], player: dict[str, Any]
) -> dict[str, Any]:
    """The options an official table adds (none for a casual one); HTTPException if refused."""
    if not official:
        if stake is not None:
            raise Refused(
                422, "stake_casual", "a stake is only for official tables (official: true)"
            )
        return {}
    if not player.get("registered"):
        raise Refused(
            403, "not_registered", "only registered players may open an official table: log in"
        )
    if stake is None:
        raise Refused(422, "stake_needed", "an official table needs a stake (chips, at least 1)")
    if bots:
        raise Refused(
            422, "official_humans_only", "an official table seats registered humans only: no bots"
        )
    return {"official": True, "stake": stake}


async def check_official_seat(request: Request, table_id: str, player: dict[str, Any]) -> None:
    """Official tables seat registered players with at least the stake in chips."""
    hub = club_of(request)
    table = await hub.store.table(table_id)
    if not table.options.get("official"):
        return
    if not player.get("registered"):
        raise Refused(
            403, "not_registered", "an official table seats registered players only: log in"
        )
    stake = int(table.options.get("stake") or 0)
    chips = await hub.accounts.chips(player["id"]) or 0
    if chips < stake:
        raise Refused(
            409,
            "not_enough_chips",
            f"the stake is {stake} chips and you have {chips}",
            stake=stake,
            chips=chips,
        )


def guests_since(config: Config) -> datetime | None:
    """Since when a guest must have been in the club for their name to be in use (None:
    guests' names are not held, ``TAVERNA_GUEST_NAME_MINUTES=0``)."""
    minutes = config.guest_name_minutes
    return datetime.now(UTC) - timedelta(minutes=minutes) if minutes > 0 else None


async def new_guest(request: Request, name: str) -> tuple[dict[str, Any], str]:
    """A guest called ``name`` (as ``text.name`` made it) and its session's token. A
    guest may not take a name in use, nor one that looks like it (UTS #39: Cyrillic
    "Hаrdy" beside "Hardy"; compared without case): a registered player's, or another
    guest's in the club (409)."""
    hub, config = club_of(request), config_of(request)
    try:
        return await hub.accounts.create_guest(name, name_keys(name), guests_since(config))
    except NameTaken as e:
        if e.registered:
            raise Refused(
                409,
                "name_registered",
                f"the name {name!r} belongs to a registered player ({e.like}): choose "
                "another, or log in if it is yours",
                name=name,
            ) from None
        raise Refused(
            409,
            "name_in_use",
            f"the name {name!r} looks like {e.like!r}, the name of a guest in the club "
            "now: choose another",
            name=name,
            like=e.like,
        ) from None


async def note_seated(
    hub: RoomHub, config: Config, table: TableInfo, player_id: str, headers: Headers, peer: Any
) -> None:
    """Remember the address a player sits or connects from at an official table."""
    if table.options.get("official") and isinstance(hub, ClubHub):
        await hub.accounts.note_address(table.id, player_id, client_address(config, headers, peer))


def refuse_bots_at_official(table: TableInfo) -> None:
    if table.options.get("official"):
        raise Refused(
            409,
            "official_humans_only",
            "an official table seats registered humans only: a bot only stands in",
        )
