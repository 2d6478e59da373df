"""Tables and their seats: who sits where, a table's status and options, and "play
again" (:class:`TableInfo`, the plain data the server gets)."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session, object_session

from .base import Database
from .errors import Conflict, NotFound
from .fencing import Fenced, check_fence
from .ids import new_id
from .models import Seat, SeatAddress, Table, now


@dataclass
class SeatInfo:
    """One seat of a table: who sits in it (a player or a bot), or nobody."""

    seat: int
    player_id: str | None = None
    player_name: str | None = None
    bot: str | None = None
    replaced: bool = False
    left: bool = False  # replaced because the player left the game on purpose

    @property
    def empty(self) -> bool:
        return self.player_id is None and self.bot is None

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "player": self.player_name,
            # whose seat it is, as in the table's "owner" and the session's "id": a client
            # knows its own seats by it (names need not be unique); it opens nothing
            "player_id": self.player_id,
            "bot": self.bot,
            "replaced": self.replaced,
            "left": self.left,
            "empty": self.empty,
        }


def kept_for(options: dict[str, Any], seat: int, at: float | None = None) -> str | None:
    """Who a seat of a "play again" table is kept for (None: anybody may sit): the player
    who had it in the last game, until the hold ends (``options.reserved_until``, epoch s)."""
    held = options.get("reserved") or {}
    until = options.get("reserved_until") or 0
    if (time.time() if at is None else at) >= until:
        return None
    who = held.get(str(seat))
    return who if isinstance(who, str) else None


@dataclass
class TableInfo:
    """A table as plain data: its game, settings, options, status and seats."""

    id: str
    game: str
    seat_count: int
    settings: dict[str, Any]
    options: dict[str, Any]
    owner_id: str | None
    status: str
    seed: int
    seats: list[SeatInfo] = field(default_factory=list)
    result: dict[str, Any] | None = None
    created_at: str = ""
    #: why a table was set aside (status "set_aside"): its stored game could not be resumed
    problem: str | None = None
    #: the timers when the server last stopped (see :meth:`Store.save_clocks`); not public
    clock: dict[str, Any] | None = None
    #: an official table where two players sat or connected from one address: the game
    #: will move no points and no chips (PLATFORM.md), and everybody is told before it
    shared_address: bool = False
    #: "play again": the table made after this one (its players are offered their seats)
    again: str | None = None

    def reserved_for(self, seat: int) -> str | None:
        """Who a seat of a "play again" table is kept for (None: anybody may sit)."""
        return kept_for(self.options, seat)

    def public(self) -> dict[str, Any]:
        """What anybody may know about the table (never the seed)."""
        return {
            "id": self.id,
            "game": self.game,
            "seats": self.seat_count,
            "settings": self.settings,
            "options": self.options,
            # official tables seat registered humans only, for a stake, and count for the ranking
            "official": bool(self.options.get("official")),
            "stake": self.options.get("stake"),
            "status": self.status,
            "owner": self.owner_id,
            "seating": [s.public() for s in self.seats],
            "free_seats": [s.seat for s in self.seats if s.empty],
            "result": self.result,
            "created_at": self.created_at,
            "problem": self.problem,
            "shared_address": self.shared_address,
            "again": self.again,
        }


def shared_address(s: Session, table_id: str, player_ids: list[str]) -> bool:
    """Do two different players of the table share an address they sat or connected from?"""
    if len(set(player_ids)) < 2:
        return False
    seen: dict[str, set[str]] = {}
    for address, pid in s.execute(
        select(SeatAddress.address, SeatAddress.player_id).where(
            SeatAddress.table_id == table_id, SeatAddress.player_id.in_(player_ids)
        )
    ):
        seen.setdefault(address, set()).add(pid)
    return any(len(ids) > 1 for ids in seen.values())


def _table_info(t: Table) -> TableInfo:
    """A stored table as plain data (whether its players share an address, if official)."""
    shares = False
    if t.options.get("official"):
        session = object_session(t)
        ids = [x.player_id for x in t.seats if x.player_id]
        shares = session is not None and shared_address(session, t.id, ids)
    return TableInfo(
        id=t.id,
        game=t.game,
        seat_count=t.seat_count,
        settings=dict(t.settings),
        options=dict(t.options),
        owner_id=t.owner_id,
        status=t.status,
        seed=t.seed,
        seats=[
            SeatInfo(s.seat, s.player_id, s.player_name, s.bot, s.replaced, s.left) for s in t.seats
        ],
        result=t.result,
        created_at=t.created_at.isoformat() if t.created_at else "",
        problem=t.problem,
        clock=t.clock,
        shared_address=shares,
        again=t.again,
    )


class TableStore(Database):
    """The store's tables (a part of :class:`taverna.store.repo.Store`)."""

    async def create_table(
        self,
        game: str,
        seat_count: int,
        settings: dict[str, Any],
        options: dict[str, Any],
        owner: dict[str, Any] | None,
    ) -> TableInfo:
        tid = new_id()
        seed = secrets.randbits(62)

        def q(s: Session) -> TableInfo:
            t = Table(
                id=tid,
                game=game,
                seat_count=seat_count,
                settings=settings,
                options=options,
                owner_id=owner["id"] if owner else None,
                status="open",
                seed=seed,
            )
            s.add(t)
            for i in range(seat_count):
                s.add(Seat(table_id=tid, seat=i, replaced=False))
            s.flush()
            s.refresh(t)
            return _table_info(t)

        return await self.run(q)

    async def again_table(
        self, table_id: str, owner: dict[str, Any], hold_seconds: float
    ) -> TableInfo:
        """The table where a finished table's players play again: made by the first who
        asks (same game, seats, settings and options; its bots at their seats; each
        person's seat kept for them for ``hold_seconds``), found by the others."""
        tid, seed = new_id(), secrets.randbits(62)

        def q(s: Session) -> TableInfo:
            old = s.get(Table, table_id, with_for_update=not self.sqlite)
            if old is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if old.status != "finished":
                raise Conflict(
                    f"table {table_id} is {old.status}: play again once it is finished",
                    "table_not_finished",
                    status=old.status,
                )
            if old.again is not None:
                found = s.get(Table, old.again)
                assert found is not None
                return _table_info(found)
            options = {
                k: v
                for k, v in old.options.items()
                if k not in ("reserved", "reserved_names", "reserved_until", "play_now")
            }
            options["reserved"] = {
                str(x.seat): x.player_id for x in old.seats if x.player_id is not None
            }
            options["reserved_names"] = {
                str(x.seat): x.player_name for x in old.seats if x.player_id is not None
            }
            options["reserved_until"] = time.time() + hold_seconds
            options["again_of"] = old.id
            t = Table(
                id=tid,
                game=old.game,
                seat_count=old.seat_count,
                settings=dict(old.settings),
                options=options,
                owner_id=owner["id"],
                status="open",
                seed=seed,
            )
            s.add(t)
            for x in old.seats:
                # a bot's seat is the bot's again at once; a person's is kept for them
                bot = x.bot if x.player_id is None else None
                s.add(Seat(table_id=tid, seat=x.seat, bot=bot, replaced=False))
            old.again = tid
            s.flush()
            s.refresh(t)
            return _table_info(t)

        return await self.run(q)

    async def table(self, table_id: str) -> TableInfo:
        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            return _table_info(t)

        return await self.run(q)

    async def playing_tables(self) -> list[TableInfo]:
        """Every table whose game is under way (all of them: each must resume)."""

        def q(s: Session) -> list[TableInfo]:
            stmt = select(Table).where(Table.status == "playing").order_by(Table.created_at)
            return [_table_info(t) for t in s.execute(stmt).scalars()]

        return await self.run(q)

    async def table_ids(self, statuses: tuple[str, ...]) -> list[str]:
        """The ids of every table of these statuses (several nodes: which need an owner)."""

        def q(s: Session) -> list[str]:
            return list(s.execute(select(Table.id).where(Table.status.in_(statuses))).scalars())

        return await self.run(q)

    async def open_tables_options(self) -> list[tuple[str, dict[str, Any]]]:
        """Every open table's id and options, and nothing more (a cheap look for the
        tables that wait for something, such as "play now")."""

        def q(s: Session) -> list[tuple[str, dict[str, Any]]]:
            stmt = select(Table.id, Table.options).where(Table.status == "open")
            return [(r[0], dict(r[1] or {})) for r in s.execute(stmt)]

        return await self.run(q)

    async def tables_set_aside(self) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            stmt = select(Table.id, Table.game, Table.problem).where(Table.status == "set_aside")
            return [{"id": r[0], "game": r[1], "problem": r[2]} for r in s.execute(stmt)]

        return await self.run(q)

    async def tables(self, statuses: tuple[str, ...], game: str | None = None) -> list[TableInfo]:
        def q(s: Session) -> list[TableInfo]:
            stmt = select(Table).where(Table.status.in_(statuses)).order_by(Table.created_at.desc())
            if game:
                stmt = stmt.where(Table.game == game)
            return [_table_info(t) for t in s.execute(stmt.limit(500)).scalars()]

        return await self.run(q)

    async def set_seat(
        self,
        table_id: str,
        seat: int,
        *,
        player: dict[str, Any] | None = None,
        bot: str | None = None,
        replaced: bool = False,
        left: bool = False,
        only_if_empty: bool = True,
        statuses: tuple[str, ...] = ("open",),
        fence: int | None = None,
    ) -> TableInfo:
        """Put a player or a bot in a seat (or empty it with neither); with ``fence``,
        only while the table's owner has that token (:class:`Fenced`)."""

        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id, with_for_update=not self.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if fence is not None and t.fence != fence:
                raise Fenced(table_id, fence)
            if t.status not in statuses:
                raise Conflict(f"table {table_id} is {t.status}", "table_not_open", status=t.status)
            if not 0 <= seat < t.seat_count:
                raise NotFound(f"table {table_id} has no seat {seat}", "no_seat", seat=seat)
            row = s.get(Seat, (table_id, seat))
            assert row is not None
            if only_if_empty and (row.player_id or row.bot):
                raise Conflict(f"seat {seat} is taken", "seat_taken", seat=seat)
            if player is not None:
                kept = kept_for(t.options, seat)
                if kept is not None and kept != player["id"]:
                    raise Conflict(
                        f"seat {seat} is kept for the player who had it in the last game",
                        "seat_reserved",
                        seat=seat,
                    )
                for other in t.seats:
                    if other.player_id == player["id"] and other.seat != seat:
                        raise Conflict(
                            f"you already sit at seat {other.seat} of this table",
                            "already_seated",
                            seat=other.seat,
                        )
            row.player_id = player["id"] if player else None
            row.player_name = player["name"] if player else None
            row.bot = bot
            row.replaced = replaced
            row.left = left
            s.flush()
            s.refresh(t)
            return _table_info(t)

        return await self.run(q)

    async def set_status(
        self,
        table_id: str,
        status: str,
        *,
        result: dict[str, Any] | None = None,
        fence: int | None = None,
    ) -> None:
        def q(s: Session) -> None:
            check_fence(s, table_id, fence)
            values: dict[str, Any] = {"status": status}
            if status == "playing":
                values["started_at"] = now()
            if status == "finished":
                values["finished_at"] = now()
                values["result"] = result
                values["clock"] = None
            s.execute(update(Table).where(Table.id == table_id).values(**values))

        await self.run(q)

    async def delete_table(self, table_id: str) -> None:
        def q(s: Session) -> None:
            s.execute(delete(Seat).where(Seat.table_id == table_id))
            s.execute(delete(Table).where(Table.id == table_id))

        await self.run(q)

    async def set_option(self, table_id: str, key: str, value: Any) -> TableInfo:
        """Set one of a table's options (the host's chat switch); the table as it is then."""

        def q(s: Session) -> TableInfo:
            t = s.get(Table, table_id, with_for_update=not self.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            t.options = {**t.options, key: value}  # a new dict: the JSON column sees it
            s.flush()
            return _table_info(t)

        return await self.run(q)

    async def set_aside(self, table_id: str, problem: str) -> None:
        """A table whose stored game cannot be resumed: kept as it is, with the reason."""

        def q(s: Session) -> None:
            s.execute(
                update(Table)
                .where(Table.id == table_id)
                .values(status="set_aside", problem=problem[:500])
            )

        await self.run(q)

    async def save_clocks(self, clocks: dict[str, dict[str, Any] | None]) -> None:
        """The running timers of many tables, at once (a stop, or the database's return)."""

        def q(s: Session) -> None:
            for tid, clock in clocks.items():
                s.execute(update(Table).where(Table.id == tid).values(clock=clock))

        if clocks:
            await self.run(q)
