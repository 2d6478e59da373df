"""Resuming what is stored: tables from before deals were stored, tables whose data
cannot be replayed, a graceful stop, and the timers across a restart.

PLATFORM.md Durability: a table resumes from its record; one that cannot be
resumed is set aside and reported, and never stops the rest of the club.
"""

from __future__ import annotations

import asyncio
import json
import signal
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from .restart_helpers import Table, kill_all, sql
from .server_helpers import Person, Seat, Server, database_url, drop_database

pytestmark = pytest.mark.slow

LEGACY = json.loads((Path(__file__).parent / "data" / "legacy-tables.json").read_text())


def _as_then(now: Any, then: Any) -> Any:
    """What ``now`` says of what ``then`` said: a view made today keeps only the fields a
    view had when the fixture was made (later changes added fields, such as the Mus hand
    end's ``tally`` and ``verdicts``; none took one away)."""
    if isinstance(now, dict) and isinstance(then, dict):
        return {k: _as_then(now[k], then[k]) if k in now else "(missing)" for k in then}
    if isinstance(now, list) and isinstance(then, list) and len(now) == len(then):
        return [_as_then(a, b) for a, b in zip(now, then, strict=True)]
    return now


def _replace_game(url: str, tid: str, seed: int, actions: list[dict[str, Any]]) -> None:
    """Make a table look as the first servers stored it: a seed and actions, no deals."""
    sql(url, "DELETE FROM deals WHERE table_id = :t", t=tid)
    sql(url, "DELETE FROM actions WHERE table_id = :t", t=tid)
    sql(url, "UPDATE tables SET seed = :s WHERE id = :t", s=seed, t=tid)
    for i, a in enumerate(actions):
        sql(
            url,
            'INSERT INTO actions (table_id, "index", data, created_at) '
            "VALUES (:t, :i, :d, CURRENT_TIMESTAMP)",
            t=tid,
            i=i,
            d=json.dumps(a),
        )


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_tables_stored_before_deals_resume_and_broken_ones_are_set_aside(
    kind: str, tmp_path: Any
) -> None:
    url = database_url(kind, tmp_path)
    server = Server(url, TAVERNA_GRACE_SECONDS="600").start()

    async def go() -> None:
        nonlocal server
        legacy = []
        for t in LEGACY:
            table = Table(server, t["game"], t["seats"], t["settings"], name="old")
            legacy.append((t, table))
        # one stored before deals whose actions do not replay as played (resumed since)
        stale = Table(server, "muggins-dominoes", 2, {}, name="stale")
        broken_deal = Table(server, "muggins-cards", 2, {}, name="bad")
        broken_action = Table(server, "mus", 4, {}, name="ill")
        fine = Table(server, "muggins-dominoes", 2, {"target": 100}, name="fine")
        await fine.connect(server)
        await fine.play_until(lambda t: t.seq > 5)
        before = await fine.snapshot()
        await fine.close()
        kill_all(server)

        for t, table in legacy:
            _replace_game(url, table.id, t["seed"], t["actions"])
        _replace_game(url, stale.id, LEGACY[0]["seed"] + 1, LEGACY[0]["actions"])
        deal = sql(url, "SELECT data FROM deals WHERE table_id = :t", t=broken_deal.id)[0][0]
        deal = json.loads(deal) if isinstance(deal, str) else deal
        deal["stock"] = deal["stock"][1:]  # a card lost: not a whole deck any more
        sql(
            url,
            "UPDATE deals SET data = :d WHERE table_id = :t",
            d=json.dumps(deal),
            t=broken_deal.id,
        )
        sql(
            url,
            'INSERT INTO actions (table_id, "index", data, created_at) VALUES '
            "(:t, 0, :d, CURRENT_TIMESTAMP)",
            t=broken_action.id,
            d=json.dumps({"seat": 0, "type": "accept"}),
        )

        server = Server(url, TAVERNA_GRACE_SECONDS="600").start()
        # the old tables: every seat's hand as those servers dealt it
        for t, table in legacy:
            welcomes = await table.connect(server)
            for seat in range(t["seats"]):
                then = t["views"][seat]
                assert _as_then(welcomes[seat]["view"], then) == then, (t["game"], seat)
            assert welcomes[None]["seq"] == len(t["actions"]) + 1
        # and now their deals are stored: the record is whole
        for t, table in legacy:
            stored = sql(url, "SELECT count(*) FROM deals WHERE table_id = :t", t=table.id)
            assert stored[0][0] == len(t["deals"])
        # a table that was fine is fine
        welcomes = await fine.connect(server, {s: seq for s, (seq, _) in before.items()})
        assert {s: (w["seq"], w["view"]) for s, w in welcomes.items()} == before

        health = httpx.get(f"{server.http}/api/health").json()
        aside = {t["id"]: t for t in health["set_aside"]}
        assert set(aside) == {stale.id, broken_deal.id, broken_action.id}
        assert "does not replay as it was played" in aside[stale.id]["problem"]
        assert "not a whole 52-card deck" in aside[broken_deal.id]["problem"]
        assert "stored action 0 does not replay" in aside[broken_action.id]["problem"]
        # its players see why, on the table and over its socket
        public = httpx.get(f"{server.http}/api/tables/{broken_action.id}").json()["table"]
        assert public["status"] == "set_aside" and "action 0" in public["problem"]
        seat = Seat(server, broken_action.id, broken_action.cookies[0])
        welcome = await seat.connect()
        assert welcome["table"]["status"] == "set_aside" and "view" not in welcome
        await seat.close()
        # said once in the log, with the table and why
        log = server.log_text()
        for tid in aside:
            assert log.count(f"table {tid}: set aside: ") == 1
        for _, table in legacy:
            await table.close()
        await fine.close()

        # a second start does not say it again, and the old tables are ordinary now
        server.stop()
        server = Server(url, TAVERNA_GRACE_SECONDS="600").start()
        assert "set aside:" not in server.log_text()
        assert "stored before deals were kept" not in server.log_text()
        for t, table in legacy:
            welcomes = await table.connect(server)
            assert _as_then(welcomes[0]["view"], t["views"][0]) == t["views"][0]
            await table.play_to_the_end()
            await table.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
        drop_database(url)


