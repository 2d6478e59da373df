"""Tournaments (PLATFORM.md, Competition): scheduled by an operator or a moderator,
signed up for by registered players (a pair for Mus), run by the club itself.

At the start time the club pairs the first round (Swiss by the standings, avoiding
repeats; or knockout by seed, best against worst), makes each pairing's table —
official rules, no bots, the tournament's stake or none — seats the entries and starts
it; an odd entry has a bye (a win). A player who has not connected to their table
within the grace period forfeits the game (a bot plays the seat on, and the game counts
as abandoned, as for anyone who leaves an official game); a side that abandons loses
the game in the standings, whatever its seat's bot did after. When every game of a
round is decided, the next round is paired; after the last, the tournament is over.
The games are official games, so they move the ranking's points and the skill ratings
like any other.

:func:`step` does whatever is due, from what is stored, and can be run again at any
moment: every node runs :func:`keep_running`; with several nodes only the holder of
a lease in Redis does (:data:`LEASE`), so the tournament's scheduler has one owner at a
time, like a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field, field_validator

from .. import pairing
from ..games import get_game
from ..store.errors import Conflict, NotFound
from ..store.tournaments import TournamentStore
from . import errors, text
from .club import club_of
from .deps import Player, store_of
from .errors import Refused
from .hub import RoomHub
from .lobby import table_settings
from .pages import CLUB, page
from .passwords import username_key

router = APIRouter(tags=["tournaments"])
log = logging.getLogger("taverna.tournaments")

#: seconds between two looks at the tournaments that are due
EVERY = 1.0
#: the Redis key of the scheduler's lease (several nodes)
LEASE = "taverna:tournaments:scheduler"
FORMATS = ("swiss", "knockout")
#: the longest name of a tournament, in characters (``tournaments.name``)
NAME_LENGTH = 80
#: how far ahead a tournament may be scheduled
AHEAD = timedelta(days=366)


def _store(request: Request) -> TournamentStore:
    return TournamentStore(store_of(request))


class TournamentIn(BaseModel):
    game: str = Field(description="the game's name or alias")
    name: str = Field(min_length=1, max_length=200, description=f"at most {NAME_LENGTH} characters")
    format: str = Field(default="swiss", pattern="^(swiss|knockout)$")
    rounds: int = Field(default=3, ge=1, le=12, description="Swiss: how many rounds")
    settings: dict[str, Any] = Field(
        default_factory=dict, description="the game's settings, as a table's"
    )
    stake: int | None = Field(default=None, ge=1, le=1_000_000)
    starts_at: datetime = Field(
        description="when the first round is paired (ISO 8601, UTC): in the future, within a year"
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str) -> str:
        return text.line(value, "a tournament's name", NAME_LENGTH)


class EntryIn(BaseModel):
    partner: str | None = Field(
        default=None, max_length=40, description="Mus: your partner's username"
    )

    @field_validator("partner")
    @classmethod
    def _partner(cls, value: str | None) -> str | None:
        return None if value is None else text.word(value, "a username")


def check_start(starts: datetime, now: datetime) -> datetime:
    """When a tournament may start: after ``now`` and at most :data:`AHEAD` later (a
    start without a time zone is UTC); Refused 422 ``bad_start`` otherwise."""
    starts = starts if starts.tzinfo else starts.replace(tzinfo=UTC)
    if starts <= now:
        raise Refused(
            422,
            "bad_start",
            f"a tournament starts in the future: {starts.isoformat()} is past",
            problem="past",
            starts_at=starts.isoformat(),
        )
    if starts > now + AHEAD:
        raise Refused(
            422,
            "bad_start",
            f"a tournament starts within {AHEAD.days} days: {starts.isoformat()} is later",
            problem="far",
            starts_at=starts.isoformat(),
            days=AHEAD.days,
        )
    return starts


async def require_moderator(request: Request, player: dict[str, Any]) -> None:
    role = await _store(request).role(player["id"])
    if role != "moderator":
        log.warning("refused a moderator's action to %s", player.get("name"))
        raise Refused(403, "not_moderator", "only a moderator may do that")


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page(request: Request) -> Response:
    return page(request, CLUB / "tournaments.html")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(tournament_id: str, request: Request) -> Response:
    return page(request, CLUB / "tournaments.html")


@router.post("/api/tournaments", status_code=201, summary="Schedule a tournament (moderators)")
async def create(body: TournamentIn, request: Request, player: Player) -> dict[str, Any]:
    await require_moderator(request, player)
    cls = errors.game_named(body.game, status=422)
    # its tables are official tables of the game: their settings as any table's
    settings = table_settings(cls, cls.default_seats, body.settings)
    starts = check_start(body.starts_at, datetime.now(UTC))
    t = await _store(request).create(
        game=cls.game,
        name=body.name,
        format=body.format,
        rounds=body.rounds,
        settings=settings,
        stake=body.stake,
        starts_at=starts,
        created_by=player["id"],
    )
    log.info("%s scheduled tournament %s (%s)", player.get("name"), t["id"], t["name"])
    return {"tournament": t}


@router.get("/api/tournaments", summary="Tournaments: upcoming, running, finished")
async def listed(
    request: Request,
    status: Annotated[str, Query(pattern="^(upcoming|running|finished|cancelled|all)$")] = "all",
) -> dict[str, Any]:
    wanted = ("upcoming", "running", "finished", "cancelled") if status == "all" else (status,)
    return {"tournaments": await _store(request).listed(wanted)}


@router.get("/api/tournaments/{tournament_id}", summary="A tournament and its standings")
async def one(tournament_id: str, request: Request) -> dict[str, Any]:
    t = await _store(request).get(tournament_id)
    return {"tournament": {**t, "standings": standings_of(t)}}


def standings_of(t: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings with their tie-breaks, and who each entry is."""
    names = {e["id"]: [p["name"] for p in e["players"]] for e in t["entries"]}
    games = [
        pairing.Game(
            g["round"],
            g["sides"],
            None if g["points"] is None else {int(k): v for k, v in g["points"].items()},
        )
        for g in t["games"]
    ]
    order = [e["id"] for e in t["entries"] if e["confirmed"]]
    out = []
    rank = 0
    previous: tuple[float, float] | None = None
    for i, st in enumerate(pairing.standings(order, games), 1):
        key = (st.points, st.buchholz)
        if key != previous:
            rank, previous = i, key
        out.append(
            {
                "rank": rank,
                "entry": st.entry,
                "players": names.get(st.entry, []),
                "points": st.points,
                "buchholz": st.buchholz,
                "wins": st.wins,
                "played": st.played,
                "byes": st.byes,
            }
        )
    return out


