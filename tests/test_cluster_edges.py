"""A person whose socket is at one node (its edge) and whose table another node owns
(docs/scaling.md, "Any node, any table"): the owner keeps the person's seat and sends
every update on however long the person thinks, and forgets the sockets of an edge
that died."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

import pytest

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.server.leases import node_channel
from taverna.server.owner import EDGE_GONE_SECONDS

from .cluster_helpers import node, owner
from .edge_helpers import Player, cluster_health, name, nodes, start
from .redis_helpers import wait_for
from .restart_helpers import kill_all
from .server_helpers import Person, Seat, Server, database_url, drop_database

pytestmark = pytest.mark.slow


@pytest.fixture
def pg(tmp_path: Any) -> Any:
    url = database_url("postgres", tmp_path)
    yield url
    drop_database(url)


def test_a_person_who_thinks_long_at_a_table_owned_elsewhere_keeps_it(pg: str) -> None:
    """The person's node says nothing to the owner while the person thinks; the owner
    must not take that silence for a dead node: the seat stays connected, the updates
    keep coming, and the move made after the long think is taken."""
    with nodes(pg, {}, {}) as (red, (home, edge)):
        start(home)  # the only node: the table is its own
        ana = Person(home, "Ana")
        tid = ana.play_at(
            "dominoes", settings={"target": 60}, bots={"1": "greedy"}, turn_seconds=600
        )
        assert owner(red, tid) == name(home)
        start(edge)

        async def go() -> None:
            me = Player(edge, tid, ana.cookie, make_bot("greedy", get_game("dominoes"), 0, seed=1))
            await me.connect()
            watcher = Player(home, tid, None)  # a spectator at the owner: who is there
            await watcher.connect()
            await me.until(lambda: me.my_turn, "the person's turn")
            # the person thinks, longer than an edge may be silent before it counts as dead
            await asyncio.sleep(EDGE_GONE_SECONDS + 1.5)
            assert cluster_health(home)["proxies"] == 1
            await me.move()  # taken, not "say hello first"
            await me.until(lambda: me.my_turn or me.over, "the bot's answer")
            await watcher.until(lambda: watcher.seq == me.seq, "the spectator's updates")
            presence = [m for m in watcher.socket.messages if m["type"] == "presence"]
            assert all(s["connected"] for m in presence for s in m["seats"]), presence
            await me.close()
            await watcher.close()

        asyncio.run(go())


def test_a_node_that_died_and_came_back_under_its_name_is_a_new_one_to_the_owner(
    pg: str,
) -> None:
    """A node killed and started again under its name (as a service manager does) counts
    its sockets anew. The owner of a table must not take a socket of the new run for the
    one of the dead run that had the same number — it would send it that seat's view,
    another player's hand — and the dead run's sockets are gone: their player away, not
    connected for ever."""
    with nodes(pg, {}, {}) as (red, servers):
        home, edge = servers
        again = node(pg, red.url, name(edge))  # the same node, started again
        servers.append(again)  # (stopped with the others)
        start(home)
        ana, bea = Person(home, "Ana"), Person(home, "Bea")
        tid = ana.create("dominoes", settings={"target": 60}, turn_seconds=600)["id"]
        ana.sit(tid, 0)
        bea.sit(tid, 1)
        ana.start(tid)
        start(edge)
        chatter = red.client()

        async def go() -> None:
            watcher = Player(home, tid, None)  # a spectator at the owner
            await watcher.connect()
            a = Player(edge, tid, ana.cookie)  # the first socket of the edge's first run
            await a.connect()
            await asyncio.to_thread(
                wait_for, lambda: cluster_health(home)["proxies"] == 1, 10, "no proxy"
            )
            kill_all(edge)
            # it comes back at once, as on a machine of its own: the owner hears from its
            # name all along (here, while the test's busy machine starts it again)
            stop = threading.Event()

            def keep_heard() -> None:
                while not stop.wait(0.5):
                    alive = {"kind": "alive", "from": name(edge)}  # as the node says it
                    chatter.publish(node_channel(name(home)), json.dumps(alive))

            heard = threading.Thread(target=keep_heard)
            heard.start()
            try:
                start(again)
                b = Player(again, tid, bea.cookie)  # the first socket of its second run
                await b.connect()
            finally:
                stop.set()
                heard.join()
            assert b.welcomes[0]["seat"] == 1 and b.view["seat"] == 1, b.welcomes[0]
            assert b.view["hand"] == (await own_view(home, tid, bea.cookie))["hand"]
            # Ana's socket died with the first run: she is away, however long the node
            # lives on
            await watcher.until(lambda: connected(watcher, 0) is False, "Ana still there")
            assert cluster_health(home)["proxies"] == 1  # Bea's
            await b.close()
            await watcher.close()
            await a.close()

        asyncio.run(go())


def connected(watcher: Player, seat: int) -> bool | None:
    """Whether a seat is connected, as the last presence the watcher got says."""
    for msg in reversed(watcher.socket.messages):
        if msg["type"] == "presence":
            return next((s["connected"] for s in msg["seats"] if s["seat"] == seat), None)
    return None


async def own_view(server: Server, table: str, cookie: str) -> dict[str, Any]:
    """A seat's view as the table's owner gives it to a socket of its own."""
    seat = Seat(server, table, cookie)
    welcome = await seat.connect()
    await seat.close()
    view: dict[str, Any] = welcome["view"]
    return view
