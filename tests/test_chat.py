"""A table's chat for real, on SQLite and PostgreSQL: its limits, its two rooms, the
official tables' rule, the host's switch, reports, and what a reconnect is told."""

from __future__ import annotations

import asyncio
import json
import re
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from sqlalchemy import text

from taverna.server.chat import PHRASES
from taverna.store.db import make_engine

from .accounts_helpers import ACCOUNT_ENV, Member
from .server_helpers import Person, Seat, Server, database_url, drop_database, own_server

BACKENDS = ["sqlite", "postgres"]
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, **ACCOUNT_ENV, TAVERNA_GRACE_SECONDS="60").start()
    yield srv
    srv.stop()
    drop_database(url)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def two_at_a_table(server: Server, **body: Any) -> tuple[Person, Person, str]:
    """Ana (the host) and Bea seated at a running two-seat dominoes table."""
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("dominoes", settings={"target": 250}, **body)["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)
    return ana, bea, tid


async def say(seat: Seat, mid: int, **body: Any) -> dict[str, Any]:
    """Send a chat message; the ack or the error that answers it."""
    await seat.send({"type": "chat", "id": mid, **body})
    while True:
        msg = await seat.recv()
        if msg["type"] in ("ack", "error") and msg.get("id") == mid:
            return msg


#: per connection: how many of its messages heard() has looked at (weak: a connection's
#: number, id(), is reused by a later one once it is gone, which then heard nothing)
READ: weakref.WeakKeyDictionary[Seat, int] = weakref.WeakKeyDictionary()


async def heard(seat: Seat, timeout: float = 10) -> list[dict[str, Any]]:
    """Every chat message a connection got since the last call, once a ping it sends now
    is answered (so everything said before it has arrived)."""
    await seat.send({"type": "ping", "id": "sync"})
    deadline = time.monotonic() + timeout
    while True:
        msg = await seat.recv(max(0.1, deadline - time.monotonic()))
        if msg["type"] == "pong" and msg.get("id") == "sync":
            break
    start = READ.get(seat, 0)
    READ[seat] = len(seat.messages)
    return [m["message"] for m in seat.messages[start:] if m["type"] == "chat"]


async def chat_event(seat: Seat, kind: str, timeout: float = 15) -> dict[str, Any]:
    while True:
        msg = await seat.recv(timeout)
        if msg["type"] == "chat" and (msg["message"].get("event") or {}).get("type") == kind:
            return dict(msg["message"])


def test_a_message_is_at_most_300_characters_and_never_empty(server: Server) -> None:
    ana, _, tid = two_at_a_table(server)

    async def go() -> None:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        long = await say(me, 1, text="x" * 301)
        assert long["code"] == "chat_too_long"
        assert long["params"] == {"length": 301, "limit": 300}
        assert "at most 300 characters" in long["message"]
        empty = await say(me, 2, text="  \n\t ")
        assert empty["code"] == "chat_empty"
        bad = await say(me, 3, text=42)
        assert bad["code"] == "bad_chat"
        both = await say(me, 4, text="hi", phrase="hello")
        assert both["code"] == "bad_chat"
        unknown = await say(me, 5, phrase="insult")
        assert unknown["code"] == "unknown_phrase" and unknown["params"] == {"phrase": "insult"}
        # trimmed first: 300 characters and some spaces around them are a message
        ok = await say(me, 6, text="  " + "y" * 300 + "  ")
        assert ok["type"] == "ack"
        said = [m for m in await heard(me)]
        assert [m["text"] for m in said] == ["y" * 300]
        await me.close()

    run(go())


def test_three_messages_in_five_seconds_then_a_refusal_that_says_when(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server)

    async def go() -> None:
        # one person's two sockets share the pace
        one, two = Seat(server, tid, ana.cookie), Seat(server, tid, ana.cookie)
        other = Seat(server, tid, bea.cookie)
        for s in (one, two, other):
            await s.connect()
        assert (await say(one, 1, text="one"))["type"] == "ack"
        assert (await say(two, 2, phrase="hello"))["type"] == "ack"
        assert (await say(one, 3, text="three"))["type"] == "ack"
        started = time.monotonic()
        refused = await say(two, 4, text="four")
        assert refused["code"] == "chat_too_fast"
        wait = refused["params"]["seconds"]
        assert 0 < wait <= 5 and f"{wait:.1f} s" in refused["message"]
        # somebody else is not slowed down by it
        assert (await say(other, 5, text="hi"))["type"] == "ack"
        await asyncio.sleep(max(0.0, wait - (time.monotonic() - started)) + 0.2)
        assert (await say(two, 6, text="again"))["type"] == "ack"
        words = [m.get("text") or m.get("phrase") for m in await heard(other)]
        assert "four" not in words and words[-1] == "again"
        for s in (one, two, other):
            await s.close()

    run(go())


def test_spectators_chat_apart_and_players_never_read_it(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server)
    eve = Person(server, "Eve")

    async def go() -> None:
        player, watcher = Seat(server, tid, ana.cookie), Seat(server, tid, eve.cookie)
        await player.connect()
        assert (await watcher.connect())["seat"] is None
        said = await say(watcher, 1, text="Ana holds the double six!")
        assert said["type"] == "ack"
        assert (await say(player, 2, phrase="good_luck"))["type"] == "ack"
        to_player = await heard(player)
        to_watcher = await heard(watcher)
        assert [m["room"] for m in to_player] == ["players"]
        assert [m.get("text") or m.get("phrase") for m in to_watcher] == [
            "Ana holds the double six!",
            "good_luck",
        ]
        spectators = to_watcher[0]
        assert spectators["room"] == "spectators" and spectators["seat"] is None
        assert spectators["name"] == "Eve" and spectators["player"] == eve.player["id"]
        assert to_watcher[1]["name"] == "Ana" and to_watcher[1]["seat"] == 0
        # what a reconnect is told follows the same rule
        await player.close()
        back = Seat(server, tid, ana.cookie)
        welcome = await back.connect()
        assert [m.get("phrase") for m in welcome["chat"]] == ["good_luck"]
        again = Seat(server, tid, eve.cookie)
        welcome = await again.connect()
        assert [m["room"] for m in welcome["chat"]] == ["spectators", "players"]
        # over HTTP too, while the game runs
        assert [m["room"] for m in ana.http.get(f"/api/tables/{tid}/chat").json()["messages"]] == [
            "players"
        ]
        assert len(eve.http.get(f"/api/tables/{tid}/chat").json()["messages"]) == 2
        # and a player may not report what players never read
        r = bea.http.post(f"/api/tables/{tid}/chat/{spectators['id']}/report", json={})
        assert r.status_code == 403 and r.json()["code"] == "not_readable"
        for s in (watcher, back, again):
            await s.close()

    run(go())


def test_an_anonymous_watcher_cannot_chat_but_reads(server: Server) -> None:
    ana, _, tid = two_at_a_table(server)

    async def go() -> None:
        nobody = Seat(server, tid)
        await nobody.connect()
        refused = await say(nobody, 1, phrase="hello")
        assert refused["code"] == "no_session"
        player = Seat(server, tid, ana.cookie)
        await player.connect()
        await say(player, 2, phrase="hello")
        assert [m["phrase"] for m in await heard(nobody)] == ["hello"]
        raw = await websockets.connect(
            f"{server.ws}/ws/tables/{tid}", additional_headers={"Cookie": ana.cookie}
        )
        await raw.send(json.dumps({"type": "chat", "id": 9, "phrase": "hello"}))
        assert json.loads(await raw.recv())["code"] == "not_joined"
        await raw.close()
        for s in (nobody, player):
            await s.close()

    run(go())


def test_messages_are_stored_and_a_reconnect_gets_them_again(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server)

    async def go() -> None:
        a = Seat(server, tid, ana.cookie)
        await a.connect()
        for i in range(3):
            assert (await say(a, i, text=f"message {i}"))["type"] == "ack"
        await a.close()
        b = Seat(server, tid, bea.cookie)
        welcome = await b.connect(last_seq=0)
        assert [m["text"] for m in welcome["chat"]] == [f"message {i}" for i in range(3)]
        first = welcome["chat"][0]
        assert set(first) == {"id", "room", "player", "name", "seat", "text", "at"}
        assert abs(first["at"] - time.time()) < 60
        await b.close()

    run(go())


def test_markup_is_text_stored_verbatim_and_served_as_json(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server)
    script = '<script>alert("x")</script><img src=x onerror=alert(1)> & ünïcode 🂡'

    async def go() -> None:
        a, b = Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)
        await a.connect()
        await b.connect()
        assert (await say(a, 1, text=script))["type"] == "ack"
        # what hides or reorders text is refused (tests/test_text.py), not left out
        assert (await say(a, 2, text="a\x00b\u202ec"))["code"] == "bad_text"
        got = await heard(b)
        assert [m["text"] for m in got] == [script]
        await a.close()
        await b.close()

    run(go())
    r = bea.http.get(f"/api/tables/{tid}/chat")
    assert r.headers["content-type"].startswith("application/json")
    assert [m["text"] for m in r.json()["messages"]] == [script]


