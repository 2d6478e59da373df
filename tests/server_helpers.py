"""A real Taverna server in a subprocess, and real HTTP and WebSocket clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import websockets

from taverna.bots import make_bot
from taverna.games import get_game

from . import forkserver

PG_BASE = "postgresql://postgres@127.0.0.1:5432/test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def database_url(kind: str, tmp_path: Any) -> str:
    """A fresh database: a SQLite file, or a new schema in PostgreSQL's ``test``."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path}/taverna-{uuid.uuid4().hex[:6]}.db"
    schema = f"t_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(PG_BASE, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    return f"{PG_BASE}?options=-csearch_path%3D{schema}"


def drop_database(url: str) -> None:
    """Drop a PostgreSQL test schema made by :func:`database_url` (SQLite files go with tmp)."""
    if "search_path" not in url:
        return
    schema = url.rsplit("%3D", 1)[1]
    with psycopg.connect(PG_BASE, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


@contextlib.contextmanager
def own_server(kind: str, tmp_path: Any, **env: str) -> Iterator[Server]:
    """A server of one's own on a fresh database (``kind`` sqlite or postgres),
    stopped and its database dropped afterwards."""
    url = database_url(kind, tmp_path)
    srv = Server(url, **env).start()
    try:
        yield srv
    finally:
        srv.stop()
        drop_database(url)


class Server:
    """``taverna serve`` on a free port; ``kill()`` is a real SIGKILL."""

    def __init__(self, url: str, **env: str) -> None:
        self.url = url
        self.port = free_port()
        self.env = {
            **os.environ,
            "TAVERNA_BOT_DELAY": "0",
            # test clients play as fast as the server answers, all from 127.0.0.1: the
            # limits a club sets for people are tested on their own (test_socket_abuse)
            "TAVERNA_SOCKET_RATE": "100000/1",
            "TAVERNA_SOCKETS_PER_ADDRESS": "100000",
            "TAVERNA_SOCKETS_PER_SESSION": "100000",
            # and many tests' guests share a name ("Ana"): a guest's name is held for
            # them only where that is tested (test_names, test_text)
            "TAVERNA_GUEST_NAME_MINUTES": "0",
            **env,
        }
        #: the server's process (:mod:`tests.forkserver`: forked, or started)
        self.proc: Any = None
        # its log in a file: a pipe nobody reads would stop a talkative server
        self.log = tempfile.NamedTemporaryFile(prefix="taverna-serve-", suffix=".log")  # noqa: SIM115

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.proc = forkserver.started(
            ["serve", "--port", str(self.port), "--database", self.url], self.env, self.log
        )
        # a hang, not a speed test: a loaded machine (the suite on every core) takes its time
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(self.log_text())
            try:
                if httpx.get(f"{self.http}/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def log_text(self) -> str:
        """Everything the server has logged so far."""
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def rss_mb(server: Server) -> float:
    """The server process's resident memory, in MiB."""
    assert server.proc is not None
    with open(f"/proc/{server.proc.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


class Person:
    """A person with a browser session: HTTP calls with their cookie."""

    def __init__(self, server: Server, name: str, address: str | None = None) -> None:
        self.server = server
        # ``address``: the client's own, said as a trusted proxy would (X-Forwarded-For,
        # for a server that trusts it); None: the socket's, 127.0.0.1
        headers = {"X-Forwarded-For": address} if address else {}
        self.http = httpx.Client(base_url=server.http, timeout=10, headers=headers)
        r = self.http.post("/api/session", json={"name": name})
        r.raise_for_status()
        self.player = r.json()["player"]
        self.cookie = f"taverna_session={self.http.cookies['taverna_session']}"

    def create(self, game: str, **body: Any) -> dict[str, Any]:
        r = self.http.post("/api/tables", json={"game": game, **body})
        assert r.status_code == 201, r.text
        return r.json()["table"]

    def play_at(self, game: str, **body: Any) -> str:
        """Create a table, sit at seat 0 and start it (the other seats given to bots
        in ``body``); its id."""
        tid: str = self.create(game, **body)["id"]
        self.sit(tid, 0)
        self.start(tid)
        return tid

    def sit(self, table: str, seat: int) -> dict[str, Any]:
        r = self.http.post(f"/api/tables/{table}/seats/{seat}")
        assert r.status_code == 200, r.text
        return r.json()["table"]

    def start(self, table: str) -> dict[str, Any]:
        r = self.http.post(f"/api/tables/{table}/start")
        assert r.status_code == 200, r.text
        return r.json()["table"]


class Seat:
    """One WebSocket connection that remembers every message it got."""

    def __init__(
        self,
        server: Server,
        table: str,
        cookie: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.server = server
        self.table = table
        self.cookie = cookie
        #: more headers of the handshake (X-Forwarded-For: a client's own address)
        self.headers = headers or {}
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []
        self.seq = 0
        self.view: dict[str, Any] | None = None
        self.seat: int | None = None

    async def connect(self, last_seq: int | None = None) -> dict[str, Any]:
        headers = {"Cookie": self.cookie} if self.cookie else {}
        headers.update(self.headers)
        self.ws = await websockets.connect(
            f"{self.server.ws}/ws/tables/{self.table}", additional_headers=headers, max_size=None
        )
        await self.send({"type": "hello", "last_seq": last_seq})
        welcome = await self.expect("welcome")
        self.seat = welcome["seat"]
        return welcome

    async def send(self, msg: Any) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self, timeout: float = 20) -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(msg)
        if msg["type"] == "welcome":
            if "view" in msg:
                self.view = msg["view"]
            for m in msg.get("missed", []):
                self.seq = max(self.seq, m["seq"])
            self.seq = max(self.seq, msg["seq"])
        elif msg["type"] == "update":
            assert msg["seq"] == self.seq + 1, (msg["seq"], self.seq)
            self.seq = msg["seq"]
            self.view = msg["view"]
        elif msg["type"] == "signal" and self.view is not None:
            # a Mus seña is no update: it joins the view it belongs to, as the page's client
            # does (web/static/js/table.js); a bot's comes a moment after the update. A new
            # view: the one the update brought stays as it came
            self.view = {**self.view, "signals": [*self.view.get("signals", []), msg["signal"]]}
            if "may_signal" in msg:
                self.view["may_signal"] = msg["may_signal"]
        return msg

    async def expect(self, kind: str, timeout: float = 20) -> dict[str, Any]:
        while True:
            msg = await self.recv(timeout)
            if msg["type"] == kind:
                return msg

    async def drain(self, quiet: float = 0.2) -> None:
        """Read until nothing has come for ``quiet`` seconds (what a bot does after an
        update, a seña, comes a moment later)."""
        with contextlib.suppress(TimeoutError):
            while True:
                await self.recv(quiet)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def play(
        self, level: str = "greedy", until: Any = None, seed: int = 1, bot: Any = None
    ) -> None:
        """Answer with a local bot (of ``level``, or the ``bot`` given: anything with
        ``choose(view)``) whenever this seat may act, until the game is over."""
        assert self.seat is not None
        cls = get_game(self.view["game"]) if self.view else None
        while True:
            view = self.view
            if view is not None and (view.get("over") or (until is not None and until(view))):
                return
            if view is not None and view.get("legal") and self.seat in view.get("to_act", []):
                if bot is None:
                    cls = get_game(view["game"])
                    bot = make_bot(level, cls, self.seat, seed=seed)
                action = bot.choose(view)
                if action is not None:
                    sent_seq = self.seq
                    await self.send({"type": "act", "action": action.to_json(), "id": sent_seq})
                    # wait for the update that answers it (or an error: the view moved on)
                    while True:
                        msg = await self.recv()
                        if msg["type"] in ("update", "error"):
                            break
                    continue
            await self.recv()