@router.post("/api/tournaments/{tournament_id}/entries", status_code=201, summary="Sign up")
async def sign_up(
    tournament_id: str, body: EntryIn, request: Request, player: Player
) -> dict[str, Any]:
    if not player.get("registered"):
        raise Refused(403, "not_registered", "tournaments are for registered players: log in")
    store = _store(request)
    t = await store.get(tournament_id)
    cls = get_game(t["game"])
    # a game played in sides of several seats (Mus): an entry is a pair
    pairs = cls.team_count is not None and cls.default_seats > cls.team_count
    partner_id = None
    if pairs:
        if not body.partner:
            raise Refused(422, "partner_needed", "Mus is played in pairs: name your partner")
        found = await club_of(request).accounts.player_by_username(username_key(body.partner))
        if found is None or found["id"] == player["id"]:
            raise Refused(
                404, "no_player", f"no registered player named {body.partner!r}", name=body.partner
            )
        partner_id = found["id"]
    elif body.partner:
        raise Refused(422, "no_pairs", f"{t['game']} is played alone: no partner")
    entry = await store.sign_up(tournament_id, player, partner_id)
    return {"entry": entry}


@router.delete("/api/tournaments/{tournament_id}/entries", summary="Withdraw before the start")
async def withdraw(tournament_id: str, request: Request, player: Player) -> dict[str, Any]:
    await _store(request).withdraw(tournament_id, player["id"])
    return {"ok": True}


# ------------------------------------------------------------------ the steps


async def step(
    hub: RoomHub,
    tournament_id: str,
    now: datetime | None = None,
    up_since: datetime | None = None,
) -> None:
    """Do whatever is due in one tournament (safe to run again at any moment).

    ``up_since``: since when this scheduler has been looking (it started, or took the
    lease over): a no-show's grace period runs from then at the earliest, so the time
    the club was down counts against nobody."""
    store = TournamentStore(hub.store)
    now = now or datetime.now(UTC)
    t = await store.get(tournament_id)
    if t["status"] == "upcoming":
        if await store.begin(tournament_id) != "running":
            return
        t = await store.get(tournament_id)
    if t["status"] != "running":
        return
    cls = get_game(t["game"])
    entries = await store.entries_of(tournament_id)
    if t["round"] == 0:
        await _pair(store, t, cls.default_seats, 1, entries)
        t = await store.get(tournament_id)
    grace = timedelta(seconds=hub.config.grace_seconds)
    for g in await store.open_games(tournament_id):
        await _look_after(hub, store, t, g, now, grace, up_since)
    games = await store.games(tournament_id)
    current = [g for g in games if g.round == t["round"]]
    if current and all(g.points is not None for g in current):
        last = pairing.knockout_rounds(len(entries)) if t["format"] == "knockout" else t["rounds"]
        if t["round"] >= last:
            await store.finish(tournament_id)
            log.info("tournament %s is over", tournament_id)
        else:
            await _pair(store, t, cls.default_seats, t["round"] + 1, entries)


