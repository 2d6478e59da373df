"""kill -9 of a table's owner while people play it through another node
(docs/scaling.md, "Who owns a table" and "Any node, any table").

Ten tables are owned by node n0, each with one person whose socket is at node n1 (the
*edge*); each table is brought to a moment that matters, and then n0 is killed with
SIGKILL, its bot processes with it — one kill for all the moments, since each kill
costs a lease (5 s) before another node may take the tables over:

- ``idle``: the person's turn, nothing under way;
- ``second hand``: a Mus table in its second hand (dealt from the stored second deal);
- ``window``: a Muggins-cards score of the bot's is unclaimed: the person may call
  Muggins! (the Muggins window is open);
- ``thinking``: the strong bot is thinking, in one of n0's processes;
- ``acked``: the person's move was answered (``ack``) just before;
- ``untold``: the person's move is stored, but n0 dies before its update and ack leave;
- ``storing``: the person's move is being stored (its write waits on the table's row,
  which the test holds) when n0 dies;
- ``sent``: the person's move is on its way to n0, which dies before hearing it;
- ``seña untold``, ``seña sent``: a Mus seña stored but not told; one on its way.

The moments are held by the test: rows of the database locked while a write waits on
them, and Redis's writes paused (``CLIENT PAUSE WRITE``) for the instant of the kill,
so that what n0 said last dies with its connection and what the edge sends then
reaches n0 too late.

Then a node takes every table over from its stored record within the lease — the edge
itself, or another node (n2; the one that must not is paused meanwhile, SIGSTOP) — and
for each person: the socket at the edge goes on (the edge says hello to the new owner
for it, or takes the table over itself); the welcome shows the view the person had, or
catches it up exactly; a move or seña on its way was kept exactly once (stored: the
welcome tells it) or not made at all (the person makes it again), never lost after an
ack; the game goes on to its end; every message the person got is what the engine gives
its seat; and the stored record replays to what the person saw.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.games.record import replay_text
from taverna.server.leases import node_channel

from .cluster_helpers import owner
from .edge_helpers import Player, check_acts, check_seen, name, nodes, settled, start
from .redis_helpers import OwnRedis, metrics, wait_for
from .restart_helpers import kill_all, what_players_saw
from .server_helpers import Person, Server, database_url, drop_database
from .test_cluster import record_of

pytestmark = pytest.mark.slow

#: the owner's strong bot thinks for long (it is killed while it does); the others' fast
SLOW_EXPERT = {"expert": {"seconds": 60, "settle": 0, "iterations": 10_000_000}}
FAST_EXPERT = {"expert": {"iterations": 100}}
DOMINOES = {"game": "dominoes", "seats": 2, "settings": {"target": 60}}
MUS = {"game": "mus", "seats": 4, "settings": {"cows": 1, "games_per_cow": 1, "catch": 0.5}}
CARDS = {"game": "muggins-cards", "seats": 2, "settings": {"target": 61}}


@pytest.fixture
def pg(tmp_path: Any) -> Any:
    url = database_url("postgres", tmp_path)
    yield url
    drop_database(url)


class Moment:
    """One table brought to one moment: made at the owner, played through the edge."""

    def __init__(
        self, label: str, park: Callable[[Player], bool], bot: str = "greedy", **table: Any
    ):
        self.label = label
        self.park = park
        self.table = table
        self.bot = bot
        self.player: Player | None = None
        self.tid = ""
        self.before: tuple[int, dict[str, Any]] | None = None  # (seq, view) at the kill
        self.deadline: float | None = None  # the turn's end, as the person had it then
        self.welcomes = 0  # welcomes got before the kill

    def make(self, home: Server, edge: Server, seed: int) -> None:
        """The table, started at ``home`` (its owner), and its person's socket at ``edge``."""
        person = Person(home, f"p{seed}")
        seats = self.table["seats"]
        self.tid = person.play_at(
            bots={str(s): self.bot if s == 1 else "greedy" for s in range(1, seats)},
            turn_seconds=600,
            **self.table,
        )
        cls = get_game(self.table["game"])
        forget = {"forget": 0.0} if cls.game == "muggins-cards" else {}  # claims, calls
        bot = make_bot("greedy", cls, 0, seed, **forget)
        self.player = Player(edge, self.tid, person.cookie, bot)

    @property
    def me(self) -> Player:
        assert self.player is not None
        return self.player


