"""Play ranked (issue 18): an official table of registered players near each other's
skill rating, made from those waiting for one; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from taverna.server.matchmaking import rating_window

from .accounts_helpers import ACCOUNT_ENV, Member
from .restart_helpers import sql
from .server_helpers import Person, Server, database_url, drop_database


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, **ACCOUNT_ENV).start()
    yield srv
    srv.stop()
    drop_database(url)


def ranked(member: Any, game: str = "dominoes") -> dict[str, Any]:
    r = member.http.post("/api/play-ranked", json={"game": game})
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_two_players_of_like_rating_meet_at_an_official_table(server: Server) -> None:
    ana, bea = Member(server, "Ana", "10.95.0.1"), Member(server, "Bea", "10.95.0.2")
    first = ranked(ana)
    assert first["seat"] == 0 and first["table"]["official"] is True
    assert first["table"]["status"] == "open" and first["table"]["stake"] == 10
    again = ranked(ana)  # asked twice: the same table
    assert again["table"]["id"] == first["table"]["id"]
    second = ranked(bea)
    assert second["table"]["id"] == first["table"]["id"] and second["seat"] == 1
    assert second["table"]["status"] == "playing"  # full: started, stakes held
    assert ana.chips() == 990 and bea.chips() == 990
    assert all(s["bot"] is None for s in second["table"]["seating"])


def test_players_far_apart_in_rating_wait_at_tables_of_their_own(server: Server) -> None:
    strong, newcomer = Member(server, "Strong", "10.96.0.1"), Member(server, "New", "10.96.0.2")
    sql(
        server.url,
        "INSERT INTO skills (player_id, game, rating, rd, vol, games) "
        "VALUES (:p, 'muggins-cards', 2000, 60, 0.06, 40)",
        p=strong.player["id"],
    )
    waiting = ranked(newcomer, "cards")
    theirs = ranked(strong, "cards")
    assert theirs["table"]["id"] != waiting["table"]["id"]  # 500 apart: not yet
    assert theirs["table"]["options"]["ranked"]["rating"] == 2000.0


def test_a_guest_may_not_play_ranked(server: Server) -> None:
    guest = Person(server, "Guest")
    r = guest.http.post("/api/play-ranked", json={"game": "dominoes"})
    assert r.status_code == 403 and r.json()["code"] == "not_registered"


def test_the_window_widens_with_the_wait() -> None:
    assert rating_window(0) == 150 and rating_window(9.9) == 150
    assert rating_window(10) == 200 and rating_window(65) == 450
    assert rating_window(120) == float("inf")
