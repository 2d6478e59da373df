"""Background tasks whose failure is logged, never lost: a timer's callback, a table's
work that nobody awaits."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from .logs import TableLog

log = logging.getLogger("taverna.rooms")


def spawn(
    coro: Coroutine[Any, Any, Any], about: logging.Logger | TableLog = log
) -> asyncio.Task[Any]:
    """Run a timer callback as a task whose failure is logged (``about`` its table),
    never lost."""
    task = asyncio.ensure_future(coro)
    task.add_done_callback(lambda done: _log_failure(done, about))
    return task


def _log_failure(task: asyncio.Task[Any], about: logging.Logger | TableLog) -> None:
    if not task.cancelled() and task.exception() is not None:
        about.error("a timer failed", exc_info=task.exception())
