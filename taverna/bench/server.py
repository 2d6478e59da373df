"""`taverna bench server`: real tables, real WebSockets, measured latency.

Starts ``taverna serve`` in a subprocess on a fresh database, creates N
tables whose seats are all played by WebSocket clients (random bots
running here, in the client process), and measures for every move the time
from sending the intent to receiving the numbered update that carries it.
Then it holds C extra connections open at once and checks each is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any


def raise_fd_limit(want: int) -> None:
    """Let this process hold ``want`` files open (sockets: one per player), up to the hard limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


async def random_player(
    url: str,
    cookie: str,
    stop: float,
    latencies: list[float],
    moves: list[int],
    think: float,
    warm: float,
) -> None:
    """One player: a random bot that moves whenever it is its turn, timing each move.

    Moves before ``warm`` (everybody connecting at once) are played but not timed.
    """
    import websockets

    from ..bots import make_bot
    from ..games import get_game

    async with websockets.connect(url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        bot = None
        seat = None
        pending: tuple[int, float] | None = None  # (seq when sent, time sent)
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] == "welcome":
                seat = msg["seat"]
            elif msg["type"] == "error":
                pending = None
            if msg["type"] not in ("welcome", "update"):
                continue
            if pending is not None and msg["seq"] > pending[0]:
                if time.monotonic() > warm:
                    latencies.append(time.perf_counter() - pending[1])
                moves[0] += 1
                pending = None
            view = msg.get("view")
            if view is None or view.get("over"):
                if view is not None:
                    break
                continue
            if pending is None and view.get("turn") == seat and view.get("legal"):
                if bot is None:
                    bot = make_bot(
                        "random", get_game(view["game"]), seat, seed=random.randrange(1 << 30)
                    )
                action = bot.choose(view)
                if action is not None:
                    if think:
                        await asyncio.sleep(think * (0.5 + random.random()))
                    pending = (msg["seq"], time.perf_counter())
                    await ws.send(json.dumps({"type": "act", "action": action.to_json()}))


async def _setup(
    base: str, tables: int, game: str, settings: dict[str, Any]
) -> list[tuple[str, str, int]]:
    import httpx

    seats: list[tuple[str, str, int]] = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        sem = asyncio.Semaphore(20)

        async def one(i: int) -> None:
            async with sem:
                host = httpx.AsyncClient(base_url=base, timeout=30)
                r = await host.post("/api/session", json={"name": f"host{i}"})
                r.raise_for_status()
                cookie_a = f"taverna_session={host.cookies['taverna_session']}"
                r = await host.post(
                    "/api/tables", json={"game": game, "settings": settings, "turn_seconds": 600}
                )
                tid = r.json()["table"]["id"]
                await host.post(f"/api/tables/{tid}/seats/0")
                guest = httpx.AsyncClient(base_url=base, timeout=30)
                await guest.post("/api/session", json={"name": f"guest{i}"})
                cookie_b = f"taverna_session={guest.cookies['taverna_session']}"
                await guest.post(f"/api/tables/{tid}/seats/1")
                r = await host.post(f"/api/tables/{tid}/start")
                r.raise_for_status()
                seats.append((tid, cookie_a, 0))
                seats.append((tid, cookie_b, 1))
                await host.aclose()
                await guest.aclose()

        await asyncio.gather(*(one(i) for i in range(tables)))
        del http
    return seats


