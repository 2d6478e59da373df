"""Several nodes for the tests (docs/scaling.md): a Redis of the test's own, and nodes
of ``taverna serve --redis`` on one PostgreSQL schema."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import redis

from .server_helpers import Server, free_port


class RedisServer:
    """``redis-server`` on a free port, keeping nothing on disk; stop and start it again
    to cut the nodes off from it (the machine's own Redis is never touched)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        exe = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.2)
        deadline = time.time() + 10
        while time.time() < deadline:
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    return self
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def node(url: str, redis_url: str, name: str, **env: str) -> Server:
    """A node of the cluster (not started)."""
    return Server(url, TAVERNA_REDIS_URL=redis_url, TAVERNA_NODE=name, **env)


@contextlib.contextmanager
def cluster(url: str, count: int, **env: str) -> Iterator[tuple[RedisServer, list[Server]]]:
    """A Redis and ``count`` nodes on the database ``url``, stopped afterwards."""
    red = RedisServer().start()
    nodes = [node(url, red.url, f"n{i}", **env) for i in range(count)]
    try:
        for n in nodes:
            n.start()
        yield red, nodes
    except BaseException:
        for n in nodes:  # what each node said, to see why
            print(f"----- {n.env['TAVERNA_NODE']}\n{n.log_text()[-6000:]}")
        raise
    finally:
        for n in nodes:
            n.stop()
        red.stop()


def owner(red: RedisServer, table_id: str) -> str | None:
    """The node that holds a table's lease."""
    value: Any = red.client().get(f"taverna:lease:{table_id}")
    return str(value).rpartition("|")[0] if value else None


def wait_for(check: Any, timeout: float = 20, every: float = 0.05) -> Any:
    deadline = time.time() + timeout
    while time.time() < deadline:
        got = check()
        if got:
            return got
        time.sleep(every)
    raise AssertionError(f"not within {timeout} s: {check}")
