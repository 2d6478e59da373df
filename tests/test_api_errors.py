"""The HTTP API refuses the same thing the same way everywhere: an unknown game is
``unknown_game`` (404) whether it is asked for in a path or a query, and a body
that is not JSON says so."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from .server_helpers import Person, Server, database_url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("db"))).start()
    yield srv
    srv.stop()


UNKNOWN = {
    "detail": "unknown game 'chess' (known: muggins-cards, muggins-dominoes, mus)",
    "code": "unknown_game",
    "params": {"game": "chess"},
}


@pytest.mark.parametrize(
    "path", ["/api/ranking/chess", "/api/tables?game=chess", "/api/history?game=chess"]
)
def test_an_unknown_game_is_the_same_404_everywhere(server: Server, path: str) -> None:
    r = httpx.get(server.http + path)
    assert r.status_code == 404
    assert r.json() == UNKNOWN


def test_a_new_table_of_an_unknown_game_is_the_same_refusal_as_a_422(server: Server) -> None:
    ana = Person(server, "Ana")
    r = ana.http.post("/api/tables", json={"game": "chess"})
    assert r.status_code == 422  # a field of the body, as every other bad field
    assert r.json() == UNKNOWN


def test_the_game_filter_takes_the_short_names_too(server: Server) -> None:
    ana = Person(server, "Bea")
    tid = ana.create("muggins-dominoes")["id"]
    for game in ("dominoes", "muggins-dominoes"):
        r = httpx.get(f"{server.http}/api/tables", params={"game": game})
        assert r.status_code == 200
        assert tid in [t["id"] for t in r.json()["tables"]], game
    r = httpx.get(f"{server.http}/api/tables", params={"game": "mus"})
    assert tid not in [t["id"] for t in r.json()["tables"]]
    assert httpx.get(f"{server.http}/api/history", params={"game": "cards"}).status_code == 200


@pytest.mark.parametrize(
    ("body", "detail"),
    [
        ("not json", "the request body is not valid JSON: Expecting value at character 0"),
        ('{"name": ', "the request body is not valid JSON: Expecting value at character 9"),
        ("[1]", "the request body must be a JSON object"),
        ("", "the request needs a JSON object as its body"),
    ],
)
def test_a_body_that_is_not_a_json_object_says_so(server: Server, body: str, detail: str) -> None:
    r = httpx.post(
        f"{server.http}/api/session",
        content=body,
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 422
    assert r.json() == {"detail": detail, "code": "invalid", "params": {"fields": []}}


# ---------------------------------------------- numbers a client sends (issue 13)


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def any_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    srv = Server(database_url(request.param, tmp_path_factory.mktemp("bounds"))).start()
    yield srv
    srv.stop()


@pytest.mark.parametrize(
    "path",
    [
        "/api/ranking/mus?offset=9223372036854775808",
        "/api/ranking/mus?offset=-1",
        "/api/ranking/mus?limit=100000000000000000000",
        "/api/players/nobody?limit=99999999999999999999999",
    ],
)
def test_every_number_in_a_query_is_bounded(any_server: Server, path: str) -> None:
    r = httpx.get(any_server.http + path)
    assert r.status_code == 422 and r.json()["code"] == "invalid", r.text


def test_numbers_in_a_path_and_in_settings_are_bounded(any_server: Server) -> None:
    ana = Person(any_server, "Ana")
    tid = ana.create("dominoes")["id"]
    r = ana.http.post(f"/api/tables/{tid}/seats/99999999999999999999999")
    assert r.status_code == 422 and r.json()["code"] == "invalid"
    for digits in (4001, 5001):  # past 4,300 digits Python will not even read the number
        body = '{"game": "dominoes", "settings": {"target": 1' + "0" * (digits - 1) + "}}"
        r = ana.http.post("/api/tables", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (400, 422), r.text
    r = ana.http.post("/api/tables", json={"game": "cards", "settings": {"target": 10**7}})
    assert r.status_code == 422 and r.json()["code"] == "bad_setting"
    assert "at most 1,000,000" in r.json()["detail"]
    r = ana.http.post("/api/tables", json={"game": "cards", "settings": {"target": 1000}})
    assert r.status_code == 201


def test_head_answers_as_get_without_a_body(any_server: Server) -> None:
    for path in ("/", "/api/health", "/api/tables", "/static/js/app.js"):
        get = httpx.get(any_server.http + path)
        head = httpx.head(any_server.http + path)
        assert head.status_code == get.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]
