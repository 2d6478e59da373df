"""A database that drops for a while (issue "A restart changes no hand").

With the database away, a move cannot be stored: the person is told and keeps
the socket, every timer of every table stops, bots wait, HTTP says 503 and
`/api/health` says why. When it is back, every table goes on from where it
was; nobody is replaced or scored for the outage, and a seat that was away
gets the rest of its grace period, not less.

Two kinds of fault: a test double around the real store (the room's own
logic, to the second), and real ones — a PostgreSQL of the test's own stopped
and started under a running server, and a SQLite write lock held by another
process for longer than the server waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.exc import OperationalError

from taverna.server.config import Config
from taverna.server.conns import Conn
from taverna.server.hub import RoomHub
from taverna.server.table import Room
from taverna.store.repo import Store

from .restart_helpers import Table, poll
from .server_helpers import Person, Seat, Server, free_port


class FlakyStore:
    """The real store, but every call fails while ``down`` is set (ping says False)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.down = False
        self.failed = 0

    async def ping(self, timeout: float = 2.0) -> bool:
        return not self.down and await self.store.ping(timeout)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.store, name)
        if not asyncio.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            if self.down:
                self.failed += 1
                raise OperationalError("INSERT", {}, Exception("connection refused"))
            return await attr(*args, **kwargs)

        return call


def _drain(conn: Conn) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        text = conn.queue.get_nowait()
        assert text is not None, "the room closed the connection"
        out.append(json.loads(text))
    return out


async def _table(store: Store, hub: RoomHub, bots: dict[int, str]) -> Room:
    table = await store.create_table(
        "muggins-dominoes", 2, {"target": 100}, {"turn_seconds": 30, "muggins_wait": 3}, None
    )
    for seat in range(2):
        if seat in bots:
            await store.set_seat(table.id, seat, bot=bots[seat])
        else:
            await store.set_seat(table.id, seat, player={"id": f"p{seat}", "name": f"P{seat}"})
    return await hub.room(table.id)


