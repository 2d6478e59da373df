"""Hostile WebSocket clients (issue 13, items 4 and 5): every frame gets an answer or
a documented close code, the sender never dies alone, and no client can make the
server grow or stall for the others."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from .raw_socket_helpers import TEXT, RawSocket, TimedPlay, head, text
from .server_helpers import Person, Seat, Server, database_url, rss_mb


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server with small limits, to reach them quickly. The message budget refills one
    message in ten seconds, so what a flood gets does not depend on the machine's speed."""
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("tight")),
        TAVERNA_SOCKET_RATE="40/400",
        TAVERNA_SOCKETS_PER_ADDRESS="6",
        TAVERNA_SOCKETS_PER_SESSION="3",
        TAVERNA_MAX_CATCH_UP="5",
    ).start()
    yield srv
    srv.stop()


async def _answer(seat: Seat, kind: str = "error") -> dict[str, Any]:
    return await seat.expect(kind, timeout=10)


async def _still_alive(seat: Seat) -> None:
    await seat.send({"type": "ping", "id": "alive"})
    pong = await seat.expect("pong", timeout=10)
    assert pong["id"] == "alive"


def test_frames_that_broke_the_handler_get_an_error_and_the_socket_stays(tight: Server) -> None:
    ana = Person(tight, "Ana")
    tid = ana.create("dominoes")["id"]

    async def go() -> None:
        seat = Seat(tight, tid, ana.cookie)
        await seat.connect()
        await seat.send("[" * 8000)
        assert "nested too deep" in (await _answer(seat))["message"]
        await seat.send('{"type": "hello", "last_seq": ' + "9" * 5000 + "}")
        assert (await _answer(seat))["code"] == "bad_json"
        # a lone surrogate, written as JSON escapes: echoed back escaped, nothing breaks
        await seat.send(
            '{"type": "act", "id": "\\ud800", "action": {"type": "play", "tile": "\\udc00"}}'
        )
        error = await _answer(seat)
        assert error["id"] == "\ud800"  # (a spectator's act: refused, and the id echoed)
        await seat.ws.send(b"\xff\xfe not text")  # a binary frame, not UTF-8
        assert (await _answer(seat))["code"] == "bad_json"
        await _still_alive(seat)
        await seat.close()

    asyncio.run(go())


