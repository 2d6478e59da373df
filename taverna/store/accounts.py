"""Accounts in the database: registration, sessions, names in use and look-alikes,
and :class:`AccountStore`, the store of accounts, chips and the ranking.

Every method is one transaction (run by :meth:`Store.run`). The rules of chips and
points (PLATFORM.md, Accounts, chips and the ranking) are :mod:`.settlement`'s;
where players stand is :mod:`.standings`'.
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .chips import WELCOME_CHIPS, move_chips
from .errors import NotFound
from .ids import hash_token, new_id
from .models import ChipEntry, LoginSession, NameKey, Player, Seat, Settlement, Table, iso, now
from .players import add_guest
from .repo import Store
from .settlement import WHY_OF_NOTE, SettlementStore
from .standings import StandingsStore, ratings_of


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


class AccountStore(SettlementStore, StandingsStore):
    """Accounts, sessions, chips, ratings: the store's methods for accounts
    (``AccountStore(store)``), the settlement's (:mod:`.settlement`) and the
    standings' (:mod:`.standings`) among them."""

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
            balance = move_chips(s, player.id, WELCOME_CHIPS, "welcome", None)
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
            out["ratings"] = ratings_of(s, player_id)
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
                    "at": iso(e.created_at),
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
                "registered_at": iso(p.registered_at),
                "ratings": ratings_of(s, p.id),
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


# ------------------------------------------------------------------ helpers


def _me(p: Player) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "registered": p.username is not None,
        "chips": int(p.chips),
        "registered_at": iso(p.registered_at),
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
