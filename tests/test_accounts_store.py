"""The chip ledger and ratings in the database itself: constraints, once-only, migrations."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import create_engine, text
from sqlalchemy.exc import IntegrityError

from taverna.server.names import name_keys
from taverna.store.accounts import AccountStore, NameTaken
from taverna.store.chips import NotEnoughChips
from taverna.store.db import MIGRATIONS, normalize_url
from taverna.store.errors import Conflict
from taverna.store.repo import Store

from .server_helpers import database_url, drop_database

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(params=BACKENDS)
def url(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[str]:
    u = database_url(request.param, tmp_path)
    yield u
    drop_database(u)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def two_players_at_an_official_table(
    store: Store, stake: int = 100
) -> tuple[AccountStore, str, str, str]:
    accounts = AccountStore(store)
    a = await accounts.register("Ana", "ana", "hash", None)
    b = await accounts.register("Bea", "bea", "hash", None)
    table = await store.create_table(
        "muggins-dominoes", 2, {"target": 50}, {"official": True, "stake": stake}, a
    )
    await store.set_seat(table.id, 0, player=a)
    await store.set_seat(table.id, 1, player=b)
    return accounts, table.id, a["id"], b["id"]


def test_settling_twice_moves_nothing_twice(url: str) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            accounts, tid, a, b = await two_players_at_an_official_table(store)
            await accounts.hold_stakes(tid)
            await store.set_status(tid, "playing")
            with pytest.raises(Conflict, match="is playing"):
                await accounts.hold_stakes(tid)  # a second start holds nothing more
            first = await accounts.settle(tid, "muggins-dominoes", {a})
            again = await accounts.settle(tid, "muggins-dominoes", {a})
            assert first == again
            assert first["points"] == {a: 12, b: -10} and first["chips"] == {a: 100, b: -100}
            assert (await accounts.me(a))["chips"] == 1100
            assert (await accounts.me(b))["chips"] == 900
            # an abandonment after the end does not count
            assert await accounts.abandon(tid, "muggins-dominoes", b) is False
            total, rows = await accounts.ranking("muggins-dominoes")
            assert total == 2 and [(r["player"], r["points"], r["rank"]) for r in rows] == [
                ("Ana", 12, 1),
                ("Bea", -10, 2),
            ]
        finally:
            store.close()

    run(go())


def test_an_abandonment_counts_once(url: str) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            accounts, tid, _, b = await two_players_at_an_official_table(store)
            await accounts.hold_stakes(tid)
            assert await accounts.abandon(tid, "muggins-dominoes", b) is True
            assert await accounts.abandon(tid, "muggins-dominoes", b) is False
            me = await accounts.me(b)
            assert me["ratings"]["muggins-dominoes"]["points"] == -20
        finally:
            store.close()

    run(go())


def test_balances_never_go_negative(url: str) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            accounts, tid, a, _ = await two_players_at_an_official_table(store, stake=1001)
            with pytest.raises(NotEnoughChips, match="fewer than the stake of 1001"):
                await accounts.hold_stakes(tid)
            assert (await accounts.me(a))["chips"] == 1000
            assert len(await accounts.ledger(a)) == 1  # the welcome only: all or nothing

            def below_zero(s: Any) -> None:
                s.execute(text("UPDATE players SET chips = -1 WHERE id = :id"), {"id": a})

            with pytest.raises(IntegrityError):  # the database's own check stands behind
                await store.run(below_zero)
        finally:
            store.close()

    run(go())


def test_same_address_refunds(url: str) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            accounts, tid, a, b = await two_players_at_an_official_table(store)
            await accounts.note_address(tid, a, "192.0.2.1")
            await accounts.note_address(tid, a, "192.0.2.1")  # noted once
            await accounts.note_address(tid, b, "192.0.2.1")
            await accounts.hold_stakes(tid)
            assert await accounts.abandon(tid, "muggins-dominoes", b) is False
            done = await accounts.settle(tid, "muggins-dominoes", {a})
            assert done["ranked"] is False and done["points"] == {}
            assert done["chips"] == {a: 0, b: 0}
            assert (await accounts.me(a))["chips"] == (await accounts.me(b))["chips"] == 1000
        finally:
            store.close()

    run(go())


def _alembic(url: str) -> AlembicConfig:
    """Alembic pointed at our migrations and the test database, to step through them."""
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    return cfg


def test_migration_keeps_guest_sessions_and_goes_back(url: str) -> None:
    cfg = _alembic(url)
    command.upgrade(cfg, "0001")
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, token_hash, created_at) "
                "VALUES ('g1', 'Guest', :h, CURRENT_TIMESTAMP)"
            ),
            {"h": "a" * 64},
        )
    engine.dispose()
    command.upgrade(cfg, "head")

    async def go() -> None:
        store = Store(url)
        try:

            def q(s: Any) -> Any:
                return s.execute(text("SELECT player_id FROM sessions")).scalar_one()

            assert await store.run(q) == "g1"
        finally:
            store.close()

    run(go())
    command.downgrade(cfg, "0001")
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        assert conn.execute(text("SELECT token_hash FROM players")).scalar_one() == "a" * 64
    engine.dispose()
    command.upgrade(cfg, "head")


def test_an_expired_session_is_no_session(url: str) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            accounts = AccountStore(store)
            a = await accounts.register("Ana", "ana", "hash", None)
            old = await accounts.new_session(a["id"], days=-1)
            assert await store.player_by_token(old) is None
            fresh = await accounts.new_session(a["id"], days=1)
            assert (await store.player_by_token(fresh))["registered"] is True  # type: ignore[index]
            await accounts.end_session(fresh)
            assert await store.player_by_token(fresh) is None
        finally:
            store.close()

    run(go())


def test_a_guest_who_registers_keeps_their_seats_under_the_new_name(url: str) -> None:
    """docs/accounts.md: a guest who registers keeps their player; the seats they sat in
    and the names in their finished games' results say the name they have now."""

    async def go() -> None:
        store = Store(url)
        try:
            accounts = AccountStore(store)
            guest, _ = await store.create_guest("Gus")
            other, _ = await store.create_guest("Gus")  # guest names need not be unique
            done = await store.create_table("muggins-dominoes", 2, {"target": 50}, {}, guest)
            await store.set_seat(done.id, 0, player=guest)
            await store.set_seat(done.id, 1, bot="greedy")
            result = {"winner": 0, "names": ["Gus", "Bruno (bot, medium)"]}
            await store.set_status(done.id, "finished", result=result)
            theirs = await store.create_table("muggins-dominoes", 2, {"target": 50}, {}, other)
            await store.set_seat(theirs.id, 0, player=other)

            me = await accounts.register("Gustavo", "gustavo", "hash", guest["id"])
            assert me["id"] == guest["id"] and me["name"] == "Gustavo"
            table = await store.table(done.id)
            assert table.seats[0].player_name == "Gustavo"
            assert table.result == {"winner": 0, "names": ["Gustavo", "Bruno (bot, medium)"]}
            assert (await store.table(theirs.id)).seats[0].player_name == "Gus"  # not theirs
            (game,) = await accounts.history(guest["id"])
            assert [s.player_name for s in game["seating"]] == ["Gustavo", None]
        finally:
            store.close()

    run(go())