def test_a_table_that_does_not_exist_says_so_and_closes_with_4404(tight: Server) -> None:
    async def go() -> None:
        async with websockets.connect(f"{tight.ws}/ws/tables/nosuch") as ws:
            error = json.loads(await ws.recv())
            assert error["code"] == "no_table" and "nosuch" in error["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404

    asyncio.run(go())


def test_a_flooding_client_is_told_then_cut_off(tight: Server) -> None:
    ana = Person(tight, "Ana")
    tid = ana.create("dominoes")["id"]

    async def go() -> None:
        seat = Seat(tight, tid, ana.cookie)
        await seat.connect()  # the hello spent 10 of the 40
        for i in range(100):
            await seat.send({"type": "ping", "id": i})
        codes = []
        with pytest.raises(websockets.ConnectionClosed) as closed:
            while True:
                msg = await seat.recv()
                codes.append(msg.get("code", msg["type"]))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert codes.count("pong") in (30, 31)  # what the budget allowed (and refilled)
        assert "too_fast" in codes
        # and the person is welcome again on a new connection, the table untouched
        again = Seat(tight, tid, ana.cookie)
        await again.connect()
        await _still_alive(again)
        await again.close()

    asyncio.run(go())


@pytest.mark.parametrize("size", [(1 << 20) + 1, 16 << 20], ids=["1MiB", "16MiB"])
def test_a_frame_too_large_closes_the_socket_with_1009_before_it_is_read(
    tight: Server, size: int
) -> None:
    """The frame's header says its size: the socket is closed then, its bytes never held."""
    ana = Person(tight, "Ana")
    tid = ana.create("dominoes")["id"]

    async def go() -> None:
        sock = await RawSocket.open(tight, f"/ws/tables/{tid}")
        await sock.write(text({"type": "hello", "last_seq": None}))
        await sock.write(head(TEXT, size) + b"x" * 1000)
        assert await sock.read_close(10) == 1009
        sock.abort()
        other = Seat(tight, tid, ana.cookie)
        await other.connect()
        await _still_alive(other)
        await other.close()

    asyncio.run(go())


def test_ten_thousand_tiny_messages_at_once_are_cut_with_1008(tight: Server) -> None:
    ana = Person(tight, "Ana")
    tid = ana.create("dominoes")["id"]

    async def go() -> None:
        sock = await RawSocket.open(tight, f"/ws/tables/{tid}")
        await sock.write(text({"type": "ping"}) * 10_000)
        assert await sock.read_close(10) == 1008
        sock.abort()
        other = Seat(tight, tid, ana.cookie)
        await other.connect()
        await _still_alive(other)
        await other.close()

    asyncio.run(go())


def test_sockets_are_limited_per_address_and_per_session(tight: Server) -> None:
    people = [Person(tight, f"P{i}") for i in range(3)]
    tid = people[0].create("dominoes")["id"]

    async def _refused(cookie: str | None) -> None:
        headers = {"Cookie": cookie} if cookie else {}
        url = f"{tight.ws}/ws/tables/{tid}"
        async with websockets.connect(url, additional_headers=headers) as ws:
            assert json.loads(await ws.recv())["code"] == "too_many_connections"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008

    async def go() -> None:
        mine = [Seat(tight, tid, people[0].cookie) for _ in range(3)]
        for s in mine:
            await s.connect()
        await _refused(people[0].cookie)  # a fourth for one session
        others = [Seat(tight, tid, p.cookie) for p in people[1:]] + [Seat(tight, tid)]
        for s in others:
            await s.connect()  # six from this address in all
        await _refused(people[2].cookie)  # a seventh from the address
        await _refused(None)
        await mine[0].close()
        seventh = Seat(tight, tid, people[2].cookie)
        await asyncio.sleep(0.2)
        await seventh.connect()  # room again once one closed
        for s in [*mine[1:], *others, seventh]:
            await s.close()

    asyncio.run(go())


def test_a_catch_up_too_long_is_a_snapshot(tight: Server) -> None:
    ana = Person(tight, "Ana")
    tid = ana.play_at("dominoes", settings={"target": 200}, bots={1: "greedy"})

    async def go() -> None:
        seat = Seat(tight, tid, ana.cookie)
        await seat.connect()
        await seat.play(until=lambda v: len(v["line"]) >= 8)
        await seat.close()
        again = Seat(tight, tid, ana.cookie)
        welcome = await again.connect(last_seq=0)
        # the state, and only the last updates (at most MAX_CATCH_UP), for the log to tell
        assert welcome["snapshot"] is True
        assert [m["seq"] for m in welcome["missed"]] == list(
            range(welcome["seq"] - 4, welcome["seq"] + 1)
        )
        # the state as it is now (the bot may have moved since)
        assert len(welcome["view"]["line"]) >= len(seat.view["line"])  # type: ignore[index]
        near = Seat(tight, tid, ana.cookie)
        w = await near.connect(last_seq=welcome["seq"] - 2)
        # (the bot may have moved again since: then that is missed too)
        assert [m["seq"] for m in w["missed"]] == list(range(welcome["seq"] - 1, w["seq"] + 1))
        assert "snapshot" not in w
        await again.close()
        await near.close()

    asyncio.run(go())


@pytest.mark.slow
def test_clients_that_never_read_cannot_grow_the_server(tmp_path: Any) -> None:
    """Three sockets each send a thousand hellos from the start of a long game and
    never read: once what they are sent backs up they are not read either, the
    keepalive cuts each off, and the server stays small."""
    srv = Server(
        database_url("sqlite", tmp_path),
        TAVERNA_SOCKET_RATE="100000/1",  # only the sockets' own limits stand in the way
        TAVERNA_SOCKET_QUEUE_BYTES=str(1 << 20),
        TAVERNA_WS_PING_INTERVAL="1",
        TAVERNA_WS_PING_TIMEOUT="2",
    ).start()
    try:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 250}, bots={1: "greedy"})

        async def go() -> None:
            seat = Seat(srv, tid, ana.cookie)
            await seat.connect()
            await seat.play(until=lambda v: v["hand_no"] >= 2 or v["over"])
            await seat.close()
            before = rss_mb(srv)
            hello = json.dumps({"type": "hello", "last_seq": 0})
            sockets = [
                await websockets.connect(f"{srv.ws}/ws/tables/{tid}", max_size=None)
                for _ in range(3)
            ]
            for ws in sockets:
                for _ in range(1000):
                    await ws.send(hello)
            deadline = asyncio.get_running_loop().time() + 30
            while srv.log_text().count("cut off, the client does not") < 3:
                assert asyncio.get_running_loop().time() < deadline, srv.log_text()
                await asyncio.sleep(0.1)
            grown = rss_mb(srv) - before
            assert grown < 150, f"the server grew by {grown:.0f} MB"
            for ws in sockets:
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
            # and everybody else is served as ever
            other = Seat(srv, tid, ana.cookie)
            await other.connect()
            await _still_alive(other)
            await other.close()

        asyncio.run(go())
    finally:
        srv.stop()


