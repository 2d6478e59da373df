"""Mus señas in the store (docs/rules.md §3.8.4): stored apart from the actions, fenced like
them, loaded with the game a table resumes from, and listed in its record."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from taverna.bots import make_bot
from taverna.store.fencing import Fenced
from taverna.store.repo import Store

from .server_helpers import database_url, drop_database


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    url = database_url(request.param, tmp_path)
    s = Store(url)
    yield s
    s.close()
    drop_database(url)


def test_senas_are_stored_fenced_and_come_back_with_the_game(store: Store) -> None:
    async def go() -> None:
        table = await store.create_table("mus", 4, {}, {}, None)
        await store.start_table(table.id, [{"hands": []}])
        assert "signals" not in await store.record(table.id)  # none: the record has none
        assert (await store.game_rows(table.id)).signals == []
        assert await store.claim(table.id, 1, "n1") is None
        first = {"seat": 0, "sign": "dos_reyes", "after": 1, "caught_by": [3]}
        second = {"seat": 2, "sign": "ciego", "after": 1, "caught_by": []}
        await store.append_signal(table.id, 0, first, fence=1)
        await store.append_signal(table.id, 1, second, fence=1)
        await store.claim(table.id, 2, "n2")  # another node took the table over
        with pytest.raises(Fenced):
            await store.append_signal(table.id, 2, {**second, "sign": "juego"}, fence=1)
        rows = await store.game_rows(table.id)
        assert rows.signals == [first, second]
        assert (await store.record(table.id))["signals"] == [first, second]

    asyncio.run(go())


def test_a_sena_the_database_does_not_take_changes_nothing(tmp_path: Any) -> None:
    """The database away: a seña is refused as a move is (``not_stored``), nobody hears
    of it and the game keeps none; once the database is back it is made, and a room
    rebuilt from the stored rows (a restart, a takeover) has it with the same catches."""
    from taverna.server.config import Config
    from taverna.server.conns import Conn
    from taverna.server.hub import RoomHub

    from .test_outage import FlakyStore, _drain, _insert_player

    async def go() -> None:
        real = await asyncio.to_thread(Store, f"sqlite:///{tmp_path}/club.db")
        for seat in range(4):
            await real.run(lambda s, seat=seat: s.execute(_insert_player(f"p{seat}", f"P{seat}")))
        store = FlakyStore(real)
        hub = RoomHub(store, Config(database_url="sqlite://", bot_delay=0))  # type: ignore[arg-type]
        table = await real.create_table("mus", 4, {"catch": 0.5}, {"turn_seconds": 600}, None)
        for seat in range(4):
            await real.set_seat(table.id, seat, player={"id": f"p{seat}", "name": f"P{seat}"})
        room = await hub.room(table.id)
        room.store = store  # type: ignore[assignment]
        await room.start()
        conns = [Conn(ws=None, seat=s, player_id=f"p{s}") for s in range(4)]  # type: ignore[arg-type]
        for conn in conns:
            await room.join(conn, None)
        state: Any = room.state
        bots = [make_bot("greedy", room.cls, s, seed=s) for s in range(4)]
        for _ in range(300):  # the people play (greedy) until seat 0 may make a seña
            if state.may_signal(0):
                break
            seat = state.to_act[0]
            action = bots[seat].choose(state.view(seat))
            ok, why = await room.submit(seat, action.to_json())
            assert ok, why
            state = room.state
        sign = state.may_signal(0)[0]
        for conn in conns:
            _drain(conn)

        store.down = True
        why = await room.signal(0, sign)
        assert why is not None and why.reason == "not_stored"
        assert room.state is state and state.signals == []
        assert not [m for c in conns for m in _drain(c) if m["type"] == "signal"]

        store.down = False
        assert await hub.recover()
        assert await room.signal(0, sign) is None
        (entry,) = room.state.signals  # type: ignore[union-attr]
        assert [m["signal"] for m in _drain(conns[0]) if m["type"] == "signal"] == [entry]
        assert (await real.game_rows(table.id)).signals == [entry]

        again = RoomHub(real, Config(database_url="sqlite://", bot_delay=0))
        rebuilt: Any = await again.room(table.id)
        assert rebuilt.state.signals == [entry]
        assert sign not in rebuilt.state.may_signal(0)
        for h in (hub, again):
            h.close()
        real.close()

    asyncio.run(go())
