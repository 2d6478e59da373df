"""Accounts, chips and the ranking in the database.

Every method is one transaction (run by :meth:`Store.run`). Chips only move
through :func:`_move_chips`, which refuses to take a balance below zero and
writes the ledger row in the same transaction; the database's check
constraints (``chips >= 0``, ``balance >= 0``) stand behind it. A table moves
a player's chips and points at most once per reason (unique constraints), so
settling a table twice is impossible, not merely avoided.

The rules (PLATFORM.md, Accounts, chips and the ranking):

- a new account gets :data:`WELCOME_CHIPS`;
- an official game holds every player's stake when it starts; at the end the
  winning side takes the losers' stakes (each winner gets back their own
  stake and an equal share of the losers'); a draw returns every stake;
- each player of the winning side gets :data:`WIN_POINTS`, each loser
  :data:`LOSS_POINTS`; a player who abandons gets :data:`ABANDON_POINTS` at
  once and is not scored again (their seat, played on by a bot, still wins or
  loses its stake: chips follow the seat);
- when two players at the table share an address, no points and no chips
  move: stakes are returned and an abandonment already counted is voided.
"""

from __future__ import annotations

import contextlib
import secrets
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, func, or_, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import skills
from .errors import Conflict, NotFound
from .ids import hash_token, new_id
from .models import (
    ChipEntry,
    LoginSession,
    NameKey,
    Player,
    Rating,
    RatingEntry,
    Seat,
    SeatAddress,
    Settlement,
    Skill,
    Table,
    now,
)
from .players import add_guest
from .repo import Store
from .tables import SeatInfo
from .tables import shared_address as _shared_address

WELCOME_CHIPS = 1000
WIN_POINTS = 12
LOSS_POINTS = -10
ABANDON_POINTS = -20


#: why an official game moved no points (the settlement's note, and its code)
SHARED_NOTE = "two players shared an address: no points, stakes returned"
NO_WINNER_NOTE = "nobody won: stakes returned"
WHY_OF_NOTE = {SHARED_NOTE: "shared_address", NO_WINNER_NOTE: "no_winner"}


class NameTaken(Exception):
    """The name belongs to somebody else (a username, compared without case), or looks
    like a name in use: ``like`` is that name as it shows, ``registered`` whether it is
    an account's (else a guest's in the club)."""

    def __init__(self, name: str, like: str | None = None, registered: bool = True) -> None:
        super().__init__(name)
        self.like = like
        self.registered = registered


def _seated() -> ColumnElement[bool]:
    """Whether the player sits at an unfinished table (open or playing)."""
    return (
        select(Seat.player_id)
        .join(Table, Table.id == Seat.table_id)
        .where(Seat.player_id == Player.id, Table.status.in_(("open", "playing")))
        .exists()
    )


def _in_use(guests_since: datetime | None) -> ColumnElement[bool]:
    """Whose names are in use: every account's, and a guest's who was in the club after
    ``guests_since`` (used their session) or is seated at an unfinished table; None:
    accounts' alone."""
    if guests_since is None:
        return Player.username.is_not(None)
    return or_(Player.username.is_not(None), Player.seen_at > guests_since, _seated())


def _look_alike(
    s: Session, keys: Sequence[str], guests_since: datetime | None, besides: str | None = None
) -> tuple[str, bool] | None:
    """A name in use (its player not ``besides``) with one of ``keys``: (that name,
    whether it is an account's), accounts first; or None."""
    found = s.execute(
        select(Player.name, Player.username.is_not(None))
        .join(NameKey, NameKey.player_id == Player.id)
        .where(NameKey.key.in_(list(keys)), Player.id != (besides or ""), _in_use(guests_since))
        .order_by(Player.username.is_(None))
        .limit(1)
    ).first()
    return None if found is None else (str(found[0]), bool(found[1]))


class NotEnoughChips(Conflict):
    """A player has fewer chips than a movement needs."""

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message, "not_enough_chips", **params)


