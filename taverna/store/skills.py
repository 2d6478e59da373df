"""Skill ratings in the database: Glicko-2 (:mod:`taverna.glicko2`) after every ranked
official game, beside the seed's ranking points (PLATFORM.md, Competition).

One official game is one rating period for its players. Before it, each player's
deviation grows with the days since their last rated game; the game's sides are the
game's own (a Mus pair is one side, rated as one opponent: :func:`glicko2.composite`);
a game of three or four sides counts as the outcomes between each two. A player who
abandoned the game loses to every other side, whatever their seat's bot did after. A
game that moved no points (two players on one address, nobody won) moves no rating.

Everything a rating depends on is stored: the game's result (``tables.result``), its
seats, who abandoned (``rating_entries``) and when it was settled
(``settlements.created_at``), so :func:`recompute` gives the very same numbers from the
stored results alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .. import glicko2
from ..games import get_game
from .models import Player, RatingEntry, Settlement, Skill, SkillEntry, Table

#: a player's rating and when their last rated game ended
Standing = tuple[glicko2.Rating, datetime | None]


def _aware(t: datetime | None) -> datetime | None:
    if t is None:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def sides_of(game: str, seats: Iterable[tuple[int, str | None]]) -> list[list[str]]:
    """The players of each side of a game, side by side in the game's order."""
    cls = get_game(game)
    sides: dict[int, list[str]] = {}
    for seat, player in sorted(seats):
        if player is not None:
            sides.setdefault(cls.side_of(seat), []).append(player)
    return [sides[k] for k in sorted(sides)]


def rate(
    before: dict[str, Standing],
    sides: Sequence[Sequence[str]],
    scores: Sequence[float],
    winner: int,
    abandoned: set[str],
    at: datetime,
) -> dict[str, tuple[glicko2.Rating, glicko2.Rating]]:
    """Every player's (rating before, rating after) one game that ended ``at``: the
    rating before is the stored one grown by the days away (:func:`glicko2.idle`)."""
    now: dict[str, glicko2.Rating] = {}
    for side in sides:
        for pid in side:
            rating, last = before.get(pid, (glicko2.Rating(), None))
            last = _aware(last)
            days = 0.0 if last is None else (at - last).total_seconds() / 86400
            now[pid] = glicko2.idle(rating, days)
    grid = [[now[pid] for pid in side] for side in sides]
    after = glicko2.rate_game(grid, scores, winner)
    out: dict[str, tuple[glicko2.Rating, glicko2.Rating]] = {}
    for i, side in enumerate(sides):
        for k, pid in enumerate(side):
            new = after[i][k]
            if pid in abandoned:
                # PLATFORM.md: who abandons loses the game, whatever the seat's bot did
                others = [glicko2.composite(grid[j]) for j in range(len(sides)) if j != i]
                new = glicko2.update(now[pid], [(o, 0.0) for o in others])
            out[pid] = (now[pid], new)
    return out


def _inputs(
    s: Session, t: Table, result: dict[str, Any]
) -> tuple[list[list[str]], list[float], int, set[str]] | None:
    """What a game's ratings depend on: sides, scores, the winning side and who
    abandoned; None for a result that names no winner."""
    winner, scores = result.get("winner"), result.get("scores")
    if not isinstance(winner, int) or not isinstance(scores, list):
        return None
    sides = sides_of(t.game, ((x.seat, x.player_id) for x in t.seats))
    abandoned = set(
        s.execute(
            select(RatingEntry.player_id).where(
                RatingEntry.table_id == t.id, RatingEntry.reason == "abandoned"
            )
        ).scalars()
    )
    return sides, [float(x) for x in scores], winner, abandoned


