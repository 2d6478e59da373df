"""Play again and play now (PLATFORM.md, Table life): a real server, real clients, on
SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taverna.bots import ratings
from tests.accounts_helpers import Member, wait_finished, wait_for
from tests.server_helpers import Person, Seat, Server, own_server

pytestmark = pytest.mark.parametrize("kind", ["sqlite", "postgres"])


@pytest.fixture
def server(kind: str, tmp_path: Any) -> Iterator[Server]:
    # play now's wait short enough to see it end, long enough to see it hold
    with own_server(kind, tmp_path, TAVERNA_PLAY_NOW_WAIT="2", TAVERNA_AGAIN_HOLD="300") as srv:
        yield srv


def _finish(server: Server, table: str, people: list[Person]) -> None:
    """Play the game at ``table`` to its end with a greedy bot in every person's hand."""

    async def go() -> None:
        seats = [Seat(server, table, p.cookie) for p in people]
        for s in seats:
            await s.connect()
        await asyncio.gather(*(s.play("greedy") for s in seats))
        for s in seats:
            await s.close()

    asyncio.run(go())


def _table(person: Person, table: str) -> dict[str, Any]:
    r = person.http.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    return r.json()["table"]  # type: ignore[no-any-return]


def test_play_again_at_a_bot_table_is_one_click(server: Server) -> None:
    ana = Person(server, "Ana")
    old = ana.play_at("dominoes", settings={"target": 30}, bots={1: "greedy"}, turn_seconds=45)
    # before the end there is nothing to play again
    early = ana.http.post(f"/api/tables/{old}/again")
    assert early.status_code == 409 and early.json()["code"] == "table_not_finished"
    _finish(server, old, [ana])

    r = ana.http.post(f"/api/tables/{old}/again")
    assert r.status_code == 200, r.text
    new = r.json()["table"]
    assert new["id"] != old and new["status"] == "playing"  # started by the click itself
    assert new["game"] == "muggins-dominoes" and new["settings"] == {"target": 30}
    assert new["options"]["turn_seconds"] == 45 and new["options"]["again_of"] == old
    assert new["seating"][0]["player_id"] == ana.player["id"]
    assert new["seating"][1]["bot"] == "4"  # greedy: level 4
    assert _table(ana, old)["again"] == new["id"]
    # asked again: the same new table, nothing made twice
    twice = ana.http.post(f"/api/tables/{old}/again")
    assert twice.status_code == 200 and twice.json()["table"]["id"] == new["id"]


def test_play_again_offers_everybody_their_seat(server: Server) -> None:
    ana, bea, cid = Person(server, "Ana"), Person(server, "Bea"), Person(server, "Cid")
    old = ana.create("dominoes", settings={"target": 25})["id"]
    ana.sit(old, 0)
    bea.sit(old, 1)
    ana.start(old)
    _finish(server, old, [ana, bea])

    async def offered() -> dict[str, Any]:
        # Bea still looks at the finished table: she hears of the offer there
        watcher = Seat(server, old, bea.cookie)
        await watcher.connect()
        r = await asyncio.to_thread(ana.http.post, f"/api/tables/{old}/again")
        assert r.status_code == 200, r.text
        while True:
            msg = await watcher.expect("table", timeout=10)
            if msg["table"]["again"]:
                await watcher.close()
                return r.json()["table"]  # type: ignore[no-any-return]

    new = asyncio.run(offered())
    assert new["status"] == "open"
    assert new["seating"][0]["player_id"] == ana.player["id"] and new["seating"][1]["empty"]
    # a stranger may not take the seat kept for Bea, nor ask to play again
    taken = cid.http.post(f"/api/tables/{new['id']}/seats/1")
    assert taken.status_code == 409 and taken.json()["code"] == "seat_reserved"
    stranger = cid.http.post(f"/api/tables/{old}/again")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_at_table"
    assert _table(cid, new["id"])["seating"][1]["empty"]  # the refusals changed nothing
    # Bea accepts: her seat, and the game starts with everyone seated
    r = bea.http.post(f"/api/tables/{old}/again")
    assert r.status_code == 200, r.text
    joined = r.json()["table"]
    assert joined["id"] == new["id"] and joined["status"] == "playing"
    assert joined["seating"][1]["player_id"] == bea.player["id"]


