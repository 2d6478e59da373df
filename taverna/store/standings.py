"""Where players stand: each game's ranking by points, a player's finished games, and
the skill ratings (:mod:`.skills`)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from . import skills
from .models import Player, Rating, RatingEntry, Seat, Skill, Table, iso
from .repo import Store
from .tables import SeatInfo


class StandingsStore:
    """Rankings, histories and skill ratings (a part of :class:`.accounts.AccountStore`)."""

    store: Store

    async def history(self, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
        """Finished tables the player sat at, newest first, with their points there."""

        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(Table, Seat.seat, Seat.replaced)
                .join(Seat, Seat.table_id == Table.id)
                .where(Seat.player_id == player_id, Table.status == "finished")
                .order_by(Table.finished_at.desc())
                .limit(limit)
            ).all()
            ids = [t.id for t, _, _ in rows]
            points: dict[str, int] = defaultdict(int)
            if ids:
                for tid, delta in s.execute(
                    select(RatingEntry.table_id, RatingEntry.delta).where(
                        RatingEntry.player_id == player_id, RatingEntry.table_id.in_(ids)
                    )
                ):
                    points[tid] += delta
            return [
                {
                    "table": t.id,
                    "game": t.game,
                    "seat": seat,
                    "seats": t.seat_count,
                    "abandoned": replaced,
                    "official": bool(t.options.get("official")),
                    "public": bool(t.options.get("public", True)),
                    "stake": t.options.get("stake"),
                    "result": t.result,
                    # who sat where, as the table shows it (names as they are now)
                    "seating": [
                        SeatInfo(x.seat, x.player_id, x.player_name, x.bot, x.replaced, x.left)
                        for x in t.seats
                    ],
                    "points": points.get(t.id, 0) if t.options.get("official") else None,
                    "finished_at": iso(t.finished_at),
                }
                for t, seat, replaced in rows
            ]

        return await self.store.run(q)

    async def ranking(
        self, game: str, limit: int = 100, offset: int = 0
    ) -> tuple[int, list[dict[str, Any]]]:
        """(how many are ranked, one page of the ranking), best first, ties share a rank."""

        def q(s: Session) -> tuple[int, list[dict[str, Any]]]:
            total = s.execute(
                select(func.count()).select_from(Rating).where(Rating.game == game)
            ).scalar_one()
            rows = s.execute(
                select(Rating, Player.name)
                .join(Player, Player.id == Rating.player_id)
                .where(Rating.game == game)
                .order_by(Rating.points.desc(), Rating.games.asc(), Player.name.asc())
                .limit(limit)
                .offset(offset)
            ).all()
            out: list[dict[str, Any]] = []
            rank = 0
            for i, (r, name) in enumerate(rows):
                if i == 0:  # the page may start within a tie
                    rank = (
                        1
                        + s.execute(
                            select(func.count())
                            .select_from(Rating)
                            .where(Rating.game == game, Rating.points > r.points)
                        ).scalar_one()
                    )
                elif r.points != rows[i - 1][0].points:
                    rank = offset + i + 1
                out.append({"rank": rank, "player": name, **_standing(r)})
            return int(total), out

        return await self.store.run(q)

    async def skill_ranking(
        self, game: str, limit: int = 100, offset: int = 0
    ) -> tuple[int, list[dict[str, Any]]]:
        """(how many are rated, one page of them by rating), established first."""
        return await self.store.run(lambda s: skills.ranking(s, game, limit, offset))

    async def skills(self, player_id: str) -> dict[str, dict[str, Any]]:
        """A player's skill rating per game, with its history (the plot), oldest first."""

        def q(s: Session) -> dict[str, dict[str, Any]]:
            out = skills.skills_of(s, player_id)
            for game, entry in out.items():
                entry["history"] = skills.history(s, player_id, game)
            return out

        return await self.store.run(q)

    async def recompute_skills(self, game: str) -> dict[str, Any]:
        """Every rating of ``game`` computed afresh from the stored results, beside the
        stored ones: ``{player id: {"stored": (r, rd, vol), "computed": (r, rd, vol)}}``."""

        def q(s: Session) -> dict[str, Any]:
            fresh = skills.recompute(s, game)
            stored = {
                r.player_id: (r.rating, r.rd, r.vol)
                for r in s.execute(select(Skill).where(Skill.game == game)).scalars()
            }
            return {
                pid: {
                    "stored": stored.get(pid),
                    "computed": (r.r, r.rd, r.vol) if (r := fresh.get(pid)) else None,
                }
                for pid in sorted(set(stored) | set(fresh))
            }

        return await self.store.run(q)


def _standing(r: Rating) -> dict[str, Any]:
    return {
        "points": r.points,
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "abandons": r.abandons,
    }


def ratings_of(s: Session, player_id: str) -> dict[str, Any]:
    """A player's standing in each game they were ranked in."""
    rows = s.execute(select(Rating).where(Rating.player_id == player_id)).scalars()
    return {r.game: _standing(r) for r in rows}