async def _until(check: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_an_outage_stops_every_clock_and_costs_nobody_anything(tmp_path: Path) -> None:
    """A person's move refused and the socket kept; a bot's move waits and is made when
    the database is back; the turn timer froze; a seat that was away before the outage
    gets the rest of its grace period afterwards, not less; nobody is replaced."""

    async def go() -> None:
        real = await asyncio.to_thread(Store, f"sqlite:///{tmp_path}/club.db")
        players = [("p0", "P0"), ("p1", "P1")]
        for pid, name in players:
            await real.run(lambda s, pid=pid, name=name: s.execute(_insert_player(pid, name)))
        store = FlakyStore(real)
        config = Config(database_url="sqlite://", bot_delay=0, grace_seconds=1.5)
        hub = RoomHub(store, config)  # type: ignore[arg-type]

        # a person and a bot
        room = await _table(real, hub, {1: "greedy"})
        room.store = store  # type: ignore[assignment]
        await room.start()
        me = Conn(ws=None, seat=0, player_id="p0")  # type: ignore[arg-type]
        await room.join(me, None)
        assert room.state is not None
        await _until(lambda: room.state is not None and room.state.turn_seat == 0)
        _drain(me)
        seq, view = room.seq, room.state.view(0)
        left_before = room.deadline - time.time()  # type: ignore[operator]

        store.down = True
        action = room.state.legal_actions(0)[0].to_json()
        ok, why = await room.submit(0, action)
        assert not ok and why is not None and why.reason == "not_stored"
        assert "database is not answering" in why.message
        assert (room.seq, room.state.view(0)) == (seq, view)  # nothing changed
        assert room.paused is not None and room.deadline is None
        (clock,) = [m for m in _drain(me) if m["type"] == "clock"]
        assert clock == {"type": "clock", "deadline": None, "paused": True}
        await asyncio.sleep(2.0)  # longer than the grace period: it must not matter
        assert me in room.conns and not room.table.seats[0].replaced
        assert room.away == {}  # the person never left

        store.down = False
        await _until(lambda: room.paused is None)
        # the turn timer goes on with what it had (less a few hundredths)
        assert abs((room.deadline - time.time()) - left_before) < 0.5  # type: ignore[operator]
        assert await room.submit(0, action) == (True, None)
        await _until(lambda: room.seq >= seq + 2)  # and the bot answered

        # the bot's move fails: it waits, and moves when the database is back
        await _until(lambda: room.state is not None and room.state.turn_seat == 0)
        store.down = True
        before = room.seq
        assert (await room.submit(0, room.state.legal_actions(0)[0].to_json()))[0] is False
        store.down = False
        await _until(lambda: room.paused is None)
        ok, _ = await room.submit(0, room.state.legal_actions(0)[0].to_json())
        assert ok
        failed = store.failed
        store.down = True  # the bot is to act now (delay 0): its store fails
        await _until(lambda: store.failed > failed)
        await _until(lambda: room.paused is not None)
        assert room.seq == before + 1
        store.down = False
        await _until(lambda: room.seq >= before + 2)  # the bot's move, made after all

        # a seat away before the outage: its grace period does not run while it lasts
        away = await _table(real, hub, {})
        away.store = store  # type: ignore[assignment]
        await away.start()
        gone = Conn(ws=None, seat=1, player_id="p1")  # type: ignore[arg-type]
        await away.join(gone, None)
        away.leave(gone)  # seat 1 lost its connection: 1.5 s of grace from now
        await asyncio.sleep(0.5)
        store.down = True
        hub.database_lost()
        await asyncio.sleep(2.0)  # the grace period would have run out by now
        assert not away.table.seats[1].replaced
        store.down = False
        await _until(lambda: away.paused is None)
        back = time.monotonic()
        await _until(lambda: away.table.seats[1].replaced, timeout=5)
        # about the second of grace it had left, not at once
        assert time.monotonic() - back > 0.7
        assert not away.table.seats[0].replaced
        hub.close()
        await asyncio.to_thread(real.close)

    asyncio.run(go())


def _insert_player(pid: str, name: str) -> Any:
    from sqlalchemy import insert

    from taverna.store.models import Player

    return insert(Player).values(id=pid, name=name, chips=0)


# --------------------------------------------------------- a real PostgreSQL


PG_BIN = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)


