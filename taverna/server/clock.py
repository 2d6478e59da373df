"""A table's clock: the turn seat's time and the Muggins window (PLATFORM.md).

The turn timer is a wall-clock ``deadline`` (clients show it); the window is when
optional rights (claims, calls) appeared, on the monotonic clock. The clock stops where
it is while the database is away (:mod:`.outage`), is saved when the server stops
(:func:`saved`), and goes on after a restart or a takeover with the time it had
(:func:`restore`).
"""

from __future__ import annotations

import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..store.record import StoredGame

if TYPE_CHECKING:
    from .table import Room


def left(room: Room) -> tuple[float | None, float | None]:
    """Seconds left on the turn timer and in the Muggins window (None: not running)."""
    turn = None if room.deadline is None else max(0.0, room.deadline - time.time())
    window = None
    if room.window_opened is not None:
        wait = float(room.options["muggins_wait"])
        window = max(0.0, wait - (time.monotonic() - room.window_opened))
    return turn, window


def set_left(room: Room, turn_left: float | None, window_left: float | None) -> None:
    """Set the timers to run out in ``turn_left`` and ``window_left`` seconds (None: not
    running)."""
    room.deadline = None if turn_left is None else time.time() + max(0.0, turn_left)
    if window_left is None:
        room.window_opened = None
    else:
        wait = float(room.options["muggins_wait"])
        room.window_opened = time.monotonic() - max(0.0, wait - window_left)


def saved(room: Room) -> dict[str, Any] | None:
    """The timers as they stand, to be stored when the server stops."""
    if room.state is None or room.state.over:
        return None
    turn, window = room.paused if room.paused is not None else left(room)
    return {"seq": room.seq, "turn_left": turn, "window_left": window, "at": time.time()}


def restore(room: Room, rows: StoredGame, stopped_at: datetime | None) -> None:
    """After a restart the timers go on with the time they had when the server stopped:
    the clock saved then (a graceful stop), else the full time from the last move,
    less the time the server still ran after it (its last heartbeat)."""
    state = room.state
    assert state is not None
    if state.over:
        return
    kept = room.table.clock
    stopped = stopped_at.timestamp() if stopped_at is not None else None
    if kept is not None and kept.get("seq") == room.seq:
        turn, window, since = kept.get("turn_left"), kept.get("window_left"), kept.get("at")
    else:
        turn = float(room.options["turn_seconds"]) if state.turn_seat is not None else None
        window = float(room.options["muggins_wait"]) if len(state.to_act) > 1 else None
        since = rows.last_at.timestamp() if rows.last_at is not None else None
    ran = max(0.0, stopped - since) if stopped is not None and since is not None else 0.0
    set_left(
        room,
        None if turn is None else max(0.0, turn - ran),
        None if window is None else max(0.0, window - ran),
    )


def update(room: Room) -> None:
    """After an update: the turn seat's full time starts, and the window opens (or
    stays open) while more than one seat may act, else closes."""
    state = room.state
    assert state is not None
    turn = state.turn_seat
    if state.over or turn is None:
        room.deadline = None
    else:
        room.deadline = time.time() + float(room.options["turn_seconds"])
    if len(state.to_act) > 1:
        if room.window_opened is None:
            room.window_opened = time.monotonic()
    else:
        room.window_opened = None
