"""The WebSocket messages the server writes, in one place (docs/protocol.md says what
each means; a client reads them by their ``type``).

Client → server: ``hello`` {last_seq}, ``act`` {action, id}, ``signal`` {sign, id} (a
Mus seña), ``chat``, ``ping`` {id}.
Server → client: ``welcome``, ``update``, ``table``, ``presence``, ``clock``, ``ack``,
``signal`` (a seña the seat may see, :mod:`.signals`), ``chat``, ``pong``, ``error``,
``closing``, and the lobby's ``tables`` (built by the rooms, which hold what they say).

A room that refuses an intent says why in a :class:`Refusal`, which the socket writes as
an ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: refusals that say nothing about the move, only that the server could not take it now
UNAVAILABLE = ("not_stored", "restarting")

TOO_FAST = "too many messages: at most {} (count/seconds), a hello counting ten"
SERVER_ERROR = "the server failed on that message; nothing changed (it is logged)"


def error(
    code: str,
    message: str,
    mid: Any = None,
    reason: str | None = None,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """An ``error`` to one client: a stable ``code``, the English ``message``, and for a
    refused move the engine's ``reason`` with its facts (``params``); ``id`` echoed."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if reason is not None:
        # what kind of refusal, and its facts: a client says it in its own language
        out["reason"] = reason
        out["params"] = params or {}
    if mid is not None:
        out["id"] = mid
    return out


TOO_MANY_SOCKETS = error(
    "too_many_connections",
    "too many connections at once from your address or your session: close some tabs",
)

#: a graceful stop: the connection closes next (1012), the client comes back by itself
CLOSING: dict[str, Any] = {"type": "closing", "reason": "restart"}


@dataclass(frozen=True)
class Refusal:
    """Why a room refused an intent: the English message, a reason a client can
    translate (the engine's :attr:`IllegalAction.reason`) and its facts."""

    message: str
    reason: str = "illegal"
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message
