"""Moderation in the database (PLATFORM.md, Moderation): bans and silences, the log of
every moderator's action, reported chat messages, and pairs of accounts worth a look.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from .errors import NotFound
from .models import (
    ChatMessage,
    ChatReport,
    ChipEntry,
    ModerationEntry,
    Player,
    SeatAddress,
    Table,
    iso,
)
from .repo import Store


class ModerationStore:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def is_moderator(self, player_id: str) -> bool:
        def q(s: Session) -> bool:
            return s.execute(select(Player.role).where(Player.id == player_id)).scalar() == (
                "moderator"
            )

        return await self.store.run(q)

    async def log(
        self,
        moderator_id: str | None,
        action: str,
        *,
        target_id: str | None = None,
        reason: str | None = None,
        until: datetime | None = None,
        allowed: bool = True,
    ) -> None:
        def q(s: Session) -> None:
            s.add(
                ModerationEntry(
                    moderator_id=moderator_id,
                    action=action,
                    target_id=target_id,
                    reason=(reason or "")[:300] or None,
                    until=until,
                    allowed=allowed,
                )
            )

        await self.store.run(q)

    async def restrict(
        self,
        moderator_id: str,
        username: str,
        what: str,
        until: datetime | None,
        reason: str,
    ) -> dict[str, Any]:
        """Ban (``what`` "ban") or silence ("silence") an account until a time, or lift it
        (``until`` None); logged in the same transaction. The account as it is then."""

        def q(s: Session) -> dict[str, Any]:
            p = s.execute(select(Player).where(Player.username == username)).scalar_one_or_none()
            if p is None:
                raise NotFound(f"no registered player named {username!r}", "no_player")
            if what == "ban":
                p.banned_until, p.ban_reason = until, reason if until else None
            else:
                p.silenced_until, p.silence_reason = until, reason if until else None
            action = what if until is not None else f"lift_{what}"
            s.add(
                ModerationEntry(
                    moderator_id=moderator_id,
                    action=action,
                    target_id=p.id,
                    reason=reason[:300],
                    until=until,
                    allowed=True,
                )
            )
            s.flush()
            return {
                "id": p.id,
                "name": p.name,
                "banned_until": iso(p.banned_until),
                "ban_reason": p.ban_reason,
                "silenced_until": iso(p.silenced_until),
                "silence_reason": p.silence_reason,
            }

        return await self.store.run(q)

    async def restrictions(self, player_id: str) -> dict[str, Any]:
        """An account's ban and silence as stored (the sockets' check, at connect time)."""

        def q(s: Session) -> dict[str, Any]:
            p = s.get(Player, player_id)
            if p is None:
                return {}
            return {
                "banned_until": p.banned_until,
                "ban_reason": p.ban_reason,
                "silenced_until": p.silenced_until,
                "silence_reason": p.silence_reason,
            }

        return await self.store.run(q)

    async def entries(self, limit: int = 200) -> list[dict[str, Any]]:
        def q(s: Session) -> list[dict[str, Any]]:
            names = {p.id: p.name for p in s.execute(select(Player)).scalars()}
            rows = s.execute(
                select(ModerationEntry).order_by(ModerationEntry.id.desc()).limit(limit)
            ).scalars()
            return [
                {
                    "at": iso(e.created_at),
                    "moderator": names.get(e.moderator_id or ""),
                    "action": e.action,
                    "target": names.get(e.target_id or "", e.target_id),
                    "reason": e.reason,
                    "until": iso(e.until),
                    "allowed": e.allowed,
                }
                for e in rows
            ]

        return await self.store.run(q)

    async def reports(self, limit: int = 200) -> list[dict[str, Any]]:
        """Reported chat messages, those with the most reporters and the newest first, with
        who said them. ``reporters`` counts an account once and the guests of one address
        as one (throw-away guests cannot inflate it); ``reports`` counts every report."""

        def q(s: Session) -> list[dict[str, Any]]:
            reporters = func.count(func.distinct(ChatReport.reporter_key))
            rows = s.execute(
                select(
                    ChatMessage,
                    reporters,
                    func.count(ChatReport.id),
                    func.max(ChatReport.created_at),
                )
                .join(ChatReport, ChatReport.message_id == ChatMessage.id)
                .group_by(ChatMessage.id)
                .order_by(
                    reporters.desc(),
                    func.count(ChatReport.id).desc(),
                    func.max(ChatReport.created_at).desc(),
                )
                .limit(limit)
            ).all()
            out = []
            for m, distinct, count, last in rows:
                reasons = [
                    r
                    for r in s.execute(
                        select(ChatReport.reason).where(ChatReport.message_id == m.id)
                    ).scalars()
                    if r
                ]
                out.append(
                    {
                        "message": m.id,
                        "table": m.table_id,
                        "room": m.room,
                        "name": m.name,
                        "player_id": m.player_id,
                        "text": m.text,
                        "phrase": m.phrase,
                        "at": iso(m.created_at),
                        "reporters": int(distinct),
                        "reports": int(count),
                        "last_report": iso(last),
                        "reasons": reasons,
                    }
                )
            return out

        return await self.store.run(q)

    async def suspicious(self, min_tables: int = 3) -> list[dict[str, Any]]:
        """Pairs of accounts worth a look: those that sat or connected from one address at
        ``min_tables`` tables or more together, and those between whom chips flowed one
        way game after game (at least ``min_tables`` official games together, nine
        tenths of the chips one way)."""

        def q(s: Session) -> list[dict[str, Any]]:
            names = {p.id: p.name for p in s.execute(select(Player)).scalars()}
            # one address, one table, two accounts
            shared: dict[tuple[str, str], set[str]] = defaultdict(set)
            by_table: dict[tuple[str, str], set[str]] = defaultdict(set)
            for tid, pid, address in s.execute(
                select(SeatAddress.table_id, SeatAddress.player_id, SeatAddress.address)
            ):
                by_table[(tid, address)].add(pid)
            for (tid, _), pids in by_table.items():
                ordered = sorted(pids)
                for i, a in enumerate(ordered):
                    for b in ordered[i + 1 :]:
                        shared[(a, b)].add(tid)
            # chips: each official table's net result per player (win minus stake)
            net: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
            for table_id, pid, delta in s.execute(
                select(ChipEntry.table_id, ChipEntry.player_id, ChipEntry.delta)
                .join(Table, Table.id == ChipEntry.table_id)
                .where(ChipEntry.reason.in_(("stake", "win", "refund")))
            ):
                net[str(table_id)][pid] += int(delta)
            flow: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
            for per in net.values():
                players = sorted(per)
                for i, a in enumerate(players):
                    for b in players[i + 1 :]:
                        f = flow[(a, b)]
                        f[2] += 1
                        if per[a] > 0 > per[b]:
                            f[0] += min(per[a], -per[b])  # from b to a
                        elif per[b] > 0 > per[a]:
                            f[1] += min(per[b], -per[a])  # from a to b
            out = []
            for (a, b), tables in shared.items():
                if len(tables) >= min_tables:
                    out.append(
                        {
                            "why": "shared_address",
                            "players": [names.get(a, a), names.get(b, b)],
                            "tables": len(tables),
                        }
                    )
            for (a, b), (to_a, to_b, games) in flow.items():
                total = to_a + to_b
                if games >= min_tables and total and max(to_a, to_b) >= 0.9 * total:
                    winner, loser = (a, b) if to_a >= to_b else (b, a)
                    out.append(
                        {
                            "why": "chips_one_way",
                            "players": [names.get(loser, loser), names.get(winner, winner)],
                            "tables": games,
                            "chips": total,
                        }
                    )
            return sorted(out, key=lambda x: -int(x["tables"]))

        return await self.store.run(q)
