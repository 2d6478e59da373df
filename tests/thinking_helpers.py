"""Work for the node's thinking processes in the tests: imported by each spawned
process, so it imports next to nothing."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any


def held(request: dict[str, Any]) -> dict[str, Any]:
    """Wait until the file ``request["gate"]`` exists (a minute at most: a test that
    failed must not leave a process waiting), note the job's name in ``request["log"]``,
    and answer it."""
    gate = Path(request["gate"])
    deadline = time.monotonic() + 60
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    with open(request["log"], "a", encoding="utf-8") as log:
        log.write(request["name"] + "\n")
    return {"name": request["name"]}


def echo(request: dict[str, Any]) -> dict[str, Any]:
    return {"name": request["name"]}
