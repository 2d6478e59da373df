"""`taverna bench hints`: a flood of hints against a table's strong bot.

Starts ``taverna serve`` on a fresh SQLite database with the club's own limits, and
plays one table of muggins dominoes: a scripted person (seat 0, a greedy bot's moves)
against the strong bot (``expert``). It measures the bot's wait — from the update
that gives it the turn to the update that carries its move, as the person's page
sees it — in three periods of ``--seconds`` each:

- **quiet**: nothing else happens (the person thinks 0.2 to 0.4 s a move);
- **flood**: five guests from one address (another than the person's), twelve
  sockets each (the most a session may hold; sixty in all, the most an address
  may), each seated at a Muggins cards table of its own with hints on and its turn
  to play, ask hints as fast as the server allows: again at once after an answer,
  after the ``seconds`` a ``hint_too_fast`` names, a moment after ``hints_busy``;
  at the end they close every socket at once. The flood runs in a process and a
  session of its own, as an attacker's machine would;
- **after**: as quiet.

It prints, for each period, the bot's wait at p50, p90, p99 and max, its p99 over
the quiet p99, the person's moves; the hints asked, answered and refused, and those
the server computed and dropped; and how long after the flood the wait was back to
normal (the end of the first of three waits in a row within 1.5 times the quiet
p99). The load average of the machine at the start and the end is printed too: the
figures are those of a machine shared with the load generator (and whatever else
runs).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .server import free_port, percentile, wait_healthy

#: the flood of the issue: guests from one address, and sockets of each
GUESTS = 5
SOCKETS = 12
FLOOD_ADDRESS = "10.66.0.1"
PERSON_ADDRESS = "10.66.0.2"
#: seconds the person thinks before each move (a uniform draw)
THINK = (0.2, 0.4)
#: a wait over this many times the quiet p99 is not normal
NORMAL = 1.5
#: normal waits in a row after the flood that say the bot is back to normal
AGAIN = 3
PERIODS = ("quiet", "flood", "after")


@dataclass
class Waits:
    """The strong bot's waits (start, seconds) and the person's moves, as timed."""

    waits: list[tuple[float, float]] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    games: int = 0


@dataclass
class Flood:
    """What the flooding sockets asked and were told."""

    asked: int = 0
    answered: int = 0
    refused: Counter[str] = field(default_factory=Counter)


def _client(base: str, address: str) -> Any:
    import httpx

    return httpx.AsyncClient(base_url=base, timeout=30, headers={"X-Forwarded-For": address})


def _game() -> str:
    """The game of every table here: the first the club lists (two seats: a person and
    a bot), as `taverna bench server` plays; a game that ends is followed by another."""
    from ..games import GAMES

    return next(iter(GAMES))


async def _guest_table(
    base: str, name: str, address: str, game: str, bots: dict[str, str], **options: Any
) -> tuple[str, str]:
    """A guest's new table, the guest at seat 0, started: (table id, cookie)."""
    async with _client(base, address) as http:
        r = await http.post("/api/session", json={"name": name})
        r.raise_for_status()
        cookie = f"taverna_session={http.cookies['taverna_session']}"
        r = await http.post(
            "/api/tables",
            json={"game": game, "bots": bots, "turn_seconds": 600, "muggins_wait": 0, **options},
        )
        r.raise_for_status()
        tid = r.json()["table"]["id"]
        (await http.post(f"/api/tables/{tid}/seats/0")).raise_for_status()
        (await http.post(f"/api/tables/{tid}/start")).raise_for_status()
    return tid, cookie


async def _person(base: str, ws_base: str, stop: asyncio.Event, timed: Waits) -> None:
    """The person: plays at once whenever seat 0 may act, timing the bot's every turn;
    a new table when a game ends."""
    import websockets

    from ..bots import make_bot
    from ..games import get_game

    n = 0
    while not stop.is_set():
        n += 1
        tid, cookie = await _guest_table(
            base,
            f"Person{n}",
            PERSON_ADDRESS,
            _game(),
            {"1": "expert"},
        )
        headers = {"Cookie": cookie, "X-Forwarded-For": PERSON_ADDRESS}
        async with websockets.connect(
            f"{ws_base}/ws/tables/{tid}", additional_headers=headers, max_size=None
        ) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            bot = None
            since: float | None = None  # when the bot was given the turn
            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    continue
                msg = json.loads(raw)
                if msg["type"] not in ("welcome", "update") or "view" not in msg:
                    continue
                now = time.perf_counter()
                if since is not None and msg["type"] == "update":
                    timed.waits.append((since, now - since))
                    since = None
                view = msg["view"]
                if view.get("over"):
                    timed.games += 1
                    break
                to_act = view.get("to_act", [])
                if to_act == [1]:
                    since = now  # the bot alone may act: its decision is all that is awaited
                elif 0 in to_act and view.get("legal"):
                    if bot is None:
                        bot = make_bot("greedy", get_game(view["game"]), 0, seed=n)
                    action = bot.choose(view)
                    if action is not None:
                        # a person's pace, within a socket's message rate (SOCKET_RATE)
                        await asyncio.sleep(random.uniform(*THINK))
                        await ws.send(json.dumps({"type": "act", "action": action.to_json()}))
                        timed.moves.append(time.perf_counter())


