"""Several nodes on PostgreSQL and Redis (issue 16, docs/scaling.md), each a real
``taverna serve --redis`` on a Redis of the test's own (the machine's is never stopped).

- Three people at one Mus table, each connected to another node, and a strong bot
  play a whole game; every message each got is what the engine gives its seat.
- The node that owns a table is killed with SIGKILL in the middle of a hand: another
  node takes the table over from its stored record, every seat's view is what it was,
  the players on the other nodes keep their sockets, the game ends, and the record
  replays to the result the players saw.
- A node cut off from Redis for longer than its lease stores nothing more; the new
  owner goes on; no action index is stored twice.
"""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any

import httpx
import pytest

from .cluster_helpers import cluster, node, owner
from .redis_helpers import wait_for
from .restart_helpers import Table, replay_cli, sql, what_players_saw
from .server_helpers import Server, database_url, drop_database
from .test_server import check_messages_against_record

pytestmark = pytest.mark.slow

MUS = {"cows": 1, "games_per_cow": 1}


@pytest.fixture
def pg(tmp_path: Any) -> Any:
    url = database_url("postgres", tmp_path)
    yield url
    drop_database(url)


def record_of(server: Server, table_id: str) -> dict[str, Any]:
    r = httpx.get(f"{server.http}/api/games/{table_id}/record")
    assert r.status_code == 200, r.text
    record: dict[str, Any] = r.json()["record"]
    return record


def test_three_people_on_three_nodes_and_a_strong_bot_play_a_whole_mus_game(pg: str) -> None:
    with cluster(pg, 3, TAVERNA_BOT_DELAY="0.01") as (_, nodes):
        t = Table(nodes[0], "mus", 4, MUS, bots={3: "expert"}, name="clu")
        where = {0: nodes[0], 1: nodes[1], 2: nodes[2], None: nodes[1]}

        async def go() -> dict[int | None, Any]:
            await t.connect(where)
            await t.play_to_the_end()
            clients = dict(t.clients)
            await t.close()
            return clients

        clients = asyncio.run(go())
        record = record_of(nodes[2], t.id)
        for seat, client in clients.items():
            check_messages_against_record(client, record, seat)
        seen = what_players_saw(clients[None].view or {})
        result = replay_cli(record)
        assert {k: result[k] for k in seen} == seen
        # the people on the nodes that do not own the table were served through it
        forwarded = sum(
            float(line.split()[-1])
            for n in nodes
            for line in httpx.get(f"{n.http}/metrics").text.splitlines()
            if line.startswith("taverna_intents_forwarded_total")
        )
        assert forwarded > 0


# ------------------------------------------------------------ an owner dies


