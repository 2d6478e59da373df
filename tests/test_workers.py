"""Bot workers (issue 16; docs/scaling.md): a node with Redis sends its strong bots'
decisions to `taverna worker` processes, and thinks itself when there is none, when
Redis fails, or when an answer does not come in time.

Every test has a redis-server of its own on a free port (tests/redis_helpers.py), and
a real server and real workers in subprocesses; a person plays Mus over the WebSocket
against three expert bots whose budget (TAVERNA_BOT_OPTIONS) keeps the games short.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taverna.bots.decision import ask

from .redis_helpers import (
    OwnRedis,
    WorkerProcess,
    bot_env,
    local,
    metrics,
    own_redis,
    wait_for,
)
from .restart_helpers import sql
from .server_helpers import Person, Seat, Server, own_server

pytestmark = pytest.mark.slow

MUS = {"cows": 1, "games_per_cow": 1}
EXPERTS = {1: "expert", 2: "expert", 3: "expert"}
#: a quick search: a whole game in seconds
QUICK = {"iterations": 60}
#: a search that takes its whole time (stopped by the safety cap ``seconds``, no early
#: stop: settle 0):
#: a worker is caught at it
SLOW = {"iterations": 10**7, "seconds": 2.5, "pool": 16, "settle": 0}


@pytest.fixture
def redis_server() -> Iterator[OwnRedis]:
    with own_redis() as r:
        yield r


def health(server: Server) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{server.http}/api/health", timeout=10).json()
    return answer


def workers_seen(server: Server, count: int) -> None:
    wait_for(
        lambda: health(server)["bots"]["workers"] == count,
        15,
        f"the server never saw {count} worker(s): {health(server)}",
    )


def start_table(server: Server) -> tuple[Person, str]:
    ana = Person(server, "Ana")
    return ana, ana.play_at("mus", settings=MUS, bots=EXPERTS)


def pending(r: OwnRedis) -> list[dict[str, Any]]:
    """The decisions workers hold in the queue now (XPENDING)."""
    held: list[dict[str, Any]] = r.client().xpending_range("taverna:bots", "workers", "-", "+", 10)
    return held


async def play_to_the_end(server: Server, tid: str, cookie: str) -> Seat:
    seat = Seat(server, tid, cookie)
    await seat.connect()
    await seat.play("greedy")
    await seat.close()
    return seat


def test_a_worker_makes_the_strong_bots_decisions_of_a_whole_game(
    redis_server: OwnRedis, tmp_path: Any
) -> None:
    with own_server("sqlite", tmp_path, **bot_env(redis_server.url, **QUICK)) as server:
        worker = WorkerProcess(redis_server.url, "solo").ready()
        try:
            workers_seen(server, 1)
            ana, tid = start_table(server)
            seat = asyncio.run(play_to_the_end(server, tid, ana.cookie))
            assert seat.view is not None and seat.view["over"]
            figures = metrics(server)
            decided = worker.decided()
            # every decision of the three experts was the worker's, none the node's
            assert figures['taverna_bot_requests_total{outcome="sent"}'] == len(decided) >= 8
            assert figures['taverna_bot_requests_total{outcome="answered"}'] == len(decided)
            assert local(figures) == {}
            assert figures['taverna_bot_think_seconds_count{level="7"}'] == len(decided)
            assert {line["table"] for line in decided} == {tid}
            assert {line["seat"] for line in decided} == {1, 2, 3}
            bots = health(server)["bots"]
            assert bots["redis"] == "ok" and bots["workers"] == 1 and bots["waiting"] == 0
        finally:
            worker.stop()
        assert worker.proc.returncode == 0
        assert worker.lines()[-1]["message"] == f"stopped after {len(decided)} decision(s)"
        workers_seen(server, 0)  # a worker that stops says so at once


def test_a_worker_killed_while_thinking_another_makes_the_decision(
    redis_server: OwnRedis, tmp_path: Any
) -> None:
    env = {**bot_env(redis_server.url, **SLOW), "TAVERNA_BOT_DEADLINE": "30"}
    with own_server("sqlite", tmp_path, **env) as server:
        first = WorkerProcess(redis_server.url, "first").ready()
        second: WorkerProcess | None = None
        try:
            workers_seen(server, 1)
            ana, tid = start_table(server)

            async def go() -> None:
                nonlocal second
                seat = Seat(server, tid, ana.cookie)
                await seat.connect()
                # a bot is to move: the first worker takes its decision, and dies at it
                play = asyncio.ensure_future(seat.play("greedy"))
                held = await asyncio.to_thread(
                    wait_for, lambda: pending(redis_server), 30, "no worker took a decision"
                )
                assert held[0]["consumer"].startswith("first-")
                first.kill()
                second = WorkerProcess(redis_server.url, "second")
                await asyncio.to_thread(
                    wait_for, second.decided, 30, "the second worker decided nothing"
                )
                play.cancel()
                await seat.close()

            asyncio.run(go())
            assert second is not None
            taken = second.decided()[0]
            assert taken["message"].endswith("(delivery 2)"), taken
            assert taken["table"] == tid
            assert first.decided() == []
            figures = metrics(server)
            assert figures['taverna_bot_requests_total{outcome="answered"}'] >= 1
            assert figures['taverna_bot_requests_total{outcome="timed_out"}'] == 0
            assert local(figures) == {}  # the node never thought itself
        finally:
            first.stop()
            if second is not None:
                second.stop()


def test_no_worker_the_node_thinks_itself_and_the_game_goes_on(
    redis_server: OwnRedis, tmp_path: Any
) -> None:
    with own_server("sqlite", tmp_path, **bot_env(redis_server.url, **QUICK)) as server:
        ana, tid = start_table(server)
        seat = asyncio.run(play_to_the_end(server, tid, ana.cookie))
        assert seat.view is not None and seat.view["over"]
        figures = metrics(server)
        made = figures['taverna_bot_think_seconds_count{level="7"}']
        assert made >= 8
        assert local(figures) == {"no_workers": made}
        assert figures['taverna_bot_requests_total{outcome="sent"}'] == 0
        assert health(server)["bots"] == {
            "redis": "ok",
            "workers": 0,
            "queue": 0,
            "oldest_seconds": 0,
            "waiting": 0,
        }


def test_redis_stopped_while_a_worker_thinks_the_node_thinks_itself(
    redis_server: OwnRedis, tmp_path: Any
) -> None:
    """Redis goes while a decision is with a worker: the answer never comes, and the node
    thinks itself at its deadline and stores the move. Then, Redis still away, the node
    lets the table go (a node of a cluster stores nothing without its lease) and tells
    the player the server is reconnecting; when Redis is back, the table goes on, and
    nothing was lost."""
    # the node must think and store its move before its lease lapses without Redis
    # (most of cluster.LEASE_MS): a short deadline and a short search leave it seconds to
    # spare on a loaded machine; the worker is frozen once it holds the decision, so its
    # answer never comes however short its search
    slow = {**SLOW, "seconds": 0.5}
    env = {**bot_env(redis_server.url, **slow), "TAVERNA_BOT_DEADLINE": "1"}
    with own_server("sqlite", tmp_path, **env) as server:
        worker = WorkerProcess(redis_server.url, "w").ready()
        try:
            workers_seen(server, 1)
            ana, tid = start_table(server)
            # the figures before the worker is frozen, and before Redis is back
            start: dict[str, float] = {}
            before: dict[str, float] = {}

            async def go() -> Seat:
                seat = Seat(server, tid, ana.cookie)
                await seat.connect()
                play = asyncio.ensure_future(seat.play("greedy"))
                await asyncio.to_thread(
                    wait_for, lambda: pending(redis_server), 30, "no worker took a decision"
                )
                # an earlier decision may have timed out too on a loaded machine (the
                # deadline is short): the count is taken from here
                start.update(await asyncio.to_thread(metrics, server))
                worker.proc.send_signal(signal.SIGSTOP)
                held = seat.seq
                redis_server.stop()
                worker.proc.send_signal(signal.SIGCONT)  # its answer finds no Redis
                # the node thinks itself at the deadline: the table moves on
                await asyncio.to_thread(
                    wait_for, lambda: seat.seq > held, 15, "the node never thought itself"
                )
                play.cancel()
                await asyncio.gather(play, return_exceptions=True)
                # the playing task may have read it already (the lease lapses soon after)
                told = [m for m in seat.messages if m["type"] == "closing"]
                closing = told[0] if told else await seat.expect("closing", timeout=20)
                assert closing["reason"] == "restart"
                # and counted before Redis is back, for the same reason
                before.update(await asyncio.to_thread(metrics, server))
                redis_server.start()
                again = Seat(server, tid, ana.cookie)
                await asyncio.to_thread(
                    wait_for,
                    lambda: health(server)["cluster"]["tables_owned"] == 1,
                    20,
                    "the node never took the table back",
                )
                welcome = await again.connect(last_seq=seat.seq)
                assert welcome["seq"] >= seat.seq  # nothing lost
                await play_until_our_turn(
                    again, asyncio.ensure_future(asyncio.sleep(0)), welcome["seq"] + 2
                )
                return again

            seat = asyncio.run(go())
        finally:
            worker.stop()
        assert seat.view is not None
        timed_out = 'taverna_bot_requests_total{outcome="timed_out"}'
        # the one that was with the worker
        assert local(before)["timed_out"] - local(start).get("timed_out", 0) == 1
        assert before[timed_out] - start.get(timed_out, 0) == 1
        assert set(local(before)) <= {"timed_out", "redis_error", "no_workers", "backlog"}
        figures = metrics(server)
        assert set(local(figures)) <= {"timed_out", "redis_error", "no_workers", "backlog"}
        # every update came, in order (Seat checks), and every move is stored
        stored = sql(server.url, "SELECT count(*) FROM actions WHERE table_id = :t", t=tid)
        assert stored[0][0] == seat.seq - 1
        assert "Traceback" not in server.log_text()
        assert worker.proc.returncode == 0  # it waited for Redis, and stopped when told


async def play_until_our_turn(seat: Seat, play: asyncio.Future[None], seq: int) -> None:
    """Let ``play`` go on until the table has reached ``seq`` and waits for our seat."""
    play.cancel()
    await asyncio.gather(play, return_exceptions=True)
    assert seat.seat is not None
    me = seat.seat

    def ours(view: dict[str, Any]) -> bool:
        return seat.seq >= seq and me in view["to_act"]

    await asyncio.wait_for(seat.play("greedy", until=ours), 120)
    await seat.close()


def test_a_late_answer_is_dropped(redis_server: OwnRedis, tmp_path: Any) -> None:
    """The node waits half a second; the worker takes longer: the node thinks itself and
    the table moves on; the worker's answer, when it comes, is dropped."""
    slow = {**SLOW, "seconds": 1.2}
    env = {**bot_env(redis_server.url, **slow), "TAVERNA_BOT_DEADLINE": "0.5"}
    with own_server("sqlite", tmp_path, **env) as server:
        worker = WorkerProcess(redis_server.url, "slow").ready()
        try:
            workers_seen(server, 1)
            ana, tid = start_table(server)

            async def go() -> Seat:
                seat = Seat(server, tid, ana.cookie)
                await seat.connect()
                play = asyncio.ensure_future(seat.play("greedy"))
                await asyncio.to_thread(
                    wait_for,
                    lambda: metrics(server)["taverna_bot_answers_dropped_total"] >= 1,
                    30,
                    "no late answer was dropped",
                )
                await play_until_our_turn(seat, play, seat.seq + 1)
                return seat

            seat = asyncio.run(go())
        finally:
            worker.stop()
        figures = metrics(server)
        late = worker.decided()[0]
        assert float(late["message"].split(" in ")[1].split(" s")[0]) > 0.5
        assert figures['taverna_bot_requests_total{outcome="answered"}'] == 0
        assert local(figures)["timed_out"] >= 1
        # the table moved on with the node's own decisions; every move stored, once
        stored = sql(server.url, "SELECT count(*) FROM actions WHERE table_id = :t", t=tid)
        assert stored[0][0] == seat.seq - 1 >= 1


