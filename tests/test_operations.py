"""What operators see (issue 16, one node): /metrics in Prometheus's format, counting
what happens; /api/health naming the node; JSON log lines with the node, table and
seat; the client's files compressed and validated."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from taverna.server.logs import JsonFormatter, TableLog, TextFormatter
from taverna.server.pages import MIN_COMPRESSED, WEB

from .server_helpers import Person, Seat, Server, database_url, own_server


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def scrape(server: Server) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of /metrics, parsed as Prometheus would: (name, labels) -> value."""
    r = httpx.get(f"{server.http}/metrics", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    samples = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            samples[s.name, tuple(sorted(s.labels.items()))] = s.value
    return samples


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


# ---------------------------------------------------------------- metrics


def test_metrics_count_moves_refusals_messages_and_limits(tmp_path: Path) -> None:
    with own_server(
        "sqlite", tmp_path, TAVERNA_NODE="north-1", TAVERNA_SOCKETS_PER_SESSION="2"
    ) as srv:
        before = scrape(srv)
        # what exists since the first /metrics, under the same names
        for name in (
            "taverna_moves_total",
            "taverna_tables_live",
            "taverna_connections",
            "taverna_bots_thinking",
            "taverna_database_up",
            "taverna_tables_set_aside",
        ):
            assert (name, ()) in before, name
        assert value(before, "taverna_node_info", node="north-1", version="0.1.0") == 1
        assert value(before, "taverna_database_up") == 1
        assert value(before, "taverna_moves_total") == 0
        assert ("process_cpu_seconds_total", ()) in before  # the process's own figures
        # the refusals' series are there at 0 before the first one: an alert on their
        # rate reads 0, not "no data"
        for limit in ("address", "session", "rate", "queue", "frames", "pings", "keepalive"):
            key = ("taverna_connections_refused_total", (("limit", limit),))
            assert before.get(key) == 0, key
        for reason in ("not_stored", "restarting", "spectator", "not_your_turn"):
            key = ("taverna_moves_refused_total", (("reason", reason),))
            assert before.get(key) == 0, key
        health = httpx.get(f"{srv.http}/api/health").json()
        assert health["node"] == "north-1" and health["ok"] and health["database"] == "ok"

        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 60}, bots={1: "greedy"})

        async def go() -> tuple[Seat, dict[Any, float]]:
            me = Seat(srv, tid, ana.cookie)
            await me.connect()
            # not an action at all: refused by the engine's parser, reason "invalid"
            await me.send({"type": "act", "action": {"type": "juggle"}, "id": 1})
            refused = await me.expect("error")
            assert refused["reason"] == "invalid"
            # a spectator cannot act: refused before the room sees it
            watcher = Seat(srv, tid)
            await watcher.connect()
            await watcher.send({"type": "act", "action": {"type": "pass"}, "id": 2})
            assert (await watcher.expect("error"))["code"] == "spectator"
            # a third socket of Ana's session is one too many (the limit is 2)
            second = Seat(srv, tid, ana.cookie)
            await second.connect()
            third = Seat(srv, tid, ana.cookie)
            with pytest.raises(websockets.ConnectionClosed):  # said why, then closed
                await third.connect()
            await second.close()
            # both seats move: Ana, and the bot in its turn
            await me.play(until=lambda view: me.seq >= 6)
            during = scrape(srv)
            await me.close()
            await watcher.close()
            return me, during

        me, during = run(go())
        after = scrape(srv)

    # every update after the first deal is a move (the bot may have made one more since)
    moves = value(after, "taverna_moves_total")
    assert moves >= me.seq - 1 >= 5
    # each stored move is measured once: from its arrival to its broadcast, by source,
    # and its database write
    player = value(after, "taverna_move_seconds_count", source="player")
    bot = value(after, "taverna_move_seconds_count", source="bot")
    assert player >= 1 and bot >= 1
    assert player + bot + value(after, "taverna_move_seconds_count", source="timeout") == moves
    assert value(after, "taverna_move_seconds_sum", source="player") > 0
    assert value(after, "taverna_move_seconds_bucket", source="player", le="+Inf") == player
    assert value(after, "taverna_database_write_seconds_count") == moves
    assert value(after, "taverna_bot_think_seconds_count", level="4") >= bot
    # refusals by reason
    assert value(after, "taverna_moves_refused_total", reason="invalid") == 1
    assert value(after, "taverna_moves_refused_total", reason="spectator") == 1
    assert value(after, "taverna_connections_refused_total", limit="session") == 1
    assert value(after, "taverna_connections_refused_total", limit="address") == 0
    # WebSocket messages: at least every act and hello in, every update out
    received = value(after, "taverna_websocket_messages_received_total", socket="table")
    sent = value(after, "taverna_websocket_messages_sent_total", socket="table")
    assert received >= 3 + 2 + player  # hellos, acts refused and made
    assert sent >= me.seq
    # while the game was on: a live table and open connections
    assert value(during, "taverna_tables_live") == 1
    assert value(during, "taverna_connections") >= 2


