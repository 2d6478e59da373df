"""A person playing a table through a socket at one node of a cluster, perhaps not the
table's owner (its *edge*, docs/scaling.md), and the checks of what that person got.

:class:`Player` reads every message in the background and keeps each act it sent with
the answer it got (an ``ack``, an ``error``, or nothing: an act on its way when the
owner died). :func:`check_acts` holds those against the stored record: every acked act
stored once where it was made, no act stored that was refused, none stored twice.
:func:`check_seen` holds every message against the engine replaying the record: each
view, event and seña is what that seat may see, nothing more. :func:`nodes` and
:func:`start` make the cluster, its nodes started when the test wants them (the first
alone, say, so that every table is its own).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx

from taverna.bots.base import Bot
from taverna.games.base import event_for
from taverna.games.mus.senas import visible
from taverna.games.record import load_record

from .cluster_helpers import node
from .redis_helpers import OwnRedis
from .server_helpers import Seat, Server


@contextlib.contextmanager
def nodes(url: str, *envs: dict[str, str]) -> Iterator[tuple[OwnRedis, list[Server]]]:
    """A Redis and one node per environment in ``envs`` (``n0``, ``n1``, ...) on the
    database ``url``, none started yet (:func:`start`); all stopped afterwards, and what
    each said printed when the test fails."""
    red = OwnRedis().start()
    made = [node(url, red.url, f"n{i}", **env) for i, env in enumerate(envs)]
    try:
        yield red, made
    except BaseException:
        for n in made:
            print(f"----- {n.env['TAVERNA_NODE']}\n{n.log_text()[-8000:]}")
        raise
    finally:
        for n in made:
            n.stop()
        red.stop()


def start(*servers: Server) -> None:
    """Start nodes side by side (each takes a second or two to come up)."""
    with ThreadPoolExecutor(len(servers)) as pool:
        list(pool.map(Server.start, servers))


def name(server: Server) -> str:
    return server.env["TAVERNA_NODE"]


def cluster_health(server: Server) -> dict[str, Any]:
    """The ``cluster`` part of a node's /api/health (its links, proxies, tables...)."""
    health: dict[str, Any] = httpx.get(f"{server.http}/api/health", timeout=10).json()
    return health["cluster"]  # type: ignore[no-any-return]


def settled(*servers: Server) -> bool:
    """Whether the nodes hold nothing more of the games that ended and the sockets that
    closed: no table owned, no link, no proxy."""
    keys = ("tables_owned", "links", "proxies")
    return all(cluster_health(s)[k] == 0 for s in servers for k in keys)


@dataclass
class Sent:
    """An act or a seña the person sent, and the answer it got (None: none yet)."""

    kind: str  # "act" or "signal"
    body: Any  # the action, or the seña's sign
    seq: int  # the last update the person had seen when sending it
    answer: dict[str, Any] | None = None


class Player:
    """One person at one table, on a socket at ``node`` (no cookie: a spectator)."""

    _ids = itertools.count(1000)  # ids apart from any seq, so an answer names its act

    def __init__(
        self, node: Server, table: str, cookie: str | None, bot: Bot | None = None
    ) -> None:
        self.socket = Seat(node, table, cookie)
        self.table = table
        self.bot = bot
        self.sent: dict[int, Sent] = {}
        self.welcomes: list[dict[str, Any]] = []
        self.gone: BaseException | None = None  # why the socket stopped, once it has
        self._news = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None

    @property
    def seq(self) -> int:
        return self.socket.seq

    @property
    def view(self) -> dict[str, Any]:
        assert self.socket.view is not None
        return self.socket.view

    @property
    def deadline(self) -> float | None:
        """When the turn's time runs out, as the server last said (None: no timer)."""
        for msg in reversed(self.socket.messages):
            if msg["type"] in ("update", "welcome", "clock"):
                return msg.get("deadline")
        return None

    @property
    def over(self) -> bool:
        return bool(self.view["over"])

    @property
    def my_turn(self) -> bool:
        """Whether this seat may act now, as its view says."""
        v = self.view
        return not v["over"] and self.socket.seat in v["to_act"] and bool(v.get("legal"))

    async def connect(self, last_seq: int | None = 0) -> None:
        self.welcomes.append(await self.socket.connect(last_seq))
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while True:
                msg = await self.socket.recv(3600)
                if msg["type"] == "welcome":
                    self.welcomes.append(msg)
                elif msg["type"] in ("ack", "error") and msg.get("id") in self.sent:
                    self.sent[msg["id"]].answer = msg
                self._news.set()
        except BaseException as e:  # closed, or a gap in the seq (Seat.recv asserts none)
            self.gone = e
            self._news.set()

    async def until(self, ok: Callable[[], bool], why: str, timeout: float = 30) -> None:
        """Wait until ``ok()`` holds, reading on; fail with ``why`` after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not ok():
            if self.gone is not None:
                stopped = f"the socket stopped: {self.gone!r}"
                raise AssertionError(f"table {self.table}: {why}: {stopped}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"table {self.table}: {why} (at seq {self.seq})")
            self._news.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._news.wait(), left)

    async def act(self, action: dict[str, Any], wait: bool = True) -> Sent:
        """Send an act; with ``wait``, until its answer comes."""
        return await self._send("act", action, {"action": action}, wait)

    async def signal(self, sign: str, wait: bool = True) -> Sent:
        """Make a Mus seña; with ``wait``, until its answer comes."""
        return await self._send("signal", sign, {"sign": sign}, wait)

    async def _send(self, kind: str, body: Any, fields: dict[str, Any], wait: bool) -> Sent:
        mid = next(self._ids)
        sent = self.sent[mid] = Sent(kind, body, self.seq)
        await self.socket.send({"type": kind, "id": mid, **fields})
        if wait:
            await self.until(lambda: sent.answer is not None, f"no answer to {kind} {body}")
        return sent

    async def move(self) -> Sent:
        """This seat's move as its local bot chooses it from the view, answered."""
        assert self.bot is not None, "a spectator makes no move"
        action = self.bot.choose(self.view)
        assert action is not None, self.view
        sent = await self.act(action.to_json())
        assert sent.answer is not None and sent.answer["type"] == "ack", sent
        return sent

    async def play_until(self, done: Callable[[Player], bool], why: str) -> None:
        """Move whenever this seat may, until ``done`` (or the game's end)."""
        while not done(self) and not self.over:
            await self.until(lambda: self.my_turn or self.over or done(self), why, timeout=60)
            if self.my_turn and not done(self):
                await self.move()
        assert done(self), f"table {self.table}: the game ended before {why}"

    async def close(self) -> None:
        await self.socket.close()
        if self._reader is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(self._reader, 5)