async def _flooder(
    ws_base: str, tid: str, cookie: str, ready: asyncio.Event, stop: asyncio.Event, flood: Flood
) -> None:
    """One socket of a flooding guest: hints as fast as it is allowed, from ``ready``
    until ``stop``; then it closes."""
    import websockets

    headers = {"Cookie": cookie, "X-Forwarded-For": FLOOD_ADDRESS}
    async with websockets.connect(
        f"{ws_base}/ws/tables/{tid}", additional_headers=headers, max_size=None
    ) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        # the guest's turn: the greedy bot of its table may open
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("view") and 0 in msg["view"].get("to_act", []):
                break
        await ready.wait()
        mid = 0
        while not stop.is_set():
            mid += 1
            await ws.send(json.dumps({"type": "hint", "id": mid}))
            flood.asked += 1
            answer = None
            while answer is None and not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    if msg.get("id") == mid and msg["type"] in ("hint", "error"):
                        answer = msg
            if answer is None:
                break
            if answer["type"] == "hint":
                flood.answered += 1
                continue
            flood.refused[answer["code"]] += 1
            seconds = (answer.get("params") or {}).get("seconds")
            pause = float(seconds) if seconds else 0.2
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), pause)


def _figures(text: str) -> dict[str, float]:
    """The hint jobs of the server's /metrics: run, dropped, busy."""
    from prometheus_client.parser import text_string_to_metric_families

    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == "taverna_thinking_jobs_total" and s.labels.get("kind") == "hint":
                out[s.labels["outcome"]] = s.value
            elif s.name == "taverna_bot_think_seconds_count" and s.labels.get("level") == "hint":
                out["timed"] = s.value
    return out


async def _flood(base: str, ws_base: str, ready: Any, stop: Any, told: Any) -> None:
    """The flood's process: its tables and sockets, open and idle until ``ready``, hints
    until ``stop``, every socket closed; what it asked and was told, on ``told``."""
    flood = Flood()
    go, halt = asyncio.Event(), asyncio.Event()
    tables = [
        await _guest_table(base, f"Flood{g}", FLOOD_ADDRESS, _game(), {"1": "greedy"}, hints=True)
        for g in range(GUESTS)
    ]
    flooders = [
        asyncio.create_task(_flooder(ws_base, tid, cookie, go, halt, flood))
        for tid, cookie in tables
        for _ in range(SOCKETS)
    ]
    told.put("set")
    await asyncio.to_thread(ready.wait)
    go.set()
    await asyncio.to_thread(stop.wait)
    halt.set()
    await asyncio.gather(*flooders, return_exceptions=True)
    told.put((flood.asked, flood.answered, dict(flood.refused)))


def _flood_process(base: str, ws_base: str, ready: Any, stop: Any, told: Any) -> None:
    """A process of its own, in a session of its own (its own share of the processors,
    as an attacker on another machine has): :func:`_flood`."""
    os.setsid()
    asyncio.run(_flood(base, ws_base, ready, stop, told))


async def _run(base: str, ws_base: str, seconds: float) -> dict[str, Any]:
    import multiprocessing

    import httpx

    spawn = multiprocessing.get_context("spawn")
    ready, stop, told = spawn.Event(), spawn.Event(), spawn.Queue()
    flooding = spawn.Process(
        target=_flood_process, args=(base, ws_base, ready, stop, told), daemon=True
    )
    flooding.start()
    stop_person = asyncio.Event()
    timed = Waits()
    person = asyncio.create_task(_person(base, ws_base, stop_person, timed))
    try:
        # the flood's tables and sockets open (and idle) before anything is measured;
        # the first decisions start the bot's processes
        assert await asyncio.to_thread(told.get, True, 120) == "set"
        while len(timed.waits) < 5:
            if person.done():
                person.result()  # its failure, said
            await asyncio.sleep(0.1)
        marks = [time.perf_counter()]
        load = [os.getloadavg()[0]]
        await asyncio.sleep(seconds)
        marks.append(time.perf_counter())
        ready.set()
        await asyncio.sleep(seconds)
        stop.set()
        asked, answered, refused = await asyncio.to_thread(told.get, True, 120)
        marks.append(time.perf_counter())  # every flooding socket closed
        await asyncio.sleep(seconds)
        marks.append(time.perf_counter())
        load.append(os.getloadavg()[0])
    finally:
        stop.set()
        stop_person.set()
        await asyncio.gather(person, return_exceptions=True)
        flooding.join(10)
        if flooding.is_alive():
            flooding.kill()
    flood = Flood(asked, answered, Counter(refused))
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        server = _figures((await http.get("/metrics")).text)
    return _report(timed, flood, marks, load, server, seconds)


