"""Official games for real, on SQLite and PostgreSQL: stakes, points, abandons, the same-IP rule.

Registered people play over WebSockets from addresses of their own (see
``accounts_helpers``); the server's grace period is one second, so a player
who stays away is replaced (and counted as abandoning) quickly.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .accounts_helpers import ACCOUNT_ENV, AddressedSeat, Member, wait_finished, wait_for
from .server_helpers import Server, database_url, drop_database

BACKENDS = ["sqlite", "postgres"]
DOMINOES = "muggins-dominoes"


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, **ACCOUNT_ENV, TAVERNA_GRACE_SECONDS="1").start()
    yield srv
    srv.stop()
    drop_database(url)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def official_dominoes(
    server: Server, *addresses: str, stake: int = 100, target: int = 50
) -> tuple[list[Member], str]:
    people = [Member(server, f"P{i}", a) for i, a in enumerate(addresses)]
    table = people[0].create(
        "dominoes", seats=len(people), official=True, stake=stake, settings={"target": target}
    )
    for i, p in enumerate(people):
        p.sit(table["id"], i)
    people[0].start(table["id"])
    return people, table["id"]


async def play_all(seats: list[AddressedSeat], until: Any = None) -> None:
    for s in seats:
        await s.connect()
    await asyncio.gather(*(s.play("greedy", until=until, seed=k) for k, s in enumerate(seats)))


def winner_seats(table: dict[str, Any], team_count: int | None = None) -> set[int]:
    winner = table["result"]["winner"]
    return {
        s for s in range(table["seats"]) if (s if team_count is None else s % team_count) == winner
    }


# ------------------------------------------------------------------ to the end


def test_an_official_game_moves_stakes_and_points(server: Server) -> None:
    (ana, bea), tid = official_dominoes(server, "10.10.0.1", "10.10.0.2")
    for p in (ana, bea):  # the stakes are held from the start
        assert p.chips() == 900
        assert p.ledger()[0] == {**p.ledger()[0], "delta": -100, "reason": "stake", "table": tid}

    async def go() -> None:
        seats = [ana.seat(tid), bea.seat(tid)]
        await play_all(seats)
        for s in seats:
            await s.close()

    run(go())
    table = wait_finished(server, tid)
    [w] = winner_seats(table)
    winner, loser = (ana, bea) if w == 0 else (bea, ana)
    assert winner.chips() == 1100 and loser.chips() == 900
    assert winner.ledger()[0]["delta"] == 200 and winner.ledger()[0]["reason"] == "win"
    assert loser.ledger()[0]["reason"] == "stake"  # nothing more: the stake is gone
    assert winner.standing(DOMINOES) == {
        "rank": winner.standing(DOMINOES)["rank"],  # type: ignore[index]
        "player": winner.name,
        "points": 12,
        "games": 1,
        "wins": 1,
        "losses": 0,
        "abandons": 0,
    }
    assert loser.standing(DOMINOES)["points"] == -10  # type: ignore[index]
    settlement = table["result"]["settlement"]
    assert settlement["ranked"] is True
    by_seat = {s["seat"]: s for s in settlement["seats"]}
    assert by_seat[w]["points"] == 12 and by_seat[w]["chips"] == 100
    assert by_seat[1 - w]["points"] == -10 and by_seat[1 - w]["chips"] == -100

    # the public profile: the game, its outcome, its record
    profile = httpx.get(f"{server.http}/api/players/{winner.name}").json()
    [game] = profile["history"]
    assert game["table"] == tid and game["outcome"] == "won" and game["points"] == 12
    assert game["official"] and game["stake"] == 100
    assert profile["player"]["ratings"][DOMINOES]["points"] == 12
    record = httpx.get(f"{server.http}{game['record']}")
    assert record.status_code == 200 and record.json()["record"]["game"] == DOMINOES
    lost = httpx.get(f"{server.http}/api/players/{loser.name}").json()["history"][0]
    assert lost["outcome"] == "lost" and lost["points"] == -10
    # the ranking puts the winner above the loser
    assert winner.standing(DOMINOES)["rank"] < loser.standing(DOMINOES)["rank"]  # type: ignore[index]


def test_three_players_the_winner_takes_each_losers_stake(server: Server) -> None:
    people, tid = official_dominoes(server, "10.11.0.1", "10.11.0.2", "10.11.0.3", stake=50)

    async def go() -> None:
        seats = [p.seat(tid) for p in people]
        await play_all(seats)
        for s in seats:
            await s.close()

    run(go())
    table = wait_finished(server, tid)
    [w] = winner_seats(table)
    for i, p in enumerate(people):
        if i == w:
            assert p.chips() == 1100 and p.standing(DOMINOES)["points"] == 12  # type: ignore[index]
        else:
            assert p.chips() == 950 and p.standing(DOMINOES)["points"] == -10  # type: ignore[index]


def test_mus_pair_against_pair(server: Server) -> None:
    people = [Member(server, f"M{i}", f"10.12.0.{i + 1}") for i in range(4)]
    table = people[0].create(
        "mus", official=True, stake=30, settings={"cows": 1, "games_per_cow": 1}
    )
    tid = table["id"]
    for i, p in enumerate(people):
        p.sit(tid, i)
    people[0].start(tid)

    async def go() -> None:
        seats = [p.seat(tid) for p in people]
        await play_all(seats)
        for s in seats:
            await s.close()

    run(go())
    done = wait_finished(server, tid, timeout=120)
    winners = winner_seats(done, team_count=2)
    assert len(winners) == 2
    for i, p in enumerate(people):
        standing = p.standing("mus")
        assert standing is not None
        if i in winners:  # each winner: their stake back and one loser's
            assert p.chips() == 1030 and standing["points"] == 12
        else:
            assert p.chips() == 970 and standing["points"] == -10


# -------------------------------------------------------------------- abandons


def test_who_leaves_a_running_game_loses_20_at_once_and_is_not_scored_again(
    server: Server,
) -> None:
    (ana, bea), tid = official_dominoes(server, "10.13.0.1", "10.13.0.2", target=60)

    async def go() -> AddressedSeat:
        a, b = ana.seat(tid), bea.seat(tid)
        await play_all([a, b], until=lambda v: len(v["line"]) >= 2 or v["hand_no"] > 0)
        r = bea.http.delete(f"/api/tables/{tid}/seats/1")
        assert r.status_code == 200
        seating = r.json()["table"]["seating"][1]
        assert seating["replaced"] and seating["bot"]
        # at once, before the game ends
        assert bea.standing(DOMINOES) == {
            **bea.standing(DOMINOES),  # type: ignore[dict-item]
            "points": -20,
            "games": 1,
            "abandons": 1,
        }
        # her open connection only watches now: it cannot act for the bot's seat
        welcome = await b.expect("welcome")
        assert welcome["seat"] is None and "legal" not in welcome["view"]
        await b.send({"type": "act", "action": {"type": "pass"}})
        assert (await b.expect("error"))["code"] == "spectator"
        await b.close()
        # nor does coming back give the seat back on an official table
        again = bea.seat(tid)
        assert (await again.connect())["seat"] is None
        await again.close()
        await a.play()
        await a.close()
        return a

    run(go())
    table = wait_finished(server, tid)
    assert ana.standing(DOMINOES)["points"] in (12, -10)  # type: ignore[index]
    after = bea.standing(DOMINOES)
    assert after is not None and after["points"] == -20 and after["games"] == 1  # not again
    # chips follow the seat, which a bot played to the end
    bea_won = table["result"]["winner"] == 1
    assert bea.chips() == (1100 if bea_won else 900)
    assert ana.chips() == (900 if bea_won else 1100)
    history = httpx.get(f"{server.http}/api/players/{bea.name}").json()["history"]
    assert history[0]["outcome"] == "abandoned" and history[0]["points"] == -20


def test_who_stays_away_past_the_grace_period_abandons(server: Server) -> None:
    (ana, bea), tid = official_dominoes(server, "10.14.0.1", "10.14.0.2", target=60)

    async def go() -> None:
        a, b = ana.seat(tid), bea.seat(tid)
        await play_all([a, b], until=lambda v: len(v["line"]) >= 1 or v["hand_no"] > 0)
        await b.close()  # gone; TAVERNA_GRACE_SECONDS=1
        await asyncio.to_thread(
            wait_for,
            lambda: (bea.standing(DOMINOES) or {}).get("points") == -20,
        )
        await a.play()
        await a.close()

    run(go())
    wait_finished(server, tid)
    assert bea.standing(DOMINOES)["points"] == -20  # type: ignore[index]
    assert bea.standing(DOMINOES)["abandons"] == 1  # type: ignore[index]
    assert ana.standing(DOMINOES)["points"] in (12, -10)  # type: ignore[index]


# ---------------------------------------------------------------- the same IP


def test_players_sharing_an_address_move_no_points_and_no_chips(server: Server) -> None:
    (ana, bea), tid = official_dominoes(server, "10.15.0.7", "10.15.0.7")
    # said before the game: the table shows it to everybody (issue 14)
    assert ana.http.get(f"/api/tables/{tid}").json()["table"]["shared_address"] is True

    async def go() -> None:
        seats = [ana.seat(tid), bea.seat(tid)]
        await play_all(seats)
        for s in seats:
            await s.close()

    run(go())
    table = wait_finished(server, tid)
    settlement = table["result"]["settlement"]
    assert settlement["ranked"] is False and "shared an address" in settlement["note"]
    assert settlement["why"] == "shared_address"  # and at the end, for a client to say
    for p in (ana, bea):
        assert p.chips() == 1000
        ledger = p.ledger()
        assert [e["reason"] for e in ledger] == ["refund", "stake", "welcome"]
        assert ledger[0]["why"] == "shared_address"  # the ledger says why it came back
        assert p.standing(DOMINOES) is None
    (game,) = httpx.get(f"{server.http}/api/players/{ana.name}").json()["history"]
    assert game["points"] == 0 and game["voided"] is True  # and so does the profile


def test_an_official_table_of_players_from_different_addresses_is_not_marked(
    server: Server,
) -> None:
    (ana, _), tid = official_dominoes(server, "10.16.0.1", "10.16.0.2")
    assert ana.http.get(f"/api/tables/{tid}").json()["table"]["shared_address"] is False


def test_an_address_shared_later_voids_the_game_and_its_abandonment(server: Server) -> None:
    (ana, bea), tid = official_dominoes(server, "10.16.0.1", "10.16.0.2", target=60)

    async def go() -> None:
        a, b = ana.seat(tid), bea.seat(tid)
        await play_all([a, b], until=lambda v: len(v["line"]) >= 2 or v["hand_no"] > 0)
        assert bea.http.delete(f"/api/tables/{tid}/seats/1").status_code == 200
        assert bea.standing(DOMINOES)["points"] == -20  # type: ignore[index]
        await b.close()
        # Ana connects again from Bea's address: the game cannot count any more
        a2 = AddressedSeat(server, tid, ana.cookie, "10.16.0.2")
        await a2.connect()
        await a.close()
        await a2.play()
        await a2.close()

    run(go())
    table = wait_finished(server, tid)
    assert table["result"]["settlement"]["ranked"] is False
    standing = bea.standing(DOMINOES)
    assert standing is not None and standing["points"] == 0 and standing["abandons"] == 0
    assert ana.standing(DOMINOES) is None
    assert ana.chips() == bea.chips() == 1000


def test_the_start_holds_every_stake_or_none(server: Server) -> None:
    ana = Member(server, "Ana", "10.17.0.1")
    bea = Member(server, "Bea", "10.17.0.2")
    table = ana.create("dominoes", official=True, stake=800)
    tid = table["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    # Bea spends her chips elsewhere before this table starts
    other = bea.create("dominoes", official=True, stake=300)
    cara = Member(server, "Cara", "10.17.0.3")
    bea.sit(other["id"], 0)
    cara.sit(other["id"], 1)
    bea.start(other["id"])
    assert bea.chips() == 700
    r = ana.http.post(f"/api/tables/{tid}/start")
    assert r.status_code == 409 and "fewer than the stake of 800" in r.json()["detail"]
    assert ana.chips() == 1000  # nothing was held
    assert httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]["status"] == "open"


# --------------------------------------------------------------- a crash


@pytest.mark.parametrize("kind", BACKENDS)
def test_kill_9_mid_official_game_settles_once_after_resume(kind: str, tmp_path: Any) -> None:
    url = database_url(kind, tmp_path)
    srv = Server(url, **ACCOUNT_ENV, TAVERNA_GRACE_SECONDS="30").start()
    try:
        (ana, bea), tid = official_dominoes(srv, "10.30.0.1", "10.30.0.2", target=60)

        async def first() -> None:
            seats = [ana.seat(tid), bea.seat(tid)]
            await play_all(seats, until=lambda v: len(v["line"]) >= 3 or v["hand_no"] > 0)

        run(first())
        srv.kill()  # SIGKILL: no shutdown, no flush
        srv.start()

        async def second() -> None:
            seats = [ana.seat(tid), bea.seat(tid)]
            await play_all(seats)
            for s in seats:
                await s.close()

        run(second())
        table = wait_finished(srv, tid)
        assert table["result"]["settlement"]["ranked"] is True
        chips = sorted([ana.chips(), bea.chips()])
        assert chips == [900, 1100]
        points = sorted(p.standing(DOMINOES)["points"] for p in (ana, bea))  # type: ignore[index]
        assert points == [-10, 12]
        for p in (ana, bea):
            assert len(p.ledger()) in (2, 3)  # welcome, stake (and a win): nothing twice
    finally:
        srv.stop()
        drop_database(url)