async def _pair(
    store: TournamentStore,
    t: dict[str, Any],
    seat_count: int,
    round_no: int,
    entries: dict[int, list[str]],
) -> None:
    games = await store.games(t["id"])
    if t["format"] == "knockout":
        seeds = await store.seeds(t["id"], t["game"])
        pairs, bye = pairing.knockout_round(seeds, games, round_no)
    else:
        seeds = await store.seeds(t["id"], t["game"])
        pairs, bye = pairing.swiss_round(seeds, games)
    if await store.store_round(t["id"], round_no, pairs, bye, seat_count):
        log.info("tournament %s: round %d paired (%d tables)", t["id"], round_no, len(pairs))


async def _look_after(
    hub: RoomHub,
    store: TournamentStore,
    t: dict[str, Any],
    g: dict[str, Any],
    now: datetime,
    grace: timedelta,
    up_since: datetime | None,
) -> None:
    """One undecided game: start its table, forfeit a no-show, score its end."""
    cls = get_game(t["game"])
    sides: list[int] = g["sides"]
    side_entry = {cls.side_of(seat): sides[cls.side_of(seat)] for seat, _, _ in g["seats"]}
    if g["status"] == "open":
        with contextlib.suppress(Conflict):
            table = await hub.store.table(g["table"])
            await hub.start_table(g["table"], table)
        return
    if g["status"] == "playing":
        started = g["started_at"]
        if started is not None and up_since is not None:
            started = max(started, up_since)
        if started is None or now - started < grace:
            return
        absent = [
            (seat, pid)
            for seat, pid, replaced in g["seats"]
            if pid is not None and pid not in g["seen"] and not replaced
        ]
        if not absent:
            return
        losers = {sides[cls.side_of(seat)] for seat, _ in absent}
        points = {e: 0.0 if e in losers else 1.0 for e in sides}
        if await store.decide(t["id"], g["round"], g["board"], points, "forfeit"):
            log.info("tournament %s: table %s forfeited by a no-show", t["id"], g["table"])
        for seat, _ in absent:
            # a bot plays the seat on (PLATFORM.md); the game counts as abandoned
            with contextlib.suppress(Conflict, NotFound):
                await hub.leave_game(g["table"], seat)
        return
    if g["status"] == "finished":
        result = g["result"] or {}
        quitters = {
            side_entry[cls.side_of(seat)]
            for seat, pid, _ in g["seats"]
            if pid is not None and pid in g["abandoned"]
        }
        winner = result.get("winner")
        if quitters:
            points = {e: 0.0 if e in quitters else 1.0 for e in sides}
            how = "abandoned"
        elif isinstance(winner, int) and winner in side_entry:
            points = {e: 1.0 if e == side_entry[winner] else 0.0 for e in sides}
            how = "played"
        else:
            points = {e: 0.5 for e in sides}
            how = "played"
        await store.decide(t["id"], g["round"], g["board"], points, how)


async def run_due(hub: RoomHub, up_since: datetime | None = None) -> None:
    store = TournamentStore(hub.store)
    for tid in await store.due(datetime.now(UTC)):
        try:
            await step(hub, tid, up_since=up_since)
        except Exception:
            log.warning("tournament %s: a step failed; tried again", tid, exc_info=True)


async def keep_running(hub: RoomHub) -> None:
    """The node's tournament scheduler: every :data:`EVERY` seconds, the steps due. With
    several nodes, only while this node holds the scheduler's lease in Redis."""
    up_since: datetime | None = None
    while not hub.closing:
        await asyncio.sleep(EVERY)
        try:
            if hub.cluster is not None and not await hub.cluster.hold(LEASE, ttl=5.0):
                up_since = None
                continue
            up_since = up_since or datetime.now(UTC)
            await run_due(hub, up_since)
        except Exception:  # the database or Redis is away: the next look tries again
            log.debug("tournaments: could not look", exc_info=True)
