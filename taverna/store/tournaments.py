"""Tournaments in the database: their schedule, entries, rounds and results.

Every step of a tournament is a transaction that can be run again: a round's pairings
are stored (with their tables' ids) before any table is made; a table is made, seated
and started only if it is not yet; a game's points are stored once. So a node that
stops anywhere in a round, or two nodes that both look, change nothing twice
(taverna/server/tournaments.py runs the steps).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from ..pairing import Game
from .errors import Conflict, NotFound
from .ids import new_id
from .models import (
    Player,
    RatingEntry,
    Seat,
    SeatAddress,
    Skill,
    Table,
    Tournament,
    TournamentEntry,
    aware,
)
from .models import TournamentGame as GameRow
from .repo import Store


def _entry_json(s: Session, e: TournamentEntry) -> dict[str, Any]:
    ids = [e.player_id] + ([e.partner_id] if e.partner_id else [])
    names = {p.id: p.name for p in s.execute(select(Player).where(Player.id.in_(ids))).scalars()}
    return {
        "id": e.id,
        "players": [{"id": pid, "name": names.get(pid, "")} for pid in ids],
        "confirmed": e.confirmed,
    }


def _json(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.id,
        "game": t.game,
        "name": t.name,
        "format": t.format,
        "rounds": t.rounds,
        "settings": t.settings,
        "stake": t.stake,
        "starts_at": aware(t.starts_at).isoformat(),
        "status": t.status,
        "round": t.round,
        "note": t.note,
    }


class TournamentStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def create(
        self,
        *,
        game: str,
        name: str,
        format: str,
        rounds: int,
        settings: dict[str, Any],
        stake: int | None,
        starts_at: datetime,
        created_by: str | None,
    ) -> dict[str, Any]:
        tid = new_id()

        def q(s: Session) -> dict[str, Any]:
            t = Tournament(
                id=tid,
                game=game,
                name=name,
                format=format,
                rounds=rounds,
                settings=settings,
                stake=stake,
                starts_at=starts_at,
                status="upcoming",
                round=0,
                created_by=created_by,
            )
            s.add(t)
            s.flush()
            return _json(t)

        return await self.store.run(q)

    async def listed(self, statuses: tuple[str, ...]) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(Tournament)
                .where(Tournament.status.in_(statuses))
                .order_by(Tournament.starts_at.desc())
                .limit(200)
            ).scalars()
            out = []
            for t in rows:
                count = len(
                    s.execute(
                        select(TournamentEntry.id).where(
                            TournamentEntry.tournament_id == t.id,
                            TournamentEntry.confirmed.is_(True),
                        )
                    ).all()
                )
                out.append({**_json(t), "entries": count})
            return out

        return await self.store.run(q)

    async def get(self, tournament_id: str) -> dict[str, Any]:
        """A tournament with its entries and every game of every round."""

        def q(s: Session) -> dict[str, Any]:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFound(f"no tournament {tournament_id!r}", "no_tournament")
            entries = s.execute(
                select(TournamentEntry)
                .where(TournamentEntry.tournament_id == t.id)
                .order_by(TournamentEntry.id)
            ).scalars()
            games = s.execute(
                select(GameRow)
                .where(GameRow.tournament_id == t.id)
                .order_by(GameRow.round, GameRow.board)
            ).scalars()
            return {
                **_json(t),
                "entries": [_entry_json(s, e) for e in entries],
                "games": [
                    {
                        "round": g.round,
                        "board": g.board,
                        "table": g.table_id,
                        "sides": list(g.sides),
                        "points": g.points,
                        "how": g.how,
                    }
                    for g in games
                ],
            }

        return await self.store.run(q)

    async def sign_up(
        self, tournament_id: str, player: dict[str, Any], partner_id: str | None
    ) -> dict[str, Any]:
        """Sign a player up (a pair: naming the partner; the partner's own sign-up naming
        this player confirms it). Conflict if the tournament has started or the player
        is already in."""

        def q(s: Session) -> dict[str, Any]:
            t = s.get(Tournament, tournament_id, with_for_update=not self.store.sqlite)
            if t is None:
                raise NotFound(f"no tournament {tournament_id!r}", "no_tournament")
            if t.status != "upcoming":
                raise Conflict(f"the tournament is {t.status}", "tournament_started")
            rows = list(
                s.execute(
                    select(TournamentEntry).where(TournamentEntry.tournament_id == t.id)
                ).scalars()
            )
            me = player["id"]
            for e in rows:
                if e.player_id == me or (e.partner_id == me and e.confirmed):
                    raise Conflict("you are signed up already", "already_signed_up")
            if partner_id is not None:
                invited = next(
                    (e for e in rows if e.player_id == partner_id and e.partner_id == me), None
                )
                if invited is not None:
                    invited.confirmed = True  # the pair is complete
                    s.flush()
                    return _entry_json(s, invited)
                for e in rows:
                    if partner_id in (e.player_id, e.partner_id) and e.confirmed:
                        raise Conflict("your partner plays with somebody else", "partner_taken")
            e = TournamentEntry(
                tournament_id=t.id,
                player_id=me,
                partner_id=partner_id,
                confirmed=partner_id is None,
            )
            s.add(e)
            s.flush()
            return _entry_json(s, e)

        return await self.store.run(q)

    async def withdraw(self, tournament_id: str, player_id: str) -> None:
        def q(s: Session) -> None:
            t = s.get(Tournament, tournament_id)
            if t is None:
                raise NotFound(f"no tournament {tournament_id!r}", "no_tournament")
            if t.status != "upcoming":
                raise Conflict(f"the tournament is {t.status}", "tournament_started")
            for e in s.execute(
                select(TournamentEntry).where(TournamentEntry.tournament_id == t.id)
            ).scalars():
                if e.player_id == player_id:
                    s.delete(e)
                elif e.partner_id == player_id:
                    e.confirmed = False  # the first player waits for another partner

        await self.store.run(q)

    # ------------------------------------------------------------- the steps

    async def due(self, at: datetime) -> list[str]:
        """Tournaments to look after: running ones, and upcoming ones whose time came."""

        def q(s: Session) -> list[str]:
            rows = s.execute(
                select(Tournament.id, Tournament.status, Tournament.starts_at).where(
                    Tournament.status.in_(("upcoming", "running"))
                )
            ).all()
            return [tid for tid, st, when in rows if st == "running" or aware(when) <= at]

        return await self.store.run(q)

    async def begin(self, tournament_id: str) -> str:
        """Start an upcoming tournament: its unconfirmed pairs dropped; cancelled with
        fewer than two entries. Its status then."""

        def q(s: Session) -> str:
            t = s.get(Tournament, tournament_id, with_for_update=not self.store.sqlite)
            assert t is not None
            if t.status != "upcoming":
                return t.status
            for e in s.execute(
                select(TournamentEntry).where(
                    TournamentEntry.tournament_id == t.id, TournamentEntry.confirmed.is_(False)
                )
            ).scalars():
                s.delete(e)
            s.flush()
            count = len(
                s.execute(
                    select(TournamentEntry.id).where(TournamentEntry.tournament_id == t.id)
                ).all()
            )
            if count < 2:
                t.status, t.note = "cancelled", "fewer than two entries"
            else:
                t.status = "running"
            return t.status

        return await self.store.run(q)

    async def seeds(self, tournament_id: str, game: str) -> list[int]:
        """The entries best seed first: by skill rating (a pair's mean), then sign-up."""

        def q(s: Session) -> list[int]:
            entries = list(
                s.execute(
                    select(TournamentEntry)
                    .where(TournamentEntry.tournament_id == tournament_id)
                    .order_by(TournamentEntry.id)
                ).scalars()
            )
            ratings = {
                r.player_id: r.rating
                for r in s.execute(select(Skill).where(Skill.game == game)).scalars()
            }

            def strength(e: TournamentEntry) -> float:
                ids = [e.player_id] + ([e.partner_id] if e.partner_id else [])
                return sum(ratings.get(pid, 1500.0) for pid in ids) / len(ids)

            return [e.id for e in sorted(entries, key=lambda e: (-strength(e), e.id))]

        return await self.store.run(q)

    async def games(self, tournament_id: str) -> list[Game]:
        def q(s: Session) -> list[Game]:
            rows = s.execute(
                select(GameRow)
                .where(GameRow.tournament_id == tournament_id)
                .order_by(GameRow.round, GameRow.board)
            ).scalars()
            return [
                Game(
                    g.round,
                    list(g.sides),
                    None if g.points is None else {int(k): v for k, v in g.points.items()},
                )
                for g in rows
            ]

        return await self.store.run(q)

    async def store_round(
        self,
        tournament_id: str,
        round_no: int,
        pairs: list[tuple[int, int]],
        bye: int | None,
        seat_count: int,
    ) -> bool:
        """Store round ``round_no``'s pairings (each with its table made, its entries
        seated, not yet started) and the bye, once: False if it was stored already."""

        def q(s: Session) -> bool:
            t = s.get(Tournament, tournament_id, with_for_update=not self.store.sqlite)
            assert t is not None
            if t.round >= round_no or t.status != "running":
                return False
            entries = {
                e.id: e
                for e in s.execute(
                    select(TournamentEntry).where(TournamentEntry.tournament_id == t.id)
                ).scalars()
            }
            board = 0
            for a, b in pairs:
                board += 1
                table = Table(
                    id=new_id(),
                    game=t.game,
                    seat_count=seat_count,
                    settings=dict(t.settings),
                    options={
                        "turn_seconds": 30,
                        "muggins_wait": 3,
                        "public": True,
                        "official": True,
                        "stake": t.stake,
                        "tournament": t.id,
                        "round": round_no,
                    },
                    owner_id=None,
                    status="open",
                    seed=secrets.randbits(62),
                )
                s.add(table)
                seats = _seat_entries(entries[a], entries[b], seat_count)
                names = {
                    p.id: p.name
                    for p in s.execute(
                        select(Player).where(Player.id.in_([pid for pid in seats if pid]))
                    ).scalars()
                }
                for i, pid in enumerate(seats):
                    s.add(
                        Seat(
                            table_id=table.id,
                            seat=i,
                            player_id=pid,
                            player_name=names.get(pid) if pid else None,
                            replaced=False,
                        )
                    )
                s.add(
                    GameRow(
                        tournament_id=t.id,
                        round=round_no,
                        board=board,
                        table_id=table.id,
                        sides=[a, b],
                    )
                )
            if bye is not None:
                board += 1
                s.add(
                    GameRow(
                        tournament_id=t.id,
                        round=round_no,
                        board=board,
                        table_id=None,
                        sides=[bye],
                        points={str(bye): 1.0},
                        how="bye",
                    )
                )
            t.round = round_no
            return True

        return await self.store.run(q)

    async def open_games(self, tournament_id: str) -> list[dict[str, Any]]:
        """The current round's games still undecided, with their tables' state: status,
        result, who abandoned, and which seated players were ever seen connecting."""

        def q(s: Session) -> list[dict[str, Any]]:
            t = s.get(Tournament, tournament_id)
            assert t is not None
            rows = s.execute(
                select(GameRow).where(
                    GameRow.tournament_id == t.id,
                    GameRow.round == t.round,
                    GameRow.points.is_(None),
                )
            ).scalars()
            out = []
            for g in rows:
                table = s.get(Table, g.table_id) if g.table_id else None
                if table is None:
                    continue
                abandoned = set(
                    s.execute(
                        select(RatingEntry.player_id).where(
                            RatingEntry.table_id == table.id, RatingEntry.reason == "abandoned"
                        )
                    ).scalars()
                )
                seen = set(
                    s.execute(
                        select(SeatAddress.player_id).where(SeatAddress.table_id == table.id)
                    ).scalars()
                )
                out.append(
                    {
                        "seen": seen,
                        "round": g.round,
                        "board": g.board,
                        "sides": list(g.sides),
                        "table": table.id,
                        "status": table.status,
                        "started_at": aware(table.started_at) if table.started_at else None,
                        "result": table.result,
                        "abandoned": abandoned,
                        "seats": [(x.seat, x.player_id, x.replaced) for x in table.seats],
                    }
                )
            return out

        return await self.store.run(q)

    async def decide(
        self, tournament_id: str, round_no: int, board: int, points: dict[int, float], how: str
    ) -> bool:
        """Store a game's points once; False if it was decided already."""

        def q(s: Session) -> bool:
            done: Any = s.execute(
                update(GameRow)
                .where(
                    GameRow.tournament_id == tournament_id,
                    GameRow.round == round_no,
                    GameRow.board == board,
                    GameRow.points.is_(None),
                )
                .values(points={str(k): v for k, v in points.items()}, how=how)
                .execution_options(synchronize_session=False)
            )
            return bool(done.rowcount)

        return await self.store.run(q)

    async def finish(self, tournament_id: str) -> None:
        def q(s: Session) -> None:
            t = s.get(Tournament, tournament_id)
            assert t is not None
            if t.status == "running":
                t.status = "finished"

        await self.store.run(q)

    async def role(self, player_id: str) -> str | None:
        return await self.store.run(
            lambda s: s.execute(
                select(Player.role).where(Player.id == player_id)
            ).scalar_one_or_none()
        )

    async def grant(self, username: str, role: str | None) -> bool:
        """Make a registered account a moderator (``role``) or take it back (None)."""

        def q(s: Session) -> bool:
            done: Any = s.execute(
                update(Player)
                .where(Player.username == username)
                .values(role=role)
                .execution_options(synchronize_session=False)
            )
            return bool(done.rowcount)

        return await self.store.run(q)

    async def entries_of(self, tournament_id: str) -> dict[int, list[str]]:
        def q(s: Session) -> dict[int, list[str]]:
            return {
                e.id: [e.player_id] + ([e.partner_id] if e.partner_id else [])
                for e in s.execute(
                    select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id)
                ).scalars()
            }

        return await self.store.run(q)


def _seat_entries(a: TournamentEntry, b: TournamentEntry, seat_count: int) -> list[str | None]:
    """The seats of a table of two entries: one each (two seats), or a pair each,
    partners facing each other (Mus: seats 0 and 2 against 1 and 3)."""
    if seat_count == 2:
        return [a.player_id, b.player_id]
    return [a.player_id, b.player_id, a.partner_id, b.partner_id]
