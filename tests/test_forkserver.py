"""The test servers forked from a process that has imported the club (tests/forkserver.py)
behave as ``taverna serve`` started as a command: their own process, their own log,
their exit status, and the signals a test sends them."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import httpx
import pytest

from . import forkserver
from .server_helpers import Server

pytestmark = pytest.mark.skipif(not forkserver.enabled(), reason="TAVERNA_TEST_FORK=0")


def test_a_server_that_cannot_start_says_why_and_exits_with_its_status(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path}/no/such/folder/x.db")
    with pytest.raises(RuntimeError, match="does not exist"):
        server.start()
    assert isinstance(server.proc, forkserver.Forked)
    assert server.proc.wait(10) != 0


def test_a_forked_server_is_a_process_of_its_own_that_sigkill_ends(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path}/x.db", TAVERNA_CLIENT_PING_EVERY="7").start()
    try:
        assert isinstance(server.proc, forkserver.Forked)
        assert server.proc.pid != os.getpid()
        # the environment it was given, not its fork server's
        games = httpx.get(f"{server.http}/api/games").json()
        assert games["keepalive"]["ping_every"] == 7
        assert "engines:" in server.log_text()  # its log, in the file it was given
        server.kill()
        assert server.proc.wait(10) == -signal.SIGKILL
        with pytest.raises(httpx.HTTPError):
            httpx.get(f"{server.http}/api/health", timeout=1)
    finally:
        server.stop()


def test_a_server_asked_for_another_build_is_started_the_plain_way(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path}/x.db", TAVERNA_ENGINES="python").start()
    try:
        assert not isinstance(server.proc, forkserver.Forked)
        assert httpx.get(f"{server.http}/api/health").status_code == 200
    finally:
        server.stop()
