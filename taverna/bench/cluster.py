"""`taverna bench cluster`: the capacity of several nodes, in one bounded run.

Starts a redis-server of its own (Debian's, on a free port, keeping nothing on disk)
and nodes of ``taverna serve --redis`` on a PostgreSQL schema of its own (dropped
afterwards), then measures two things (docs/scaling.md, "How much it holds"):

- **people**: for each N of ``--tables``, N two-player tables whose players are
  spread over the nodes (seat 0 at one node, seat 1 at the next: most moves cross
  nodes), each player thinking ``--think`` seconds on average: moves a second, the
  move latency (from sending an intent to receiving the update that carries it) at
  p50 and p99, and the load generator's own CPU beside it; then the largest N whose
  p99 stays under 50 ms;
- **bots**: K tables of one quick player and strong bots in every other seat, of the
  game whose default table is the largest (Mus among Taverna's own), on one node,
  first thinking itself, then with 1 and 2 bot workers: the wall time of a bot's move
  (p50, p90), strong-bot decisions a second (and per worker process), and the quick
  players' own move latency while the bots think.

Everything runs on this machine: with 2 cores, nodes, workers, Redis, PostgreSQL and
the load generator share them, so the figures to carry to larger machines are per
core (docs/scaling.md says how).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any

from ..games import GAMES, get_game
from ..games.base import State
from .server import (
    free_port,
    no_collector,
    percentile,
    raise_fd_limit,
    random_player,
    wait_healthy,
)

PG = "postgresql://postgres@127.0.0.1:5432/test"
QUICK_EXPERT = {"expert": {"iterations": 1200}}


@contextlib.contextmanager
def _redis() -> Iterator[str]:
    exe = shutil.which("redis-server")
    if exe is None:
        raise RuntimeError("redis-server is not on the PATH (Debian: apt-get install redis-server)")
    port = free_port()
    proc = subprocess.Popen(
        [exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(port=port, socket_connect_timeout=0.2)
        for _ in range(100):
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def _schema(base: str) -> Iterator[str]:
    import psycopg

    name = f"bench_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    try:
        yield f"{base}?options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(base, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@contextlib.contextmanager
def _processes(commands: list[tuple[list[str], dict[str, str]]]) -> Iterator[list[Any]]:
    keep = os.environ.get("TAVERNA_BENCH_LOGS")  # a folder to keep what each process said
    logs = tempfile.mkdtemp(prefix="taverna-bench-cluster-", dir=keep)
    procs = []
    try:
        for i, (cmd, env) in enumerate(commands):
            log = open(os.path.join(logs, f"{i}.log"), "wb")  # noqa: SIM115
            procs.append(
                subprocess.Popen(
                    cmd,
                    env={**os.environ, **env},
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                    preexec_fn=lambda: raise_fd_limit(65536),
                )
            )
        yield procs
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                p.wait(15)
        if keep is None:
            shutil.rmtree(logs, ignore_errors=True)


def _node_env(redis_url: str, name: str, **more: str) -> dict[str, str]:
    return {
        "TAVERNA_REDIS_URL": redis_url,
        "TAVERNA_NODE": name,
        "TAVERNA_BOT_DELAY": "0",
        "TAVERNA_SOCKETS_PER_ADDRESS": "1000000",
        "TAVERNA_SOCKETS_PER_SESSION": "1000000",
        "TAVERNA_SOCKET_RATE": "1000000/1",
        **more,
    }


def _serve(port: int, url: str) -> list[str]:
    return [sys.executable, "-m", "taverna", "serve", "--port", str(port), "--database", url]


def _ok(r: Any) -> None:
    """An answer the bench cannot go on without: said in one line, with the server's reason."""
    if r.is_error:
        raise RuntimeError(f"{r.request.method} {r.request.url.path}: {r.status_code} {r.text}")


async def _tables(bases: list[str], count: int, game: str, body: dict[str, Any]) -> list[Any]:
    """``count`` started tables, made at the nodes in turn: (table, [(cookie, seat)])."""
    import httpx

    sem = asyncio.Semaphore(20)
    made: list[Any] = []
    cls = get_game(game)
    humans = [s for s in range(cls.default_seats) if str(s) not in body.get("bots", {})]

    async def one(i: int) -> None:
        async with sem:
            base = bases[i % len(bases)]
            people = []
            for s in humans:
                c = httpx.AsyncClient(base_url=base, timeout=60)
                r = await c.post("/api/session", json={"name": f"p{i}x{s}"})
                _ok(r)
                people.append((c, s))
            host = people[0][0]
            r = await host.post("/api/tables", json={"game": game, "turn_seconds": 600, **body})
            _ok(r)
            tid = r.json()["table"]["id"]
            for c, s in people:
                _ok(await c.post(f"/api/tables/{tid}/seats/{s}"))
            _ok(await host.post(f"/api/tables/{tid}/start"))
            made.append(
                (tid, [(f"taverna_session={c.cookies['taverna_session']}", s) for c, s in people])
            )
            for c, _ in people:
                await c.aclose()

    await asyncio.gather(*(one(i) for i in range(count)))
    return made