def rate_table(s: Session, t: Table, result: dict[str, Any], at: datetime) -> None:
    """Rate a ranked official game as it is settled (in the settlement's transaction)."""
    inputs = _inputs(s, t, result)
    if inputs is None:
        return
    sides, scores, winner, abandoned = inputs
    players = [pid for side in sides for pid in side]
    rows = {
        r.player_id: r
        for r in s.execute(
            select(Skill).where(Skill.game == t.game, Skill.player_id.in_(players))
        ).scalars()
    }
    before = {pid: (glicko2.Rating(r.rating, r.rd, r.vol), r.last_at) for pid, r in rows.items()}
    for pid, (old, new) in rate(before, sides, scores, winner, abandoned, at).items():
        row = rows.get(pid)
        if row is None:
            row = Skill(player_id=pid, game=t.game, games=0)
            s.add(row)
        row.rating, row.rd, row.vol = new.r, new.rd, new.vol
        row.games = (row.games or 0) + 1
        row.last_at = at
        s.add(
            SkillEntry(
                player_id=pid,
                game=t.game,
                table_id=t.id,
                rating_before=old.r,
                rd_before=old.rd,
                rating=new.r,
                rd=new.rd,
                vol=new.vol,
                created_at=at,
            )
        )
    s.flush()


def recompute(s: Session, game: str) -> dict[str, glicko2.Rating]:
    """Every player's rating in ``game`` computed afresh from the stored results of its
    ranked official games, in the order they were settled."""
    rows = s.execute(
        select(Table, Settlement.created_at)
        .join(Settlement, Settlement.table_id == Table.id)
        .where(Settlement.ranked.is_(True), Table.game == game)
        .order_by(Settlement.created_at, Table.id)
    ).all()
    standing: dict[str, Standing] = {}
    for t, at in rows:
        inputs = _inputs(s, t, t.result or {})
        if inputs is None:
            continue
        when = _aware(at)
        assert when is not None
        for pid, (_, new) in rate(standing, *inputs, at=when).items():
            standing[pid] = (new, when)
    return {pid: r for pid, (r, _) in standing.items()}


def skills_of(s: Session, player_id: str) -> dict[str, dict[str, Any]]:
    """A player's rating in each game they were rated in."""
    rows = s.execute(select(Skill).where(Skill.player_id == player_id)).scalars()
    return {r.game: public(r) for r in rows}


def public(r: Skill) -> dict[str, Any]:
    rating = glicko2.Rating(r.rating, r.rd, r.vol)
    return {
        "rating": round(r.rating),
        "rd": round(r.rd),
        "provisional": rating.provisional,
        "rated_games": r.games,
    }


def history(s: Session, player_id: str, game: str) -> list[dict[str, Any]]:
    """A player's rating after each rated game of ``game``, oldest first (the plot)."""
    rows = s.execute(
        select(SkillEntry)
        .where(SkillEntry.player_id == player_id, SkillEntry.game == game)
        .order_by(SkillEntry.created_at, SkillEntry.id)
    ).scalars()
    out = []
    for e in rows:
        at = _aware(e.created_at)
        out.append(
            {
                "at": at.isoformat() if at else None,
                "table": e.table_id,
                "rating": round(e.rating, 1),
                "rd": round(e.rd, 1),
                "before": round(e.rating_before, 1),
            }
        )
    return out


def ranking(s: Session, game: str, limit: int, offset: int) -> tuple[int, list[dict[str, Any]]]:
    """The rated players of ``game`` by rating, best first (established before
    provisional ones: a newcomer's one lucky game does not top the table)."""
    total = s.execute(
        select(func.count()).select_from(Skill).where(Skill.game == game)
    ).scalar_one()
    rows = s.execute(
        select(Skill, Player.name)
        .join(Player, Player.id == Skill.player_id)
        .where(Skill.game == game)
        .order_by((Skill.rd > glicko2.PROVISIONAL_RD).asc(), Skill.rating.desc(), Player.name)
        .limit(limit)
        .offset(offset)
    ).all()
    out = [
        {"rank": offset + i + 1, "player": name, **public(r)} for i, (r, name) in enumerate(rows)
    ]
    return int(total), out
