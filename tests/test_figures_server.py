"""Each game's own figures on a player's page (issue 18, Statistics): the profile sums
them per game over the player's finished games, as the game counts them from each
game's record.

Two games of Muggins cards are played to their end by WebSocket clients that play at
random, so they leave scores unclaimed and call Muggins! on each other's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taverna.games import get_game
from taverna.games.record import figures
from taverna.server.figures import FigureBook

from .accounts_helpers import ACCOUNT_ENV, Member, wait_finished
from .server_helpers import Server, database_url
from .test_figures import cards_record

CARDS = "muggins-cards"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("figures")), **ACCOUNT_ENV).start()
    yield srv
    srv.stop()


def cards_game(people: list[Member], seed: int) -> str:
    """A casual game of Muggins cards played to its end at random; the table's id."""
    table = people[0].create("cards", seats=len(people), settings={"target": 31})
    for i, p in enumerate(people):
        p.sit(table["id"], i)
    people[0].start(table["id"])

    async def go() -> None:
        seats = [p.seat(table["id"]) for p in people]
        for s in seats:
            await s.connect()
        await asyncio.gather(*(s.play("random", seed=seed + k) for k, s in enumerate(seats)))
        for s in seats:
            await s.close()

    asyncio.run(go())
    wait_finished(people[0].server, table["id"])
    return str(table["id"])


def record(server: Server, table: str) -> dict[str, Any]:
    r = httpx.get(f"{server.http}/api/games/{table}/record")
    assert r.status_code == 200, r.text
    return r.json()["record"]  # type: ignore[no-any-return]


def test_the_profile_sums_each_games_figures(server: Server) -> None:
    ana, bea = Member(server, "Ana", "10.60.0.1"), Member(server, "Bea", "10.60.0.2")
    tables = [cards_game([ana, bea], 1), cards_game([bea, ana], 7)]
    Cards = get_game(CARDS)
    records = [record(server, t) for t in tables]
    # the game's count of each record, for Ana: seat 0 of the first, seat 1 of the second
    expected = dict.fromkeys(Cards.figure_names, 0)
    for rec, seat in zip(records, (0, 1), strict=True):
        for name, n in figures(rec, seat).items():
            expected[name] += n
    calls = sum(a["type"] == "muggins" for rec in records for a in rec["actions"])
    # the figures are what the records say: every call made by one of two is suffered by
    # the other
    assert expected["muggins_made"] + expected["muggins_suffered"] == calls

    for _ in range(2):  # counted, then remembered: the same sums
        profile = httpx.get(f"{server.http}/api/players/{ana.name}").json()["player"]
        stats = profile["stats"][CARDS]
        assert stats["games"] == 2
        assert stats["figures"] == expected
    # Bea's are Ana's the other way round
    theirs = httpx.get(f"{server.http}/api/players/{bea.name}").json()["player"]
    assert theirs["stats"][CARDS]["figures"] == {
        "muggins_made": expected["muggins_suffered"],
        "muggins_suffered": expected["muggins_made"],
    }
    # a profile that lists one game sums that one alone
    one = httpx.get(f"{server.http}/api/players/{ana.name}?limit=1").json()["player"]
    newest = figures(records[1], 1)
    assert one["stats"][CARDS]["figures"] == newest


def test_the_games_list_their_figures(server: Server) -> None:
    listed = httpx.get(f"{server.http}/api/games").json()["games"]
    figures = {g["game"]: g["figures"] for g in listed}
    assert figures[CARDS] == ["muggins_made", "muggins_suffered"]
    assert figures["mus"][:5] == ["grande", "chica", "pares", "juego", "punto"]


class Records:
    """A store that has every table's record: one game where seat 1 calls Muggins! on
    seat 0 (tests/test_figures.py); it notes each read."""

    def __init__(self) -> None:
        self.reads: list[str] = []

    async def record(self, table: str) -> dict[str, Any]:
        self.reads.append(table)
        return cards_record(
            [
                {"seat": 1, "type": "play", "card": "10S"},
                {"seat": 0, "type": "play", "card": "5S"},
                {"seat": 1, "type": "muggins"},
            ]
        )


def test_each_game_is_counted_once_and_the_memory_is_bounded() -> None:
    store = Records()
    book = FigureBook(store, kept=2)  # type: ignore[arg-type]

    def rows(*tables: str) -> list[dict[str, Any]]:
        return [{"table": t, "game": CARDS, "seat": 1} for t in tables]

    summed = asyncio.run(book.summed(rows("a", "b")))
    assert summed == {CARDS: {"muggins_made": 2, "muggins_suffered": 0}}
    assert asyncio.run(book.summed(rows("b", "a"))) == summed
    assert store.reads == ["a", "b"]  # remembered
    asyncio.run(book.summed(rows("c")))  # "b" was used least recently: dropped
    asyncio.run(book.summed(rows("a", "c", "b")))
    assert store.reads == ["a", "b", "c", "b"]
