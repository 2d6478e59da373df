"""A table while the database is away, and after (docs/operations.md).

When a read or write fails the hub pauses every table (:func:`pause`): its timers stop
where they are and its clients hear it, so the downtime costs nobody a turn or a
seat. When the database answers again (:func:`unpause`) the timers go on; a table
whose write failed late first takes in what the database holds (:func:`resync`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import autoplay, clock
from .restore import Unresumable

if TYPE_CHECKING:
    from .table import Room


def pause(room: Room) -> None:
    """The database is away: every timer of the table stops where it is."""
    if room.paused is not None or room.state is None or room.state.over:
        return
    room.paused = clock.left(room)
    if room.timer is not None:
        room.timer.cancel()
        room.timer = None
    room.deadline = None
    room.send_clock()


async def unpause(room: Room, away_for: float) -> None:
    """The database is back after ``away_for`` seconds: the timers go on from where
    they stopped, and nobody's grace period counted the time."""
    if room.paused is None and not room.unsure and not room.finish_pending:
        return
    if room.unsure and not await resync(room):
        return  # away again: still paused
    if room.paused is not None:
        turn_left, window_left = room.paused
        room.paused = None
        clock.set_left(room, turn_left, window_left)
    for seat in list(room.away):
        room.away[seat] += away_for
        room.arm_grace(seat)
    if room.finish_pending:
        await room.finish()
    room.send_clock()
    autoplay.schedule(room)


async def resync(room: Room) -> bool:
    """After a failed write: take in any move the database holds that this room did not
    apply (a commit that failed late). Presence and seats are left as they are. False
    when the database is away again."""
    assert room.state is not None
    try:
        rows = await room.store.game_rows(room.table.id)
    except Exception:
        room.hub.database_lost()
        return False
    room.unsure = False
    if len(rows.actions) == len(room.state.actions_played) and len(rows.signals) == len(
        getattr(room.state, "signals", ())
    ):
        return True
    try:
        state, history = room.rebuild(rows)
    except Unresumable as e:
        room.log.error("its stored game no longer replays: %s", e)
        return True
    before = room.seq
    room.install(state, history)
    clock.update(room)
    room.log.info("took in %d move(s) stored during a fault", room.seq - before)
    for conn in room.conns:
        conn.send(room.welcome(conn, before))
    if state.over:
        room.finish_pending = True
    return True
