"""The node's thinking processes under a flood of hints (issue 27): a bot's decision
never waits for a hint or a review; hints wait in a bounded queue, and one that nobody
wants any more (its socket closed, its table moved on) is never computed; an account
and an address have their limits across all their sockets and sessions, for hints and
reviews alike.

The scheduler's order is shown with real processes held at a gate (a file the test
makes); the server's side with a real server, counting the hints it computed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from taverna.server.metrics import Metrics
from taverna.server.thinking import DECISION_PROCESSES, Busy, Thinkers

from .accounts_helpers import ACCOUNT_ENV
from .server_helpers import Person, Seat, Server, own_server
from .test_game_review import play_out
from .test_operations import scrape, value
from .thinking_helpers import echo, held


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# ------------------------------------------------------------- the scheduler


class Gate:
    """Jobs that wait until the test opens the gate, and the order they ran in."""

    def __init__(self, tmp_path: Path) -> None:
        self.path = tmp_path / "gate"
        self.log = tmp_path / "ran"
        self.log.touch()

    def job(self, name: str) -> dict[str, Any]:
        return {"name": name, "gate": str(self.path), "log": str(self.log)}

    def open(self) -> None:
        self.path.touch()

    def ran(self) -> list[str]:
        return self.log.read_text().split()


def always() -> bool:
    return True


async def settle(*futures: asyncio.Future[Any]) -> list[Any]:
    return list(await asyncio.wait_for(asyncio.gather(*futures), 120))


def test_a_bot_decision_never_waits_for_hints_or_reviews_and_hints_go_before_reviews(
    tmp_path: Path,
) -> None:
    gate = Gate(tmp_path)

    async def go() -> None:
        thinkers = Thinkers(Metrics("test"), hint_queue=8)
        try:
            loop = asyncio.get_running_loop()
            # a review is under way; another waits; then a player asks three hints
            first = loop.create_task(thinkers.review(held, gate.job("review-1")))
            second = loop.create_task(thinkers.review(held, gate.job("review-2")))
            while thinkers.waiting_by_kind()["review"] < 1:  # the first under way, in order
                await asyncio.sleep(0)
            hints = [thinkers.hint(held, gate.job(f"hint-{i}"), always) for i in range(3)]
            assert thinkers.waiting_by_kind() == {"hint": 3, "review": 1}
            # a strong bot's decision: answered while every hint and review is held
            decision = await asyncio.wait_for(thinkers.decide(echo, {"name": "decision"}), 120)
            assert decision == {"name": "decision"}
            assert not any(f.done() for f in [first, second, *hints])
            gate.open()
            await settle(first, second, *hints)
            # the review under way ends first (a search is not interrupted); then every
            # hint before the review that waited
            assert gate.ran() == ["review-1", "hint-0", "hint-1", "hint-2", "review-2"]
        finally:
            gate.open()
            thinkers.close()

    run(go())


def test_no_hint_starts_while_the_decisions_take_every_processor(tmp_path: Path) -> None:
    gate = Gate(tmp_path)

    async def go() -> None:
        thinkers = Thinkers(Metrics("test"), hint_queue=8)
        try:
            loop = asyncio.get_running_loop()
            decisions = [
                loop.create_task(thinkers.decide(held, gate.job(f"decision-{i}")))
                for i in range(DECISION_PROCESSES)
            ]
            while thinkers.deciding < DECISION_PROCESSES:
                await asyncio.sleep(0)
            hint = thinkers.hint(held, gate.job("hint"), always)
            assert thinkers.running_by_kind()["hint"] == 0
            assert thinkers.waiting_by_kind()["hint"] == 1
            gate.open()
            await settle(*decisions, hint)
            assert gate.ran()[-1] == "hint"
        finally:
            gate.open()
            thinkers.close()

    run(go())


def test_a_hint_nobody_wants_any_more_is_dropped_uncomputed(tmp_path: Path) -> None:
    gate = Gate(tmp_path)

    async def go() -> None:
        metrics = Metrics("test")
        thinkers = Thinkers(metrics, hint_queue=8)
        try:
            wanted = {f"hint-{i}": True for i in range(4)}

            def asked(name: str) -> asyncio.Future[Any]:
                return thinkers.hint(held, gate.job(name), lambda: wanted[name])

            futures = [asked(name) for name in wanted]  # the first under way, three waiting
            wanted["hint-1"] = wanted["hint-3"] = False  # a socket closed, a table moved on
            gate.open()
            answers = await settle(*futures)
            assert answers == [{"name": "hint-0"}, None, {"name": "hint-2"}, None]
            assert gate.ran() == ["hint-0", "hint-2"]
            for outcome in ("run", "dropped"):
                labels = {"kind": "hint", "outcome": outcome}
                assert metrics.registry.get_sample_value("taverna_thinking_jobs_total", labels) == 2
        finally:
            gate.open()
            thinkers.close()

    run(go())


def test_a_full_queue_refuses_a_hint_at_once_and_the_dead_keep_no_place(tmp_path: Path) -> None:
    gate = Gate(tmp_path)

    async def go() -> None:
        thinkers = Thinkers(Metrics("test"), hint_queue=2)
        try:
            alive = {"hint-1": True}
            running = thinkers.hint(held, gate.job("hint-0"), always)
            waiting = [
                thinkers.hint(held, gate.job("hint-1"), lambda: alive["hint-1"]),
                thinkers.hint(held, gate.job("hint-2"), always),
            ]
            with pytest.raises(Busy):
                thinkers.hint(held, gate.job("refused"), always)
            alive["hint-1"] = False  # its socket closed: its place is free
            late = thinkers.hint(held, gate.job("hint-3"), always)
            gate.open()
            await settle(running, *waiting, late)
            assert gate.ran() == ["hint-0", "hint-2", "hint-3"]
        finally:
            gate.open()
            thinkers.close()

    run(go())


# ---------------------------------------------------------------- the server


def hint_table(person: Person) -> str:
    """A Muggins cards table with hints, the person at seat 0 against a greedy bot,
    started: at the person's first turn a hand of cards to choose from (a search, not
    an only move). No clock to speak of: nobody's turn runs out during a test."""
    return person.play_at("cards", bots={"1": "greedy"}, hints=True, turn_seconds=600)