def test_metrics_negotiate_openmetrics(tmp_path: Path) -> None:
    with own_server("sqlite", tmp_path) as srv:
        r = httpx.get(
            f"{srv.http}/metrics", headers={"Accept": "application/openmetrics-text; version=1.0.0"}
        )
    assert r.headers["content-type"].startswith("application/openmetrics-text")
    assert r.text.rstrip().endswith("# EOF") and "taverna_moves_total 0" in r.text


# ------------------------------------------------------------------- logs


def test_json_log_lines_name_the_node_the_table_and_the_seat(tmp_path: Path) -> None:
    with own_server(
        "sqlite",
        tmp_path,
        TAVERNA_LOG_FORMAT="json",
        TAVERNA_ACCESS_LOG="1",
        TAVERNA_NODE="north-1",
        TAVERNA_GRACE_SECONDS="1",
    ) as srv:
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", settings={"target": 40}, bots={1: "greedy"})

        async def go() -> None:
            me = Seat(srv, tid, ana.cookie)
            await me.connect()
            await me.close()  # cut: past the grace period a bot takes the seat
            watcher = Seat(srv, tid)
            await watcher.connect()
            while not any(m["type"] == "table" for m in watcher.messages):
                await watcher.recv(timeout=30)
            await watcher.close()

        run(go())
        srv.stop()  # its last lines written
        text = srv.log_text()

    lines = [json.loads(line) for line in text.splitlines()]  # every line is JSON
    assert len(lines) >= 5
    for line in lines:
        assert {"time", "level", "logger", "message", "node"} <= line.keys(), line
        assert line["node"] == "north-1"
        assert line["time"].endswith("Z")
    replaced = [line for line in lines if "bot plays it" in line["message"]]
    assert len(replaced) == 1, lines
    assert replaced[0]["table"] == tid and replaced[0]["seat"] == 0
    assert replaced[0]["logger"] == "taverna.rooms"
    assert replaced[0]["message"] == "disconnected, the level 4 bot plays it"
    # uvicorn's lines, through the same formatter: the access log with its fields
    access = [line for line in lines if line["logger"] == "uvicorn.access"]
    assert any(a["path"] == "/api/session" and a["method"] == "POST" for a in access)
    assert any("WebSocket /ws/tables/" in line["message"] for line in lines)
    assert any(
        line["message"].startswith("Taverna ") and "ready" in line["message"] for line in lines
    )