def test_play_now_seats_a_person_at_a_waiting_table(server: Server) -> None:
    ana, bea, cid = Person(server, "Ana"), Person(server, "Bea"), Person(server, "Cid")
    # tables play now must not seat a stranger at: private, and already playing
    private = cid.create("dominoes", public=False)["id"]
    r = ana.http.post("/api/play-now", json={"game": "dominoes", "level": "random"})
    assert r.status_code == 200, r.text
    first = r.json()["table"]
    assert first["id"] != private and first["status"] == "open"
    assert first["seating"][0]["player_id"] == ana.player["id"]
    assert first["options"]["play_now"]["level"] == "1"  # random: level 1
    # Bea presses play now too: the seat free at Ana's table, which starts, being full
    r = bea.http.post("/api/play-now", json={"game": "muggins-dominoes"})
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["table"]["id"] == first["id"] and second["seat"] == 1
    assert second["table"]["status"] == "playing"
    assert _table(cid, private)["seating"][1]["empty"]
    # a bad level or game is refused and makes no table
    bad = cid.http.post("/api/play-now", json={"game": "dominoes", "level": "../evil"})
    assert bad.status_code == 422 and bad.json()["code"] == "unknown_bot"
    bad = cid.http.post("/api/play-now", json={"game": "chess"})
    assert bad.status_code == 422


def test_play_now_gives_the_empty_seats_to_bots_after_the_wait(server: Server) -> None:
    ana = Person(server, "Ana")
    r = ana.http.post("/api/play-now", json={"game": "cards", "level": "greedy"})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["status"] == "open"
    # pressing it again while waiting: the same table, not a second one
    again = ana.http.post("/api/play-now", json={"game": "cards", "level": "greedy"})
    assert again.json()["table"]["id"] == table["id"]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        now = _table(ana, table["id"])
        if now["status"] == "playing":
            break
        time.sleep(0.2)
    assert now["status"] == "playing", now
    assert now["seating"][0]["player_id"] == ana.player["id"]
    assert all(s["bot"] == "4" for s in now["seating"][1:])
    waited = time.time() - table["options"]["play_now"]["fill_at"]
    assert waited > -0.5  # not before the wait was over (1 s of clock skew at most)


def test_play_now_without_a_level_gives_the_nearest_and_leaves_the_game_unrated(
    server: Server,
) -> None:
    # the page's facts: each game's levels with their measured ratings, as the club's
    # file holds them (none for a game it does not hold)
    listed = httpx.get(f"{server.http}/api/games").json()["games"]
    for g in listed:
        assert g["bot_ratings"] == {
            str(level): {"rating": round(r), "rd": round(rd)}
            for level, (r, rd) in ratings.level_ratings(g["game"]).items()
        }
    # a registered player with no rating yet is a newcomer, 1500: the level held at
    # 1500 by the ladder (level 4, the default level too when nothing was measured)
    ana = Member(server, "Ana", "10.61.0.1")
    r = ana.http.post("/api/play-now", json={"game": "dominoes"})
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["options"]["play_now"]["level"] == "4"
    assert ratings.nearest_level("muggins-dominoes", 1500) in (None, 4)
    # the bots sit after the wait; the game played to its end moves no rating
    wait_for(lambda: _table(ana, table["id"])["status"] == "playing", timeout=30)

    async def go() -> None:
        seat = ana.seat(table["id"])
        await seat.connect()
        await seat.play("greedy")
        await seat.close()

    asyncio.run(go())
    done = wait_finished(server, table["id"])
    assert not done["options"].get("official")
    assert "settlement" not in (done["result"] or {})
    player = httpx.get(f"{server.http}/api/players/{ana.name}").json()["player"]
    assert player["skills"] == {}
