"""Skill ratings for real (issue 18): Glicko-2 after every ranked official game, on
SQLite and PostgreSQL; a voided game moves no rating; the ratings recomputed from the
stored results are the stored ones, to the last bit.

Every client says its own address (the trusted proxy header, ``accounts_helpers``),
so the shared-address rule voids only the game where two players share one.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .accounts_helpers import ACCOUNT_ENV, Member, wait_finished
from .server_helpers import Server, database_url, drop_database

DOMINOES = "muggins-dominoes"


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, **ACCOUNT_ENV).start()
    yield srv
    srv.stop()
    drop_database(url)


def official_game(server: Server, people: list[Member], target: int = 30) -> dict[str, Any]:
    """An official dominoes game of ``people`` played to its end; the finished table."""
    table = people[0].create(
        "dominoes", seats=len(people), official=True, stake=10, settings={"target": target}
    )
    for i, p in enumerate(people):
        p.sit(table["id"], i)
    people[0].start(table["id"])

    async def go() -> None:
        seats = [p.seat(table["id"]) for p in people]
        for s in seats:
            await s.connect()
        await asyncio.gather(*(s.play("greedy", seed=k) for k, s in enumerate(seats)))
        for s in seats:
            await s.close()

    asyncio.run(go())
    return wait_finished(server, table["id"])


def skill(server: Server, member: Member) -> dict[str, Any] | None:
    player = httpx.get(f"{server.http}/api/players/{member.name}").json()["player"]
    return player["skills"].get(DOMINOES)  # type: ignore[no-any-return]


def test_ratings_follow_official_games_and_recompute_to_the_same_numbers(
    server: Server,
) -> None:
    ana, bea, cid = (Member(server, n, f"10.40.0.{i}") for i, n in enumerate("ABC", 1))
    first = official_game(server, [ana, bea])
    winner, loser = (ana, bea) if first["result"]["winner"] == 0 else (bea, ana)
    # two newcomers (1500, RD 350, σ 0.06), one game. By hand: the opponent's
    # g = 1/√(1 + 3·(350/173.7178)²/π²) = 0.669069, E = 0.5, v = 1/(g²/4) = 8.935475;
    # φ* = √(4.059265 + 0.0036) = 2.015655; φ' = 1/√(1/φ*² + 1/v) = 1.671216;
    # μ' = ±φ'²·g/2 = ±0.934338: 1500 ± 162.31 = 1662.31 / 1337.69, RD' 290.32
    won, lost = skill(server, winner), skill(server, loser)
    assert won is not None and lost is not None
    assert (won["rating"], won["rd"], won["provisional"]) == (1662, 290, True)
    assert (lost["rating"], lost["rd"]) == (1338, 290)
    assert won["history"][0]["rating"] == pytest.approx(1662.3, abs=0.05)
    assert won["history"][0]["before"] == 1500.0 and won["history"][0]["table"] == first["id"]

    # more games: two of two players, one of three (the pairwise outcomes)
    official_game(server, [bea, cid])
    official_game(server, [cid, ana])
    three = official_game(server, [ana, bea, cid], target=20)
    assert three["result"]["settlement"]["ranked"] is True
    for m in (ana, bea, cid):
        s = skill(server, m)
        assert s is not None and s["rated_games"] == len(s["history"])
        assert s["history"][-1]["table"] == three["id"]
    # the winner of the three-player game beat both others: it went up
    champ = [ana, bea, cid][three["result"]["winner"]]
    last = skill(server, champ)["history"][-1]  # type: ignore[index]
    assert last["rating"] > last["before"]

    # a voided game (two on one address) moves no rating
    dan, eva = Member(server, "D", "10.40.1.9"), Member(server, "E", "10.40.1.9")
    voided = official_game(server, [dan, eva])
    assert voided["result"]["settlement"]["why"] == "shared_address"
    assert skill(server, dan) is None and skill(server, eva) is None

    # the ranking by rating: established before provisional, then best first
    rows = httpx.get(f"{server.http}/api/ranking/dominoes?by=rating").json()["ranking"]
    names = [r["player"] for r in rows]
    assert {ana.name, bea.name, cid.name} <= set(names)
    assert dan.name not in names
    ratings = [r["rating"] for r in rows if r["provisional"]]
    assert ratings == sorted(ratings, reverse=True)
    assert httpx.get(f"{server.http}/api/ranking/dominoes?by=luck").status_code == 422

    # recomputed from the stored results alone: the very same numbers
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "taverna",
            "admin",
            "ratings",
            "dominoes",
            "--database",
            server.url,
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    found = json.loads(out.stdout)
    assert {ana.player["id"], bea.player["id"], cid.player["id"]} <= set(found)
    for entry in found.values():
        assert entry["stored"] == entry["computed"] and entry["stored"] is not None