async def sockets(
    server: Server, table: str, person: Person, count: int, address: str | None = None
) -> list[Seat]:
    """``count`` sockets of the person at the table, once it is their turn."""
    headers = {"X-Forwarded-For": address} if address else {}
    seats = []
    for _ in range(count):
        seat = Seat(server, table, person.cookie, headers)
        await seat.connect()
        while seat.view is None or seat.seat not in seat.view.get("to_act", []):
            await seat.recv()
        seats.append(seat)
    return seats


async def answers(seat: Seat, mids: range) -> list[dict[str, Any]]:
    """The answers to hints ``mids`` (a hint or an error each, in whatever order they
    come), in the order of ``mids``."""
    got: dict[int, dict[str, Any]] = {}
    while len(got) < len(mids):
        msg = await seat.recv(60)
        if msg["type"] in ("hint", "error") and msg.get("id") in mids:
            got[msg["id"]] = msg
    return [got[m] for m in mids]


async def ask(seat: Seat, mid: int) -> dict[str, Any]:
    await seat.send({"type": "hint", "id": mid})
    (answer,) = await answers(seat, range(mid, mid + 1))
    return answer


def told(answers: list[dict[str, Any]]) -> list[str]:
    """Each answer in a word: a hint, or the error's code and the limit it names."""
    out = []
    for a in answers:
        if a["type"] == "hint":
            out.append("hint")
        else:
            out.append(f"{a['code']}:{a.get('params', {}).get('limit', '')}")
    return out


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Small limits of an account and an address; one hint every 3 s a socket (the
    default), so only many sockets may ask more."""
    with own_server(
        "sqlite",
        tmp_path_factory.mktemp("limited"),
        TAVERNA_HINT_LIMIT_ACCOUNT="3/3600",
        TAVERNA_HINT_LIMIT_ADDRESS="5/3600",
        **ACCOUNT_ENV,
    ) as srv:
        yield srv


def test_an_account_has_one_hint_limit_across_all_its_sockets(limited: Server) -> None:
    ana = Person(limited, "Ana", "10.27.1.1")
    table = hint_table(ana)

    async def go() -> list[dict[str, Any]]:
        seats = await sockets(limited, table, ana, 6, "10.27.1.1")
        answers = [await ask(s, 10 + k) for k, s in enumerate(seats)]
        for s in seats:
            await s.close()
        return answers

    answers = run(go())
    assert told(answers) == ["hint"] * 3 + ["hint_too_fast:account"] * 3, answers
    refused = answers[-1]
    assert refused["reason"] == "hint_too_fast" and refused["params"]["seconds"] > 0


def test_an_address_has_one_hint_limit_across_all_its_guests(limited: Server) -> None:
    address = "10.27.2.1"
    guests = [Person(limited, f"Flood{i}", address) for i in range(3)]
    tables = [hint_table(g) for g in guests]
    other = Person(limited, "Bea", "10.27.2.2")
    elsewhere = hint_table(other)

    async def go() -> tuple[list[dict[str, Any]], dict[str, Any]]:
        answers = []
        for g, t in zip(guests, tables, strict=True):
            seats = await sockets(limited, t, g, 2, address)
            answers += [await ask(s, 20 + k) for k, s in enumerate(seats)]
            for s in seats:
                await s.close()
        # the address is out of hints; another address is not
        (bea,) = await sockets(limited, elsewhere, other, 1, "10.27.2.2")
        hers = await ask(bea, 30)
        await bea.close()
        return answers, hers

    answers, hers = run(go())
    assert told(answers) == ["hint"] * 5 + ["hint_too_fast:address"], answers
    assert hers["type"] == "hint", hers


def test_reviews_spend_the_same_limits_of_an_account_and_an_address(tmp_path: Path) -> None:
    """A review costs five hints: an account of six may ask one, an address of twelve
    two, whoever asks them; another address is not concerned."""
    with own_server(
        "sqlite",
        tmp_path,
        TAVERNA_HINT_LIMIT_ACCOUNT="6/3600",
        TAVERNA_HINT_LIMIT_ADDRESS="12/3600",
        **ACCOUNT_ENV,
    ) as srv:
        (first, ana), (second, _) = play_out(srv, seed=1), play_out(srv, seed=2)

        def review(person: Person, table: str, seat: int) -> httpx.Response:
            return person.http.post(f"/api/games/{table}/reviews/{seat}")

        assert review(ana, first, 0).status_code == 202
        r = review(ana, first, 1)  # her second: five more than her account has left
        assert r.status_code == 429 and r.json()["code"] == "reviews_too_fast", r.text
        assert r.json()["params"]["limit"] == "account" and r.json()["params"]["seconds"] >= 1
        assert int(r.headers["retry-after"]) >= 1
        bea, cy = Person(srv, "Bea"), Person(srv, "Cy")  # the same address as Ana's
        assert review(bea, first, 1).status_code == 202
        r = review(cy, second, 0)
        assert r.status_code == 429 and r.json()["params"]["limit"] == "address", r.text
        dee = Person(srv, "Dee", "10.27.3.1")
        assert review(dee, second, 0).status_code == 202
        # nothing was stored for the refused ones
        mine = httpx.get(f"{srv.http}/api/games/{second}/reviews").json()["reviews"]
        assert [x["seat"] for x in mine] == [0]


# ------------------------------------------------- the queue and the dropped


@pytest.fixture(scope="module")
def queued(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Hints as often as a socket asks, no limit of an account or an address: only
    the queue (four waiting) stands between a flood and the hint process. Each hint
    searches its whole budget (0.3 s; iterations without end), so the first is still
    under way when the next few arrive."""
    with own_server(
        "sqlite",
        tmp_path_factory.mktemp("queued"),
        TAVERNA_BOT_OPTIONS='{"expert": {"iterations": 100000000}}',
        TAVERNA_HINT_EVERY="0",
        TAVERNA_HINT_QUEUE="4",
        TAVERNA_HINT_LIMIT_ACCOUNT="100000/1",
        TAVERNA_HINT_LIMIT_ADDRESS="100000/1",
    ) as srv:
        yield srv