def check_acts(player: Player, record: dict[str, Any], seat: int) -> dict[int, str]:
    """The person's acts and señas against the stored record: each action of the seat
    stored at the index of the update it was made from, by an act that was acked or got
    no answer (never one refused); each acked act stored there; none stored twice (a
    second copy would stand at another index, where no act of the seat made it). Señas
    likewise, each after the actions the person had seen. The fate of each act or seña
    that got no answer, by id: "kept" or "not made"."""
    # (kind, where it stands, what it is) of each thing of the seat's in the record
    stored = [
        ("act", index, {k: v for k, v in action.items() if k != "seat"})
        for index, action in enumerate(record["actions"])
        if action.get("seat") == seat
    ] + [
        ("signal", entry["after"], entry["sign"])
        for entry in record.get("signals", [])
        if entry["seat"] == seat
    ]
    makers: dict[tuple[str, int], int] = {}
    for kind, at, body in stored:
        could = [
            mid
            for mid, s in player.sent.items()
            if (s.kind, s.seq - 1) == (kind, at)
            and _body(s) == body
            and (s.answer is None or s.answer["type"] == "ack")
        ]
        acked = [mid for mid in could if player.sent[mid].answer is not None]
        assert could and len(acked) <= 1, f"{kind} {body} at {at}: made by {could}"
        makers[kind, at] = (acked or could)[0]
    fates = {}
    for mid, sent in player.sent.items():
        made = makers.get((sent.kind, sent.seq - 1)) == mid
        if sent.answer is None:
            fates[mid] = "kept" if made else "not made"
        elif sent.answer["type"] == "ack":
            assert made, f"{sent.kind} {mid} was acked but not stored: {sent}"
        else:
            assert not made, f"{sent.kind} {mid} was refused but stored: {sent}"
    return fates


def _body(sent: Sent) -> Any:
    if sent.kind == "act":
        return {k: v for k, v in sent.body.items() if k != "seat"}
    return sent.body


def check_seen(player: Player, record: dict[str, Any], seat: int) -> None:
    """Every update, catch-up, welcome and seña the person got is what the engine gives
    its seat at that point of the record: nothing of another seat's hidden hand."""
    rec = load_record(json.dumps(record))
    state = rec.game.start(rec.seats, rec.settings, rec.deals)
    events: dict[int, list[Any]] = {1: state.initial_events}
    # the views a seat may be shown at seq k: after update k, then after each seña made
    # before the next action
    views: dict[int, list[Any]] = {}
    signals = list(rec.signals)
    made = 0

    def look(k: int) -> None:
        nonlocal made
        views[k] = [_json(state.view(seat))]
        while made < len(signals) and signals[made]["after"] == k - 1:
            state.replay_signal(signals[made])
            made += 1
            views[k].append(_json(state.view(seat)))

    look(1)
    for k, action in enumerate(rec.actions, start=2):
        events[k] = state.apply(action)
        look(k)
    shown = [s for s in (visible(e, seat, False) for e in signals) if s is not None]
    checked = 0
    for msg in player.socket.messages:
        if msg["type"] == "update":
            k = msg["seq"]
            assert msg["view"] == views[k][0], f"update {k}"
            assert msg["events"] == _json([event_for(e, seat) for e in events[k]]), f"update {k}"
            checked += 1
        elif msg["type"] == "welcome" and "view" in msg:
            assert msg["view"] in views[msg["seq"]], f"welcome at {msg['seq']}"
            checked += 1
        elif msg["type"] == "signal":
            assert msg["signal"] in shown, msg
        for m in msg.get("missed", []):
            want = _json([event_for(e, seat) for e in events[m["seq"]]])
            assert m["events"] == want, f"missed update {m['seq']}"
    assert checked > 0


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))