def test_the_host_turns_the_chat_off_and_on(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server, chat=False)

    async def go() -> None:
        a, b = Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)
        welcome = await b.connect()
        assert welcome["table"]["options"]["chat"] is False
        await a.connect()
        refused = await say(b, 1, phrase="hello")
        assert refused["code"] == "chat_off"
        r = bea.http.put(f"/api/tables/{tid}/chat", json={"on": True})
        assert r.status_code == 403 and r.json()["code"] == "host_only"
        r = ana.http.put(f"/api/tables/{tid}/chat", json={"on": True})
        assert r.status_code == 200 and r.json()["table"]["options"]["chat"] is True
        told = await b.expect("table")
        assert told["table"]["options"]["chat"] is True
        assert (await say(b, 2, phrase="thanks"))["type"] == "ack"
        assert ana.http.put(f"/api/tables/{tid}/chat", json={"on": False}).status_code == 200
        assert (await a.expect("table"))["table"]["options"]["chat"] is True  # the first
        assert (await a.expect("table"))["table"]["options"]["chat"] is False
        assert (await say(a, 3, text="hello?"))["code"] == "chat_off"
        await a.close()
        await b.close()

    run(go())
    # on by default
    assert Person(server, "Cy").create("dominoes")["options"]["chat"] is True


def test_official_tables_say_quick_phrases_and_only_during_a_hand(server: Server) -> None:
    people = [Member(server, f"P{i}", f"10.40.0.{i + 1}") for i in range(2)]
    tid = people[0].create("dominoes", seats=2, official=True, stake=10)["id"]
    for i, p in enumerate(people):
        p.sit(tid, i)

    async def go() -> None:
        a = Seat(server, tid, people[0].cookie)
        await a.connect()
        assert (await say(a, 1, phrase="good_luck"))["code"] == "chat_not_in_hand"
        people[0].start(tid)
        await a.expect("update")
        refused = await say(a, 2, text="hello there")
        assert refused["code"] == "chat_phrases_only"
        assert "quick phrases only" in refused["message"]
        assert (await say(a, 3, phrase="good_luck"))["type"] == "ack"
        await a.close()

    run(go())


