"""Test servers forked from a process that has imported the club already.

A ``taverna serve`` spends most of its start importing (FastAPI, SQLAlchemy, Alembic,
the engines: about 1.5 s of CPU of its 2), and the suite starts some 300 servers. So
each pytest process keeps one *fork server*: a process that imports what ``serve``
imports and then, asked for a server, forks; the child takes the command line and the
environment it was given and runs ``taverna serve`` from ``cli.main`` on — the same
code as ``python -m taverna serve``, in a real process of its own (its pid, its
sockets, its database connections; SIGKILL and SIGSTOP are real). The fork server is
the parent: it reaps its children and tells their exit status.

Used by :class:`tests.server_helpers.Server` when ``TAVERNA_TEST_FORK`` is not ``0``,
for every server whose environment holds what is read at import (the engines' build,
PYTHONPATH: :func:`_at_import`) as the fork server's does; any other is started the
plain way. ``tests/test_cli_serve.py`` and the engine-build
tests start ``taverna`` as a command, as a user does.

Run as a program (``python -m tests.forkserver``) it is the fork server: requests and
answers are JSON lines on its stdin and stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

#: the repository (``python -m tests.forkserver`` runs from it)
ROOT = Path(__file__).resolve().parents[1]

#: variables read when the club is imported, not when a server starts (the engines'
#: build; and Python's own, PYTHONPATH among them, where plug-in games are found): a
#: server asked for other values than the fork server's is started the plain way
IMPORT_TIME = ("TAVERNA_ENGINES",)


def _at_import(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k in IMPORT_TIME or k.startswith("PYTHON")}


def enabled() -> bool:
    return os.environ.get("TAVERNA_TEST_FORK", "1") != "0"


# ------------------------------------------------------------------ the fork server


def _preload() -> None:
    """What ``taverna serve`` imports before it answers, imported once here."""
    import alembic.command
    import alembic.config
    import alembic.runtime.migration  # noqa: F401

    import taverna.cli
    import taverna.server.app
    import taverna.server.logs
    import taverna.store.db  # noqa: F401


def _child(request: dict[str, Any]) -> None:
    """In the forked child: become ``taverna serve`` with the request's arguments,
    environment, folder and log; never returns."""
    code: Any = 1
    try:
        null = os.open(os.devnull, os.O_RDWR)
        log = os.open(request["stderr"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.dup2(null, 0)
        os.dup2(null, 1)
        os.dup2(log, 2)
        os.close(null)
        os.close(log)
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        sys.argv = ["taverna", *request["argv"]]
        from taverna.cli import main

        code = main(request["argv"])
    except SystemExit as e:
        code = e.code
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code if isinstance(code, int) else 1)


def serve_forks() -> None:
    """The fork server's loop: start a child per request, reap children, answer polls."""
    _preload()
    codes: dict[int, int] = {}

    def reap() -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            codes[pid] = os.waitstatus_to_exitcode(status)

    out = sys.stdout
    print(json.dumps({"ready": os.getpid()}), file=out, flush=True)
    while True:
        ready, _, _ = select.select([sys.stdin], [], [], 0.05)
        reap()
        if not ready:
            continue
        line = sys.stdin.readline()
        if not line:
            return  # the pytest process is gone
        request = json.loads(line)
        if request["op"] == "start":
            out.flush()
            pid = os.fork()
            if pid == 0:
                _child(request)
            answer: dict[str, Any] = {"pid": pid}
        else:
            reap()
            answer = {"code": codes.get(request["pid"])}
        print(json.dumps(answer), file=out, flush=True)


# ------------------------------------------------------------------ the pytest side


class ForkServer:
    """One pytest process's fork server, started at its first use."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._env: dict[str, str] = {}

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._env = dict(os.environ)
                self._proc = subprocess.Popen(
                    [sys.executable, "-m", "tests.forkserver"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                )
                self._read()  # its "ready": everything imported
            assert self._proc.stdin is not None
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
            return self._read()

    def _read(self) -> dict[str, Any]:
        assert self._proc is not None and self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError("the test fork server has gone")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def serves(self, env: dict[str, str]) -> bool:
        """Whether a server with this environment may be forked (module doc)."""
        return enabled() and _at_import(env) == _at_import(self._env or os.environ)

    def start(self, argv: list[str], env: dict[str, str], stderr: str) -> Forked:
        answer = self._ask(
            {"op": "start", "argv": argv, "env": env, "stderr": stderr, "cwd": os.getcwd()}
        )
        return Forked(self, int(answer["pid"]))

    def code(self, pid: int) -> int | None:
        code = self._ask({"op": "poll", "pid": pid})["code"]
        return None if code is None else int(code)

    def close(self) -> None:
        if self._proc is not None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
            self._proc = None


class Forked:
    """A forked server, with the part of :class:`subprocess.Popen` the tests use."""

    def __init__(self, forks: ForkServer, pid: int) -> None:
        self._forks = forks
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._forks.code(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() > deadline:
                raise subprocess.TimeoutExpired(f"taverna serve (pid {self.pid})", timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        import signal

        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        import signal

        self.send_signal(signal.SIGKILL)


#: this pytest process's fork server
FORKS = ForkServer()


def started(argv: list[str], env: dict[str, str], stderr: IO[bytes]) -> Any:
    """``taverna`` with ``argv`` as a process: forked when it can be, else started."""
    if FORKS.serves(env):
        return FORKS.start(argv, env, stderr.name)
    return subprocess.Popen(
        [sys.executable, "-m", "taverna", *argv],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=stderr,
    )


if __name__ == "__main__":
    serve_forks()
