"""Several nodes for the tests (docs/scaling.md): a Redis of the test's own
(tests/redis_helpers.py), and nodes of ``taverna serve --redis`` on one PostgreSQL
schema."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .redis_helpers import OwnRedis
from .server_helpers import Server


def node(url: str, redis_url: str, name: str, **env: str) -> Server:
    """A node of the cluster (not started)."""
    return Server(url, TAVERNA_REDIS_URL=redis_url, TAVERNA_NODE=name, **env)


@contextlib.contextmanager
def cluster(url: str, count: int, **env: str) -> Iterator[tuple[OwnRedis, list[Server]]]:
    """A Redis and ``count`` nodes on the database ``url``, stopped afterwards; when the
    test fails, what each node said. A node the test adds to the list later (made with
    :func:`node`) is stopped and shown with them."""
    red = OwnRedis().start()
    nodes = [node(url, red.url, f"n{i}", **env) for i in range(count)]
    try:
        for n in nodes:
            n.start()
        yield red, nodes
    except BaseException:
        for n in nodes:
            print(f"----- {n.env['TAVERNA_NODE']}\n{n.log_text()[-6000:]}")
        raise
    finally:
        for n in nodes:
            n.stop()
        red.stop()


def owner(red: OwnRedis, table_id: str) -> str | None:
    """The node that holds a table's lease."""
    value: Any = red.client().get(f"taverna:lease:{table_id}")
    return str(value).rpartition("|")[0] if value else None
