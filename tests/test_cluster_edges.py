"""A person whose socket is at one node (its edge) and whose table another node owns
(docs/scaling.md, "Any node, any table"): the owner keeps the person's seat and sends
every update on however long the person thinks, and forgets the sockets of an edge
that died."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.server.cluster import EDGE_GONE_SECONDS

from .cluster_helpers import owner
from .edge_helpers import Player, name, nodes, start
from .server_helpers import Person, Server, database_url, drop_database

pytestmark = pytest.mark.slow


@pytest.fixture
def pg(tmp_path: Any) -> Any:
    url = database_url("postgres", tmp_path)
    yield url
    drop_database(url)


def cluster_health(server: Server) -> dict[str, Any]:
    health: dict[str, Any] = httpx.get(f"{server.http}/api/health", timeout=10).json()
    return health["cluster"]  # type: ignore[no-any-return]


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
