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
from typing import Any

import httpx
import pytest

from .cluster_helpers import cluster
from .restart_helpers import Table, replay_cli, what_players_saw
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
