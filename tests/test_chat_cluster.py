"""A table's chat on several nodes (docs/scaling.md): a message written on a node that
does not own the table is stored and said by the owner's room, and reaches the players
on every node as moves do; the host's switch, asked of any node, reaches them too."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest

from .cluster_helpers import cluster, owner
from .redis_helpers import wait_for
from .server_helpers import Person, Seat, database_url, drop_database

pytestmark = pytest.mark.slow


@pytest.fixture
def pg(tmp_path: Any) -> Any:
    url = database_url("postgres", tmp_path)
    yield url
    drop_database(url)


async def chat_heard(seat: Seat, timeout: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = await seat.recv(max(0.1, deadline - time.monotonic()))
        if msg["type"] == "chat":
            return dict(msg["message"])


def test_chat_written_on_another_node_reaches_the_owners_players(pg: str) -> None:
    with cluster(pg, 2) as (red, nodes):
        ana, bea = Person(nodes[0], "Ana"), Person(nodes[0], "Bea")
        eve = Person(nodes[0], "Eve")
        tid = ana.create("dominoes", settings={"target": 250}, turn_seconds=600)["id"]
        ana.sit(tid, 0)
        bea.sit(tid, 1)
        ana.start(tid)
        wait_for(lambda: owner(red, tid), 10, "nobody owns the table")
        home = next(n for n in nodes if n.env["TAVERNA_NODE"] == owner(red, tid))
        away = next(n for n in nodes if n is not home)

        async def go() -> None:
            a = Seat(home, tid, ana.cookie)
            b = Seat(away, tid, bea.cookie)
            e = Seat(away, tid, eve.cookie)
            for s in (a, b, e):
                await s.connect()
            # Bea's socket is on the node that does not own the table
            await b.send({"type": "chat", "text": "hola desde lejos", "id": 1})
            got = await chat_heard(a)
            assert got["text"] == "hola desde lejos" and got["name"] == "Bea"
            assert (await b.expect("ack"))["chat"] == got["id"]
            assert (await chat_heard(e))["id"] == got["id"]
            # a spectator on that node is kept apart there too
            await e.send({"type": "chat", "text": "psst", "id": 2})
            assert (await e.expect("ack"))["type"] == "ack"
            await a.send({"type": "chat", "phrase": "thanks", "id": 3})
            assert (await chat_heard(b))["phrase"] == "thanks"  # not Eve's "psst" first
            # the host's switch, asked of the node that does not own the table
            r = ana.http.put(f"{away.http}/api/tables/{tid}/chat", json={"on": False})
            assert r.status_code == 200, r.text
            for s in (a, b):
                assert (await s.expect("table"))["table"]["options"]["chat"] is False
            await b.send({"type": "chat", "phrase": "hello", "id": 4})
            assert (await b.expect("error"))["code"] == "chat_off"
            # a reconnect on either node is told the chat again, by the owner
            again = Seat(away, tid, bea.cookie)
            welcome = await again.connect()
            assert [m.get("text") or m.get("phrase") for m in welcome["chat"]] == [
                "hola desde lejos",
                "thanks",
            ]
            for s in (a, b, e, again):
                await s.close()

        asyncio.run(go())


def test_after_the_game_chat_reaches_every_node(pg: str) -> None:
    """A finished table has no owner (any node shows it): what is said on one node is
    said on the others."""
    with cluster(pg, 2, TAVERNA_BOT_DELAY="0") as (_, nodes):
        ana, eve = Person(nodes[0], "Ana"), Person(nodes[0], "Eve")
        tid = ana.create("dominoes", settings={"target": 30}, bots={1: "greedy"})["id"]
        ana.sit(tid, 0)
        ana.start(tid)

        async def go() -> None:
            a = Seat(nodes[0], tid, ana.cookie)
            await a.connect()
            await a.play("greedy")
            await a.close()
            wait_for(
                lambda: (
                    httpx.get(f"{nodes[1].http}/api/tables/{tid}").json()["table"]["status"]
                    == "finished"
                ),
                20,
                "the game did not end",
            )
            a, e = Seat(nodes[0], tid, ana.cookie), Seat(nodes[1], tid, eve.cookie)
            await a.connect()
            await e.connect()
            await a.send({"type": "chat", "phrase": "good_game", "id": 1})
            assert (await chat_heard(e))["phrase"] == "good_game"
            await e.send({"type": "chat", "phrase": "well_played", "id": 2})
            assert (await e.expect("ack"))["type"] == "ack"
            await a.send({"type": "chat", "phrase": "thanks", "id": 3})
            assert (await chat_heard(a))["phrase"] == "good_game"  # its own, first
            assert (await chat_heard(a))["phrase"] == "thanks"  # never the spectator's
            assert (await chat_heard(e))["phrase"] == "thanks"  # its own came before its ack
            await a.close()
            await e.close()

        asyncio.run(go())