def ready_at(server: Server) -> float:
    """When a server that logs JSON said it was ready (its tables resumed just before)."""
    for line in server.log_text().splitlines():
        if line.startswith("{") and " ready: " in (said := json.loads(line))["message"]:
            return datetime.fromisoformat(said["time"]).timestamp()
    raise AssertionError(f"the server never said it was ready:\n{server.log_text()}")


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_sigterm_tells_everybody_and_the_table_goes_on(kind: str, tmp_path: Any) -> None:
    """A graceful stop: every connection is told the server restarts (then 1012), the
    turn timer keeps the time it had, and the players come back to the same table."""
    url = database_url(kind, tmp_path)
    server = Server(url, TAVERNA_GRACE_SECONDS="600").start()

    async def go() -> None:
        nonlocal server
        ana = Person(server, "Ana")
        tid = ana.create("muggins-dominoes", seats=2, turn_seconds=60)["id"]
        bea = Person(server, "Bea")
        ana.sit(tid, 0)
        bea.sit(tid, 1)
        ana.start(tid)
        seats = [Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)]
        for s in seats:
            await s.connect()
        spectator = Seat(server, tid)
        await spectator.connect()
        # two moves, then the person to move thinks for 2 s
        for _ in range(2):
            view = seats[0].view
            assert view is not None
            mover = seats[view["turn"]]
            assert mover.view is not None
            await mover.send({"type": "act", "action": mover.view["legal"][0]})
            for s in [*seats, spectator]:
                await s.expect("update")
        await asyncio.sleep(2)
        assert spectator.view is not None
        deadline = spectator.messages[-1]["deadline"]
        views = [(s.seq, s.view) for s in [*seats, spectator]]

        assert server.proc is not None
        stopped = time.time()
        server.proc.send_signal(signal.SIGTERM)
        for s in [*seats, spectator]:
            closing = await s.expect("closing")
            assert closing == {"type": "closing", "reason": "restart"}
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await s.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # uvicorn stops, then re-raises the signal it caught: "terminated", as asked
        assert server.proc.wait(20) in (0, -signal.SIGTERM)
        stopping = time.time() - stopped  # the timer runs while the server is stopping
        await asyncio.sleep(2)  # the club is away for two seconds: they count for nobody

        server = Server(url, TAVERNA_GRACE_SECONDS="600", TAVERNA_LOG_FORMAT="json").start()
        again = [Seat(server, tid, c) for c in (ana.cookie, bea.cookie, None)]
        welcomes = [await s.connect(last_seq=seq) for s, (seq, _) in zip(again, views, strict=True)]
        assert [(w["seq"], w["view"]) for w in welcomes] == views
        left_then = deadline - stopped
        left_now = welcomes[0]["deadline"] - time.time()
        # and again from the resume (just before the server says it is ready): the time it
        # ran, stopping and since it resumed, is gone from the turn, never the downtime (a
        # loaded machine takes seconds for both: they are measured, not guessed)
        running = stopping + time.time() - ready_at(server)
        assert left_then - running - 0.5 < left_now <= left_then + 0.05, (
            left_then,
            left_now,
            running,
        )
        # and on they play
        view = again[0].view
        assert view is not None
        mover = again[view["turn"]]
        assert mover.view is not None
        await mover.send({"type": "act", "action": mover.view["legal"][0]})
        update = await again[2].expect("update")
        assert update["seq"] == views[2][0] + 1
        for s in again:
            await s.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
        drop_database(url)