def hint_figures(server: Server) -> tuple[float, float]:
    """The hints this server computed (each one timed: the histogram's count) and those
    it dropped uncomputed."""
    samples = scrape(server)
    return (
        value(samples, "taverna_bot_think_seconds_count", level="hint"),
        value(samples, "taverna_thinking_jobs_total", kind="hint", outcome="dropped"),
    )


def settled(server: Server, before: tuple[float, float], asked: int) -> tuple[float, float]:
    """Wait until each of ``asked`` hints was computed or dropped; how many of each."""
    deadline = time.monotonic() + 120
    while True:
        now = hint_figures(server)
        computed, dropped = (now[0] - before[0], now[1] - before[1])
        if computed + dropped >= asked:
            return computed, dropped
        assert time.monotonic() < deadline, (computed, dropped)
        time.sleep(0.05)


def test_a_full_queue_refuses_hints_at_once(queued: Server) -> None:
    ana = Person(queued, "Ana")
    table = hint_table(ana)

    async def go() -> list[dict[str, Any]]:
        (seat,) = await sockets(queued, table, ana, 1)
        for m in range(1, 9):  # eight at once: one thinking, four waiting, three refused
            await seat.send({"type": "hint", "id": m})
        told = await answers(seat, range(1, 9))
        await seat.close()
        return told

    said = run(go())
    assert told(said) == ["hint"] * 5 + ["hints_busy:"] * 3, said


def test_a_hint_whose_socket_closed_is_never_computed(queued: Server) -> None:
    ana = Person(queued, "Ana")
    table = hint_table(ana)
    before = hint_figures(queued)

    async def go() -> None:
        (seat,) = await sockets(queued, table, ana, 1)
        for m in range(1, 6):
            await seat.send({"type": "hint", "id": m})
        await seat.close()  # before any answer

    run(go())
    computed, dropped = settled(queued, before, 5)
    # the first was under way (a search is not interrupted); the rest never ran
    assert (computed, dropped) == (1, 4)


def test_a_hint_for_a_position_the_table_left_is_never_computed(queued: Server) -> None:
    ana = Person(queued, "Ana")
    table = hint_table(ana)
    before = hint_figures(queued)

    async def go() -> list[dict[str, Any]]:
        (seat,) = await sockets(queued, table, ana, 1)
        asked_at = seat.seq
        assert seat.view is not None
        move = seat.view["legal"][0]
        for m in range(1, 6):
            await seat.send({"type": "hint", "id": m})
        await seat.send({"type": "act", "action": move, "id": 99})  # the table moves on
        said = await answers(seat, range(1, 6))
        await seat.close()
        assert all(a["seq"] == asked_at for a in said)
        return said

    said = run(go())
    computed, dropped = settled(queued, before, 5)
    assert (computed, dropped) == (1, 4)
    # each is answered (the page stops waiting), none with a move for a position gone
    assert all(a["type"] == "hint" and a["action"] is None for a in said), said
    assert {a["why"]["key"] for a in said} == {"stale"}