def _record(about: TableLog, message: str, **kwargs: Any) -> logging.LogRecord:
    """The record a TableLog line makes (caught on the way out, not printed)."""
    caught: list[logging.LogRecord] = []

    class Catch(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            caught.append(record)

    handler = Catch()
    about.logger.addHandler(handler)
    try:
        about.warning(message, **kwargs)
    finally:
        about.logger.removeHandler(handler)
    return caught[0]


def test_a_table_line_reads_the_same_in_text_and_carries_fields_in_json() -> None:
    logger = logging.getLogger("taverna.test-ops")
    logger.propagate = False
    about = TableLog(logger, "6f1c")
    with_seat = _record(about, "could not give the seat back yet", seat=2)
    without = _record(about, "could not store its end yet")
    text = TextFormatter()
    assert text.format(with_seat).endswith(
        "WARNING taverna.test-ops: table 6f1c seat 2: could not give the seat back yet"
    )
    assert text.format(without).endswith("table 6f1c: could not store its end yet")
    line = json.loads(JsonFormatter("n1").format(with_seat))
    assert line["table"] == "6f1c" and line["seat"] == 2 and line["node"] == "n1"
    assert line["message"] == "could not give the seat back yet"
    assert "seat" not in json.loads(JsonFormatter("n1").format(without))


# ----------------------------------------------------------------- static


def test_the_client_files_are_compressed_and_validated(tmp_path: Path) -> None:
    with own_server("sqlite", tmp_path) as srv:
        http = httpx.Client(base_url=srv.http, timeout=10)
        # a client file big enough to be worth compressing (the new-table dialog)
        sample = "js/lobby/create.js"
        disk = (WEB / sample).read_bytes()
        assert len(disk) > 10_000
        r = http.get(f"/static/{sample}", headers={"Accept-Encoding": "gzip"})
        assert r.status_code == 200 and r.headers["content-encoding"] == "gzip"
        assert r.content == disk and r.num_bytes_downloaded < len(disk) / 2
        assert r.headers["cache-control"] == "no-cache"
        assert "Accept-Encoding" in r.headers["vary"]
        assert "script-src 'self'" in r.headers["content-security-policy"]
        etag, modified = r.headers["etag"], r.headers["last-modified"]
        assert etag.startswith('W/"')  # compressed: not the file's bytes
        # a browser that has it asks again and gets no body
        again = http.get(
            f"/static/{sample}", headers={"Accept-Encoding": "gzip", "If-None-Match": etag}
        )
        assert again.status_code == 304 and again.content == b""
        assert again.headers["cache-control"] == "no-cache"
        assert "script-src 'self'" in again.headers["content-security-policy"]
        since = http.get(f"/static/{sample}", headers={"If-Modified-Since": modified})
        assert since.status_code == 304
        # not asked for gzip: the file as it is, its ETag strong
        plain = http.get(f"/static/{sample}", headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers and plain.content == disk
        assert plain.headers["etag"] == etag.removeprefix("W/")
        assert plain.headers["content-length"] == str(len(disk))
        # the pages too: validated, and 304 while they are the same
        for path in ("/", "/rules", "/ranking", "/account"):
            page = http.get(path, headers={"Accept": "text/html"})
            assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
            assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
            same = http.get(path, headers={"If-None-Match": page.headers["etag"]})
            assert same.status_code == 304, path
        # a page nobody has is never "not modified"
        missing = http.get("/nosuch", headers={"Accept": "text/html", "If-None-Match": "*"})
        assert missing.status_code == 404
        # small answers are not compressed for nothing; large API answers are
        health = http.get("/api/health", headers={"Accept-Encoding": "gzip"})
        assert len(health.content) < MIN_COMPRESSED and "content-encoding" not in health.headers
        metrics = http.get("/metrics", headers={"Accept-Encoding": "gzip"})
        assert metrics.headers["content-encoding"] == "gzip"
        assert metrics.num_bytes_downloaded < len(metrics.content) / 2


def test_a_graceful_stop_after_the_strong_bots_thought_leaves_nothing_behind(
    tmp_path: Path,
) -> None:
    """SIGTERM once the node's thinking processes have run: they end before the server
    does, and the log has nothing but the club's own lines (Python's resource tracker
    warned of leaked semaphores at every stop)."""
    srv = Server(database_url("sqlite", tmp_path)).start()
    try:
        ana = Person(srv, "Ana")
        tid = ana.create("dominoes", bots={0: "expert", 1: "expert"})["id"]
        ana.start(tid)
        deadline = time.monotonic() + 60
        while value(scrape(srv), "taverna_bot_think_seconds_count", level="7") < 2:
            assert time.monotonic() < deadline, "the strong bots never thought"
            time.sleep(0.1)
    finally:
        srv.stop()
    log = srv.log_text()
    assert "leaked" not in log and "Traceback" not in log and "Warning" not in log, log