def test_after_a_kill_the_clocks_go_on_and_everybody_gets_the_grace_period(
    tmp_path: Any,
) -> None:
    """kill -9: the turn timer and the Muggins window go on with the time they had when
    the server died (its last heartbeat), not less for the downtime; every seat gets
    the whole grace period from the restart before a bot takes it."""
    url = database_url("sqlite", tmp_path)
    env = {"TAVERNA_GRACE_SECONDS": "3"}
    server = Server(url, **env).start()

    async def go() -> None:
        nonlocal server
        t = Table(server, "muggins-cards", 2, {"target": 500})
        ana_cookie = t.cookies[0]
        sql(
            url,
            "UPDATE tables SET options = :o WHERE id = :t",
            t=t.id,
            o=json.dumps({"turn_seconds": 40, "muggins_wait": 20, "public": True}),
        )
        # the options are read when the room is made: make it again
        kill_all(server)
        server = Server(url, **env).start()
        await t.connect(server)

        def forgetful(table: Table, seat: int, view: dict[str, Any]) -> dict[str, Any] | None:
            if seat == view.get("turn"):
                for a in view["legal"]:
                    if a["type"] == "play" and a.get("claim"):
                        return {**a, "claim": False}
                return view["legal"][0]
            return None

        await t.play_until(lambda x: x.view.get("pending") is not None, forgetful)
        await asyncio.sleep(2.5)
        turn_left = t.clients[None].messages[-1]["deadline"] - time.time()
        killed = time.monotonic()
        kill_all(server)
        await t.close()
        await asyncio.sleep(3)  # down for three seconds

        starting = time.monotonic()  # the grace period runs from the resume, after this
        server = Server(url, **env, TAVERNA_LOG_FORMAT="json").start()
        restarted = time.monotonic()
        seat = Seat(server, t.id, ana_cookie)
        welcome = await seat.connect()
        left = welcome["deadline"] - time.time()
        # the clock runs again from the resume (just before the server says it is ready):
        # the time since counts, as it would for any player (seconds on a loaded machine)
        connecting = time.time() - ready_at(server)
        # never the downtime against the player; the heartbeat each second may give back
        # the last fraction of a second before the kill
        assert turn_left - 0.3 - connecting < left <= turn_left + 1.2, (turn_left, left, connecting)
        assert restarted - killed > 3
        # seat 1 never comes back: a bot takes it after the grace period, not before
        info = httpx.get(f"{server.http}/api/tables/{t.id}").json()["table"]
        assert not info["seating"][1]["replaced"]
        for _ in range(100):
            info = httpx.get(f"{server.http}/api/tables/{t.id}").json()["table"]
            if info["seating"][1]["replaced"]:
                break
            await asyncio.sleep(0.1)
        assert info["seating"][1]["replaced"]
        # not before the grace period: counted from before the start (the resume comes
        # later, and the server answers later still, so from "restarted" it may be less)
        assert time.monotonic() - starting >= 3 - 0.2
        assert not info["seating"][0]["replaced"]  # the one who came back keeps it
        await seat.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
        drop_database(url)
