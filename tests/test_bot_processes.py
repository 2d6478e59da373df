"""A node's own thinking processes (the strong bots' pool) end with the node: a node
killed with SIGKILL left them behind, each waiting forever on the pool's queue."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path
from typing import Any

from .redis_helpers import wait_for
from .restart_helpers import Table
from .server_helpers import own_server


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_killed_node_leaves_no_thinking_process_behind(tmp_path: Any) -> None:
    with own_server("sqlite", tmp_path, TAVERNA_BOT_DELAY="0") as srv:
        assert srv.proc is not None
        pid = srv.proc.pid
        t = Table(srv, "dominoes", 2, {}, bots={1: "expert"}, name="pool")

        async def until_the_expert_thinks() -> set[int]:
            await t.connect(srv)
            try:
                await t.play_until(lambda _: bool(children(pid)), limit=200)
                return children(pid)
            finally:
                await t.close()

        try:
            pool = asyncio.run(until_the_expert_thinks())
        except BaseException:
            print(srv.log_text()[-5000:])  # what the node said, when the bot never moved
            raise
        assert pool and all(alive(p) for p in pool)
        os.kill(pid, signal.SIGKILL)
        srv.proc.wait()
        wait_for(
            lambda: not any(alive(p) for p in pool), 20, f"{pool} still running after the node"
        )
