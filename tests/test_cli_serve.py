"""`taverna serve`: a bad database or a busy port is refused in one clear line before
anything is announced; the help shows the defaults; an access log on request."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import websockets

from .server_helpers import free_port


def serve(*args: str, cwd: Path, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taverna", "serve", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        check=False,
    )


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("bogus://x", "unsupported database 'bogus': use sqlite:// or postgresql://"),
        ("nothing-like-a-url", "is not a database URL"),
        ("postgresql://127.0.0.1:1/x", "cannot connect: connection failed"),
        ("sqlite:////nonexistent/dir/x.db", "the folder /nonexistent/dir for the SQLite file"),
    ],
)
def test_a_database_that_cannot_be_used_is_refused_before_anything_starts(
    url: str, why: str, tmp_path: Path
) -> None:
    proc = serve("--port", "0", "--database", url, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == ""  # no "Taverna at http://…" for a server that never ran
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[0].startswith("taverna serve: database ") and why in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_a_password_is_never_shown(tmp_path: Path) -> None:
    proc = serve("--port", "0", "--database", "postgresql://ana:s3cret@127.0.0.1:1/x", cwd=tmp_path)
    assert proc.returncode == 1 and "s3cret" not in proc.stderr and "***" in proc.stderr


def test_a_port_in_use_is_said_plainly_and_nothing_is_touched(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        db = tmp_path / "t.db"
        proc = serve("--port", str(port), "--database", f"sqlite:///{db}", cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stdout == "" and "resumed" not in proc.stderr and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == (
        f"taverna serve: cannot listen on 127.0.0.1:{port}: Address already in use "
        "(is another server running there? choose another with --port N)"
    )
    assert not db.exists()  # the database was not even created


def test_a_bad_port_is_refused_by_the_arguments(tmp_path: Path) -> None:
    proc = serve("--port", "70000", cwd=tmp_path)
    assert proc.returncode == 2
    assert "argument --port: a port is 1 to 65535 (0: any free port), not 70000" in proc.stderr


def test_serve_help_shows_the_defaults(tmp_path: Path) -> None:
    proc = serve("--help", cwd=tmp_path)
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "(default 127.0.0.1" in text
    assert "(default 8000" in text
    assert "TAVERNA_DATABASE_URL, else sqlite:///taverna.db" in text
    assert "--access-log" in text
    assert "--log-format" in text and "TAVERNA_LOG_FORMAT, else text" in text
    # the node's name as /api/health, the README and docs/operations.md say it
    assert "TAVERNA_NODE, else main; with --redis, HOST:PORT" in text


async def _visit_the_lobby(port: int) -> None:
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws/lobby") as ws:
        assert json.loads(await ws.recv())["type"] == "tables"


def _serve_until_healthy(tmp_path: Path, *args: str) -> tuple[str, str]:
    """Start a server, ask /api/health, visit the lobby's WebSocket, stop it; its
    stdout and stderr."""
    port = free_port()
    db = f"sqlite:///{tmp_path}/t.db"
    proc = subprocess.Popen(
        [sys.executable, "-m", "taverna", "serve", "--port", str(port), "--database", db, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
    )
    try:
        deadline = time.time() + 30
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).is_success:
                    break
            except httpx.HTTPError:
                assert time.time() < deadline, "the server did not start"
                time.sleep(0.1)
        asyncio.run(_visit_the_lobby(port))
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=15)
    return out, err


def test_the_access_log_is_off_by_default_and_on_with_a_flag(tmp_path: Path) -> None:
    out, err = _serve_until_healthy(tmp_path)
    assert out.startswith("Taverna at http://127.0.0.1:")
    assert "ready: 0 table(s) resumed" in err
    assert "GET /api/health" not in err and "WebSocket" not in err
    out, err = _serve_until_healthy(tmp_path, "--access-log")
    assert '"GET /api/health HTTP/1.1" 200' in err
    assert '"WebSocket /ws/lobby" [accepted]' in err
    assert err.index("ready:") < err.index("GET /api/health")
    assert "Started server process" not in err  # uvicorn's start-up chatter stays out


def test_the_access_log_can_be_set_in_the_environment(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TAVERNA_ACCESS_LOG", "1")
    _, err = _serve_until_healthy(tmp_path)
    assert '"GET /api/health HTTP/1.1" 200' in err


def test_the_log_can_be_json_lines(tmp_path: Path) -> None:
    out, err = _serve_until_healthy(tmp_path, "--log-format", "json", "--access-log")
    assert out.startswith("Taverna at http://127.0.0.1:")  # stdout says where, as before
    lines = [json.loads(line) for line in err.splitlines()]  # stderr: JSON, every line
    assert any(line["message"].startswith("Taverna ") for line in lines)
    health = [line for line in lines if line.get("path") == "/api/health"]
    assert health and health[0]["status"] == 200 and health[0]["node"] == "main"


def test_a_log_format_nobody_writes_is_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TAVERNA_LOG_FORMAT", "xml")
    proc = serve("--port", "0", cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip() == "taverna serve: TAVERNA_LOG_FORMAT is text or json, not 'xml'"
    proc = serve("--port", "0", "--log-format", "xml", cwd=tmp_path)
    assert proc.returncode == 2 and "invalid choice: 'xml'" in proc.stderr


@pytest.mark.parametrize(
    ("args", "env", "line"),
    [
        (
            ("--redis", "http://x"),
            {},
            "taverna serve: --redis: 'http://x' is not a Redis URL",
        ),
        (
            (),
            {"TAVERNA_BOT_OPTIONS": '{"expert": {"iterations": 0}}'},
            "taverna serve: TAVERNA_BOT_OPTIONS: expert bot: iterations must be a whole "
            "number of at least 1, not 0",
        ),
        (
            (),
            {"TAVERNA_BOT_OPTIONS": '{"wizard": {}}'},
            "taverna serve: TAVERNA_BOT_OPTIONS: no bot level 'wizard'",
        ),
        (
            (),
            {"TAVERNA_BOT_OPTIONS": "[1]"},
            "taverna serve: a TAVERNA_* setting is not valid: TAVERNA_BOT_OPTIONS must be",
        ),
        (
            (),
            {"TAVERNA_CLIENT_PING_EVERY": "0"},
            "taverna serve: a TAVERNA_* setting is not valid: TAVERNA_CLIENT_PING_EVERY "
            "must be a number of seconds above 0",
        ),
        (
            (),
            {"TAVERNA_WS_PING_TIMEOUT": "-1"},
            "taverna serve: a TAVERNA_* setting is not valid: TAVERNA_WS_PING_TIMEOUT "
            "must be 0 (off) or more seconds",
        ),
    ],
)
def test_serve_refuses_a_redis_url_or_bot_options_it_cannot_use(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], line: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "taverna", "serve", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, **env},
        check=False,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(line), proc.stderr
