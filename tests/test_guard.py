"""What every request passes first (issue 13): another site's page cannot act here,
bodies are JSON of a bounded size, slow headers are cut off, pages get security headers."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
import websockets

from .server_helpers import Person, Server, database_url

EVIL = "http://evil.example:8000"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("guard")),
        TAVERNA_HEADER_TIMEOUT="1",
        TAVERNA_ALLOWED_ORIGINS="https://club.example, https://other.example/",
    ).start()
    yield srv
    srv.stop()


def test_a_page_of_another_origin_cannot_take_a_seat(server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.create("dominoes")["id"]
    # the classic: a form on another site posts to the club with the visitor's cookie
    r = ana.http.post(
        f"/api/tables/{tid}/seats/0",
        headers={"Origin": EVIL, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 403 and r.json()["code"] == "bad_origin", r.text
    r = ana.http.post(f"/api/tables/{tid}/seats/0", headers={"Origin": "null"})
    assert r.status_code == 403
    assert ana.http.get(f"/api/tables/{tid}").json()["table"]["seating"][0]["empty"]
    # the club's own page, a configured origin, and a client that is no browser page
    own = f"http://127.0.0.1:{server.port}"
    assert ana.http.post(f"/api/tables/{tid}/seats/0", headers={"Origin": own}).status_code == 200
    assert (
        ana.http.delete(f"/api/tables/{tid}/seats/0", headers={"Origin": EVIL}).status_code == 403
    )
    r = ana.http.delete(f"/api/tables/{tid}/seats/0", headers={"Origin": "https://other.example"})
    assert r.status_code == 200
    assert ana.http.post(f"/api/tables/{tid}/seats/0").status_code == 200  # no Origin: a CLI
    # reading is not acting: another page may look (what it reads, the browser hides)
    assert ana.http.get("/api/tables", headers={"Origin": EVIL}).status_code == 200


def test_a_socket_from_another_origin_is_refused(server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.create("dominoes")["id"]

    async def go() -> None:
        url = f"{server.ws}/ws/tables/{tid}"
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, additional_headers={"Cookie": ana.cookie, "Origin": EVIL})
        assert refused.value.response.status_code == 403
        own = f"http://127.0.0.1:{server.port}"
        async with websockets.connect(url, additional_headers={"Origin": own}) as ws:
            await ws.send(json.dumps({"type": "hello", "last_seq": None}))
            assert json.loads(await ws.recv())["type"] == "welcome"

    asyncio.run(go())


def test_bodies_are_json_and_bounded(server: Server) -> None:
    http = httpx.Client(base_url=server.http, timeout=10)
    r = http.post("/api/session", content='{"name": "Ana"}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["code"] == "not_json"
    assert "taverna_session" not in r.cookies
    big = json.dumps({"name": "x" * 200_000})
    r = http.post("/api/session", content=big, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"name": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'"}'

    r = http.post("/api/session", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
    assert http.get("/api/health").status_code == 200  # and the server is fine


def test_every_answer_carries_the_security_headers(server: Server) -> None:
    for path in ("/", "/api/health", "/static/js/app.js", "/nosuch"):
        r = httpx.get(server.http + path, headers={"Accept": "text/html"})
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["x-frame-options"] == "DENY"


def _held_for(server: Server, first: bytes, then: bytes, every: float) -> float:
    """How long the server keeps a connection that sends ``first``, then ``then`` a byte
    every ``every`` seconds, never finishing its headers."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        start = time.monotonic()
        s.sendall(first)
        for b in then:
            ready, _, _ = select.select([s], [], [], every)
            if ready and s.recv(1) == b"":  # the server closed it
                break
            try:
                s.sendall(bytes([b]))
            except OSError:
                break
        return time.monotonic() - start


def test_slow_or_idle_request_headers_are_cut_off(server: Server) -> None:
    # TAVERNA_HEADER_TIMEOUT=1 here (10 s by default)
    slow = _held_for(server, b"GET / HTTP/1.1\r\n", b"Host: 127.0.0.1\r\nX-Slow: " + b"a" * 40, 0.2)
    assert 0.8 < slow < 4, slow
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        start = time.monotonic()
        assert s.recv(1) == b""  # an idle connection that never says anything
        assert time.monotonic() - start < 4
    # a request in time is served as ever
    assert httpx.get(f"{server.http}/api/health").status_code == 200


def _twenty_mib() -> Iterator[bytes]:
    """20 MiB of a JSON body sent chunked: no Content-Length to refuse it by."""
    for _ in range(20 * 16):
        yield b" " * 65536


def test_a_chunked_body_is_bounded_on_routes_that_read_none(server: Server) -> None:
    """A route that takes no body never reads it: the guard must, or the server reads 20
    MiB and answers as if nothing were wrong. Each refused request changes nothing."""
    ana = Person(server, "Ana")
    tid = ana.create("dominoes")["id"]
    ana.sit(tid, 0)
    json_type = {"Content-Type": "application/json"}
    for method, path in [
        ("POST", "/api/logout"),
        ("POST", f"/api/tables/{tid}/seats/1"),
        ("DELETE", f"/api/tables/{tid}/seats/0"),
        ("POST", f"/api/tables/{tid}/start"),
        ("POST", f"/api/tables/{tid}/again"),
        ("DELETE", "/api/tournaments/nosuch/entries"),
        ("POST", f"/api/games/{tid}/reviews/0"),
    ]:
        r = ana.http.request(method, path, content=_twenty_mib(), headers=json_type)
        assert r.status_code == 413 and r.json()["code"] == "too_large", (method, path, r.text)
    seating = ana.http.get(f"/api/tables/{tid}").json()["table"]["seating"]
    assert not seating[0]["empty"] and seating[1]["empty"]  # nobody sat or left
    assert ana.http.get("/api/me").status_code == 200  # still logged in
    # a small chunked body on such a route is let through, as with a Content-Length
    seat = f"/api/tables/{tid}/seats/0"
    r = ana.http.request("DELETE", seat, content=iter([b"{}"]), headers=json_type)
    assert r.status_code == 200, r.text
    assert ana.http.get(f"/api/tables/{tid}").json()["table"]["seating"][0]["empty"]
