"""A network that goes silent: a phone that leaves its cell, a train in a tunnel.

Nothing is closed and nobody is told: the bytes stop, both ways. The page must find
out by itself (its pings go unanswered), say so, open a new socket and catch up when
the network comes back; the server must find out too (its own keepalive), so that the
others see the player away. The network is a TCP proxy written here
(:class:`SilentNetwork`), between a real Chromium on a phone's viewport and a real
server; the browser's offline switch would not do, for it leaves an open socket alone.
Screenshots go to ``test-artifacts/silent-network-*.png``.

The server runs with short keepalives (a ping every second both ways) so that the test
takes seconds; the figures it prints are for those settings.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, TypeVar

import httpx
import pytest
import websockets

from .browser_helpers import PHONE, chromium, screenshot, strings
from .server_helpers import Person, Seat, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

T = TypeVar("T")

#: the page's keepalive on this module's server: a ping every second, an answer within 2 s
CLIENT_PING_EVERY, CLIENT_PONG_WITHIN = 1, 2
#: the server's own: a ping every second, a pong within 3 s
SERVER_PING_INTERVAL, SERVER_PING_TIMEOUT = 1, 3
EN = strings("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("silent")),
        TAVERNA_BOT_DELAY="0.05",
        TAVERNA_CLIENT_PING_EVERY=str(CLIENT_PING_EVERY),
        TAVERNA_CLIENT_PONG_WITHIN=str(CLIENT_PONG_WITHIN),
        TAVERNA_WS_PING_INTERVAL=str(SERVER_PING_INTERVAL),
        TAVERNA_WS_PING_TIMEOUT=str(SERVER_PING_TIMEOUT),
    ).start()
    yield srv
    srv.stop()


@pytest.fixture
def network(server: Server) -> Iterator[SilentNetwork]:
    net = SilentNetwork(server.port)
    yield net
    net.close()


class _Pipe:
    """One connection through the network: its two streams and whether it carries."""

    def __init__(self, silent: bool) -> None:
        self.silent = silent
        self.writers: list[asyncio.StreamWriter] = []
        #: the server closed its end (what the other end is not told while silent)
        self.server_closed = asyncio.Event()


class SilentNetwork:
    """A TCP proxy from a loopback port of its own to the server's: a phone's network.

    ``go_silent()`` makes it a network that carries nothing: the bytes of every
    connection, and of every one opened meanwhile, are read and dropped both ways, and
    no side is closed or told (a side that closes is not told to the other either).
    ``come_back()`` carries the connections opened from then on; the silent ones stay
    silent, for the bytes they lost cannot be put back into their streams. Its event
    loop runs in a thread of its own; :meth:`run` runs a coroutine there too.
    """

    def __init__(self, target: int) -> None:
        self.target = target
        self.silent = False
        self.pipes: list[_Pipe] = []
        #: connections carried to the server so far
        self.carried = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.listener = self.run(asyncio.start_server(self._accept, "127.0.0.1", 0))
        self.port = self.listener.sockets[0].getsockname()[1]

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def go_silent(self) -> None:
        self.run(self.carry(False))

    def come_back(self) -> None:
        self.run(self.carry(True))

    async def carry(self, carrying: bool) -> None:
        """Carry new connections again, or nothing at all (from the network's loop)."""
        self.silent = not carrying
        if not carrying:
            for pipe in self.pipes:
                pipe.silent = True

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        pipe = _Pipe(self.silent)
        pipe.writers.append(writer)
        self.pipes.append(pipe)
        if pipe.silent:  # opened into the silence: it never reaches the server
            await self._flow(reader, None, pipe)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:
            writer.close()
            return
        pipe.writers.append(up_writer)
        self.carried += 1
        await asyncio.gather(
            self._flow(reader, up_writer, pipe), self._from_server(up_reader, writer, pipe)
        )

    async def _from_server(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, pipe: _Pipe
    ) -> None:
        await self._flow(reader, writer, pipe)
        pipe.server_closed.set()

    async def _flow(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter | None, pipe: _Pipe
    ) -> None:
        """One direction: carried while the pipe carries, read and dropped once silent;
        its end passed on only while it carries."""
        with contextlib.suppress(ConnectionError, OSError):
            while data := await reader.read(65536):
                if writer is not None and not pipe.silent:
                    writer.write(data)
                    await writer.drain()
        if writer is not None and not pipe.silent:
            writer.close()

    def close(self) -> None:
        async def stop() -> None:
            self.listener.close()
            for pipe in self.pipes:
                for w in pipe.writers:
                    w.close()
            flows = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in flows:
                t.cancel()
            await asyncio.gather(*flows, return_exceptions=True)

        self.run(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


async def play_turns(server: Server, person: Person, table: str, seat: int) -> int:
    """Play ``seat``'s moves (a greedy bot's) over a socket of its own, straight to the
    server, until the seat is not to act; the update number then."""
    s = Seat(server, table, person.cookie)
    await s.connect(0)
    try:
        await s.play(until=lambda v: seat not in v.get("to_act", []))
    finally:
        await s.close()
    return s.seq


def tab(browser: Any, base: str, person: Person, viewport: dict[str, int]) -> Any:
    """A page in a context of its own, with ``person``'s session, at ``base``."""
    ctx = browser.new_context(locale="en-US", viewport=viewport)
    token = person.cookie.split("=", 1)[1]
    ctx.add_cookies([{"name": "taverna_session", "value": token, "url": base}])
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


@pytest.mark.browser
def test_a_phone_whose_network_goes_silent_says_so_and_comes_back_by_itself(
    server: Server, network: SilentNetwork
) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("muggins-dominoes", seats=2, turn_seconds=600)["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)
    # Bea to play: the moves made while Ana's network is silent are hers
    network.run(play_turns(server, ana, tid, 0))

    with chromium(playwright_api) as browser:
        phone = tab(browser, network.http, ana, PHONE)  # Ana, through the network
        phone.goto(f"{network.http}/#/table/{tid}")
        felt = phone.locator(".table-page[data-status=playing]")
        felt.wait_for()
        desk = tab(browser, server.http, bea, {"width": 1280, "height": 900})  # Bea, direct
        desk.goto(f"{server.http}/#/table/{tid}")
        desk.locator(".table-page[data-status=playing]").wait_for()
        away = desk.locator(".presence li.away[data-seat='0']")
        expect(away).to_have_count(0)  # both at the table
        seq = felt.get_attribute("data-seq")
        assert seq and seq == desk.locator(".table-page").get_attribute("data-seq")
        net = phone.locator("#net")
        carried = network.carried

        network.go_silent()
        silent = time.monotonic()
        # the page finds out by itself, within its ping and its pong's time
        expect(net).to_have_class(re.compile(r"\blost\b"), timeout=15000)
        expect(net).to_have_text(EN["net.lost"])
        told = time.monotonic() - silent
        # on a phone the notice covers none of the table's buttons and links
        box = net.bounding_box()
        assert box is not None
        for control in phone.locator(".table-head :is(a, button, h1, h2), .controls button").all():
            other = control.bounding_box()
            if other is not None:
                assert not _overlap(box, other), (control.inner_text(), box, other)
        # and the server, by its own keepalive: Bea sees Ana away, the countdown running
        away.wait_for(timeout=20000)
        seen_away = time.monotonic() - silent
        assert EN["presence.away"].format(name="Ana") in away.inner_text()
        expect(away.locator(".away-left")).to_have_count(1)
        screenshot(phone, "silent-network-lost")
        screenshot(desk, "silent-network-away")

        # Bea plays meanwhile; Ana's page hears nothing of it, and still says it is lost
        # (the new sockets it tries go into the silence too)
        moved = network.run(play_turns(server, bea, tid, 1))
        assert moved > int(seq)
        expect(desk.locator(".table-page")).to_have_attribute("data-seq", str(moved))
        assert felt.get_attribute("data-seq") == seq
        expect(net).to_have_class(re.compile(r"\blost\b"))
        # and what it says is so: a new socket is on its way (a tap would say "Reconnecting…")
        assert phone.evaluate("window.taverna.page.socket.socket.reconnecting")

        # the network comes back: with no tap, the page opens a new connection (the old
        # one is dead), catches up with Bea's moves and the notice goes
        network.come_back()
        back = time.monotonic()
        expect(phone.locator(".table-page")).to_have_attribute(
            "data-seq", str(moved), timeout=30000
        )
        caught_up = time.monotonic() - back
        assert network.carried > carried
        expect(net).not_to_have_class(re.compile(r"\blost\b"))
        expect(net).not_to_have_text(EN["net.lost"])
        away.wait_for(state="detached")  # Bea sees Ana back
        expect(phone.locator(".me-plate.turn")).to_have_count(1)  # Ana's turn now
        screenshot(phone, "silent-network-back")
        assert phone.errors == [] and desk.errors == []
    print(
        f"\nsilent network (client ping {CLIENT_PING_EVERY} s, pong within "
        f"{CLIENT_PONG_WITHIN} s; server ping {SERVER_PING_INTERVAL} s, timeout "
        f"{SERVER_PING_TIMEOUT} s): the page said so after {told:.1f} s, Bea saw Ana away "
        f"after {seen_away:.1f} s; back {caught_up:.1f} s after the network"
    )


def test_a_socket_that_goes_silent_is_cut_off_by_the_server_and_the_seat_is_away(
    server: Server, network: SilentNetwork
) -> None:
    """The server's keepalive finds a silent socket out (its pings unanswered): the seat
    is away, the others told, its grace period running."""
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = _table(ana, bea)

    async def scenario() -> float:
        watcher = Seat(server, tid, bea.cookie)
        await watcher.connect(0)
        phone = await _through(network, tid, ana)
        await _presence(watcher, lambda s: _seat(s, 0)["connected"])
        await network.carry(False)
        start = time.monotonic()
        seats = await _presence(watcher, lambda s: not _seat(s, 0)["connected"], timeout=20)
        found = time.monotonic() - start
        assert _seat(seats, 0)["grace_ends"] > time.time()
        await phone.close()
        await watcher.close()
        return found

    found = network.run(scenario())
    print(f"\nthe server found a silent socket out after {found:.1f} s")


def test_a_seat_with_a_new_socket_is_not_away_when_its_old_one_is_cut_off(
    server: Server, network: SilentNetwork
) -> None:
    """The page opens its new socket before the server has found the old one out: for a
    while the seat has two; when the old one is cut off, the seat is still at the table,
    and its moves come from the new one."""
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = _table(ana, bea)

    async def scenario() -> None:
        watcher = Seat(server, tid, bea.cookie)
        await watcher.connect(0)
        old = await _through(network, tid, ana)
        pipe = network.pipes[-1]
        await _presence(watcher, lambda s: _seat(s, 0)["connected"])
        await network.carry(False)
        new = Seat(server, tid, ana.cookie)  # the page's next socket, on a network that works
        await new.connect(0)
        heard = len(watcher.messages)
        both = await _connections(server)
        # the server cuts the old one off (the network sees its end close), and the
        # room lets it go: one socket fewer at the table
        await asyncio.wait_for(pipe.server_closed.wait(), 20)
        deadline = time.monotonic() + 10
        while await _connections(server) >= both:
            assert time.monotonic() < deadline, "the room kept the silent socket"
            await asyncio.sleep(0.05)
        # whatever the room said when it let the socket go came before this pong
        await watcher.send({"type": "ping", "id": "after"})
        await watcher.expect("pong")
        said = [m["seats"] for m in watcher.messages[heard:] if m["type"] == "presence"]
        assert all(_seat(s, 0)["connected"] for s in said), said
        # the new socket plays for the seat
        await watcher.play(until=lambda v: 0 in v.get("to_act", []))
        while new.seq < watcher.seq:  # Bea's moves, if she had any to make
            await new.recv()
        seq = new.seq
        await new.play(until=lambda v: 0 not in v.get("to_act", []))
        assert new.seq > seq
        await old.close()
        await new.close()
        await watcher.close()

    network.run(scenario())


def test_the_page_is_told_its_keepalive(server: Server) -> None:
    """/api/games tells the web client how often to ping and how long to wait."""
    info = httpx.get(f"{server.http}/api/games").json()
    assert info["keepalive"] == {
        "ping_every": CLIENT_PING_EVERY,
        "pong_within": CLIENT_PONG_WITHIN,
    }


def test_the_lobby_answers_pings(server: Server) -> None:
    """The lobby's socket answers a ping as a table's does: else the page, whose pings
    go unanswered, takes it for dead and says "Connection lost" every few seconds."""

    async def ping() -> dict[str, Any]:
        async with websockets.connect(f"{server.ws}/ws/lobby") as ws:
            assert json.loads(await ws.recv())["type"] == "tables"
            await ws.send(json.dumps({"type": "ping", "id": 3}))
            return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))

    assert asyncio.run(ping()) == {"type": "pong", "id": 3}


def _table(ana: Person, bea: Person) -> str:
    """A two-seat dominoes table of Ana (seat 0) and Bea (seat 1), started."""
    tid: str = ana.create("muggins-dominoes", seats=2, turn_seconds=600)["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)
    return tid


async def _through(network: SilentNetwork, table: str, person: Person) -> Any:
    """A table socket of ``person``'s through the network, welcomed. Like a page's, it
    answers the server's pings but sends none of the WebSocket's own."""
    ws = await websockets.connect(
        f"ws://127.0.0.1:{network.port}/ws/tables/{table}",
        additional_headers={"Cookie": person.cookie},
        ping_interval=None,
    )
    await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
    while json.loads(await ws.recv())["type"] != "welcome":
        pass
    return ws


def _seat(seats: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    return next(e for e in seats if e["seat"] == seat)


async def _presence(
    seat: Seat, want: Callable[[list[dict[str, Any]]], bool], timeout: float = 10
) -> list[dict[str, Any]]:
    """The seats of the first presence message heard from now on for which ``want``
    holds."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await seat.expect("presence", timeout=max(0.1, deadline - time.monotonic()))
        if want(msg["seats"]):
            return list(msg["seats"])


async def _connections(server: Server) -> int:
    """The server's open WebSockets at tables and in the lobby (taverna_connections)."""
    async with httpx.AsyncClient(timeout=10) as client:
        text = (await client.get(f"{server.http}/metrics")).text
    m = re.search(r"^taverna_connections ([\d.]+)$", text, re.M)
    assert m, text[:500]
    return int(float(m.group(1)))


def _overlap(a: Any, b: Any) -> bool:
    """Whether two of Playwright's boxes (x, y, width, height) share more than an edge."""
    across = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    down = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return across > 1 and down > 1