def my_turn(p: Player) -> bool:
    return p.my_turn


def bot_or_me(p: Player) -> bool:
    """The person's turn, or the bot's (then it is thinking already)."""
    return p.my_turn or 1 in p.view["to_act"]


def second_hand(p: Player) -> bool:
    return p.my_turn and p.view["hand_no"] >= 1


def may_sign(p: Player) -> bool:
    return p.my_turn and bool(p.view.get("may_signal"))


def window(p: Player) -> bool:
    pending = p.view.get("pending")
    legal = p.view.get("legal") or []
    return (
        p.my_turn
        and pending is not None
        and pending["seat"] == 1
        and any(a["type"] == "muggins" for a in legal)
    )


def moments() -> list[Moment]:
    return [
        Moment("idle", my_turn, **DOMINOES),
        Moment("second hand", second_hand, **MUS),
        Moment("window", window, muggins_wait=30, bot_forget=1.0, **CARDS),
        Moment("thinking", bot_or_me, bot="expert", **DOMINOES),
        Moment("acked", my_turn, **DOMINOES),
        Moment("untold", my_turn, **DOMINOES),
        Moment("storing", my_turn, **DOMINOES),
        Moment("sent", my_turn, **DOMINOES),
        Moment("seña untold", may_sign, **MUS),
        Moment("seña sent", may_sign, **MUS),
    ]


#: what became of each act or seña on its way when the owner died
FATES = {
    "untold": "kept",
    "storing": "not made",
    "sent": "not made",
    "seña untold": "kept",
    "seña sent": "not made",
}


def thinking(server: Server) -> float:
    return metrics(server).get("taverna_bots_thinking", 0.0)


def forwarded(server: Server) -> float:
    """Socket messages an edge has sent on to their tables' owners."""
    return metrics(server)["taverna_intents_forwarded_total"]


