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