def test_migration_gives_old_seats_their_players_names(url: str) -> None:
    """Seats of guests who registered before renaming was done (0004)."""
    cfg = _alembic(url)
    command.upgrade(cfg, "0003")
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, username, chips, created_at) "
                "VALUES ('p1', 'Gustavo', 'gustavo', 1000, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO tables (id, game, seat_count, settings, options, owner_id, status,"
                " seed, created_at) VALUES ('t1', 'muggins-dominoes', 2, '{}', '{}', 'p1',"
                " 'finished', 1, CURRENT_TIMESTAMP)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO seats (table_id, seat, player_id, player_name, bot, replaced)"
                " VALUES ('t1', 0, 'p1', 'Gus', NULL, :f), ('t1', 1, NULL, NULL, 'greedy', :f)"
            ),
            {"f": False},
        )
    command.upgrade(cfg, "head")
    with engine.begin() as conn:
        names = conn.execute(text("SELECT player_name FROM seats ORDER BY seat")).scalars()
        assert list(names) == ["Gustavo", None]
    engine.dispose()


def test_migration_keeps_names_keys_apart_and_goes_back(url: str) -> None:
    """0014: the accounts' one skeleton gives way to the keys of every name in use
    (filled in when the server starts: here by ``fill_keys``, as the server does), the
    guests' last use of their session, and back."""
    cfg = _alembic(url)
    command.upgrade(cfg, "0013")
    engine = create_engine(normalize_url(url))
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO players (id, name, username, skeleton, chips, created_at) VALUES"
                " ('p1', 'Hardy', 'hardy', 'x', 1000, CURRENT_TIMESTAMP),"
                " ('p2', 'Gus', NULL, NULL, 0, CURRENT_TIMESTAMP)"
            )
        )
    command.upgrade(cfg, "head")

    async def go() -> None:
        store = Store(url)
        try:
            accounts = AccountStore(store)
            assert await accounts.fill_keys(name_keys) == 1  # the account's, not the guest's
            assert await accounts.fill_keys(name_keys) == 0
            with pytest.raises(NameTaken) as e:
                await accounts.register("HARDY", "hardy2", "hash", None, name_keys("HARDY"))
            assert e.value.like == "Hardy" and e.value.registered
            _, token = await store.create_guest("Gus")  # a guest, seen now
            assert (await store.player_by_token(token) or {}).get("name") == "Gus"
        finally:
            store.close()

    run(go())
    with engine.connect() as conn:
        keys = conn.execute(text("SELECT key FROM name_keys WHERE player_id = 'p1'")).scalars()
        assert sorted(keys) == name_keys("Hardy")
    command.downgrade(cfg, "0013")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM players WHERE skeleton IS NULL")).scalar()
    engine.dispose()
    command.upgrade(cfg, "head")


def test_nodes_started_together_on_a_new_database_all_migrate(tmp_path: Any) -> None:
    """Three nodes of a cluster started at once on an empty PostgreSQL schema: each runs
    `upgrade head` in a process of its own; without the migration lock two of them
    created the same tables at once and the server exited."""
    import subprocess
    import sys

    url = database_url("postgres", tmp_path)
    script = "import sys; from taverna.store.db import migrate; migrate(sys.argv[1])"
    try:
        procs = [
            subprocess.Popen([sys.executable, "-c", script, url], stderr=subprocess.PIPE)
            for _ in range(3)
        ]
        errors = [p.communicate(timeout=120)[1].decode() for p in procs]
        assert [p.returncode for p in procs] == [0, 0, 0], errors
        engine = create_engine(normalize_url(url))
        with engine.connect() as conn:
            versions = conn.execute(text("SELECT version_num FROM alembic_version")).all()
        engine.dispose()
        assert len(versions) == 1
    finally:
        drop_database(url)
