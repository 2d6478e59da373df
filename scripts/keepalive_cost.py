"""What the sockets' keepalive costs the server: its CPU with N idle table sockets.

    .venv/bin/python scripts/keepalive_cost.py [--connections 1000] [--seconds 30]

For each setting below, starts ``taverna serve`` on a fresh SQLite database, opens N
table sockets (spectators of a few idle tables, as pages that said hello), and for
``--seconds`` lets each do what a page does between moves: a ``ping`` message every
``client_ping_every`` seconds (the first at a random moment), while the WebSocket
library answers the server's own pings. The server process's CPU time over that
window (user + system, from /proc) is printed as a share of one core, with the
messages each side sent.

- ``none``: no keepalive at all (the floor: what idle sockets cost anyway);
- ``before``: the server's uvicorn default (a ping every 20 s, 20 s to answer) and a
  page that pinged every 15 s;
- ``now``: this club's defaults (TAVERNA_WS_PING_INTERVAL 5, TAVERNA_WS_PING_TIMEOUT
  10, TAVERNA_CLIENT_PING_EVERY 5);
- ``server``, ``page``: each half of ``now`` alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
import websockets

from taverna.bench.server import free_port, wait_healthy

#: name: (server ping interval, server ping timeout, page ping every; 0: none)
SETTINGS = {
    "none": (0.0, 0.0, 0.0),
    "before": (20.0, 20.0, 15.0),
    "now": (5.0, 10.0, 5.0),
    "server": (5.0, 10.0, 0.0),
    "page": (0.0, 0.0, 5.0),
}
TABLES = 10


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def hold(
    ws_base: str, tables: list[str], count: int, every: float, seconds: float, pid: int
) -> dict[str, Any]:
    """Open ``count`` sockets, let them ping for ``seconds``; the server's CPU share."""
    sockets: list[Any] = []
    sem = asyncio.Semaphore(100)

    async def open_one(i: int) -> None:
        async with sem:
            ws = await websockets.connect(
                f"{ws_base}/ws/tables/{tables[i % len(tables)]}", ping_interval=None
            )
            await ws.send(json.dumps({"type": "hello", "last_seq": 0}))
            while json.loads(await ws.recv())["type"] != "welcome":
                pass
            sockets.append(ws)

    await asyncio.gather(*(open_one(i) for i in range(count)))
    await asyncio.sleep(2)  # the openings' work done
    pongs = [0]

    async def page(ws: Any, stop: float) -> None:
        async def read() -> None:
            with contextlib.suppress(Exception):
                async for raw in ws:
                    if json.loads(raw)["type"] == "pong":
                        pongs[0] += 1

        reader = asyncio.create_task(read())
        if every:
            await asyncio.sleep(random.uniform(0, every))
            n = 0
            while time.monotonic() + every < stop:
                n += 1
                await ws.send(json.dumps({"type": "ping", "id": n}))
                await asyncio.sleep(every)
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        reader.cancel()

    before = cpu_seconds(pid)
    t0 = time.monotonic()
    await asyncio.gather(*(page(ws, t0 + seconds) for ws in sockets))
    spent = cpu_seconds(pid) - before
    elapsed = time.monotonic() - t0
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)
    return {"cpu": spent / elapsed, "pongs": pongs[0], "seconds": elapsed, "open": len(sockets)}


def _more_files() -> None:
    """As many open files as the hard limit allows, up to 65,536 (a socket is one)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(65536, hard), hard))


def measure(name: str, count: int, seconds: float) -> dict[str, Any]:
    interval, timeout, every = SETTINGS[name]
    tmp = tempfile.mkdtemp(prefix="taverna-keepalive-")
    port = free_port()
    env = {
        **os.environ,
        "TAVERNA_SOCKETS_PER_ADDRESS": "1000000",
        "TAVERNA_SOCKETS_PER_SESSION": "1000000",
        "TAVERNA_WS_PING_INTERVAL": str(interval),
        "TAVERNA_WS_PING_TIMEOUT": str(timeout or 20),
        "TAVERNA_CLIENT_PING_EVERY": str(every or 5),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "taverna",
            "serve",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{tmp}/k.db",
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_more_files,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc=proc)
        http = httpx.Client(base_url=base, timeout=30)
        http.post("/api/session", json={"name": "host"}).raise_for_status()
        tables = []
        for _ in range(TABLES):
            r = http.post(
                "/api/tables",
                json={
                    "game": "muggins-dominoes",
                    "seats": 2,
                    "bots": {"0": "greedy", "1": "greedy"},
                },
            )
            tables.append(r.json()["table"]["id"])
        result = asyncio.run(
            hold(f"ws://127.0.0.1:{port}", tables, count, every, seconds, proc.pid)
        )
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
    pings = count * (seconds / interval if interval else 0)
    print(
        f"{name:>7}: server ping {interval:g} s / {timeout:g} s, page ping "
        f"{every:g} s: server CPU {100 * result['cpu']:.1f} % of a core "
        f"({result['open']} sockets, {result['pongs'] / result['seconds']:.0f} pongs/s "
        f"answered, ~{pings / seconds:.0f} protocol pings/s sent)",
        flush=True,
    )
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--connections", type=int, default=1000)
    p.add_argument("--seconds", type=float, default=30)
    p.add_argument("--rounds", type=int, default=2, help="each setting measured so often")
    args = p.parse_args()
    _more_files()
    for _ in range(args.rounds):
        for name in SETTINGS:
            measure(name, args.connections, args.seconds)


if __name__ == "__main__":
    main()
