"""A Redis of a test's own (Debian's redis-server on a free port, keeping nothing on
disk), and `taverna worker` processes that use it."""

from __future__ import annotations

import contextlib
import json
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import redis

from .server_helpers import Server, free_port


class OwnRedis:
    """``redis-server`` on a free port of 127.0.0.1; ``stop()`` kills it."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> OwnRedis:
        self.proc = subprocess.Popen(
            [
                "redis-server",
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
        client = self.client()
        wait_for(lambda: _answers(client), 10, "redis-server did not start")
        return self

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, decode_responses=True, socket_timeout=5)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False


@contextlib.contextmanager
def own_redis() -> Iterator[OwnRedis]:
    r = OwnRedis().start()
    try:
        yield r
    finally:
        r.stop()


def wait_for(ok: Callable[[], Any], seconds: float, why: str) -> Any:
    """Poll ``ok`` until it gives something true (returned), or fail with ``why``."""
    deadline = time.monotonic() + seconds
    while True:
        value = ok()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(why)
        time.sleep(0.02)


LOG = ("--log-format", "json")


class WorkerProcess:
    """``taverna worker --redis URL`` with its JSON log in a file."""

    def __init__(self, url: str, name: str, *args: str) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix=f"taverna-{name}-", suffix=".log")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "taverna",
                "worker",
                "--redis",
                url,
                "--name",
                name,
                *LOG,
                *args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )

    def lines(self) -> list[dict[str, Any]]:
        with open(self.log.name, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.startswith("{")]

    def text(self) -> str:
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def decided(self) -> list[dict[str, Any]]:
        return [line for line in self.lines() if line["message"].startswith("decided")]

    def ready(self) -> WorkerProcess:
        wait_for(
            lambda: (
                any(line["message"].startswith("ready") for line in self.lines())
                or self.proc.poll() is not None
            ),
            20,
            "the worker did not start",
        )
        assert self.proc.poll() is None, self.text()
        return self

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


def metrics(server: Server) -> dict[str, float]:
    """Every figure of the server's /metrics, by name with its labels."""
    text = httpx.get(f"{server.http}/metrics", timeout=10).text
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(r"^([a-z_]+(?:\{[^}]*\})?) (\S+)$", line)
        if m:
            out[m.group(1)] = float(m.group(2))
    return out


def local(figures: dict[str, float]) -> dict[str, float]:
    """The decisions a node made itself, by reason (those above 0)."""
    out = {}
    for key, value in figures.items():
        m = re.match(r'^taverna_bot_decisions_local_total\{reason="(\w+)"\}$', key)
        if m and value:
            out[m.group(1)] = value
    return out


def bot_env(url: str | None, **options: Any) -> dict[str, str]:
    """A server's environment for Redis at ``url`` and the expert's ``options``."""
    env = {"TAVERNA_BOT_OPTIONS": json.dumps({"expert": options})}
    if url is not None:
        env["TAVERNA_REDIS_URL"] = url
    return env