async def _settle(seats: list[Any], seq: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    for s in seats:
        while s.seq < seq:
            left = deadline - time.monotonic()
            assert left > 0, f"no update {seq} at seat {s.seat} (at {s.seq})"
            await s.recv(left)


async def _step(seats: list[Any], bots: dict[int, Any]) -> bool:
    """One move by whichever seat is to act (from its own view); False if none is."""
    for s in seats:
        view = s.view
        if view and not view["over"] and view.get("legal") and s.seat in view["to_act"]:
            action = bots[s.seat].choose(view)
            if action is None:
                continue
            await s.send({"type": "act", "action": action.to_json(), "id": s.seq})
            while (await s.recv())["type"] not in ("update", "error"):
                pass
            await _settle(seats, s.seq)
            return True
    return False


def test_the_owner_killed_mid_hand_another_node_goes_on_and_stakes_settle_once(
    pg: str,
) -> None:
    from taverna.bots import make_bot
    from taverna.games import get_game

    from .accounts_helpers import ACCOUNT_ENV, Member, wait_finished

    with cluster(pg, 3, TAVERNA_BOT_DELAY="0.01", **ACCOUNT_ENV) as (red, nodes):
        ana = Member(nodes[1], "Ana", "10.40.0.1")
        bea = Member(nodes[2], "Bea", "10.40.0.2")
        table = ana.create("dominoes", seats=2, official=True, stake=50, settings={"target": 60})
        tid = table["id"]
        ana.sit(tid, 0)
        bea.sit(tid, 1)
        ana.start(tid)
        home = wait_for(lambda: owner(red, tid), 20, "nobody took the table")
        dead = next(n for n in nodes if n.env["TAVERNA_NODE"] == home)
        alive = [n for n in nodes if n is not dead]
        cls = get_game("dominoes")
        bots = {s: make_bot("greedy", cls, s, seed=s) for s in (0, 1)}
        # Ana on n1, Bea on n2: one of them may be on the owner
        seats = [ana.seat(tid), bea.seat(tid)]
        seats[0].server, seats[1].server = nodes[1], nodes[2]

        async def go() -> None:
            for s in seats:
                await s.connect(last_seq=0)
            while not (seats[0].view["hand_no"] >= 1 and len(seats[0].view["line"]) >= 3):
                if not await _step(seats, bots):
                    # nobody to act (a hand's end, a muggins window): the server moves on
                    await _settle(seats, seats[0].seq + 1)
            before = {s.seat: (s.seq, s.view) for s in seats}
            killed_at = time.monotonic()
            assert dead.proc is not None
            dead.proc.send_signal(signal.SIGKILL)
            dead.proc.wait()
            # another node owns the table within 10 s
            await asyncio.to_thread(
                wait_for, lambda: owner(red, tid) not in (None, home), 10, "no takeover"
            )
            took = time.monotonic() - killed_at
            assert took < 10, took
            after = {}
            for s in seats:
                if s.server is dead:  # its socket died with the node: come back elsewhere
                    s.server = alive[0]
                    welcome = await s.connect(last_seq=s.seq)
                else:  # its socket stayed: its node says hello to the new owner for it
                    welcome = await s.expect("welcome", timeout=20)
                after[s.seat] = (welcome["seq"], welcome["view"])
            assert after == before
            while not seats[0].view["over"]:
                if not await _step(seats, bots):
                    await _settle(seats, seats[0].seq + 1)

        asyncio.run(go())
        table = wait_finished(alive[0], tid)
        record = record_of(alive[0], tid)
        result = replay_cli(record)
        assert (
            result["scores"] == seats[0].view["scores"]
            and result["winner"] == table["result"]["winner"]
        )
        # every action index once, and the stakes settled once
        indexes = sql(pg, 'SELECT "index" FROM actions WHERE table_id = :t', t=tid)
        assert len(indexes) == len({r[0] for r in indexes}) == len(record["actions"])
        entries = []
        for m in (ana, bea):
            m.http.base_url = httpx.URL(alive[0].http)  # (one of them was at the dead node)
            mine = [e for e in m.ledger() if e.get("table") == tid]
            assert [e["reason"] for e in mine].count("stake") == 1, mine
            entries += mine
        # the winner's pot once, and no chip made or lost
        assert len(entries) == 3 and sum(e["delta"] for e in entries) == 0, entries


# ------------------------------------------------------- a node cut off


def _metric(server: Server, name: str) -> float:
    for line in httpx.get(f"{server.http}/metrics", timeout=5).text.splitlines():
        if line.startswith(name + " ") or line.startswith(name + "{"):
            return float(line.split()[-1])
    raise AssertionError(f"no {name} at {server.http}")


def test_a_node_paused_past_its_lease_stores_nothing_more(pg: str) -> None:
    """The owner is stopped (SIGSTOP) while its bot is about to move, for longer than
    its lease; another node takes the table over and the game goes on there. When the
    old owner wakes up, its bot's move is refused by the fence in the database, and it
    lets the table go: nothing stored twice, nothing lost."""
    from taverna.bots import make_bot
    from taverna.games import get_game

    from .server_helpers import Person, Seat

    # the owner's bot waits long enough to be caught before it moves; the table is
    # started while that node is alone, so that it is the owner
    with cluster(pg, 1, TAVERNA_BOT_DELAY="1.5") as (red, nodes):
        old = nodes[0]
        ana = Person(old, "Ana")
        tid = ana.create("dominoes", settings={"target": 100}, bots={"1": "greedy"})["id"]
        ana.sit(tid, 0)
        ana.start(tid)
        assert wait_for(lambda: owner(red, tid), 20, "nobody took the table") == "n0"
        # the node that takes over: its bot waits for the players' welcome (the resume
        # hold), then plays the rest of the game without the slow owner's delay
        new = node(pg, red.url, "n1", TAVERNA_BOT_DELAY="0", TAVERNA_RESUME_HOLD="2")
        nodes.append(new)  # stopped, and its log shown on failure, with the cluster's
        new.start()
        me = make_bot("greedy", get_game("dominoes"), 0, seed=3)

        async def play(seat: Seat, moves: int) -> None:
            for _ in range(moves):
                while not (seat.view and 0 in seat.view["to_act"]) or seat.view["over"]:
                    if seat.view and seat.view["over"]:
                        return
                    await seat.recv(30)
                action = me.choose(seat.view)
                assert action is not None
                await seat.send({"type": "act", "action": action.to_json(), "id": seat.seq})
                while (await seat.recv(30))["type"] not in ("update", "error"):
                    pass

        async def go() -> None:
            seat = Seat(new, tid, ana.cookie)  # Ana plays at the node that does not own it
            await seat.connect(last_seq=0)
            await play(seat, 3)
            # Ana has just moved: the bot of the old owner moves in about a second
            assert old.proc is not None
            old.proc.send_signal(signal.SIGSTOP)
            try:
                await asyncio.to_thread(
                    wait_for, lambda: owner(red, tid) == new.env["TAVERNA_NODE"], 15, "no takeover"
                )
                welcome = await seat.expect("welcome", timeout=20)  # the new owner's
                assert welcome["seq"] == seat.seq
                await play(seat, 3)  # the game goes on at the new owner
            finally:
                old.proc.send_signal(signal.SIGCONT)
            # the old owner wakes, tries its bot's move (refused by the fence) and renews
            # its lease (gone): it owns nothing, and stores nothing more
            await asyncio.to_thread(
                wait_for, lambda: _metric(old, "taverna_tables_owned") == 0, 15, "still owns it"
            )
            await play(seat, 200)
            assert seat.view is not None and seat.view["over"]
            await seat.close()

        asyncio.run(go())
        said = old.log_text()
        assert "not the owner any more" in said or "its lease is gone" in said, said[-3000:]
        indexes = [r[0] for r in sql(pg, 'SELECT "index" FROM actions WHERE table_id = :t', t=tid)]
        assert sorted(indexes) == list(range(len(indexes)))
        record = record_of(new, tid)
        assert len(record["actions"]) == len(indexes)
        assert replay_cli(record)["over"]


# ------------------------------------------------------------- accounts


def test_login_and_registration_limits_hold_across_nodes(pg: str) -> None:
    from .accounts_helpers import ACCOUNT_ENV, PASSWORD, Member

    env = {
        **ACCOUNT_ENV,
        "TAVERNA_LOGIN_LIMIT_ADDRESS": "3/300",
        "TAVERNA_REGISTER_LIMIT": "2/300",
    }
    with cluster(pg, 2, **env) as (_, nodes):
        ana = Member(nodes[0], "Ana", "10.50.0.9")

        def login(node: Server, password: str, address: str) -> httpx.Response:
            return httpx.post(
                f"{node.http}/api/login",
                json={"username": ana.name, "password": password},
                headers={"X-Forwarded-For": address},
            )

        # three wrong tries from one address, spread over the two nodes
        for node_ in (nodes[0], nodes[1], nodes[0]):
            assert login(node_, "wrong password!", "10.50.0.1").status_code == 401
        # the fourth is refused wherever it comes in, even with the right password
        for node_ in nodes:
            r = login(node_, PASSWORD, "10.50.0.1")
            assert r.status_code == 429 and "your address" in r.json()["detail"], r.text
        # the owner, from a clean address, gets in at either node
        assert login(nodes[1], PASSWORD, "10.50.0.2").status_code == 200

        # registrations: two from one address in all, whichever node they reach
        def register(node_: Server, name: str) -> httpx.Response:
            return httpx.post(
                f"{node_.http}/api/register",
                json={"username": name, "password": PASSWORD},
                headers={"X-Forwarded-For": "10.50.0.3"},
            )

        assert register(nodes[0], "carla" + ana.name[-6:]).status_code == 201
        assert register(nodes[1], "dani" + ana.name[-6:]).status_code == 201
        r = register(nodes[0], "eva" + ana.name[-6:])
        assert r.status_code == 429 and "registrations" in r.json()["detail"]


# --------------------------------------------------------- Redis away


def test_redis_away_the_players_are_told_and_the_game_goes_on_when_it_is_back(pg: str) -> None:
    from taverna.bots import make_bot
    from taverna.games import get_game

    from .server_helpers import Person, Seat

    with cluster(pg, 2, TAVERNA_BOT_DELAY="0.3") as (red, nodes):
        ana = Person(nodes[0], "Ana")
        tid = ana.create("dominoes", settings={"target": 100}, bots={"1": "greedy"})["id"]
        ana.sit(tid, 0)
        ana.start(tid)
        home = wait_for(lambda: owner(red, tid), 20, "nobody took the table")
        edge = next(n for n in nodes if n.env["TAVERNA_NODE"] != home)
        me = make_bot("greedy", get_game("dominoes"), 0, seed=5)

        async def play(seat: Seat, moves: int) -> None:
            for _ in range(moves):
                while not (seat.view and (0 in seat.view["to_act"] or seat.view["over"])):
                    await seat.recv(30)
                if seat.view["over"]:
                    return
                action = me.choose(seat.view)
                assert action is not None
                await seat.send({"type": "act", "action": action.to_json(), "id": seat.seq})
                while (await seat.recv(30))["type"] not in ("update", "error"):
                    pass

        async def go() -> None:
            seat = Seat(edge, tid, ana.cookie)
            await seat.connect(last_seq=0)
            await play(seat, 3)
            red.stop()
            # told, then closed: the page says the server is reconnecting
            closing = await seat.expect("closing", timeout=15)
            assert closing["reason"] == "restart"
            stored = sql(pg, "SELECT count(*) FROM actions WHERE table_id = :t", t=tid)[0][0]
            await asyncio.sleep(2)  # the owner has let the table go: it stores nothing
            assert (
                sql(pg, "SELECT count(*) FROM actions WHERE table_id = :t", t=tid)[0][0] == stored
            )
            red.start()
            # back: the page comes back by itself (here: tries until a node has the table)
            deadline = time.monotonic() + 30
            while True:
                again = Seat(edge, tid, ana.cookie)
                try:
                    welcome = await again.connect(last_seq=seat.seq)
                    break
                except Exception:
                    assert time.monotonic() < deadline, "the table never came back"
                    await asyncio.sleep(0.5)
            # nothing lost: what Ana saw is where the table is, or its missed updates
            # bring her there
            assert welcome["seq"] >= seat.seq
            await play(again, 300)
            assert again.view is not None and again.view["over"]
            await again.close()

        asyncio.run(go())
        indexes = [r[0] for r in sql(pg, 'SELECT "index" FROM actions WHERE table_id = :t', t=tid)]
        assert sorted(indexes) == list(range(len(indexes)))
        assert replay_cli(record_of(nodes[0], tid))["over"]


# ------------------------------------------------------------- leases


def test_one_renewal_call_renews_only_the_leases_still_this_nodes() -> None:
    """``RENEW_MANY`` (a node renews all its leases in one call): a lease still holding
    this node's value is extended; one another node holds now, or one that lapsed, is
    not, and the answer says which (the node then lets those tables go)."""
    import redis

    from taverna.server.leases import BATCH, RENEW_MANY, lease_key

    from .redis_helpers import own_redis

    with own_redis() as own:
        r = redis.Redis.from_url(own.url, decode_responses=True)
        renew = r.register_script(RENEW_MANY)
        r.set(lease_key("a"), "n1|1", px=1000)
        r.set(lease_key("b"), "n2|2", px=1000)  # taken over by another node
        # "c" lapsed: no key at all
        answers = renew(keys=[lease_key(t) for t in "abc"], args=["n1|1", "n1|2", "n1|3", 60000])
        assert answers == [1, 0, 0]
        assert r.pttl(lease_key("a")) > 50000  # extended
        assert r.pttl(lease_key("b")) <= 1000  # the other node's lease is left as it was
        assert r.get(lease_key("b")) == "n2|2"
        assert not r.exists(lease_key("c"))  # a lapsed lease is not brought back
        many = [lease_key(f"t{i}") for i in range(BATCH)]
        for k in many:
            r.set(k, "n1|9", px=1000)
        assert renew(keys=many, args=["n1|9"] * BATCH + [60000]) == [1] * BATCH
        r.close()
