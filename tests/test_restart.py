"""A restart changes no hand (PLATFORM.md Durability; docs/rules.md §4.1).

For each game, on SQLite and on PostgreSQL: tables are driven to the moments
that break — the middle of a later hand, just after a hand ended and the next
was dealt, an unclaimed Muggins cards score, a Mus discard that forces a
reshuffle, an expert bot thinking, the move that ends the game — then the
server is killed with SIGKILL and started again. Every seat's view (hands
included) and seq must be exactly what it was, though the stored seed of every
table was changed in between (a table resumes from its record, never from its
seed). Then the tables play on, are killed once more, and are played to the
end; `taverna replay` of each stored record gives the result the players saw.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import Any

import httpx
import pytest

from .restart_helpers import (
    Table,
    children,
    greedy,
    hand_no,
    kill_all,
    metric,
    replay_cli,
    sql,
    what_players_saw,
)
from .server_helpers import Server, database_url, drop_database

pytestmark = pytest.mark.slow

SETTINGS = {
    "muggins-dominoes": {"target": 100},
    "muggins-cards": {"target": 200, "hand_size": 7},  # short rounds: the second comes soon
    "mus": {"cows": 1, "games_per_cow": 1},
}
SEATS = {"muggins-dominoes": 2, "muggins-cards": 2, "mus": 4}


def mid_later_hand(t: Table) -> bool:
    return hand_no(t.view) >= 1 and t.moves_in_hand >= 3


def next_deal_dealt(t: Table) -> bool:
    return hand_no(t.view) >= 1 and any(e["type"] == "deal" for e in t.last_events)


def over(t: Table) -> bool:
    return bool(t.view.get("over"))


def unclaimed(t: Table) -> bool:
    return t.view.get("pending") is not None


def forget_to_claim(t: Table, seat: int, view: dict[str, Any]) -> dict[str, Any] | None:
    """Muggins cards: a scoring play made without its claim, when there is one."""
    if seat == view.get("turn"):
        for a in view["legal"]:
            if a["type"] == "play" and a.get("claim"):
                return {**a, "claim": False}
    if view.get("pending") is not None:
        return None  # nobody claims or calls: the window stays open
    return greedy(t, seat, view)


def reshuffled(t: Table) -> bool:
    return any(e["type"] == "reshuffle" for e in t.last_events)


def all_mus(t: Table, seat: int, view: dict[str, Any]) -> dict[str, Any] | None:
    """Mus: everybody wants to discard, and throws all four cards, until the deck runs out."""
    if view["phase"] == "mus":
        return {"seat": seat, "type": "mus"}
    if view["phase"] == "discard":
        return {"seat": seat, "type": "discard", "cards": view["hand"]}
    return greedy(t, seat, view)


def moments(game: str) -> list[tuple[str, Any, Any]]:
    out: list[tuple[str, Any, Any]] = [
        ("mid-hand", mid_later_hand, greedy),
        ("next deal dealt", next_deal_dealt, greedy),
        ("game over", over, greedy),
    ]
    if game == "muggins-cards":
        out.append(("unclaimed score", unclaimed, forget_to_claim))
    if game == "mus":
        out.append(("reshuffle", reshuffled, all_mus))
    return out


async def expert_thinking(server: Server, t: Table) -> None:
    """Play until the expert bot is thinking, and freeze its worker processes there.

    The kill comes while the decision is under way: the workers are stopped with
    SIGSTOP once the server says a bot thinks, and the server is asked again, so
    a decision that came back just before the stop is seen (and another awaited).
    """
    assert server.proc is not None
    for _ in range(400):
        assert not t.view.get("over"), "the game ended before the expert thought"
        if t.view["turn"] not in t.bot_seats:
            await t.step()
            continue
        # the bot's turn: it thinks (a search), or moves at once (a forced move)
        waited_until = time.monotonic() + 60
        while not await t.moved(0.002):
            assert time.monotonic() < waited_until, "the bot neither thought nor moved"
            if metric(server, "taverna_bots_thinking") < 1:
                continue
            workers = children(server.proc.pid)
            for pid in workers:
                os.kill(pid, signal.SIGSTOP)
            # a decision already written back before the stop is still counted until the
            # node reads it: give it the time to, and look again (else the bot's move and
            # the forced draws after it come after the snapshot)
            await asyncio.sleep(0.2)
            if metric(server, "taverna_bots_thinking") >= 1 and not await t.moved(1.0):
                return  # frozen in the middle of the decision
            for pid in workers:  # it came back just before the stop: another one
                os.kill(pid, signal.SIGCONT)
    raise AssertionError("the expert bot never thought")


def bots_to_act(t: Table) -> bool:
    """Whether only bots are to act now (their move is coming)."""
    acting = set(t.view["to_act"])
    return not t.view.get("over") and bool(acting) and acting <= set(t.bot_seats)


async def restart_and_compare(
    url: str, server: Server, tables: list[Table], env: dict[str, str]
) -> Server:
    """SIGKILL, a new seed for every table, start again: every view exactly as it was."""
    before = dict(
        zip(
            [t.id for t in tables],
            await asyncio.gather(*(t.snapshot() for t in tables)),
            strict=True,
        )
    )
    kill_all(server)
    for t in tables:
        await t.close()
    sql(url, "UPDATE tables SET seed = seed + 1")  # the record must decide, not the seed
    server = Server(url, **env).start()
    try:
        await compare(server, tables, before)
    except BaseException:
        server.stop()  # the caller stops only the server it knows of
        raise
    return server


async def compare(
    server: Server, tables: list[Table], before: dict[str, dict[int | None, tuple[int, Any]]]
) -> None:
    """Each table's clients back at ``server``: every view exactly as it was ``before``."""
    for t in tables:
        last = {s: seq for s, (seq, _) in before[t.id].items()}
        welcomes = await t.connect(server, last)
        for seat, (seq, view) in before[t.id].items():
            w = welcomes[seat]
            assert (t.game, seat, w["seq"]) == (t.game, seat, seq)
            assert w["missed"] == []
            assert w["view"] == view, (t.game, seat)