class Locks:
    """Rows of the ``tables`` table held locked by the test, each in a transaction of its
    own: a write of that table's game waits on it (its fence check) until released."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.held: dict[str, psycopg.Connection[Any]] = {}
        self.look = psycopg.connect(url, autocommit=True)

    def hold(self, table_id: str) -> None:
        conn = psycopg.connect(self.url)
        conn.execute("SELECT id FROM tables WHERE id = %s FOR UPDATE", (table_id,))
        self.held[table_id] = conn

    def waited_on(self, table_id: str) -> bool:
        """Whether a write waits on the row now."""
        row = self.look.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE %s = ANY(pg_blocking_pids(pid))",
            (self.held[table_id].info.backend_pid,),
        ).fetchone()
        return row is not None and row[0] > 0

    def count(self, what: str, table_id: str) -> int:
        row = self.look.execute(f"SELECT count(*) FROM {what} WHERE table_id = %s", (table_id,))
        found = row.fetchone()
        return 0 if found is None else int(found[0])

    def release(self, table_id: str) -> None:
        conn = self.held.pop(table_id)
        conn.rollback()
        conn.close()

    def close(self) -> None:
        for table_id in list(self.held):
            self.release(table_id)
        self.look.close()


@contextlib.contextmanager
def stopped(server: Server) -> Iterator[None]:
    """A node paused (SIGSTOP) meanwhile: it takes nothing over."""
    assert server.proc is not None
    os.kill(server.proc.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(server.proc.pid, signal.SIGCONT)


@pytest.mark.parametrize("taker", ["the edge", "another node"])
def test_the_owner_killed_at_every_moment_that_matters(pg: str, taker: str) -> None:
    """``taker``: who takes the tables over — the edge (its sockets then play the tables
    on there), or another node (the edge says hello to it for them)."""
    with nodes(
        pg,
        {"TAVERNA_BOT_OPTIONS": json.dumps(SLOW_EXPERT)},
        {"TAVERNA_BOT_OPTIONS": json.dumps(FAST_EXPERT)},
        {"TAVERNA_BOT_OPTIONS": json.dumps(FAST_EXPERT)},
    ) as (red, (home, edge, other)):
        start(home)  # alone at first: every table is its own
        cases = moments()
        for i, m in enumerate(cases):
            m.make(home, edge, seed=i)
            assert owner(red, m.tid) == name(home), m.label
        start(edge, other)
        taking, paused = (edge, other) if taker == "the edge" else (other, edge)
        locks = Locks(pg)

        async def go() -> tuple[float, float]:
            for m in cases:
                await m.me.connect()
            await asyncio.gather(
                *(m.me.play_until(m.park, f"{m.label}: its moment") for m in cases)
            )
            paused_at = await strike({m.label: m.me for m in cases}, home, edge, red, locks)
            for m in cases:
                m.before = (m.me.seq, m.me.view)
                m.deadline = m.me.deadline
                m.welcomes = len(m.me.welcomes)
            killed = time.monotonic()
            kill_all(home)
            red.client().execute_command("CLIENT", "UNPAUSE")
            paused_for = time.monotonic() - paused_at
            locks.release(by(cases, "storing").tid)  # the dead owner's write goes on, and fails
            # another node owns every table, taken over from its stored record
            with stopped(paused):
                await asyncio.to_thread(
                    wait_for,
                    lambda: all(owner(red, m.tid) == name(taking) for m in cases),
                    20,
                    f"{name(taking)} did not take every table over",
                )
            took = time.monotonic() - killed
            for m in cases:  # the socket at the edge goes on: a welcome from the new owner
                await m.me.until(lambda m=m: len(m.me.welcomes) > m.welcomes, f"{m.label}: welcome")
            await asyncio.gather(*(play_on(m) for m in cases))
            for m in cases:
                await m.me.close()
            # nothing left behind: the games ended, the sockets closed
            await asyncio.to_thread(wait_for, lambda: settled(edge, other), 20, "a leak")
            return took, paused_for

        try:
            took, paused_for = asyncio.run(go())
        finally:
            locks.close()
        print(
            f"Redis's writes paused {paused_for:.2f} s for the kill; taken over by "
            f"{name(taking)} {took:.1f} s after it"
        )
        for m in cases:
            check_table(m, record_of(taking, m.tid), pg, name(taking))


def by(cases: list[Moment], label: str) -> Moment:
    return next(m for m in cases if m.label == label)


def check_table(m: Moment, record: dict[str, Any], url: str, taker: str) -> None:
    """What the person did and got against the stored record, and the record itself."""
    fates = check_acts(m.me, record, 0)
    assert list(fates.values()) == ([FATES[m.label]] if m.label in FATES else []), (m.label, fates)
    check_seen(m.me, record, 0)
    result, status = replay_text(json.dumps(record))
    seen = what_players_saw(m.me.view)
    assert status == 0 and {k: result[k] for k in seen} == seen, (m.label, result, seen)
    with psycopg.connect(url) as conn:
        rows = conn.execute('SELECT "index" FROM actions WHERE table_id = %s', (m.tid,))
        indexes = sorted(r[0] for r in rows)
        node, fence = conn.execute(
            "SELECT node, fence FROM tables WHERE id = %s", (m.tid,)
        ).fetchone() or (None, 0)
    # every action index once, none missing; the new owner's token stored
    assert indexes == list(range(len(record["actions"]))), (m.label, indexes)
    assert node == taker and fence >= 2, (m.label, node, fence)


async def strike(
    people: dict[str, Player], home: Server, edge: Server, red: OwnRedis, locks: Locks
) -> float:
    """Every moment under way at ``home``, held there; the kill comes next. When Redis's
    writes were paused (monotonic)."""
    # the strong bot thinking at the owner (after the person's move, if it is theirs)
    slow, deadline = people["thinking"], time.monotonic() + 60
    while await asyncio.to_thread(thinking, home) < 1:
        assert time.monotonic() < deadline and not slow.over, "the strong bot never thought"
        if slow.my_turn:
            await slow.move()
    await people["acked"].move()
    # what the edge sends the owner, heard as the owner hears it
    listener = red.client().pubsub()
    listener.subscribe(node_channel(name(home)))
    untold, storing, sena = people["untold"], people["storing"], people["seña untold"]
    for p in (untold, storing, sena):
        locks.hold(p.table)
    # a move whose write waits on its row; another behind it in the owner's writer
    await untold.act(choose(untold), wait=False)
    await asyncio.to_thread(wait_for, lambda: locks.waited_on(untold.table), 20, "no write")
    await storing.act(choose(storing), wait=False)
    await asyncio.to_thread(wait_for, lambda: heard(listener, storing.table), 20, "not heard")
    listener.close()
    # a seña whose write waits on its row
    await sena.signal(sena.view["may_signal"][0], wait=False)
    await asyncio.to_thread(wait_for, lambda: locks.waited_on(sena.table), 20, "no seña write")
    # from here, what any node writes to Redis waits (its connection's commands are
    # dropped if it closes first): the owner stores the first move and the seña, and
    # what it says of them dies with it
    red.client().execute_command("CLIENT", "PAUSE", 10_000, "WRITE")
    paused = time.monotonic()
    done = locks.count("actions", untold.table) + 1, locks.count("signals", sena.table) + 1
    locks.release(untold.table)
    locks.release(sena.table)

    def stored() -> bool:
        now = locks.count("actions", untold.table), locks.count("signals", sena.table)
        return now == done and locks.waited_on(storing.table)

    await asyncio.to_thread(wait_for, stored, 2, "the owner did not store them")
    # a move and a seña on their way: sent on by the edge to the owner, which dies
    # before it hears them
    before = await asyncio.to_thread(forwarded, edge)
    await people["sent"].act(choose(people["sent"]), wait=False)
    sign = people["seña sent"].view["may_signal"][0]
    await people["seña sent"].signal(sign, wait=False)
    await asyncio.to_thread(
        wait_for, lambda: forwarded(edge) == before + 2, 5, "the edge did not send them on"
    )
    return paused


def choose(p: Player) -> dict[str, Any]:
    assert p.bot is not None
    action = p.bot.choose(p.view)
    assert action is not None
    return action.to_json()


def heard(listener: Any, table_id: str) -> bool:
    """Whether the owner's channel carried an act for the table (read what came so far)."""
    while (message := listener.get_message(timeout=0.05)) is not None:
        if message["type"] != "message":
            continue
        body = json.loads(message["data"])
        if body.get("table") == table_id and body.get("msg", {}).get("type") == "act":
            return True
    return False


