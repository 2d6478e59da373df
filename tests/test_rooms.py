"""Room internals that a live server only shows by chance: a slow database.

A move is committed before it is broadcast; while the database answers, a
connection may join. Its welcome must describe the state of the seq it is
given — not a move that is not stored (or numbered) yet.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from taverna.games import get_game
from taverna.games.base import Event
from taverna.server import clock
from taverna.server.config import Config
from taverna.server.conns import Conn
from taverna.server.hub import RoomHub
from taverna.server.table import Room
from taverna.store.tables import SeatInfo, TableInfo


class SlowStore:
    """Just enough of a Store: append_action waits until the test lets it go."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.writing = asyncio.Event()
        self.actions: list[dict[str, Any]] = []

    async def set_status(self, *args: Any, **kwargs: Any) -> None:
        return None

    async def start_table(self, table_id: str, deals: list[dict[str, Any]]) -> None:
        return None

    async def append_action(
        self, table_id: str, index: int, action: dict[str, Any], deals: Any = (), fence: Any = None
    ) -> None:
        self.writing.set()
        await self.release.wait()
        self.actions.append(action)


def _room(store: SlowStore) -> Room:
    table = TableInfo(
        id="t1",
        game="muggins-dominoes",
        seat_count=2,
        settings={},
        options={"turn_seconds": 600},
        owner_id="p0",
        status="open",
        seed=7,
        seats=[SeatInfo(0, "p0", "Ana"), SeatInfo(1, "p1", "Bea")],
    )
    config = Config(database_url="sqlite://", bot_delay=0, grace_seconds=600)
    hub = RoomHub(store, config)  # type: ignore[arg-type]
    return Room(table, store, config, hub)  # type: ignore[arg-type]


def _drain(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def test_a_join_while_a_move_is_being_stored_sees_the_state_of_its_seq() -> None:
    async def go() -> None:
        store = SlowStore()
        room = _room(store)
        await room.start()
        assert room.state is not None
        seat = room.state.turn_seat
        assert seat is not None
        before = room.state.view(seat)
        action = room.state.legal_actions(seat)[0]

        submit = asyncio.ensure_future(room.submit(seat, action.to_json()))
        await store.writing.wait()  # the move is on its way to the database

        conn = Conn(ws=None, seat=seat, player_id=f"p{seat}")  # type: ignore[arg-type]
        await room.join(conn, None)
        (welcome,) = [m for m in _drain(conn) if m["type"] != "presence"]
        assert welcome["seq"] == 1
        assert welcome["view"] == before  # not the state after the unstored move

        store.release.set()
        assert await submit == (True, None)
        (update,) = [m for m in _drain(conn) if m["type"] != "presence"]
        assert update["type"] == "update" and update["seq"] == 2
        assert update["view"] != before
        assert store.actions == [action.to_json()]
        room.close()

    asyncio.run(go())


def test_a_refused_move_never_reaches_the_store() -> None:
    async def go() -> None:
        store = SlowStore()
        store.release.set()
        room = _room(store)
        await room.start()
        assert room.state is not None
        seat = room.state.turn_seat
        assert seat is not None
        other = 1 - seat
        before = room.state.view(other)
        ok, why = await room.submit(other, {"type": "pass"})
        assert not ok and why
        assert store.actions == [] and room.seq == 1
        assert room.state.view(other) == before
        history: list[list[Event]] = room.history
        assert len(history) == 1
        room.close()

    asyncio.run(go())


def test_a_resumed_room_keeps_the_time_left_on_the_turn_and_in_the_muggins_window() -> None:
    """The timers go on after a restart with the time they had when the server stopped:
    saved at a graceful stop, or counted from the last move to the last heartbeat."""
    from datetime import UTC, datetime, timedelta

    from taverna.store.record import StoredGame

    async def go() -> None:
        store = SlowStore()
        store.release.set()
        room = _room(store)
        room.table.game = "muggins-cards"
        room.cls = get_game("muggins-cards")
        room.table.options = {"turn_seconds": 40, "muggins_wait": 20}
        await room.start()
        assert room.state is not None
        # a scoring play left unclaimed: the Muggins window opens
        while room.state.view(None)["pending"] is None:
            seat = room.state.turn_seat
            assert seat is not None
            legal = [a.to_json() for a in room.state.legal_actions(seat)]
            scoring = [a for a in legal if a.get("claim")]
            play = {**scoring[0], "claim": False} if scoring else legal[0]
            assert (await room.submit(seat, play))[0]
        room.deadline = time.time() + 25.0
        room.window_opened = time.monotonic() - 8.0  # 12 s left of 20
        saved = clock.saved(room)
        assert saved is not None

        # a graceful stop saved the clock: the same time left, however long it was down
        again = _room(store)
        again.table.game, again.cls = "muggins-cards", room.cls
        again.table.options = room.table.options
        again.table.clock = {**saved, "at": saved["at"] - 300}  # stopped 5 minutes ago
        again.install(room.state, room.history)
        stopped = datetime.fromtimestamp(saved["at"] - 300, UTC)
        clock.restore(again, StoredGame([], [], None), stopped)
        turn, window = clock.left(again)
        assert turn is not None and window is not None
        assert abs(turn - 25.0) < 0.1 and abs(window - 12.0) < 0.1

        # killed: no clock saved; the last move 3 s before the last heartbeat
        again.table.clock = None
        last = datetime.now(UTC) - timedelta(seconds=600)
        clock.restore(again, StoredGame([], [], last), last + timedelta(seconds=3))
        turn, window = clock.left(again)
        assert turn is not None and window is not None
        assert abs(turn - 37.0) < 0.1 and abs(window - 17.0) < 0.1
        room.close()

    asyncio.run(go())
