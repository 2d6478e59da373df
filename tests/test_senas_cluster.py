"""Mus señas on several nodes (docs/scaling.md): a seña made on a socket that another
node holds is stored and told by the owner's room, to the partner on any node and to no
opponent; when the owner dies, the node that takes the table over puts the señas back,
with the same catches."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

import pytest

from .cluster_helpers import cluster, owner
from .redis_helpers import wait_for
from .server_helpers import database_url, drop_database
from .test_senas import Four, may

pytestmark = pytest.mark.slow


@pytest.fixture
def pg(tmp_path: Any) -> Any:
    url = database_url("postgres", tmp_path)
    yield url
    drop_database(url)


def test_a_sena_made_on_another_node_reaches_the_partner_and_survives_a_takeover(
    pg: str,
) -> None:
    with cluster(pg, 2) as (red, nodes):
        four = Four(nodes[0], {"catch": 0}, watch=False)
        tid = four.tid
        wait_for(lambda: owner(red, tid), 10, "nobody owns the table")
        home = next(n for n in nodes if n.env["TAVERNA_NODE"] == owner(red, tid))
        away = next(n for n in nodes if n is not home)
        ana, bruno, carla, dario = four.seats
        ana.server = dario.server = home
        bruno.server = carla.server = away  # Carla (seat 2) and Bruno (1) elsewhere

        async def go() -> None:
            await four.connect()
            await four.until(lambda: bool(may(four, 2)))
            sign = may(four, 2)[0]
            assert (await four.sign(2, sign))["type"] == "ack"
            await four.quiet()
            (made,) = four.signals_heard(carla)
            assert made["signal"]["caught_by"] == []
            (heard,) = four.signals_heard(ana)  # the partner, on the owner's node
            assert heard["signal"] == {k: made["signal"][k] for k in ("seat", "sign", "after")}
            assert four.signals_heard(bruno) == four.signals_heard(dario) == []

            # the owner dies: the other node takes the table over, señas and all
            assert home.proc is not None
            home.proc.send_signal(signal.SIGKILL)
            home.proc.wait()
            await asyncio.to_thread(
                wait_for,
                lambda: owner(red, tid) not in (None, home.env["TAVERNA_NODE"]),
                15,
                "no takeover",
            )
            again = await carla.expect("welcome", timeout=30)  # her node said hello for her
            assert made["signal"] in again["view"]["signals"]
            assert sign not in again["view"]["may_signal"]
            ana.server = away
            welcome = await ana.connect(last_seq=ana.seq)
            assert heard["signal"] in welcome["view"]["signals"]
            await four.close()

        asyncio.run(go())