async def _play(
    ws_bases: list[str], tables: list[Any], seconds: float, think: float
) -> dict[str, Any]:
    """Every player of ``tables`` plays for ``seconds`` at a node of its own turn."""
    latencies: list[float] = []
    moves = [0]
    stop = time.monotonic() + seconds
    warm = time.monotonic() + min(5.0, seconds / 4)
    cpu = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    clients = []
    for i, (tid, seats) in enumerate(tables):
        for cookie, seat in seats:
            url = f"{ws_bases[(i + seat) % len(ws_bases)]}/ws/tables/{tid}"
            clients.append(random_player(url, cookie, stop, latencies, moves, think, warm))
    await asyncio.gather(*clients, return_exceptions=True)
    elapsed = time.perf_counter() - t0
    used = resource.getrusage(resource.RUSAGE_SELF)
    own = (used.ru_utime - cpu.ru_utime) + (used.ru_stime - cpu.ru_stime)
    return {
        "moves": moves[0],
        "moves_per_second": round(moves[0] / elapsed, 1),
        "p50_ms": round(1000 * percentile(latencies, 0.5), 2),
        "p99_ms": round(1000 * percentile(latencies, 0.99), 2),
        "load_generator_cpu": round(own / elapsed, 2),
    }


def _people(pg: str, nodes: int, counts: list[int], seconds: float, think: float) -> list[Any]:
    rows = []
    for n in counts:
        with _redis() as redis_url, _schema(pg) as url:
            ports = [free_port() for _ in range(nodes)]
            commands = [
                (_serve(p, url), _node_env(redis_url, f"n{i}")) for i, p in enumerate(ports)
            ]
            with _processes(commands) as procs:
                bases = [f"http://127.0.0.1:{p}" for p in ports]
                for base, proc in zip(bases, procs, strict=True):
                    wait_healthy(base, 60, proc)
                game = next(iter(GAMES))  # the first game the club lists
                tables = asyncio.run(_tables(bases, n, game, {}))
                ws = [b.replace("http", "ws", 1) for b in bases]
                with no_collector():  # as bench server: its own pauses are no node's
                    played = asyncio.run(_play(ws, tables, seconds, think))
                row = {"tables": n, **played}
                print(
                    f"  {n} tables over {nodes} nodes: {row['moves_per_second']} moves/s, "
                    f"p50 {row['p50_ms']} ms, p99 {row['p99_ms']} ms "
                    f"(load generator {row['load_generator_cpu']:.0%} of a core)",
                    flush=True,
                )
                rows.append(row)
    return rows


def _metric_sum(base: str, prefix: str) -> float:
    import httpx

    total = 0.0
    for line in httpx.get(f"{base}/metrics", timeout=10).text.splitlines():
        m = re.match(r"^([a-z_]+)(\{[^}]*\})? (\S+)$", line)
        if m and m.group(1) == prefix:
            total += float(m.group(3))
    return total


async def _bot_moves(ws_base: str, tables: list[Any], seconds: float) -> dict[str, Any]:
    """The quick players of the bots' tables play at once; the wall time of each bot's
    move (from the update that made it the bot's turn to the update of its move)."""
    import websockets

    from ..bots import make_bot

    bot_waits: list[float] = []
    mine: list[float] = []
    stop = time.monotonic() + seconds

    async def player(tid: str, cookie: str, seat: int) -> None:
        me = None
        url = f"{ws_base}/ws/tables/{tid}"
        async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            bot_turn_at: float | None = None
            sent_at: float | None = None
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), max(0.1, stop - time.monotonic()))
                except TimeoutError:
                    return
                msg = json.loads(raw)
                if msg["type"] not in ("welcome", "update") or "view" not in msg:
                    continue
                now = time.perf_counter()
                if sent_at is not None and msg["type"] == "update":
                    mine.append(now - sent_at)
                    sent_at = None
                if bot_turn_at is not None and msg["type"] == "update":
                    bot_waits.append(now - bot_turn_at)
                    bot_turn_at = None
                view = msg["view"]
                if view.get("over"):
                    return
                if me is None:
                    me = make_bot("greedy", get_game(view["game"]), seat, seed=seat)
                acting = view.get("to_act", [])
                if seat in acting and view.get("legal"):
                    action = me.choose(view)
                    if action is not None:
                        sent_at = time.perf_counter()
                        await ws.send(json.dumps({"type": "act", "action": action.to_json()}))
                elif acting:
                    bot_turn_at = now

    await asyncio.gather(
        *(player(tid, cookie, seat) for tid, seats in tables for cookie, seat in seats),
        return_exceptions=True,
    )
    return {
        "bot_move_p50_s": round(percentile(bot_waits, 0.5), 3),
        "bot_move_p90_s": round(percentile(bot_waits, 0.9), 3),
        "player_p99_ms": round(1000 * percentile(mine, 0.99), 2),
    }


