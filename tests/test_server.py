"""The server for real: uvicorn in a subprocess, HTTP and WebSocket clients, two databases."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taverna.games import event_for
from taverna.games.record import load_record

from .server_helpers import Person, Seat, Server, database_url, drop_database, own_server

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, TAVERNA_GRACE_SECONDS="60").start()
    yield srv
    srv.stop()
    drop_database(url)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def check_messages_against_record(seat: Seat, record: dict[str, Any], seat_no: int | None) -> None:
    """Every update a connection got is exactly what the engine gives that seat: nothing more."""
    rec = load_record(json.dumps(record))
    cls = rec.game
    state = cls.start(rec.seats, rec.settings, rec.deals)
    views = {1: state.view(seat_no)}
    events = {1: state.initial_events}
    made = 0  # Mus señas (docs/rules.md §3.8.4), each in the state before the action after it
    for k, action in enumerate(rec.actions, start=2):
        while made < len(rec.signals) and rec.signals[made]["after"] == k - 2:
            state.replay_signal(rec.signals[made])
            made += 1
        events[k] = state.apply(action)
        views[k] = state.view(seat_no)
    checked = 0
    for msg in seat.messages:
        if msg["type"] == "update":
            k = msg["seq"]
            assert msg["view"] == json.loads(json.dumps(views[k])), k
            want = [event_for(e, seat_no) for e in events[k]]
            assert msg["events"] == json.loads(json.dumps(want)), k
            checked += 1
        for m in msg.get("missed", []):
            want = [event_for(e, seat_no) for e in events[m["seq"]]]
            assert m["events"] == json.loads(json.dumps(want))
            checked += 1
    assert checked > 0


# ---------------------------------------------------------------- lobby


def test_lobby_flow_and_clear_errors(server: Server) -> None:
    ana = Person(server, "Ana")
    bea = Person(server, "Bea")
    anon = httpx.Client(base_url=server.http)
    assert anon.post("/api/tables", json={"game": "dominoes"}).status_code == 401
    r = ana.http.post("/api/tables", json={"game": "dominoes", "settings": {"target": 0}})
    assert r.status_code == 422 and "target must be a positive" in r.json()["detail"]
    r = ana.http.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 422 and "unknown game" in r.json()["detail"]
    r = ana.http.post("/api/tables", json={"game": "dominoes", "seats": 7})
    assert r.status_code == 422 and "2 to 4" in r.json()["detail"]
    r = ana.http.post("/api/tables", json={"game": "dominoes", "bots": {"1": "os:system"}})
    assert r.status_code == 422 and "unknown bot level" in r.json()["detail"]

    table = ana.create("dominoes", seats=3, settings={"target": 100})
    tid = table["id"]
    assert table["free_seats"] == [0, 1, 2] and "seed" not in json.dumps(table)
    assert tid in [t["id"] for t in anon.get("/api/tables").json()["tables"]]
    ana.sit(tid, 0)
    r = bea.http.post(f"/api/tables/{tid}/seats/0")
    assert r.status_code == 409 and "taken" in r.json()["detail"]
    r = ana.http.post(f"/api/tables/{tid}/seats/1")
    assert r.status_code == 409 and "already sit" in r.json()["detail"]
    bea.sit(tid, 1)
    r = ana.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 409 and "empty: 2" in r.json()["detail"]
    r = ana.http.post(f"/api/tables/{tid}/seats/2/bot", json={"level": "greedy"})
    assert r.status_code == 200
    r = bea.http.delete(f"/api/tables/{tid}/seats/0")
    assert r.status_code == 403
    assert bea.http.delete(f"/api/tables/{tid}/seats/1").status_code == 200
    bea.sit(tid, 1)
    started = ana.start(tid)
    assert started["status"] == "playing"
    r = anon.get(f"/api/games/{tid}/record")
    assert r.status_code == 409  # never the hidden hands of a running game
    assert anon.get("/api/tables/nope").status_code == 404
    assert anon.get("/openapi.json").status_code == 200
    health = anon.get("/api/health").json()
    assert health["ok"] and health["tables"] >= 1
    assert "taverna_moves_total" in anon.get("/metrics").text


# ----------------------------------------------------------------- play


def test_a_person_plays_dominoes_against_a_bot_to_the_end(server: Server) -> None:
    ana = Person(server, "Ana")
    table = ana.create("dominoes", settings={"target": 60}, bots={1: "greedy"})
    ana.sit(table["id"], 0)
    ana.start(table["id"])

    async def go() -> Seat:
        me = Seat(server, table["id"], ana.cookie)
        welcome = await me.connect()
        assert welcome["seat"] == 0 and "hand" in welcome["view"]
        await me.play()
        await me.close()
        return me

    me = run(go())
    assert me.view is not None and me.view["over"]
    record = httpx.get(f"{server.http}/api/games/{table['id']}/record").json()["record"]
    check_messages_against_record(me, record, 0)
    result = httpx.get(f"{server.http}/api/tables/{table['id']}").json()["table"]
    assert result["status"] == "finished" and result["result"]["over"]


def test_spectator_and_two_people_see_only_their_own(server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    table = ana.create("dominoes", seats=3, settings={"target": 50}, bots={2: "random"})
    tid = table["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)

    async def go() -> tuple[Seat, Seat, Seat]:
        a = Seat(server, tid, ana.cookie)
        b = Seat(server, tid, bea.cookie)
        watcher = Seat(server, tid)
        await a.connect()
        await b.connect()
        w = await watcher.connect()
        assert w["seat"] is None and "hand" not in w["view"]
        await asyncio.gather(a.play("greedy", seed=1), b.play("random", seed=2))
        while not (watcher.view and watcher.view["over"]):
            await watcher.recv()
        for s in (a, b, watcher):
            await s.close()
        return a, b, watcher

    a, b, watcher = run(go())
    record = httpx.get(f"{server.http}/api/games/{tid}/record").json()["record"]
    check_messages_against_record(a, record, 0)
    check_messages_against_record(b, record, 1)
    check_messages_against_record(watcher, record, None)


def test_reconnect_in_the_middle_gets_exactly_what_it_missed(server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at("dominoes", settings={"target": 60}, bots={1: "greedy"})

    async def go() -> Seat:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        await me.play(until=lambda v: len(v["line"]) >= 3)
        last = me.seq
        await me.close()
        # meanwhile nothing is lost: come back with the last number seen
        again = Seat(server, tid, ana.cookie)
        again.seq = last
        welcome = await again.connect(last_seq=last)
        missed = [m["seq"] for m in welcome["missed"]]
        assert missed == list(range(last + 1, welcome["seq"] + 1))
        again.messages = me.messages + again.messages
        await again.play()
        await again.close()
        return again

    me = run(go())
    record = httpx.get(f"{server.http}/api/games/{tid}/record").json()["record"]
    check_messages_against_record(me, record, 0)


def test_bad_input_gets_a_clear_error_and_changes_nothing(server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at("dominoes", bots={1: "greedy"}, turn_seconds=600)

    async def go() -> None:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        # wait until it is our turn
        while not (me.view and 0 in me.view["to_act"]):
            await me.recv()
        seq = me.seq
        cases = [
            ("{oops", "bad_json"),
            (json.dumps([1, 2]), "bad_message"),
            (json.dumps({"type": "dance"}), "unknown_type"),
            (json.dumps({"type": "act"}), "bad_message"),
            (json.dumps({"type": "act", "action": {"type": "fly"}}), "illegal"),
            (json.dumps({"type": "act", "action": {"seat": 1, "type": "pass"}}), "illegal"),
            (json.dumps({"type": "act", "action": {"type": "play", "tile": "9-9"}}), "illegal"),
            (json.dumps({"type": "hello", "last_seq": "x"}), "bad_message"),
            ("x" * 20000, "too_large"),
        ]
        for text, code in cases:
            await me.send(text)
            err = await me.expect("error")
            assert err["code"] == code, (text[:30], err)
            assert err["message"]
        # an illegal move by the rules, with the engine's reason
        hand = set(me.view["hand"])
        missing = next(
            f"{a}-{b}"
            for a in range(7)
            for b in range(a, 7)
            if f"{b}-{a}" not in hand and f"{a}-{b}" not in hand
        )
        await me.send({"type": "act", "action": {"type": "play", "tile": missing}, "id": 7})
        err = await me.expect("error")
        assert err["id"] == 7 and "does not hold" in err["message"]
        await me.send({"type": "ping", "id": 1})
        assert (await me.expect("pong"))["id"] == 1  # the connection is still usable
        assert me.seq == seq  # and nothing moved
        await me.close()

    run(go())


def test_refusals_carry_a_code_and_the_facts_to_say_them(server: Server) -> None:
    """docs/protocol.md, Errors: HTTP bodies have a code, refused moves a reason."""
    ana = Person(server, "Ana")
    bea = Person(server, "Bea")
    anon = httpx.Client(base_url=server.http)
    r = anon.post("/api/tables", json={"game": "muggins-dominoes"})
    assert r.status_code == 401 and r.json()["code"] == "no_session"
    r = ana.http.post("/api/tables", json={"game": "muggins-dominoes", "turn_seconds": 1})
    assert r.status_code == 422 and r.json()["code"] == "invalid"
    assert r.json()["params"] == {"fields": ["turn_seconds"]}
    assert anon.get("/api/nothing/here").json()["code"] == "not_found"
    table = ana.create("muggins-dominoes", turn_seconds=600)
    tid = table["id"]
    ana.sit(tid, 0)
    r = bea.http.post(f"/api/tables/{tid}/seats/0")
    assert r.status_code == 409 and r.json()["code"] == "seat_taken"
    assert r.json()["params"] == {"seat": 0}
    r = ana.http.post(f"/api/tables/{tid}/seats/1")
    assert r.status_code == 409 and r.json()["code"] == "already_seated"
    r = ana.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 409 and r.json()["code"] == "seats_empty"
    bea.sit(tid, 1)
    ana.start(tid)
    r = Person(server, "Cleo").http.post(f"/api/tables/{tid}/seats/1")
    assert r.status_code == 409 and r.json()["code"] == "table_not_open"
    assert r.json()["params"] == {"status": "playing"}

    async def go() -> None:
        seats = {0: Seat(server, tid, ana.cookie), 1: Seat(server, tid, bea.cookie)}
        for s in seats.values():
            await s.connect()
        view = seats[0].view
        assert view is not None
        turn = view["turn"]
        waiting = seats[1 - turn]
        await waiting.send({"type": "act", "action": {"type": "draw"}, "id": 3})
        err = await waiting.expect("error")
        assert err["code"] == "illegal" and err["reason"] == "not_your_turn"
        assert err["params"] == {"turn": turn} and err["id"] == 3
        assert err["message"] == f"seat {1 - turn} cannot draw: it is seat {turn}'s turn"
        for s in seats.values():
            await s.close()

    run(go())


def test_spectators_cannot_act(server: Server) -> None:
    ana = Person(server, "Ana")
    table = ana.create("dominoes", bots={0: "greedy", 1: "greedy"})
    ana.start(table["id"])

    async def go() -> None:
        w = Seat(server, table["id"])
        await w.connect()
        await w.send({"type": "act", "action": {"seat": 0, "type": "pass"}})
        assert (await w.expect("error"))["code"] == "spectator"
        await w.close()

    run(go())


# ------------------------------------------------------- crash and timers


@pytest.mark.parametrize("kind", BACKENDS)
def test_kill_9_mid_game_and_resume(kind: str, tmp_path: Any) -> None:
    with own_server(kind, tmp_path) as srv:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 80}, bots={1: "greedy"})

        async def first() -> Seat:
            me = Seat(srv, tid, ana.cookie)
            await me.connect()
            # in the second hand, on our turn: the bot has nothing in flight, so the
            # database holds exactly what we saw
            await me.play(until=lambda v: v["hand_no"] >= 1 and v["to_act"] == [0])
            return me

        me = run(first())
        seen_seq, seen_view = me.seq, me.view
        srv.kill()  # SIGKILL: no shutdown, no flush
        srv.start()

        async def second() -> Seat:
            again = Seat(srv, tid, ana.cookie)
            welcome = await again.connect(last_seq=seen_seq)
            assert (welcome["seq"], welcome["missed"]) == (seen_seq, [])
            assert welcome["view"] == seen_view  # exactly where we were, hand and all
            again.messages = me.messages + again.messages
            again.seq = welcome["seq"]
            await again.play()
            await again.close()
            return again

        done = run(second())
        record = httpx.get(f"{srv.http}/api/games/{tid}/record").json()["record"]
        check_messages_against_record(done, record, 0)


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_bot_takes_the_seat_after_the_grace_period(kind: str, tmp_path: Any) -> None:
    with own_server(kind, tmp_path, TAVERNA_GRACE_SECONDS="1") as srv:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 40}, bots={1: "greedy"})

        async def go() -> dict[str, Any]:
            me = Seat(srv, tid, ana.cookie)
            await me.connect()
            await me.close()  # gone
            watcher = Seat(srv, tid)
            await watcher.connect()
            while not (watcher.view and watcher.view["over"]):
                await watcher.recv(timeout=30)
            tables = [m for m in watcher.messages if m["type"] == "table"]
            await watcher.close()
            return tables[0]["table"]

        table_msg = run(go())
        assert table_msg["seating"][0]["replaced"] and table_msg["seating"][0]["bot"] == "4"


@pytest.mark.parametrize("kind", BACKENDS)
def test_turn_timer_moves_for_a_silent_player(kind: str, tmp_path: Any) -> None:
    with own_server(kind, tmp_path) as srv:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", bots={1: "greedy"}, turn_seconds=5)

        async def go() -> None:
            me = Seat(srv, tid, ana.cookie)
            await me.connect()
            while not (me.view and 0 in me.view["to_act"]):
                await me.recv()
            assert me.messages[-1]["deadline"] is not None
            seq = me.seq
            msg = await me.expect("update", timeout=15)  # we stay silent: the timer plays
            assert msg["seq"] == seq + 1
            # said as such: time ran out, and a stand-in bot played for seat 0
            assert msg["events"][0] == {"type": "timeout", "seat": 0, "bot": "4"}
            assert msg["events"][1]["seat"] == 0
            await me.close()
            # and so it is told to who catches up later
            again = Seat(srv, tid, ana.cookie)
            welcome = await again.connect(last_seq=seq)
            assert welcome["missed"][0]["events"][0]["type"] == "timeout"
            await again.close()

        run(go())


def test_presence_says_who_is_away_and_until_when(server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("dominoes", seats=2)["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)

    async def go() -> None:
        a = Seat(server, tid, ana.cookie)
        welcome = await a.connect()
        assert {p["seat"]: p["connected"] for p in welcome["presence"]} == {0: True, 1: False}
        b = Seat(server, tid, bea.cookie)
        await b.connect()
        here = await a.expect("presence")
        while here["seats"][1]["connected"] is False:  # (ours, when we joined, came first)
            here = await a.expect("presence")
        assert [p["connected"] for p in here["seats"]] == [True, True]
        await b.close()
        gone = await a.expect("presence")
        away = gone["seats"][1]
        assert away["connected"] is False and "away_for" in away
        assert 0 < away["grace_ends"] - time.time() <= 60  # TAVERNA_GRACE_SECONDS: 60
        await a.close()

    run(go())


def test_a_person_plays_cards_against_a_bot_to_the_end(server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at("cards", settings={"target": 31}, bots={1: "greedy"}, muggins_wait=0)

    async def go() -> Seat:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        await me.play("greedy")
        await me.close()
        return me

    me = run(go())
    record = httpx.get(f"{server.http}/api/games/{tid}/record").json()["record"]
    check_messages_against_record(me, record, 0)


def test_two_people_and_two_bots_play_mus(server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    table = ana.create(
        "mus", settings={"cows": 1, "games_per_cow": 1}, bots={1: "greedy", 3: "random"}
    )
    tid = table["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 2)  # partners: seats 0 and 2
    ana.start(tid)

    async def go() -> tuple[Seat, Seat]:
        a, b = Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)
        await a.connect()
        await b.connect()
        assert "hand" in a.view and "hand" in b.view
        await asyncio.gather(a.play("greedy", seed=3), b.play("random", seed=4))
        await a.close()
        await b.close()
        return a, b

    a, b = run(go())
    record = httpx.get(f"{server.http}/api/games/{tid}/record").json()["record"]
    check_messages_against_record(a, record, 0)
    check_messages_against_record(b, record, 2)
    result = httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]["result"]
    assert result["over"] and result["winner"] in (0, 1) and "cows" in result


def test_a_person_plays_an_expert_bot(server: Server) -> None:
    """Expert bots think in a worker process; the game goes on to its end."""
    ana = Person(server, "Ana")
    tid = ana.play_at("dominoes", settings={"target": 30}, bots={1: "expert"})

    async def go() -> Seat:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        await me.play("random")
        await me.close()
        return me

    me = run(go())
    assert me.view is not None and me.view["over"]
    moves_by_bot = [
        e
        for m in me.messages
        if m["type"] == "update"
        for e in m["events"]
        if e.get("seat") == 1 and e["type"] in ("play", "draw", "pass")
    ]
    assert moves_by_bot


def test_leaving_a_running_game_hands_the_seat_to_a_bot(server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at("dominoes", settings={"target": 40}, bots={1: "greedy"}, turn_seconds=600)

    async def go() -> None:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        r = ana.http.delete(f"/api/tables/{tid}/seats/0")
        assert r.status_code == 200 and r.json()["table"]["seating"][0]["replaced"]
        # the connection becomes a spectator's at once
        welcome = await me.expect("welcome")
        assert welcome["seat"] is None and "hand" not in welcome["view"]
        await me.send({"type": "act", "action": {"type": "pass"}})
        assert (await me.expect("error"))["code"] == "spectator"
        # the stand-in bot plays on: updates keep coming without us
        seq = me.seq
        await me.expect("update")
        assert me.seq > seq
        await me.close()
        # leaving was a choice: coming back only watches
        again = Seat(server, tid, ana.cookie)
        welcome = await again.connect()
        assert welcome["seat"] is None
        assert welcome["table"]["seating"][0]["replaced"] is True
        await again.close()

    run(go())


@pytest.mark.parametrize("kind", BACKENDS)
def test_a_player_back_after_the_grace_period_gets_the_seat_back(kind: str, tmp_path: Any) -> None:
    with own_server(kind, tmp_path, TAVERNA_GRACE_SECONDS="1") as srv:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 60}, bots={1: "greedy"})

        async def go() -> None:
            me = Seat(srv, tid, ana.cookie)
            await me.connect()
            await me.close()
            await asyncio.sleep(2.5)  # past the grace period: a bot took the seat
            info = httpx.get(f"{srv.http}/api/tables/{tid}").json()["table"]["seating"][0]
            assert info["replaced"] and info["bot"]
            again = Seat(srv, tid, ana.cookie)
            welcome = await again.connect()
            if not welcome["view"]["over"]:
                assert welcome["seat"] == 0
                assert welcome["table"]["seating"][0]["replaced"] is False
            await again.close()

        run(go())


def test_validation_errors_name_the_field_and_docs_work_offline(server: Server) -> None:
    ana = Person(server, "Ana")
    r = ana.http.post("/api/tables", json={"game": "dominoes", "turn_seconds": 1})
    assert r.status_code == 422
    assert r.json()["detail"].startswith("turn_seconds: ")
    docs = httpx.get(f"{server.http}/docs")
    assert docs.status_code == 200 and "/openapi.json" in docs.text
    assert "cdn" not in docs.text.lower()


def test_automatic_moves_wait_while_a_card_score_is_unclaimed(server: Server) -> None:
    """PLATFORM.md: while a score is unclaimed, bots (their calls too) wait `muggins_wait`,
    so a person has the time to claim late; at three seats two bots could call."""
    ana = Person(server, "Ana")

    async def go(tid: str) -> float | None:
        """The wait after Ana plays a scoring card bare; None if the game ended first."""
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        while True:
            view = me.view
            assert view is not None
            if view["over"]:
                await me.close()
                return None  # the bots won before Ana had a scoring play: deals are random
            if view["turn"] == 0:
                scoring = [a for a in view["legal"] if a.get("claim") and a["type"] == "play"]
                if scoring and not view["pending"]:
                    bare = {"type": "play", "card": scoring[0]["card"]}  # no claim
                    await me.send({"type": "act", "action": bare})
                    await me.expect("update")
                    assert me.view is not None and me.view["pending"]["seat"] == 0
                    t0 = time.monotonic()
                    msg = await me.expect("update")
                    waited = time.monotonic() - t0
                    kinds = [e["type"] for e in msg["events"]]
                    assert "muggins" in kinds  # a bot called it, but only after the wait
                    await me.close()
                    return waited
                turn = [a for a in view["legal"] if a["type"] in ("play", "go")]
                await me.send({"type": "act", "action": turn[0]})
            await me.recv()

    for _ in range(5):  # a long game; each lacks a scoring play for Ana only rarely
        tid = ana.play_at(
            "cards",
            seats=3,
            settings={"target": 121},
            bots={1: "greedy", 2: "greedy"},
            bot_forget=0,
            muggins_wait=1.5,
            turn_seconds=600,
        )
        waited = run(go(tid))
        if waited is not None:
            break
    assert waited is not None, "no scoring chance came up in five games"
    assert waited >= 1.4


@pytest.mark.parametrize("kind", BACKENDS)
def test_leaving_stays_final_after_a_restart(kind: str, tmp_path: Any) -> None:
    # slow bots: the game is not over yet when the server restarts
    with own_server(kind, tmp_path, TAVERNA_BOT_DELAY="1") as srv:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", bots={1: "greedy"}, turn_seconds=600)
        r = ana.http.delete(f"/api/tables/{tid}/seats/0")
        assert r.status_code == 200 and r.json()["table"]["seating"][0]["left"] is True
        srv.kill()  # SIGKILL, then the tables resume from the database
        srv.start()

        async def go() -> dict[str, Any]:
            again = Seat(srv, tid, ana.cookie)
            welcome = await again.connect()
            await again.close()
            return welcome

        welcome = run(go())
        assert not welcome["view"]["over"]
        assert welcome["seat"] is None and "hand" not in welcome["view"]
        seating = welcome["table"]["seating"][0]
        assert seating["replaced"] is True and seating["left"] is True and seating["bot"]