class AccountStore:
    """Accounts, sessions, chips, ratings: the store's methods for issue 8."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # ------------------------------------------------------------ accounts

    async def register(
        self,
        name: str,
        username: str,
        password_hash: str,
        guest_id: str | None,
        keys: Sequence[str] = (),
        guests_since: datetime | None = None,
    ) -> dict[str, Any]:
        """Make an account (from the caller's guest player if any): raises NameTaken,
        also for a name with one of ``keys`` (what it looks like) in use (see
        :func:`_in_use`; the guest's own name does not count)."""

        def q(s: Session) -> dict[str, Any]:
            taken = s.execute(select(Player.id).where(Player.username == username)).first()
            if taken is not None:
                raise NameTaken(name)
            like = _look_alike(s, keys, guests_since, besides=guest_id)
            if like is not None:
                raise NameTaken(name, *like)
            player = s.get(Player, guest_id) if guest_id else None
            if player is None or player.username is not None:
                player = Player(id=new_id(16), name=name, chips=0)
                s.add(player)
            elif player.name != name:
                _rename(s, player.id, name)
            player.name = name
            player.username = username
            player.password_hash = password_hash
            player.registered_at = now()
            s.flush()
            s.execute(delete(NameKey).where(NameKey.player_id == player.id))
            s.add_all(NameKey(key=k, player_id=player.id) for k in keys)
            balance = _move_chips(s, player.id, WELCOME_CHIPS, "welcome", None)
            return {**_me(player), "chips": balance}

        try:
            return await self.store.run(q)
        except IntegrityError:  # a concurrent registration of the same name
            raise NameTaken(name) from None

    async def create_guest(
        self, name: str, keys: Sequence[str], guests_since: datetime | None
    ) -> tuple[dict[str, Any], str]:
        """A guest called ``name`` and its session's token, unless a name in use looks
        like it (NameTaken; see :func:`_in_use`)."""

        def q(s: Session) -> tuple[dict[str, Any], str]:
            like = _look_alike(s, keys, guests_since)
            if like is not None:
                raise NameTaken(name, *like)
            return add_guest(s, name, keys)

        return await self.store.run(q)

    async def credentials(self, username: str) -> tuple[str, str] | None:
        """(player id, password hash) of an account, or None."""

        def q(s: Session) -> tuple[str, str] | None:
            row = s.execute(
                select(Player.id, Player.password_hash).where(Player.username == username)
            ).first()
            if row is None or row.password_hash is None:
                return None
            return row.id, row.password_hash

        return await self.store.run(q)

    async def set_password_hash(self, player_id: str, password_hash: str) -> None:
        def q(s: Session) -> None:
            s.execute(
                update(Player).where(Player.id == player_id).values(password_hash=password_hash)
            )

        await self.store.run(q)

    async def new_session(self, player_id: str, days: float) -> str:
        """A new session token for a login (only its hash is stored)."""
        token = secrets.token_urlsafe(32)

        def q(s: Session) -> None:
            # the player's expired sessions go as a new one comes
            s.execute(
                delete(LoginSession).where(
                    LoginSession.player_id == player_id, LoginSession.expires_at < now()
                )
            )
            s.add(
                LoginSession(
                    token_hash=hash_token(token),
                    player_id=player_id,
                    expires_at=now() + timedelta(days=days),
                )
            )

        await self.store.run(q)
        return token

    async def end_session(self, token: str) -> None:
        h = hash_token(token)

        def q(s: Session) -> None:
            row = s.get(LoginSession, h)
            if row is not None:
                s.delete(row)

        await self.store.run(q)

    async def me(self, player_id: str) -> dict[str, Any]:
        """The account as its owner sees it: chips and standings included."""

        def q(s: Session) -> dict[str, Any]:
            p = s.get(Player, player_id)
            if p is None:
                raise NotFound("no such player")
            out = _me(p)
            out["ratings"] = _ratings_of(s, player_id)
            return out

        return await self.store.run(q)

    async def ledger(self, player_id: str, limit: int = 200) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(ChipEntry, Settlement.note)
                .outerjoin(Settlement, Settlement.table_id == ChipEntry.table_id)
                .where(ChipEntry.player_id == player_id)
                .order_by(ChipEntry.id.desc())
                .limit(limit)
            ).all()
            return [
                {
                    "id": e.id,
                    "delta": e.delta,
                    "balance": e.balance,
                    "reason": e.reason,
                    "table": e.table_id,
                    "at": _iso(e.created_at),
                    # a stake returned says why: "shared_address" or "no_winner"
                    "why": WHY_OF_NOTE.get(note or "", "") if e.reason == "refund" else "",
                }
                for e, note in rows
            ]

        return await self.store.run(q)

    async def fill_keys(self, keys_of: Callable[[str], Sequence[str]]) -> int:
        """Give the names in use that have no keys yet theirs: the accounts' (and the
        guests' seated at unfinished tables) of a database that kept none; how many."""

        def q(s: Session) -> int:
            keyed = select(NameKey.player_id).where(NameKey.player_id == Player.id).exists()
            rows = s.execute(
                select(Player.id, Player.name).where(
                    ~keyed, or_(Player.username.is_not(None), _seated())
                )
            ).all()
            for pid, name in rows:
                s.add_all(NameKey(key=k, player_id=pid) for k in keys_of(name))
            return len(rows)

        return await self.store.run(q)

    async def look_alikes(self) -> list[list[str]]:
        """Accounts whose names look alike (a key in common), made before that was
        refused: they keep their names; moderators (operators, for now) should know."""

        def q(s: Session) -> list[list[str]]:
            shared = (
                select(NameKey.key)
                .join(Player, Player.id == NameKey.player_id)
                .where(Player.username.is_not(None))
                .group_by(NameKey.key)
                .having(func.count() > 1)
            )
            rows = s.execute(
                select(NameKey.key, Player.name)
                .join(Player, Player.id == NameKey.player_id)
                .where(NameKey.key.in_(shared), Player.username.is_not(None))
                .order_by(Player.registered_at, Player.id)
            ).all()
            groups: dict[str, list[str]] = defaultdict(list)
            for key, name in rows:
                groups[str(key)].append(name)
            unique = {tuple(names) for names in groups.values()}
            return sorted(list(names) for names in unique)

        return await self.store.run(q)

    async def username_taken(self, username: str) -> bool:
        """Whether a registered player has this username (a key from ``username_key``)."""

        def q(s: Session) -> bool:
            found = s.execute(select(Player.id).where(Player.username == username)).first()
            return found is not None

        return await self.store.run(q)

    async def player_by_username(self, username: str) -> dict[str, Any] | None:
        def q(s: Session) -> dict[str, Any] | None:
            p = s.execute(select(Player).where(Player.username == username)).scalar_one_or_none()
            if p is None:
                return None
            return {
                "id": p.id,
                "name": p.name,
                "registered_at": _iso(p.registered_at),
                "ratings": _ratings_of(s, p.id),
            }

        return await self.store.run(q)

    async def chips(self, player_id: str) -> int | None:
        """A registered player's chips; None for a guest."""

        def q(s: Session) -> int | None:
            row = s.execute(
                select(Player.chips, Player.username).where(Player.id == player_id)
            ).first()
            return None if row is None or row.username is None else int(row.chips)

        return await self.store.run(q)

    # ------------------------------------------------------------- history

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
                    "finished_at": _iso(t.finished_at),
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

    # ------------------------------------------------------- skill ratings

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

    # ------------------------------------------------------------- tables

    async def note_address(self, table_id: str, player_id: str, address: str) -> None:
        """Remember that a player sat or connected from an address (the same-IP rule)."""
        address = address[:64]

        def q(s: Session) -> None:
            if s.get(SeatAddress, (table_id, player_id, address)) is None:
                s.add(SeatAddress(table_id=table_id, player_id=player_id, address=address[:64]))

        # the same row from a concurrent connection is noted already
        with contextlib.suppress(IntegrityError):
            await self.store.run(q)

    async def hold_stakes(self, table_id: str) -> None:
        """Take every seated player's stake as an official game starts; all or none."""

        def q(s: Session) -> None:
            t = s.get(Table, table_id, with_for_update=not self.store.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            if t.status != "open":
                raise Conflict(f"table {table_id} is {t.status}", "table_not_open", status=t.status)
            stake = int(t.options.get("stake") or 0)
            for seat in t.seats:
                if seat.bot or seat.player_id is None:
                    raise Conflict(
                        f"seat {seat.seat}: an official table seats registered humans",
                        "official_humans_only",
                    )
                p = s.get(Player, seat.player_id)
                assert p is not None
                if p.username is None:
                    raise Conflict(
                        f"seat {seat.seat}: {p.name} is a guest, not registered",
                        "not_registered",
                        name=p.name,
                    )
                if p.chips < stake:
                    raise NotEnoughChips(
                        f"{p.name} has {p.chips} chips, fewer than the stake of {stake}",
                        name=p.name,
                        chips=p.chips,
                        stake=stake,
                    )
                if stake:  # a tournament may be played for no stake
                    _move_chips(s, p.id, -stake, "stake", table_id)

        await self.store.run(q)

    async def abandon(self, table_id: str, game: str, player_id: str) -> bool:
        """−20 at once to a player who abandoned an official game; False if it does not count."""

        def q(s: Session) -> bool:
            if s.get(Settlement, table_id) is not None:
                return False
            t = s.get(Table, table_id)
            if t is None:
                return False
            if _shared_address(s, table_id, [x.player_id for x in t.seats if x.player_id]):
                return False
            return _abandon(s, table_id, game, player_id)

        try:
            return await self.store.run(q)
        except IntegrityError:  # counted already (a concurrent call)
            return False

    async def settle(
        self,
        table_id: str,
        game: str,
        winners: set[str] | None,
        result: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Move the chips, the points and the skill ratings of a finished official game,
        once.

        ``winners`` are the player ids of the winning side's seats (None: nobody
        won); ``result`` the game's result (its ``scores`` and ``winner`` side: the
        skill ratings, :mod:`.skills`). Returns ``{"ranked", "note", "points": {id: Δ},
        "chips": {id: Δ}}``.
        """
        at = now()

        def q(s: Session) -> dict[str, Any]:
            done = s.get(Settlement, table_id)
            if done is not None:
                return _settled(s, table_id, done)
            t = s.get(Table, table_id, with_for_update=not self.store.sqlite)
            if t is None:
                raise NotFound(f"no table {table_id!r}", "no_table")
            stake = int(t.options.get("stake") or 0)
            seated = [(x.player_id, x.replaced) for x in t.seats if x.player_id]
            ids = [pid for pid, _ in seated]
            held = set(
                s.execute(
                    select(ChipEntry.player_id).where(
                        ChipEntry.table_id == table_id, ChipEntry.reason == "stake"
                    )
                ).scalars()
            )
            abandoned = set(
                s.execute(
                    select(RatingEntry.player_id).where(
                        RatingEntry.table_id == table_id, RatingEntry.reason == "abandoned"
                    )
                ).scalars()
            )
            if _shared_address(s, table_id, ids):
                note = SHARED_NOTE
                ranked = False
            elif winners is None:
                note = NO_WINNER_NOTE
                ranked = False
            else:
                note = ""
                ranked = True
            if not ranked:
                for pid in ids:
                    if pid in held:
                        _move_chips(s, pid, stake, "refund", table_id)
                for pid in abandoned:
                    _rate(s, pid, game, table_id, -ABANDON_POINTS, "voided", games=-1, abandons=-1)
            else:
                assert winners is not None
                won = [pid for pid in ids if pid in held and pid in winners]
                lost = [pid for pid in ids if pid in held and pid not in winners]
                if won:
                    share, extra = divmod(stake * len(lost), len(won))
                    for i, pid in enumerate(won):
                        _move_chips(s, pid, stake + share + (i < extra), "win", table_id)
                for pid, replaced in seated:
                    if pid in abandoned:
                        continue  # PLATFORM.md: an abandoner is not scored again
                    if replaced:  # the server stopped before the abandonment was counted
                        _abandon(s, table_id, game, pid)
                    elif pid in winners:
                        _rate(s, pid, game, table_id, WIN_POINTS, "won", games=1, wins=1)
                    else:
                        _rate(s, pid, game, table_id, LOSS_POINTS, "lost", games=1, losses=1)
                if result is not None:
                    skills.rate_table(s, t, result, at)
            settlement = Settlement(table_id=table_id, ranked=ranked, note=note, created_at=at)
            s.add(settlement)
            s.flush()
            return _settled(s, table_id, settlement)

        try:
            return await self.store.run(q)
        except IntegrityError:  # settled concurrently: read what was done
            return await self.store.run(
                lambda s: _settled(s, table_id, s.get(Settlement, table_id))
            )


# ------------------------------------------------------------------ helpers


def _iso(t: datetime | None) -> str | None:
    if t is None:
        return None
    return (t if t.tzinfo is not None else t.replace(tzinfo=UTC)).isoformat()


def _me(p: Player) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "registered": p.username is not None,
        "chips": int(p.chips),
        "registered_at": _iso(p.registered_at),
    }


def _rename(s: Session, player_id: str, name: str) -> None:
    """A guest who registers is one player under a new name: their seats, and the names
    in the results of their finished games, say the name they have now (docs/accounts.md)."""
    s.execute(update(Seat).where(Seat.player_id == player_id).values(player_name=name))
    tables = s.execute(
        select(Table, Seat.seat)
        .join(Seat, Seat.table_id == Table.id)
        .where(Seat.player_id == player_id, Table.result.is_not(None))
    ).all()
    for table, seat in tables:
        result = table.result or {}
        names = result.get("names")
        if isinstance(names, list) and seat < len(names):
            names = list(names)
            names[seat] = name
            table.result = {**result, "names": names}  # a new value: JSON is stored whole


def _standing(r: Rating) -> dict[str, Any]:
    return {
        "points": r.points,
        "games": r.games,
        "wins": r.wins,
        "losses": r.losses,
        "abandons": r.abandons,
    }


def _ratings_of(s: Session, player_id: str) -> dict[str, Any]:
    rows = s.execute(select(Rating).where(Rating.player_id == player_id)).scalars()
    return {r.game: _standing(r) for r in rows}


def _move_chips(s: Session, player_id: str, delta: int, reason: str, table_id: str | None) -> int:
    """Add ``delta`` chips (negative: take) and write the ledger row; never below zero."""
    balance = s.execute(
        update(Player)
        .where(Player.id == player_id, Player.chips + delta >= 0)
        .values(chips=Player.chips + delta)
        .returning(Player.chips)
        .execution_options(synchronize_session=False)
    ).scalar_one_or_none()
    if balance is None:
        have = s.execute(select(Player.chips).where(Player.id == player_id)).scalar_one_or_none()
        raise NotEnoughChips(f"{-delta} chips needed, {have or 0} held", chips=have or 0)
    s.add(
        ChipEntry(
            player_id=player_id, table_id=table_id, delta=delta, balance=balance, reason=reason
        )
    )
    s.flush()
    return int(balance)


def _rate(
    s: Session, player_id: str, game: str, table_id: str, delta: int, reason: str, **counts: int
) -> None:
    """One rating entry and the player's standing in ``game`` moved by it."""
    s.add(
        RatingEntry(player_id=player_id, game=game, table_id=table_id, delta=delta, reason=reason)
    )
    insert = pg_insert if s.get_bind().dialect.name == "postgresql" else sqlite_insert
    s.execute(
        insert(Rating)
        .values(player_id=player_id, game=game, points=0, games=0, wins=0, losses=0, abandons=0)
        .on_conflict_do_nothing()
    )
    values: dict[str, Any] = {"points": Rating.points + delta}
    for name, n in counts.items():
        values[name] = getattr(Rating, name) + n
    s.execute(
        update(Rating)
        .where(Rating.player_id == player_id, Rating.game == game)
        .values(**values)
        .execution_options(synchronize_session=False)
    )
    s.flush()


def _abandon(s: Session, table_id: str, game: str, player_id: str) -> bool:
    exists = s.execute(
        select(RatingEntry.id).where(
            RatingEntry.player_id == player_id,
            RatingEntry.table_id == table_id,
            RatingEntry.reason == "abandoned",
        )
    ).first()
    if exists is not None:
        return False
    _rate(s, player_id, game, table_id, ABANDON_POINTS, "abandoned", games=1, abandons=1)
    return True


def _settled(s: Session, table_id: str, settlement: Settlement | None) -> dict[str, Any]:
    points: dict[str, int] = defaultdict(int)
    chips: dict[str, int] = defaultdict(int)
    for pid, delta in s.execute(
        select(RatingEntry.player_id, RatingEntry.delta).where(RatingEntry.table_id == table_id)
    ):
        points[pid] += delta
    for pid, delta in s.execute(
        select(ChipEntry.player_id, ChipEntry.delta).where(ChipEntry.table_id == table_id)
    ):
        chips[pid] += delta
    note = settlement.note if settlement else ""
    return {
        "ranked": bool(settlement.ranked) if settlement else False,
        "note": note,
        # why it did not count, for a client to say in its own words
        "why": WHY_OF_NOTE.get(note, ""),
        "points": dict(points),
        "chips": dict(chips),
    }