def _report(
    timed: Waits,
    flood: Flood,
    marks: list[float],
    load: list[float],
    server: dict[str, float],
    seconds: float,
) -> dict[str, Any]:
    periods: dict[str, Any] = {}
    for i, name in enumerate(PERIODS):
        begin, end = marks[i], marks[i + 1]
        waits = sorted(w for t, w in timed.waits if begin <= t < end) or [0.0]
        periods[name] = {
            "seconds": round(end - begin, 1),
            "bot_moves": sum(1 for t, _ in timed.waits if begin <= t < end),
            "p50": round(statistics.median(waits), 3),
            "p90": round(percentile(waits, 0.9), 3),
            "p99": round(percentile(waits, 0.99), 3),
            "max": round(waits[-1], 3),
            "person_moves": sum(1 for t in timed.moves if begin <= t < end),
        }
    quiet = periods["quiet"]["p99"] or 1e-9
    for p in periods.values():
        p["p99_ratio"] = round(p["p99"] / quiet, 2)
    bound = NORMAL * quiet
    flood_end = marks[2]
    after = [(t, w) for t, w in timed.waits if t >= flood_end]
    # back to normal: the end of the first of AGAIN waits in a row within the bound (a
    # backlog slows every wait until it is gone; one slow wait later is the machine's)
    back = None
    for i in range(len(after) - AGAIN + 1):
        if all(w <= bound for _, w in after[i : i + AGAIN]):
            back = after[i][0] + after[i][1] - flood_end
            break
    return {
        "game": _game(),
        "guests": GUESTS,
        "sockets": GUESTS * SOCKETS,
        "period_seconds": seconds,
        "load_average": [round(x, 2) for x in load],
        "periods": periods,
        "normal_bound": round(bound, 3),
        "back_to_normal_seconds": None if back is None else round(back, 2),
        "hints_asked": flood.asked,
        "hints_answered": flood.answered,
        "hints_refused": dict(flood.refused),
        "server_hints": {k: int(v) for k, v in sorted(server.items())},
        "games": timed.games,
    }


def run_hints_bench(seconds: float = 30.0, as_json: bool = False) -> int:
    tmp = tempfile.mkdtemp(prefix="taverna-bench-hints-")
    url = f"sqlite:///{tmp}/bench.db"
    port = free_port()
    env = {
        **os.environ,
        # the bot's wait is its decision alone
        "TAVERNA_BOT_DELAY": "0",
        # two addresses, the flood's and the person's, said by the "proxy" (this bench)
        "TAVERNA_TRUSTED_PROXY_HEADER": "X-Forwarded-For",
    }
    log_path = os.path.join(tmp, "serve.log")
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "taverna", "serve", "--port", str(port), "--database", url],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        try:
            wait_healthy(base, proc=proc)
        except RuntimeError as e:
            print(f"taverna bench: the server did not start: {e}", file=sys.stderr)
            return 1
        random.seed(1)
        report = asyncio.run(_run(base, ws_base, seconds))
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
    if as_json:
        print(json.dumps(report))
        return 0
    print(_text(report))
    return 0


def _text(r: dict[str, Any]) -> str:
    lines = [
        f"hint flood: {r['guests']} guests x {r['sockets'] // r['guests']} sockets from one "
        f"address; one table of a person and the strong bot ({r['game']}); "
        f"{r['period_seconds']:g} s a period; load average {r['load_average'][0]:.2f} at the "
        f"start, {r['load_average'][1]:.2f} at the end",
        "  the bot's wait (s)   moves    p50     p90     p99     max   p99/quiet   person's moves",
    ]
    for name, p in r["periods"].items():
        lines.append(
            f"  {name:<18} {p['bot_moves']:>7} {p['p50']:>7.2f} {p['p90']:>7.2f} "
            f"{p['p99']:>7.2f} {p['max']:>7.2f} {p['p99_ratio']:>10.2f}x {p['person_moves']:>14}"
        )
    back = (
        "never" if r["back_to_normal_seconds"] is None else f"{r['back_to_normal_seconds']:.1f} s"
    )
    refused = ", ".join(f"{k} {v}" for k, v in sorted(r["hints_refused"].items())) or "none"
    server = r["server_hints"]
    lines += [
        f"  the flood asked {r['hints_asked']} hints: {r['hints_answered']} answered, "
        f"refused: {refused}",
        f"  the server computed {server.get('run', server.get('timed', 0))} hints, dropped "
        f"{server.get('dropped', 0)} uncomputed (socket closed or table moved on), refused "
        f"{server.get('busy', 0)} for a full queue",
        f"  back to normal {back} after the flood ({AGAIN} waits in a row within "
        f"{NORMAL:g}x the quiet p99, {r['normal_bound']:.2f} s)",
    ]
    return "\n".join(lines)