def check_the_record(server: Server, t: Table) -> None:
    record = httpx.get(f"{server.http}/api/games/{t.id}/record", timeout=10).json()["record"]
    replayed = replay_cli(record)
    seen = what_players_saw(t.view)
    assert {k: replayed[k] for k in seen} == seen
    table = httpx.get(f"{server.http}/api/tables/{t.id}", timeout=10).json()["table"]
    assert table["status"] == "finished"
    assert table["result"]["scores"] == replayed["scores"]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
@pytest.mark.parametrize("game", ["muggins-dominoes", "muggins-cards", "mus"])
def test_kill_9_at_every_moment_changes_no_hand(game: str, kind: str, tmp_path: Any) -> None:
    url = database_url(kind, tmp_path)
    # the bots of a resumed table wait a few seconds: the clients come back and see the
    # table as it was before the expert (thinking at the kill) decides again
    env = {"TAVERNA_BOT_DELAY": "0", "TAVERNA_GRACE_SECONDS": "600", "TAVERNA_RESUME_HOLD": "5"}
    server = Server(url, **env).start()

    async def go() -> None:
        nonlocal server
        seats, settings = SEATS[game], SETTINGS[game]
        tables: list[tuple[str, Table]] = []
        for name, done, policy in moments(game):
            t = Table(server, game, seats, settings)
            await t.connect(server)
            await t.play_until(done, policy)
            tables.append((name, t))
        expert = Table(server, game, seats, settings, bots={1: "expert"}, name="exp")
        await expert.connect(server)
        await expert_thinking(server, expert)
        tables.append(("expert thinking", expert))
        all_tables = [t for _, t in tables]

        server = await restart_and_compare(url, server, all_tables, env)

        # on from there, a few moves each, and once more
        for _, t in tables:
            for _ in range(5):
                if t.view.get("over"):
                    break
                if not await t.step():
                    await t.wait_for_bots()
            # the expert is not frozen now: let it answer the last move before the kill,
            # else its move races the snapshot (stored, but not yet read by the client)
            while bots_to_act(t):
                await t.wait_for_bots()
        server = await restart_and_compare(url, server, all_tables, env)
        for _, t in tables:
            await t.play_to_the_end()
            check_the_record(server, t)
            await t.close()

    try:
        asyncio.run(go())
    finally:
        server.stop()
        drop_database(url)
