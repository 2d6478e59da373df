"""The fence in the database (docs/scaling.md, "Who owns a table"): every write of a
table's game checks, in its own transaction, that the writing node's token is still
the table's. A node's writer stores many tables' moves in one transaction; their
fences are checked together, and a stale one refuses only its own move."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from taverna.store.fencing import Fenced
from taverna.store.repo import Store
from taverna.store.writer import Write, commit

from .server_helpers import database_url, drop_database


@pytest.fixture(params=["sqlite", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Any) -> Any:
    url = database_url(request.param, tmp_path)
    s = Store(url)
    yield s
    s.close()
    drop_database(url)


async def _three_owned_tables(store: Store) -> list[str]:
    ids = []
    for _ in range(3):
        table = await store.create_table("muggins-dominoes", 2, {}, {}, None)
        await store.start_table(table.id, [{"hands": []}])
        assert await store.claim(table.id, 1, "n1") is None
        ids.append(table.id)
    return ids


def test_a_batch_with_one_stale_fence_stores_none_of_it(store: Store) -> None:
    async def go() -> None:
        a, b, c = await _three_owned_tables(store)
        await store.claim(c, 2, "n2")  # n2 took c over: n1's token 1 is old for c
        batch = [Write(t, 0, {"type": "pass"}, (), None, None, 1) for t in (a, b, c)]  # type: ignore[arg-type]
        with pytest.raises(Fenced) as e:
            commit(store.engine, batch)
        assert e.value.table_id == c
        for t in (a, b, c):
            assert await store.actions(t) == []  # one transaction: nothing of it stayed

    asyncio.run(go())


def test_moves_written_together_stand_or_fall_by_their_own_fence(store: Store) -> None:
    async def go() -> None:
        a, b, c = await _three_owned_tables(store)
        await store.claim(c, 2, "n2")
        results = await asyncio.gather(
            *(store.append_action(t, 0, {"type": "pass"}, fence=1) for t in (a, b, c)),
            return_exceptions=True,
        )
        assert results[:2] == [None, None]
        assert isinstance(results[2], Fenced)
        assert await store.actions(a) == [{"type": "pass"}]
        assert await store.actions(b) == [{"type": "pass"}]
        assert await store.actions(c) == []
        # the new owner's token is good
        await store.append_action(c, 0, {"type": "pass"}, fence=2)
        assert await store.actions(c) == [{"type": "pass"}]

    asyncio.run(go())