def test_a_client_whose_answers_pile_up_is_cut_loose(tmp_path: Any) -> None:
    """A hundred hellos from the start of a long game in one write, never read (and
    little room in the network for what is sent): the welcomes wait past
    TAVERNA_SOCKET_QUEUE_BYTES, and the connection is cut loose and counted."""
    srv = Server(
        database_url("sqlite", tmp_path),
        TAVERNA_SOCKET_RATE="100000/1",  # only the queue limit stands in the way here
        TAVERNA_SOCKET_QUEUE_BYTES=str(64 << 10),  # some eight welcomes
    ).start()
    try:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 250}, bots={1: "greedy"})

        async def go() -> None:
            seat = Seat(srv, tid, ana.cookie)
            await seat.connect()
            await seat.play(until=lambda v: v["hand_no"] >= 2 or v["over"])
            await seat.close()
            sock = await RawSocket.open(srv, f"/ws/tables/{tid}", rcvbuf=4096)
            await sock.write(text({"type": "hello", "last_seq": 0}) * 100)
            deadline = asyncio.get_running_loop().time() + 30
            async with httpx.AsyncClient(base_url=srv.http) as client:
                while 'limit="queue"' not in (await client.get("/metrics")).text:
                    assert asyncio.get_running_loop().time() < deadline, "not cut"
                    await asyncio.sleep(0.1)
            sock.abort()

        asyncio.run(go())
    finally:
        srv.stop()


@pytest.mark.slow
def test_three_hundred_spectators_that_never_read_leave_the_server_flat(tmp_path: Any) -> None:
    """Three hundred sockets watch a table being played, say hello and never read: the
    server stays small and the player's moves keep coming (figures: `pytest -s`)."""
    srv = Server(database_url("sqlite", tmp_path)).start()
    try:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 250}, bots={1: "greedy"})

        async def go() -> None:
            seat = Seat(srv, tid, ana.cookie)
            await seat.connect()
            play = TimedPlay(seat, think=0.05)
            playing = asyncio.create_task(play.run())
            await asyncio.sleep(1)
            quiet = list(play.times)
            before = rss_mb(srv)
            watchers = []
            for _ in range(300):
                sock = await RawSocket.open(srv, f"/ws/tables/{tid}")
                await sock.write(text({"type": "hello", "last_seq": 0}))
                watchers.append(sock)
            await asyncio.sleep(5)
            grown = rss_mb(srv) - before
            play.stop()
            await playing
            loud = play.times[len(quiet) :]
            print(
                f"\n  moves before: {len(quiet)}, p50 {_ms(quiet, 0.5)}; with 300 spectators "
                f"that never read: {len(loud)}, p50 {_ms(loud, 0.5)}, max {_ms(loud, 1)}; "
                f"the server grew by {grown:.0f} MB"
            )
            assert grown < 100, f"the server grew by {grown:.0f} MB"
            assert loud and max(loud) < 2.0
            for sock in watchers:
                sock.abort()
            await seat.close()

        asyncio.run(go())
    finally:
        srv.stop()


def _ms(times: list[float], q: float) -> str:
    if not times:
        return "-"
    ordered = sorted(times)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f} ms"
