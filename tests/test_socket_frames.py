"""Attacks below the messages, on the WebSocket frames themselves, each against a running
server while a person plays another table on it: the attacking socket is cut within a
bounded time, the server stays small, and the other table's moves keep coming (their
round trips are printed: `pytest -s`)."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from .raw_socket_helpers import CONT, PING, TEXT, RawSocket, TimedPlay, frame, text
from .server_helpers import Person, Seat, Server, database_url, rss_mb

#: a quick keepalive, so that a client that does not answer is cut within seconds
KEEPALIVE = {"TAVERNA_WS_PING_INTERVAL": "1", "TAVERNA_WS_PING_TIMEOUT": "2"}
HELLO = text({"type": "hello", "last_seq": None})

#: what a test allows: generous, for a loaded machine (the figures printed are the news)
CUT_WITHIN = 8.0
GROWTH_MB = 60.0
SLOWEST_MOVE = 2.0

Attack = Callable[[RawSocket], Awaitable[None]]


class Attacker:
    """Runs one attack for ``seconds``, opening a new socket each time the server cuts
    one; what became of each socket (seconds it lasted, None if still open at the end)."""

    def __init__(self, server: Server, path: str, attack: Attack, read: bool) -> None:
        self.server = server
        self.path = path
        self.attack = attack
        #: read what the server sends (and its close code), or leave it all unread
        self.read = read
        self.lasted: list[float | None] = []
        self.codes: list[int | None] = []
        self.peak_mb = 0.0

    async def run(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            sock = await RawSocket.open(self.server, self.path)
            reader = asyncio.create_task(sock.read_close(seconds + 30)) if self.read else None
            started = time.monotonic()
            try:
                await asyncio.wait_for(self.attack(sock), end - started)
                self.lasted.append(time.monotonic() - started)  # cut off
            except TimeoutError:
                self.lasted.append(None)  # still open when the attack ended
            sock.abort()
            if reader is not None:
                self.codes.append(await reader)

    async def sample_memory(self) -> None:
        while True:
            self.peak_mb = max(self.peak_mb, rss_mb(self.server))
            await asyncio.sleep(0.1)


def _under_attack(server: Server, attack: Attack, seconds: float, read: bool) -> Attacker:
    """A person plays a table while ``attack`` runs on another: what the attacker saw;
    the person's figures and the server's growth are asserted here."""
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    played = ana.play_at("dominoes", settings={"target": 250}, bots={1: "greedy"})
    attacked = bea.create("dominoes")["id"]
    attacker = Attacker(server, f"/ws/tables/{attacked}", attack, read)

    async def go() -> TimedPlay:
        seat = Seat(server, played, ana.cookie)
        await seat.connect()
        play = TimedPlay(seat)
        playing = asyncio.create_task(play.run())
        await asyncio.sleep(1)  # the quiet moves, for comparison
        quiet = len(play.times)
        before = rss_mb(server)
        sampler = asyncio.create_task(attacker.sample_memory())
        await attacker.run(seconds)
        sampler.cancel()
        play.stop()
        await playing
        await seat.close()
        loud = TimedPlay(seat)
        loud.times = play.times[quiet:]
        print(
            f"\n  quiet: {_first(play, quiet).figures()}; under attack: {loud.figures()}"
            f"\n  attacking sockets lasted {_lasted(attacker.lasted)}, closed with "
            f"{dict(Counter(attacker.codes)) or 'unread'}; the server {before:.0f} -> peak "
            f"{attacker.peak_mb:.0f} MB"
        )
        assert loud.times, "no move was answered during the attack"
        assert max(loud.times) < SLOWEST_MOVE, loud.figures()
        assert attacker.peak_mb - before < GROWTH_MB
        return loud

    asyncio.run(go())
    return attacker


def _assert_cut(attacker: Attacker) -> None:
    """Every attacking socket was cut (but the last, perhaps opened as the attack ended),
    each within :data:`CUT_WITHIN` seconds."""
    cut = [s for s in attacker.lasted if s is not None]
    assert cut, "the attacking socket was never cut"
    assert None not in attacker.lasted[:-1]
    assert max(cut) < CUT_WITHIN, _lasted(attacker.lasted)


def _first(play: TimedPlay, n: int) -> TimedPlay:
    first = TimedPlay(play.seat)
    first.times = play.times[:n]
    return first


def _lasted(lasted: list[float | None]) -> str:
    return ", ".join("still open" if s is None else f"{s:.2f} s" for s in lasted[:6]) + (
        f" … ({len(lasted)} sockets)" if len(lasted) > 6 else ""
    )


@pytest.fixture
def server(tmp_path: Any) -> Any:
    srv = Server(database_url("sqlite", tmp_path), **KEEPALIVE).start()
    yield srv
    srv.stop()


async def _empty_continuations(sock: RawSocket) -> None:
    """Say hello, begin a text message, then send empty continuation frames (six bytes
    each) until the server cuts the socket."""
    await sock.write(HELLO)
    await sock.write(frame(TEXT, b"{", fin=False))
    burst = frame(CONT, fin=False) * 10_000
    while await sock.write(burst):
        pass


@pytest.mark.slow
def test_a_message_of_endless_empty_frames_is_cut_and_other_tables_play_on(
    server: Server,
) -> None:
    attacker = _under_attack(server, _empty_continuations, seconds=6, read=True)
    _assert_cut(attacker)
    # message too big: the frames of one message are counted, empty ones too (1006: the
    # server dropped the rest of the attack unread, and with it the close frame at times)
    assert 1009 in attacker.codes and set(attacker.codes) <= {1009, 1006}


async def _ping_flood(sock: RawSocket) -> None:
    """Say hello, then write pings nonstop."""
    await sock.write(HELLO)
    burst = frame(PING) * 10_000
    while await sock.write(burst):
        pass


@pytest.mark.slow
@pytest.mark.parametrize("read", [False, True], ids=["never-reads", "reads"])
def test_a_ping_flood_is_cut_and_the_server_stays_small(server: Server, read: bool) -> None:
    attacker = _under_attack(server, _ping_flood, seconds=6, read=read)
    _assert_cut(attacker)
    if read:  # too many pings (1006: the close frame dropped with the rest, at times)
        assert 1008 in attacker.codes and set(attacker.codes) <= {1008, 1006}


async def _asks_never_reads(sock: RawSocket) -> None:
    """Say hello, then ask nonstop (the app's own ping, answered with a pong) and never
    read an answer."""
    await sock.write(HELLO)
    burst = text({"type": "ping"}) * 1000
    while await sock.write(burst):
        pass


@pytest.mark.slow
def test_a_client_that_does_not_read_is_not_read_either_and_is_cut(tmp_path: Any) -> None:
    """With the app's limits out of the way (no message budget, a GiB of queue), the
    socket layer stops reading a client whose answers wait unread, and the keepalive
    cuts it."""
    srv = Server(
        database_url("sqlite", tmp_path), TAVERNA_SOCKET_QUEUE_BYTES=str(1 << 30), **KEEPALIVE
    ).start()
    try:
        attacker = _under_attack(srv, _asks_never_reads, seconds=8, read=False)
        _assert_cut(attacker)
    finally:
        srv.stop()


def test_what_a_client_did_wrong_is_one_line_in_the_log_without_a_traceback(
    server: Server,
) -> None:
    ana = Person(server, "Ana")
    played = ana.play_at("dominoes", settings={"target": 250}, bots={1: "greedy"})
    path = f"/ws/tables/{played}"

    async def go() -> tuple[list[str], str]:
        wrong = []
        for _ in range(3):  # text that is not UTF-8
            sock = await RawSocket.open(server, path)
            await sock.write(HELLO)
            await sock.write(frame(TEXT, b'{"type": "\xff\xfe"}'))
            assert await sock.read_close(10) == 1007
            wrong.append(sock.address)
        # a spectator that asks until the server's answers back up unread, then waits,
        # never reading, while the table is played: the keepalive cuts it
        watcher = await RawSocket.open(server, path)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(_asks_never_reads(watcher), 2)
        seat = Seat(server, played, ana.cookie)
        await seat.connect()
        play = TimedPlay(seat, think=0.05)
        playing = asyncio.create_task(play.run())
        deadline = time.monotonic() + 60
        while watcher.address not in server.log_text() and "Traceback" not in server.log_text():
            assert time.monotonic() < deadline, "the spectator that does not read is not cut"
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)  # updates go on after the cut: none may fail loudly
        play.stop()
        await playing
        await seat.close()
        watcher.abort()
        return wrong, watcher.address

    wrong, watcher = asyncio.run(go())
    log = server.log_text()
    assert "Traceback" not in log
    for address in wrong:
        lines = [line for line in log.splitlines() if address in line]
        assert len(lines) == 1 and "1007" in lines[0] and "UTF-8" in lines[0], lines
    lines = [line for line in log.splitlines() if watcher in line]
    assert len(lines) == 1 and "cut off" in lines[0], lines
    # and counted, for the operator's graphs
    figures = ana.http.get("/metrics").text
    assert 'taverna_connections_refused_total{limit="frames"} 3.0' in figures
    assert 'taverna_connections_refused_total{limit="keepalive"} 1.0' in figures


def test_a_message_in_a_few_frames_and_a_few_pings_are_served(server: Server) -> None:
    """What a well-behaved client may do: a message in several frames, pings now and then."""
    ana = Person(server, "Ana")
    tid = ana.create("dominoes")["id"]

    async def go() -> None:
        seat = Seat(server, tid, ana.cookie)
        await seat.connect()
        await seat.ws.send(iter(['{"type": "ping",', ' "id": ', '"in three"}']))
        assert (await seat.expect("pong"))["id"] == "in three"
        for _ in range(10):
            await asyncio.wait_for(await seat.ws.ping(), 10)
        await seat.send({"type": "ping", "id": "still here"})
        assert (await seat.expect("pong"))["id"] == "still here"
        await seat.close()

    asyncio.run(go())


class _Transport:
    """A connection whose client reads nothing: a close never completes, only abort."""

    def __init__(self) -> None:
        self.closing = False
        self.aborted = asyncio.Event()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 40000), "sockname": ("127.0.0.1", 8000)}.get(name)

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True  # and the bytes it holds wait for the client, for ever

    def abort(self) -> None:
        self.closing = True
        self.aborted.set()

    def write(self, data: bytes) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def test_a_connection_still_closing_a_keepalive_round_later_is_dropped() -> None:
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from taverna.server.frames import GuardedWebSocket

    async def go() -> None:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            pass

        config = Config(app, ws_ping_interval=0.05, ws_ping_timeout=0.05, log_config=None)
        config.load()
        protocol = GuardedWebSocket(config, ServerState(), {}, asyncio.get_running_loop())
        transport = _Transport()
        protocol.connection_made(transport)  # type: ignore[arg-type]
        protocol.start_keepalive()
        protocol.close_sent = True  # the app closed; the client never answers
        transport.close()
        await asyncio.wait_for(transport.aborted.wait(), 5)

    asyncio.run(go())