async def _hold(ws_base: str, table_ids: list[str], count: int) -> tuple[int, float]:
    import websockets

    opened = []
    t0 = time.perf_counter()
    sem = asyncio.Semaphore(200)

    async def one(i: int) -> None:
        async with sem:
            ws = await websockets.connect(
                f"{ws_base}/ws/tables/{table_ids[i % len(table_ids)]}", max_size=None
            )
            await ws.send(json.dumps({"type": "hello"}))
            msg = json.loads(await asyncio.wait_for(ws.recv(), 30))
            if msg["type"] == "welcome":
                opened.append(ws)

    results = await asyncio.gather(*(one(i) for i in range(count)), return_exceptions=True)
    elapsed = time.perf_counter() - t0
    # all open at once: ping every one of them
    await asyncio.gather(
        *(ws.send(json.dumps({"type": "ping"})) for ws in opened), return_exceptions=True
    )
    alive = 0
    for ws in opened:
        with contextlib.suppress(Exception):
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m["type"] == "pong":
                    alive += 1
                    break
    await asyncio.gather(*(ws.close() for ws in opened), return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    if errors:
        print(f"  {len(errors)} connections failed, e.g. {errors[0]!r}", file=sys.stderr)
    return alive, elapsed


@contextlib.contextmanager
def no_collector() -> Iterator[None]:
    """The load generator's own garbage collector off while it times moves: a pause of
    its own (a full collection of a thousand sockets' objects took half a second) is
    no latency of the server's. What it leaves is collected afterwards."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
        gc.collect()


def percentile(values: list[float], q: float) -> float:
    """The value below which a fraction ``q`` of ``values`` lies (nearest rank; 0 if none)."""
    values = sorted(values) or [0.0]
    return values[min(len(values) - 1, int(q * (len(values) - 1)))]


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_healthy(
    base: str, seconds: float = 30, proc: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until the server answers; RuntimeError if it exits or does not answer in time."""
    import httpx

    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within {seconds:g} s")


def run_server_bench(
    tables: int = 500,
    seconds: float = 20.0,
    connections: int = 2000,
    database: str | None = None,
    game: str | None = None,
    as_json: bool = False,
    think: float = 1.0,
) -> int:
    from ..games import GAMES

    game = game or next(iter(GAMES))  # the first game the club lists
    raise_fd_limit(65536)
    tmp = tempfile.mkdtemp(prefix="taverna-bench-")
    url = database or f"sqlite:///{tmp}/bench.db"
    port = free_port()
    env = {
        **os.environ,
        "TAVERNA_BOT_DELAY": "0",
        # thousands of sockets from this one address, some for one session: the bench's
        # own limits, not a club's (README: the limits and their defaults)
        "TAVERNA_SOCKETS_PER_ADDRESS": "1000000",
        "TAVERNA_SOCKETS_PER_SESSION": "1000000",
        "TAVERNA_SOCKET_RATE": "1000000/1",
    }
    log_path = os.path.join(tmp, "serve.log")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "taverna", "serve", "--port", str(port), "--database", url],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            preexec_fn=lambda: raise_fd_limit(65536),
        )
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        try:
            wait_healthy(base, proc=proc)
        except RuntimeError as e:
            with open(log_path, errors="replace") as f:
                said = [line.strip() for line in f if line.strip()]
            # `taverna serve` says what is wrong in its last line (a bad --database, say)
            why = said[-1] if said else str(e)
            print(f"taverna bench: the server did not start: {why}", file=sys.stderr)
            return 1

        async def main() -> dict[str, Any]:
            seats = await _setup(base, tables, game, {})
            latencies: list[float] = []
            moves = [0]
            stop = time.monotonic() + seconds
            warm = time.monotonic() + min(5.0, seconds / 4)
            t0 = time.perf_counter()

            def url_of(tid: str) -> str:
                return f"{ws_base}/ws/tables/{tid}"

            with no_collector():
                await asyncio.gather(
                    *(
                        random_player(url_of(tid), cookie, stop, latencies, moves, think, warm)
                        for tid, cookie, _ in seats
                    ),
                    return_exceptions=True,
                )
            elapsed = time.perf_counter() - t0
            alive, open_seconds = await _hold(
                ws_base, sorted({t for t, _, _ in seats}), connections
            )
            lat = sorted(latencies) or [0.0]
            return {
                "tables": tables,
                "clients": len(seats),
                "seconds": round(elapsed, 1),
                "moves": moves[0],
                "moves_per_second": round(moves[0] / elapsed, 1),
                "latency_ms": {
                    "p50": round(1000 * statistics.median(lat), 2),
                    "p99": round(1000 * percentile(lat, 0.99), 2),
                    "max": round(1000 * lat[-1], 2),
                },
                "connections_requested": connections,
                "connections_served": alive,
                "connections_open_seconds": round(open_seconds, 2),
                "database": url.split(":")[0],
                "think_seconds": think,
            }

        report = asyncio.run(main())
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
    lat = report["latency_ms"]
    if as_json:
        print(json.dumps(report))
    else:
        print(
            f"{report['tables']} tables, {report['clients']} WebSocket players "
            f"(thinking {think:g} s on average), {report['seconds']} s:\n"
            f"  {report['moves']} moves, {report['moves_per_second']} moves/s\n"
            f"  move latency p50 {lat['p50']} ms, p99 {lat['p99']} ms, max {lat['max']} ms\n"
            f"  {report['connections_served']}/{report['connections_requested']} extra connections "
            f"open at once and answering (opened in {report['connections_open_seconds']} s)"
        )
    return 0