def bot_game() -> type[State]:
    """The game of the bots' tables: the one whose default table is the largest (the
    first listed among equals)."""
    return max(GAMES.values(), key=lambda cls: cls.default_seats)


def _bots(pg: str, tables: int, seconds: float) -> list[Any]:
    rows = []
    cls = bot_game()
    for workers in (0, 1, 2):
        with _redis() as redis_url, _schema(pg) as url:
            port = free_port()
            options = json.dumps(QUICK_EXPERT)
            commands = [
                (_serve(port, url), _node_env(redis_url, "n0", TAVERNA_BOT_OPTIONS=options))
            ]
            commands += [
                (
                    [
                        sys.executable,
                        "-m",
                        "taverna",
                        "worker",
                        "--redis",
                        redis_url,
                        "--concurrency",
                        "1",
                        "--name",
                        f"w{k}",
                    ],
                    {},
                )
                for k in range(workers)
            ]
            with _processes(commands) as procs:
                base = f"http://127.0.0.1:{port}"
                wait_healthy(base, 60, procs[0])
                if workers:
                    time.sleep(3)  # the node sees its workers
                strong = {str(s): "expert" for s in range(1, cls.default_seats)}
                made = asyncio.run(_tables([base], tables, cls.game, {"bots": strong}))
                before = (
                    _metric_sum(base, "taverna_bot_requests_total"),
                    _metric_sum(base, "taverna_bot_decisions_local_total"),
                )
                t0 = time.perf_counter()
                row = asyncio.run(_bot_moves(base.replace("http", "ws", 1), made, seconds))
                elapsed = time.perf_counter() - t0
                sent = _metric_sum(base, "taverna_bot_requests_total") - before[0]
                local = _metric_sum(base, "taverna_bot_decisions_local_total") - before[1]
                decisions = (sent + local) / elapsed
                row = {
                    "workers": workers,
                    "decisions_per_second": round(decisions, 2),
                    "per_worker_process": round(sent / elapsed / workers, 2) if workers else None,
                    **row,
                }
                who = f"{workers} worker(s)" if workers else "the node thinking itself"
                each = f" ({row['per_worker_process']} per worker)" if workers else ""
                print(
                    f"  {tables} {cls.game} tables, {who}: {row['decisions_per_second']} strong "
                    f"decisions/s{each}, a bot's move p50 {row['bot_move_p50_s']} s, "
                    f"p90 {row['bot_move_p90_s']} s, the players' own moves p99 "
                    f"{row['player_p99_ms']} ms",
                    flush=True,
                )
                rows.append(row)
    return rows


def run_cluster_bench(
    database: str | None = None,
    nodes: int = 3,
    tables: str = "300,600,900",
    bot_tables: int = 6,
    seconds: float = 20.0,
    think: float = 1.0,
    as_json: bool = False,
) -> int:
    raise_fd_limit(65536)
    pg = database or os.environ.get("TAVERNA_DATABASE_URL") or PG
    if not pg.startswith("postgresql"):
        print(
            "taverna bench cluster: the nodes share a PostgreSQL: give --database", file=sys.stderr
        )
        return 2
    try:
        counts = [int(x) for x in tables.split(",") if x.strip()]
    except ValueError:
        print(
            "taverna bench cluster: --ramp is table counts separated by commas (300,600,900)",
            file=sys.stderr,
        )
        return 2
    try:
        print(
            f"people: {nodes} nodes, players thinking {think:g} s, {seconds:g} s each", flush=True
        )
        people = _people(pg, nodes, counts, seconds, think)
        print("bots: one node, strong bots (1,200 iterations a decision)", flush=True)
        bots = _bots(pg, bot_tables, seconds)
    except RuntimeError as e:
        print(f"taverna bench cluster: {e}", file=sys.stderr)
        return 1
    held = [r["tables"] for r in people if r["p99_ms"] < 50]
    summary = {
        "nodes": nodes,
        "people": people,
        "largest_n_under_50ms_p99": max(held) if held else None,
        "bots": bots,
    }
    if as_json:
        print(json.dumps(summary))
    else:
        print(f"largest N with p99 under 50 ms: {summary['largest_n_under_50ms_p99']}")
    return 0