async def play_on(m: Moment) -> None:
    """After the takeover: the view the person had, or an exact catch-up, then the game
    to its end."""
    me = m.me
    assert m.before is not None
    seq, view = m.before
    welcome = me.welcomes[m.welcomes]
    if m.label in ("idle", "second hand", "window", "storing", "sent", "seña sent"):
        # nothing happened since (a seña takes no seq: not made, the view is the same)
        assert (welcome["seq"], welcome["view"]) == (seq, view), m.label
        # and the person's time goes on from where it was: the time the owner was dead
        # counts against nobody (its last heartbeat may give back a second)
        assert m.deadline is not None and welcome["deadline"] >= m.deadline - 1, (
            m.label,
            welcome["deadline"],
            m.deadline,
        )
    elif m.label == "untold":  # the move was stored: the welcome tells it
        assert welcome["seq"] >= seq + 1, (m.label, welcome["seq"], seq)
        assert [u["seq"] for u in welcome["missed"]][:1] == [seq + 1], welcome["missed"]
    else:
        assert welcome["seq"] >= seq, (m.label, welcome["seq"], seq)
    if m.label == "window":  # the right to call survived the takeover: the person calls
        call = next(a for a in me.view["legal"] if a["type"] == "muggins")
        score = me.view["scores"][0]
        answer = await me.act(call)
        assert answer.answer is not None and answer.answer["type"] == "ack", answer
        assert me.view["scores"][0] > score
    if m.label.startswith("seña"):
        sign = next(s.body for s in me.sent.values() if s.kind == "signal")
        mine = [s["sign"] for s in me.view["signals"] if s["seat"] == 0]
        if m.label == "seña sent":  # not made: made again
            assert sign not in mine and sign in me.view["may_signal"], me.view
            again = await me.signal(sign)
            assert again.answer is not None and again.answer["type"] == "ack", again
        else:  # stored: the welcome's view has it, and it may not be made twice
            assert sign in mine and sign not in me.view["may_signal"], me.view
    await me.play_until(lambda p: p.over, f"{m.label}: the end")