def test_a_worker_without_redis_says_so_in_one_line() -> None:
    port = OwnRedis().port  # a free port: nothing listens there
    done = subprocess.run(
        [sys.executable, "-m", "taverna", "worker", "--redis", f"redis://127.0.0.1:{port}/0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"taverna worker: Redis at redis://127.0.0.1:{port}/0: ")
    assert "does not answer" in lines[0]


def test_health_and_metrics_say_nothing_of_bots_without_redis(tmp_path: Any) -> None:
    with own_server("sqlite", tmp_path, **bot_env(None, **QUICK)) as server:
        assert "bots" not in health(server)
        ana, tid = start_table(server)
        seat = asyncio.run(play_to_the_end(server, tid, ana.cookie))
        assert seat.view is not None and seat.view["over"]
        figures = metrics(server)
        assert "taverna_bot_workers_seen" not in figures
        made = figures['taverna_bot_think_seconds_count{level="7"}']
        assert local(figures) == {"no_redis": made}


def test_a_worker_stopped_while_thinking_answers_first(
    redis_server: OwnRedis, tmp_path: Any
) -> None:
    """SIGTERM: the decision under way is finished and answered, then the worker stops."""
    env = {**bot_env(redis_server.url, **SLOW), "TAVERNA_BOT_DEADLINE": "30"}
    with own_server("sqlite", tmp_path, **env) as server:
        worker = WorkerProcess(redis_server.url, "w").ready()
        try:
            workers_seen(server, 1)
            ana, tid = start_table(server)

            async def go() -> None:
                seat = Seat(server, tid, ana.cookie)
                await seat.connect()
                play = asyncio.ensure_future(seat.play("greedy"))
                await asyncio.to_thread(
                    wait_for, lambda: pending(redis_server), 30, "no worker took a decision"
                )
                worker.proc.terminate()
                assert await asyncio.to_thread(worker.proc.wait, 30) == 0
                play.cancel()
                await seat.close()

            asyncio.run(go())
        finally:
            worker.stop()
        messages = [line["message"] for line in worker.lines()]
        assert "stopping once its decision under way is answered" in messages
        assert messages[-1] == "stopped after 1 decision(s)"
        wait_for(
            lambda: metrics(server)['taverna_bot_requests_total{outcome="answered"}'] == 1,
            10,
            "the node never had the answer",
        )
        assert local(metrics(server)) == {}
        assert pending(redis_server) == []


def test_a_worker_gives_up_a_decision_delivered_too_often_and_drops_what_it_cannot_use(
    redis_server: OwnRedis,
) -> None:
    """A decision that three workers took and never answered (each died at it, say) is
    answered with an error (its node thinks itself at once); one older than its node's
    deadline, or that is not a request, is dropped unanswered."""
    from taverna.bots import make_bot
    from taverna.games import get_game
    from taverna.server.botqueue import GROUP, STREAM, TRIES
    from taverna.worker import Worker

    r = redis_server.client()
    cls = get_game("mus")
    state = cls.new(4, seed=3)
    seat = state.to_act[0]
    request = ask(make_bot("expert", cls, seat, iterations=20), state.view(seat), seed=1)

    def envelope(rid: str, deadline: float) -> dict[str, str]:
        body = {**request, "id": rid, "reply": f"taverna:answers:test:{rid}"}
        return {"request": json.dumps({**body, "table": "t", "seq": 1, "deadline": deadline})}

    async def scene() -> list[Any]:
        r.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
        # the poison: taken by a "ghost" consumer TRIES times, idle for a minute
        poison = r.xadd(STREAM, envelope("poison", 30))
        r.xreadgroup(GROUP, "ghost", {STREAM: ">"}, count=1)
        for _ in range(TRIES - 1):
            r.xclaim(STREAM, GROUP, "ghost", 0, [poison])
        r.xclaim(STREAM, GROUP, "ghost", 0, [poison], idle=60_000, justid=True)
        r.xadd(STREAM, envelope("stale", 0))  # its node gave up on it already
        r.xadd(STREAM, {"request": "{not json"})
        worker = Worker(redis_server.url, "w")
        running = asyncio.ensure_future(worker.run())
        answer = await asyncio.to_thread(r.blpop, ["taverna:answers:test:poison"], 20)
        await asyncio.to_thread(wait_for, lambda: r.xlen(STREAM) == 0, 20, "the queue kept some")
        worker.stop()
        await running
        return [answer, r.llen("taverna:answers:test:stale"), worker.decided]

    answer, stale_answers, decided = asyncio.run(scene())
    assert answer is not None
    assert json.loads(answer[1]) == {
        "id": "poison",
        "worker": "w",
        "error": f"given up after {TRIES} tries",
    }
    assert stale_answers == 0
    assert decided == 0
    assert pending(redis_server) == []


def test_concurrency_runs_that_many_workers_and_sigterm_stops_them_all(
    redis_server: OwnRedis,
) -> None:
    worker = WorkerProcess(redis_server.url, "multi", "--concurrency", "3")
    r = redis_server.client()
    try:
        names = wait_for(
            lambda: (
                len(r.zrange("taverna:workers", 0, -1)) == 3 and r.zrange("taverna:workers", 0, -1)
            ),
            30,
            "three worker processes never beat",
        )
        assert all(n.startswith("multi-") for n in names)
        worker.proc.terminate()
        assert worker.proc.wait(30) == 0
    finally:
        worker.stop()
    assert r.zcard("taverna:workers") == 0  # each left as it stopped
    said = [line["message"] for line in worker.lines()]
    assert said.count("stopped after 0 decision(s)") == 3
    assert {line["node"] for line in worker.lines()} == set(names)


def test_a_review_is_made_by_the_worker_when_the_cluster_has_one(
    redis_server: OwnRedis, tmp_path: Any
) -> None:
    """Issue 19: a finished game's review goes to the bot workers, decision by decision,
    like a bot's; the node thinks none of it itself."""
    from .test_game_review import play_out, wait_done

    with own_server("sqlite", tmp_path, **bot_env(redis_server.url, **QUICK)) as server:
        worker = WorkerProcess(redis_server.url, "coach").ready()
        try:
            workers_seen(server, 1)
            tid, ana = play_out(server, seed=2)
            assert ana.http.post(f"/api/games/{tid}/reviews/0").status_code == 202
            review = wait_done(server, tid, 0)
            reviewed = [line for line in worker.lines() if line["message"].startswith("reviewed")]
            assert len(reviewed) == review["total"] == len(review["result"]["moments"]) > 0
            assert {line["table"] for line in reviewed} == {tid}
            assert {line["seat"] for line in reviewed} == {0}
            assert worker.decided() == []  # the greedy bot decided at the node, inline
        finally:
            worker.stop()
