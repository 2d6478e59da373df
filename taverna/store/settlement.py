"""Official games in the database: stakes held, abandonments, and the settlement.

Every method is one transaction (run by :meth:`Store.run`). A table moves a player's
chips (:func:`.chips.move_chips`) and points at most once per reason (unique
constraints), so settling a table twice is impossible, not merely avoided.

The rules (PLATFORM.md, Accounts, chips and the ranking):

- a new account gets :data:`.chips.WELCOME_CHIPS`;
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
from collections import defaultdict
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from . import skills
from .chips import NotEnoughChips, move_chips
from .errors import Conflict, NotFound
from .models import ChipEntry, Player, Rating, RatingEntry, SeatAddress, Settlement, Table, now
from .repo import Store
from .tables import shared_address

WIN_POINTS = 12
LOSS_POINTS = -10
ABANDON_POINTS = -20


#: why an official game moved no points (the settlement's note, and its code)
SHARED_NOTE = "two players shared an address: no points, stakes returned"
NO_WINNER_NOTE = "nobody won: stakes returned"
WHY_OF_NOTE = {SHARED_NOTE: "shared_address", NO_WINNER_NOTE: "no_winner"}


class SettlementStore:
    """Stakes, abandonments and settlements (a part of :class:`.accounts.AccountStore`)."""

    store: Store

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
                    move_chips(s, p.id, -stake, "stake", table_id)

        await self.store.run(q)

    async def abandon(self, table_id: str, game: str, player_id: str) -> bool:
        """−20 at once to a player who abandoned an official game; False if it does not count."""

        def q(s: Session) -> bool:
            if s.get(Settlement, table_id) is not None:
                return False
            t = s.get(Table, table_id)
            if t is None:
                return False
            if shared_address(s, table_id, [x.player_id for x in t.seats if x.player_id]):
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
            if shared_address(s, table_id, ids):
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
                        move_chips(s, pid, stake, "refund", table_id)
                for pid in abandoned:
                    _rate(s, pid, game, table_id, -ABANDON_POINTS, "voided", games=-1, abandons=-1)
            else:
                assert winners is not None
                won = [pid for pid in ids if pid in held and pid in winners]
                lost = [pid for pid in ids if pid in held and pid not in winners]
                if won:
                    share, extra = divmod(stake * len(lost), len(won))
                    for i, pid in enumerate(won):
                        move_chips(s, pid, stake + share + (i < extra), "win", table_id)
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
