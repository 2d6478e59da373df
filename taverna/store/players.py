"""Players and their sessions: a guest made with its session, and who a session
cookie is (with any ban or silence that lasts)."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from .base import Database
from .ids import hash_token, new_id
from .models import LoginSession, NameKey, Player, aware, now

#: how often a guest's use of their session is written down (``players.seen_at``)
SEEN_EVERY = timedelta(seconds=60)


def add_guest(s: Session, name: str, keys: Sequence[str]) -> tuple[dict[str, Any], str]:
    """Add a guest player called ``name``, seen now, with its session and the ``keys``
    of its name (``NameKey``); the player and the session's token."""
    token = secrets.token_urlsafe(32)
    pid = new_id(16)
    s.add(Player(id=pid, name=name, chips=0, seen_at=now()))
    s.flush()
    s.add(LoginSession(token_hash=hash_token(token), player_id=pid))
    s.add_all(NameKey(key=k, player_id=pid) for k in keys)
    return {"id": pid, "name": name, "registered": False}, token


def _restriction(until: datetime | None, reason: str | None, at: datetime) -> dict[str, Any] | None:
    """A ban or silence that still lasts at ``at``: ``{"until": ISO, "reason"}``."""
    if until is None or aware(until) <= at:
        return None
    return {"until": aware(until).isoformat(), "reason": reason or ""}


class PlayerStore(Database):
    """The store's players (a part of :class:`taverna.store.repo.Store`)."""

    async def create_guest(self, name: str) -> tuple[dict[str, Any], str]:
        """A guest player and its session (no look-alike check: the HTTP API's guests
        come through ``AccountStore.create_guest``); the player and the cookie's token."""
        return await self.run(lambda s: add_guest(s, name, ()))

    async def player_by_token(self, token: str) -> dict[str, Any] | None:
        """The player of a session cookie: ``{"id", "name", "registered"}``, or None."""
        h = hash_token(token)

        def q(s: Session) -> dict[str, Any] | None:
            row = s.execute(
                select(
                    Player.id,
                    Player.name,
                    Player.username,
                    Player.role,
                    Player.banned_until,
                    Player.ban_reason,
                    Player.silenced_until,
                    Player.silence_reason,
                    Player.seen_at,
                    LoginSession.expires_at,
                )
                .join(LoginSession, LoginSession.player_id == Player.id)
                .where(LoginSession.token_hash == h)
            ).one_or_none()
            if row is None:
                return None
            expires = row.expires_at
            at = now()
            if expires is not None and aware(expires) <= at:
                return None
            seen = row.seen_at
            if row.username is None and (seen is None or at - aware(seen) >= SEEN_EVERY):
                # a guest in the club holds their name (taverna.server.accounts)
                s.execute(update(Player).where(Player.id == row.id).values(seen_at=at))
            return {
                "id": row.id,
                "name": row.name,
                "registered": row.username is not None,
                "role": row.role,
                # a moderator's ban or silence while it lasts: until when, and why
                "banned": _restriction(row.banned_until, row.ban_reason, at),
                "silenced": _restriction(row.silenced_until, row.silence_reason, at),
            }

        return await self.run(q)