def test_a_report_is_kept_once_for_the_moderators(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server)

    async def go() -> int:
        a = Seat(server, tid, ana.cookie)
        await a.connect()
        ack = await say(a, 1, text="something rude")
        await a.close()
        return int(ack["chat"])

    mid = run(go())
    for _ in range(2):
        r = bea.http.post(f"/api/tables/{tid}/chat/{mid}/report", json={"reason": "rude"})
        assert r.status_code == 200 and r.json()["reported"] is True
    assert r.json()["new"] is False
    engine = make_engine(server.url)
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT reporter_id, reason FROM chat_reports WHERE message_id = :m"), {"m": mid}
        ).all()
    engine.dispose()
    assert [tuple(r) for r in rows] == [(bea.player["id"], "rude")]
    r = bea.http.post(f"/api/tables/{tid}/chat/999999/report", json={})
    assert r.status_code == 404 and r.json()["code"] == "no_message"
    other = Person(server, "Zed").create("dominoes")["id"]
    r = bea.http.post(f"/api/tables/{other}/chat/{mid}/report", json={})
    assert r.status_code == 404


def test_the_table_says_who_went_away_came_back_and_left(server: Server) -> None:
    ana, bea, tid = two_at_a_table(server)

    async def go() -> None:
        a, b = Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)
        await a.connect()
        await b.connect()
        await b.close()
        away = await chat_event(a, "away")
        assert away["event"] == {"type": "away", "seat": 1, "name": "Bea"}
        assert away["room"] == "players" and away["player"] is None
        b = Seat(server, tid, bea.cookie)
        await b.connect()
        assert (await chat_event(a, "back"))["event"]["name"] == "Bea"
        assert bea.http.delete(f"/api/tables/{tid}/seats/1").status_code == 200
        assert (await chat_event(a, "left"))["event"]["seat"] == 1
        # stored like any message: a page reloaded tells them again
        again = Seat(server, tid, ana.cookie)
        welcome = await again.connect()
        kinds = [m["event"]["type"] for m in welcome["chat"] if "event" in m]
        assert kinds == ["away", "back", "left"]
        for s in (a, b, again):
            await s.close()

    run(go())


def test_the_client_offers_the_phrases_the_server_knows() -> None:
    js = (ROOT / "taverna/web/static/js/chat.js").read_text()
    block = re.search(r"export const PHRASES = \[(.*?)\];", js, re.S)
    assert block is not None
    assert tuple(re.findall(r"'(\w+)'", block.group(1))) == PHRASES


def test_a_bot_taking_an_away_seat_is_said_and_so_is_the_players_return(tmp_path: Any) -> None:
    with own_server("sqlite", tmp_path, TAVERNA_GRACE_SECONDS="1") as server:
        ana, bea, tid = two_at_a_table(server)

        async def go() -> None:
            a, b = Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)
            await a.connect()
            await b.connect()
            await b.close()
            bot = await chat_event(a, "bot")
            assert bot["event"] == {"type": "bot", "seat": 1, "name": "Bea"}
            # a casual table gives the seat back: said too
            b = Seat(server, tid, bea.cookie)
            assert (await b.connect())["seat"] == 1
            assert (await chat_event(a, "back"))["event"]["seat"] == 1
            await a.close()
            await b.close()

        run(go())