@contextlib.contextmanager
def own_postgres(tmp_path: Path) -> Iterator[tuple[str, Any, Any]]:
    """A PostgreSQL cluster of this test's own (initdb as the postgres user), so that
    stopping it stops nobody else's; yields its URL and stop/start functions."""
    if PG_BIN is None or shutil.which("runuser") is None:
        pytest.skip("PostgreSQL's server binaries are not installed here")
    # pytest's tmp folders are root's alone: the cluster lives where postgres may go
    home = Path(tempfile.mkdtemp(prefix="taverna-pg-"))
    home.chmod(0o777)
    data = home / "data"
    data.mkdir()
    shutil.chown(data, "postgres", "postgres")
    port = free_port()

    def as_postgres(*cmd: str) -> None:
        # no pipes: the postmaster pg_ctl leaves behind would hold them open
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *cmd],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    as_postgres(str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres")
    options = f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off"

    def start() -> None:
        log = str(home / "postgres.log")
        pg_ctl = str(PG_BIN / "pg_ctl")
        as_postgres(pg_ctl, "-D", str(data), "-o", options, "-l", log, "-w", "start")

    def stop() -> None:
        as_postgres(str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")

    start()
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres", stop, start
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            stop()
        shutil.rmtree(home, ignore_errors=True)


@pytest.mark.slow
def test_postgresql_stopped_and_started_under_a_running_club(tmp_path: Path) -> None:
    with own_postgres(tmp_path) as (url, stop, start):
        server = Server(url, TAVERNA_BOT_DELAY="0.05", TAVERNA_GRACE_SECONDS="3").start()
        try:
            asyncio.run(_play_through_an_outage(server, stop, start))
        finally:
            server.stop()


async def _play_through_an_outage(server: Server, stop: Any, start: Any) -> None:
    # three tables where bots play each other, and one where a person plays a bot
    watched = []
    ana = Person(server, "Ana")
    for game in ("muggins-dominoes", "muggins-cards", "mus"):
        seats = 4 if game == "mus" else 2
        tid = ana.create(game, seats=seats, bots={str(s): "greedy" for s in range(seats)})["id"]
        ana.start(tid)
        spectator = Seat(server, tid)
        await spectator.connect()
        watched.append(spectator)
    person = Table(server, "muggins-dominoes", 2, {"target": 100}, bots={1: "greedy"})
    await person.connect(server)
    await person.play_until(lambda t: t.view["turn"] == 0 and t.seq > 3)

    stop()
    down = time.monotonic()
    # HTTP: a clear 503, never a 500; health says why
    r = httpx.get(f"{server.http}/api/tables", timeout=10)
    assert r.status_code == 503 and r.json()["code"] == "database_unavailable", r.text
    assert r.headers["retry-after"] == "2"
    r = httpx.post(f"{server.http}/api/session", json={"name": "Late"}, timeout=10)
    assert r.status_code == 503
    health = httpx.get(f"{server.http}/api/health", timeout=10)
    assert health.status_code == 503
    assert health.json()["database"] == "unavailable" and health.json()["ok"] is False
    # a person's move: told, and the socket stays open
    me = person.clients[0]
    seq = me.seq
    assert me.view is not None
    await me.send({"type": "act", "action": me.view["legal"][0], "id": 1})
    while (msg := await me.recv()) and msg["type"] != "error":
        pass
    assert msg["code"] == "unavailable" and msg["reason"] == "not_stored", msg
    await me.send({"type": "ping", "id": 2})
    while (msg := await me.recv())["type"] != "pong":
        pass
    assert me.seq == seq
    await asyncio.sleep(max(0.0, 4 - (time.monotonic() - down)))  # past the grace period
    frozen = [w.seq for w in watched]
    await asyncio.sleep(0.5)
    assert [w.seq for w in watched] == frozen  # nothing moves without the database

    start()
    # every table goes on: the bots' games move, the person's move is taken
    for w in watched:
        target = w.seq + 3
        while w.seq < target and not (w.view or {}).get("over"):
            await w.recv(30)
    await poll(lambda: httpx.get(f"{server.http}/api/health").status_code == 200, 20, 0.1)
    await person.play_until(lambda t: t.seq >= seq + 4)
    table = httpx.get(f"{server.http}/api/tables/{person.id}").json()["table"]
    assert not table["seating"][0]["replaced"]  # nobody was replaced for the outage
    for w in watched:
        await w.close()
    await person.close()


@pytest.mark.slow
def test_a_sqlite_write_lock_longer_than_the_wait_is_a_refusal_not_a_drop(
    tmp_path: Path,
) -> None:
    path = tmp_path / "club.db"
    server = Server(f"sqlite:///{path}", TAVERNA_BOT_DELAY="0", TAVERNA_GRACE_SECONDS="2").start()

    async def go() -> None:
        t = Table(server, "muggins-dominoes", 2, {"target": 100}, bots={1: "greedy"})
        await t.connect(server)
        await t.play_until(lambda x: x.view["turn"] == 0 and x.seq > 2)
        me = t.clients[0]
        seq = me.seq
        lock = sqlite3.connect(path, timeout=1)
        lock.execute("BEGIN EXCLUSIVE")  # another program holds the write lock
        try:
            assert me.view is not None
            await me.send({"type": "act", "action": me.view["legal"][0], "id": 1})
            while (msg := await me.recv(30))["type"] != "error":
                pass
            assert msg["reason"] == "not_stored"
            await asyncio.sleep(1)
        finally:
            lock.rollback()
            lock.close()
        await poll(lambda: httpx.get(f"{server.http}/api/health").status_code == 200, 20, 0.1)
        await t.play_until(lambda x: x.seq >= seq + 4)
        table = httpx.get(f"{server.http}/api/tables/{t.id}").json()["table"]
        assert not table["seating"][0]["replaced"]
        await t.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
