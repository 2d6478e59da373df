"""Strong bots' decisions per second: a node thinking itself, or with bot workers.

Starts a redis-server of its own (Debian's, on a free port, nothing on disk), one
`taverna serve` on a temporary SQLite, and `taverna worker --concurrency N`; fills the
node with Mus tables of four expert bots (no bot delay), lets them play for a while,
then counts the decisions made in a window from the node's /metrics (by worker and by
the node itself) and the workers' thinking times from their log::

    .venv/bin/python scripts/bench_workers.py --workers 0        # the node alone
    .venv/bin/python scripts/bench_workers.py --workers 2 --tables 8 --seconds 30

``--option`` sets the expert's options (TAVERNA_BOT_OPTIONS): by default a fixed
work, 3000 iterations a decision with no clock cap, so that a loaded machine makes
fewer decisions rather than smaller ones.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

WORKER = (sys.executable, "-m", "taverna", "worker", "--log-format", "json")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def figures(base: str) -> dict[str, float]:
    out = {}
    for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
        m = re.match(r"^([a-z_]+(?:\{[^}]*\})?) (\S+)$", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def made(f: dict[str, float]) -> tuple[float, float]:
    """Decisions made by workers, and by the node itself, so far."""
    workers = f.get('taverna_bot_requests_total{outcome="answered"}', 0.0)
    node = sum(v for k, v in f.items() if k.startswith("taverna_bot_decisions_local_total"))
    return workers, node


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--workers", type=int, default=0, help="worker processes (0: no Redis)")
    p.add_argument("--tables", type=int, default=6)
    p.add_argument("--seconds", type=float, default=30.0, help="the window counted")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = p.parse_args()
    options: dict[str, Any] = {"iterations": 3000, "seconds": 60}
    for o in args.option:
        key, _, value = o.partition("=")
        options[key] = float(value) if "." in value else int(value)
    tmp = tempfile.mkdtemp(prefix="taverna-bench-workers-")
    procs: list[subprocess.Popen[bytes]] = []
    env = {
        **os.environ,
        "TAVERNA_BOT_DELAY": "0",
        "TAVERNA_BOT_OPTIONS": json.dumps({"expert": options}),
        "TAVERNA_SOCKET_RATE": "100000/1",
    }
    worker_log = os.path.join(tmp, "worker.log")
    try:
        if args.workers:
            rport = free_port()
            procs.append(
                subprocess.Popen(
                    ["redis-server", "--port", str(rport), "--save", "", "--appendonly", "no"],
                    stdout=subprocess.DEVNULL,
                )
            )
            env["TAVERNA_REDIS_URL"] = f"redis://127.0.0.1:{rport}/0"
            time.sleep(0.5)
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "taverna", "serve", "--port", str(port)]
        with open(os.path.join(tmp, "serve.log"), "wb") as serve_log:
            procs.append(
                subprocess.Popen(
                    [*cmd, "--database", f"sqlite:///{tmp}/club.db"],
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=serve_log,
                )
            )
        for _ in range(300):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        if args.workers:
            with open(worker_log, "wb") as log:
                procs.append(
                    subprocess.Popen(
                        [
                            *WORKER,
                            "--redis",
                            env["TAVERNA_REDIS_URL"],
                            "--concurrency",
                            str(args.workers),
                        ],
                        stderr=log,
                    )
                )
            while httpx.get(f"{base}/api/health").json()["bots"]["workers"] < args.workers:
                time.sleep(0.1)
        host = httpx.Client(base_url=base, timeout=10)
        host.post("/api/session", json={"name": "Host"}).raise_for_status()
        for _ in range(args.tables):
            body = {
                "game": "mus",
                "settings": {"cows": 3, "games_per_cow": 3},
                "bots": {str(s): "expert" for s in range(4)},
                "public": False,
            }
            r = host.post("/api/tables", json=body)
            r.raise_for_status()
            host.post(f"/api/tables/{r.json()['table']['id']}/start").raise_for_status()
        time.sleep(args.warmup)
        before, started = made(figures(base)), time.monotonic()
        time.sleep(args.seconds)
        after, took = made(figures(base)), time.monotonic() - started
        by_workers = (after[0] - before[0]) / took
        by_node = (after[1] - before[1]) / took
        seconds = []
        if args.workers:
            with open(worker_log, encoding="utf-8") as f:
                for line in f:
                    m = re.search(r"in ([0-9.]+) s", line)
                    if m and '"decided' in line:
                        seconds.append(float(m.group(1)))
        load = os.getloadavg()[0]
        print(
            f"workers {args.workers}, tables {args.tables}, {took:.0f} s: "
            f"{by_workers + by_node:.2f} decisions/s "
            f"(workers {by_workers:.2f}, node {by_node:.2f}); load {load:.1f}"
        )
        if seconds:
            q = statistics.quantiles(seconds, n=100)
            print(
                f"  a worker's decision: median {statistics.median(seconds):.2f} s, "
                f"p99 {q[98]:.2f} s, slowest {max(seconds):.2f} s ({len(seconds)} decisions)"
            )
        return 0
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()


if __name__ == "__main__":
    sys.exit(main())
