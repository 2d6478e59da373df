"""Tables driven by test clients through a real server, to be killed and resumed.

A :class:`Table` seats one test client per human seat and plays for them with
seeded local bots, one move at a time, waiting after each move until every
client has its update. Between two moves nothing is in flight (no bot is
due), so a snapshot of every seat's view is exactly what the database holds:
a restart must give it back, seq for seq and field for field.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import httpx
from sqlalchemy import create_engine, text

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.store.db import normalize_url

from .server_helpers import Person, Seat, Server

Policy = Callable[["Table", int, dict[str, Any]], dict[str, Any] | None]


def sql(url: str, statement: str, **params: Any) -> list[Any]:
    """Run one statement on a test database directly (what an operator's psql would do)."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.begin() as conn:
            result = conn.execute(text(statement), params)
            return list(result) if result.returns_rows else []
    finally:
        engine.dispose()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (a server's bot workers)."""
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            out.append(int(name))
    return out


def kill_all(server: Server) -> None:
    """SIGKILL a server and its worker processes: no shutdown, no flush, nothing said."""
    assert server.proc is not None
    workers = children(server.proc.pid)
    server.kill()
    for pid in workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def metric(server: Server, name: str) -> float:
    body = httpx.get(f"{server.http}/metrics", timeout=5).text
    for line in body.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise KeyError(name)


def greedy(table: Table, seat: int, view: dict[str, Any]) -> dict[str, Any] | None:
    action = table.bots[seat].choose(view)
    return None if action is None else action.to_json()


class Table:
    """One table at a real server; ``humans`` seats are test clients, the rest bots."""

    def __init__(
        self,
        server: Server,
        game: str,
        seats: int,
        settings: dict[str, Any],
        bots: dict[int, str] | None = None,
        name: str = "",
    ) -> None:
        self.game = game
        self.cls = get_game(game)
        self.seats = seats
        self.bot_seats = dict(bots or {})
        self.humans = [s for s in range(seats) if s not in self.bot_seats]
        people = {s: Person(server, f"{name or game[:4]}{s}") for s in self.humans}
        host = people[self.humans[0]]
        self.id: str = host.create(
            game,
            seats=seats,
            settings=settings,
            bots={str(s): level for s, level in self.bot_seats.items()},
            turn_seconds=600,
            muggins_wait=30,
        )["id"]
        for s, person in people.items():
            person.sit(self.id, s)
        host.start(self.id)
        self.cookies = {s: p.cookie for s, p in people.items()}
        self.host = host
        self.clients: dict[int | None, Seat] = {}
        self.bots = {s: make_bot("greedy", self.cls, s, seed=100 + s) for s in self.humans}
        self.last_events: list[dict[str, Any]] = []
        self.moves_in_hand = 0

    # ------------------------------------------------------------ sockets

    async def connect(
        self,
        server: Server | dict[int | None, Server],
        last: dict[int | None, int] | None = None,
    ) -> dict:
        """A client per human seat and a spectator, each at ``server`` (or, several nodes,
        at the node given for its seat); the welcome each got."""
        welcomes = {}
        for seat in [*self.humans, None]:
            at = server[seat] if isinstance(server, dict) else server
            client = Seat(at, self.id, self.cookies.get(seat) if seat is not None else None)
            welcomes[seat] = await client.connect(None if last is None else last[seat])
            assert client.seat == seat
            self.clients[seat] = client
        return welcomes

    async def close(self) -> None:
        for c in self.clients.values():
            await c.close()
        self.clients = {}

    async def snapshot(self) -> dict[int | None, tuple[int, Any]]:
        """Each client's seq and view, once what was on its way has come."""
        await asyncio.gather(*(c.drain() for c in self.clients.values()))
        return {s: (c.seq, c.view) for s, c in self.clients.items()}

    @property
    def view(self) -> dict[str, Any]:
        v = self.clients[None].view
        assert v is not None
        return v

    @property
    def seq(self) -> int:
        return self.clients[None].seq

    # -------------------------------------------------------------- moves

    async def settle(self, seq: int, timeout: float = 30) -> None:
        """Wait until every client has update ``seq`` (or later)."""
        deadline = time.monotonic() + timeout
        for c in self.clients.values():
            while c.seq < seq:
                left = deadline - time.monotonic()
                assert left > 0, f"table {self.id}: no update {seq} (at {c.seq})"
                msg = await c.recv(left)
                if c is self.clients[None] and msg["type"] == "update":
                    self._saw(msg["events"])

    def _saw(self, events: list[dict[str, Any]]) -> None:
        self.last_events = events
        if any(e["type"] == "deal" for e in events):
            self.moves_in_hand = 0
        else:
            self.moves_in_hand += 1

    async def step(self, policy: Policy = greedy) -> bool:
        """One move by a human seat (optional rights first); False when none is due."""
        view = self.view
        if view.get("over"):
            return False
        acting = [s for s in view["to_act"] if s in self.clients]
        turn = view.get("turn")
        for seat in sorted(acting, key=lambda s: s == turn):
            seat_view = self.clients[seat].view
            assert seat_view is not None
            action = policy(self, seat, seat_view)
            if action is None:
                continue
            client = self.clients[seat]
            await client.send({"type": "act", "action": action, "id": client.seq})
            while True:
                msg = await client.recv()
                if msg["type"] == "error":
                    raise AssertionError(f"table {self.id}: {action} refused: {msg}")
                if msg["type"] == "update":
                    break
            await self.settle(client.seq)
            return True
        return False

    async def play_until(
        self, done: Callable[[Table], bool], policy: Policy = greedy, limit: int = 3000
    ) -> None:
        for _ in range(limit):
            if done(self):
                return
            if not await self.step(policy):
                if self.view.get("over"):
                    break
                await self.wait_for_bots()
        assert done(self), f"table {self.id} ({self.game}) never got there: {self.view}"

    async def moved(self, timeout: float) -> bool:
        """Whether an update came within ``timeout`` seconds (every client then has it)."""
        before = self.seq
        deadline = time.monotonic() + timeout
        with contextlib.suppress(TimeoutError):
            # other messages (the table, presence, clocks) may come first: read on
            while self.seq == before and (left := deadline - time.monotonic()) > 0:
                msg = await self.clients[None].recv(left)
                if msg["type"] == "update":
                    self._saw(msg["events"])
        if self.seq == before:
            return False
        await self.settle(self.seq)
        return True

    async def wait_for_bots(self, timeout: float = 60) -> None:
        """A bot is to act: wait for its update."""
        await self.settle(self.seq + 1, timeout)

    async def play_to_the_end(self, policy: Policy = greedy) -> None:
        await self.play_until(lambda t: bool(t.view.get("over")), policy)


def hand_no(view: dict[str, Any]) -> int:
    return int(view["round"] if "round" in view else view["hand_no"])


def replay_cli(record: dict[str, Any]) -> dict[str, Any]:
    """`taverna replay -` of a record: the command a person would run."""
    out = subprocess.run(
        [sys.executable, "-m", "taverna", "replay", "-"],
        input=json.dumps(record).encode(),
        capture_output=True,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def what_players_saw(view: dict[str, Any]) -> dict[str, Any]:
    """The result as a seat's last view shows it, in `taverna replay`'s fields."""
    seen = {"over": view["over"], "winner": view["winner"]}
    if "stones" in view:  # Mus: the stones of the game, games and cows per pair
        seen.update(scores=view["stones"], games=view["games"], cows=view["cows"])
    else:
        seen["scores"] = view["scores"]
    return seen


async def poll(check: Callable[[], bool], timeout: float = 20, every: float = 0.002) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(every)
