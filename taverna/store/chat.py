"""A table's chat in the database: the messages of its rooms (players, spectators),
and the reports people make of them for the moderators."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .base import Database
from .models import ChatMessage, ChatReport, Player, aware, now


class ChatStore(Database):
    """The store's chat (a part of :class:`taverna.store.repo.Store`)."""

    async def add_chat(
        self,
        table_id: str,
        room: str,
        *,
        player_id: str | None = None,
        name: str | None = None,
        seat: int | None = None,
        text: str | None = None,
        phrase: str | None = None,
        event: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Store one chat message (``room`` players or spectators) and return it as the
        clients see it. A person's message is signed with the name they have now (read
        in the same transaction); an ``event`` is the table's own, with the ``name`` given."""

        def q(s: Session) -> dict[str, Any]:
            signed = name
            if player_id is not None:
                person = s.get(Player, player_id)
                signed = person.name if person is not None else name
            row = ChatMessage(
                table_id=table_id,
                room=room,
                player_id=player_id,
                name=signed,
                seat=seat,
                text=text,
                phrase=phrase,
                event=event,
                created_at=now(),
            )
            s.add(row)
            s.flush()
            return _chat_json(row)

        return await self.run(q)

    async def chat(
        self, table_id: str, rooms: Sequence[str], limit: int = 50
    ) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a table's chat in these rooms, oldest first."""

        def q(s: Session) -> list[dict[str, Any]]:
            rows = s.execute(
                select(ChatMessage)
                .where(ChatMessage.table_id == table_id, ChatMessage.room.in_(list(rooms)))
                .order_by(ChatMessage.id.desc())
                .limit(limit)
            ).scalars()
            return [_chat_json(r) for r in reversed(list(rows))]

        return await self.run(q)

    async def chat_message(self, message_id: int) -> tuple[str, dict[str, Any]] | None:
        """One chat message and its table's id (None: there is no such message)."""

        def q(s: Session) -> tuple[str, dict[str, Any]] | None:
            row = s.get(ChatMessage, message_id)
            return None if row is None else (row.table_id, _chat_json(row))

        return await self.run(q)

    async def report_chat(
        self, message_id: int, reporter_id: str, reporter_key: str, reason: str | None
    ) -> bool:
        """Keep a report of a chat message for the moderators; once per person and
        message (whether this one is new: a second report changes nothing).
        ``reporter_key``: who reported, as moderators count reporters
        (:attr:`ChatReport.reporter_key`)."""

        def q(s: Session) -> bool:
            found = s.execute(
                select(ChatReport.id).where(
                    ChatReport.message_id == message_id, ChatReport.reporter_id == reporter_id
                )
            ).first()
            if found is not None:
                return False
            s.add(
                ChatReport(
                    message_id=message_id,
                    reporter_id=reporter_id,
                    reporter_key=reporter_key,
                    reason=reason,
                    created_at=now(),
                )
            )
            return True

        try:
            return await self.run(q)
        except IntegrityError:  # the same report at the same moment: it is kept once
            return False

    async def chat_reports(self, message_id: int) -> list[dict[str, Any]]:
        """The reports of one chat message (for moderators, and tests)."""

        def q(s: Session) -> list[dict[str, Any]]:
            stmt = select(ChatReport).where(ChatReport.message_id == message_id)
            rows = s.execute(stmt.order_by(ChatReport.id)).scalars()
            return [{"reporter": r.reporter_id, "reason": r.reason} for r in rows]

        return await self.run(q)


def _chat_json(row: ChatMessage) -> dict[str, Any]:
    """A stored chat message as the clients see it (docs/protocol.md, Chat)."""
    out: dict[str, Any] = {
        "id": row.id,
        "room": row.room,
        "player": row.player_id,
        "name": row.name,
        "seat": row.seat,
        "at": round(aware(row.created_at).timestamp(), 3),
    }
    if row.event is not None:
        out["event"] = row.event
    elif row.phrase is not None:
        out["phrase"] = row.phrase
    else:
        out["text"] = row.text
    return out
