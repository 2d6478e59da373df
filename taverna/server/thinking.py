"""The node's own thinking processes: who gets them, in what order, and how much.

A strong bot's search takes up to a second of CPU, so the node makes it away from its
event loop, in processes of its own. Three kinds of job want them:

- a **decision** of a table's strong bot: a table waits for it, and so does whoever
  plays there;
- a **hint** a player asked for (docs/protocol.md, Hints): one person waits for it;
- a **review** of a finished game, one decision at a time: nobody waits at a table.

A decision never waits for a hint or a review: decisions have processes of their own
(:data:`DECISION_PROCESSES`, one per core, two at most), which nothing else uses.
Hints and reviews share one process at a low priority (``nice``, as
:func:`~taverna.bots.review.low_priority`), so the system gives the decisions and the
event loop the processor first; and none starts while the decisions keep every core
they may have busy. A free turn of that process goes to the first hint waiting, and
to a review's next decision only when no hint waits.

Hints wait in a bounded queue: when it is full a hint is refused at once
(:class:`Busy`), and a hint that is no longer wanted when its turn comes (its socket
closed, its table moved on: the ``wanted`` its asker gave) is dropped without being
computed. A job already running is not interrupted: a process cannot be stopped
cheaply in the middle of a search, so a hint that became useless while it ran still
costs its budget (a few hundredths of a second of one core, 3 s at most by its safety
cap, at the low priority), and its answer is not sent; a review's decision under way
costs about a strong bot's decision.

:class:`ThinkingLimits` is what one account and one client address may ask for, across
all their sockets and sessions: hints, and reviews counting as several.
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots.decision import follow_parent
from ..bots.review import low_priority
from .guard import Budgets

if TYPE_CHECKING:
    from .metrics import Metrics

#: the processes for the strong bots' decisions: one per core, two at most (the node's
#: event loop needs a processor too)
DECISION_PROCESSES = max(1, min(2, os.cpu_count() or 1))
#: the low-priority processes that hints and reviews share
BACKGROUND_PROCESSES = 1
#: the order in which waiting jobs get a free background process (lower first): a
#: person at a table waits for a hint, nobody for a review
PRIORITY = {"hint": 0, "review": 1}

Work = Callable[[dict[str, Any]], dict[str, Any]]


class Busy(Exception):
    """The hints waiting fill the queue: this one is refused at once."""


@dataclass(eq=False)
class Job:
    """A hint or a review waiting for (or in) the background process."""

    kind: str
    work: Work
    request: dict[str, Any]
    #: asked just before it runs: False drops it, uncomputed
    wanted: Callable[[], bool]
    future: asyncio.Future[dict[str, Any] | None]
    #: arrival order among jobs of one priority
    order: int
    queued_at: float = field(default_factory=time.perf_counter)


def _always() -> bool:
    return True


class Thinkers:
    """The node's thinking processes (spawned at first use) and the jobs waiting for
    them (module doc)."""

    def __init__(self, metrics: Metrics, hint_queue: int) -> None:
        self.metrics = metrics
        #: the most hints waiting (the one running not counted)
        self.hint_queue = hint_queue
        self._decisions: ProcessPoolExecutor | None = None
        self._background: ProcessPoolExecutor | None = None
        #: decisions under way or waiting for one of their processes
        self.deciding = 0
        #: hints and reviews waiting for the background process, in arrival order
        self.waiting: list[Job] = []
        self.running: set[Job] = set()
        self._order = itertools.count()
        self.closed = False

    # ---------------------------------------------------------------- decisions

    async def decide(self, work: Work, request: dict[str, Any]) -> dict[str, Any]:
        """A strong bot's decision in one of the decisions' own processes."""
        if self._decisions is None:
            self._decisions = _processes(DECISION_PROCESSES, follow_parent)
        self.deciding += 1
        try:
            loop = asyncio.get_running_loop()
            answer = await loop.run_in_executor(self._decisions, work, request)
        finally:
            self.deciding -= 1
            self._next()  # a processor is free again: a hint may have it
        self.metrics.thinking_job("decision", "run")
        return answer

    # ------------------------------------------------------- hints and reviews

    def hint(
        self, work: Work, request: dict[str, Any], wanted: Callable[[], bool]
    ) -> asyncio.Future[dict[str, Any] | None]:
        """Queue a hint; its future is the answer, or None if it was dropped (no longer
        ``wanted`` when its turn came). Raises :class:`Busy`, at once, when as many
        hints as the queue holds are waiting already."""
        if self._hints_waiting() >= self.hint_queue:
            self._drop_unwanted()  # the dead do not keep the living out
            if self._hints_waiting() >= self.hint_queue:
                self.metrics.thinking_job("hint", "busy")
                raise Busy(f"{self.hint_queue} hints are waiting already")
        return self._queue("hint", work, request, wanted)

    async def review(self, work: Work, request: dict[str, Any]) -> dict[str, Any]:
        """One decision of a review, after every hint waiting (never refused: a node
        reviews one decision at a time)."""
        answer = await self._queue("review", work, request, _always)
        assert answer is not None  # a review is always wanted
        return answer

    def waiting_by_kind(self) -> dict[str, int]:
        """Jobs waiting for a process, by kind (decisions: under way or waiting)."""
        counts = dict.fromkeys(PRIORITY, 0)
        for job in self.waiting:
            counts[job.kind] += 1
        return counts

    def running_by_kind(self) -> dict[str, int]:
        counts = {"decision": self.deciding, **dict.fromkeys(PRIORITY, 0)}
        for job in self.running:
            counts[job.kind] += 1
        return counts

    def _hints_waiting(self) -> int:
        return sum(1 for job in self.waiting if job.kind == "hint")

    def _queue(
        self, kind: str, work: Work, request: dict[str, Any], wanted: Callable[[], bool]
    ) -> asyncio.Future[dict[str, Any] | None]:
        future: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        self.waiting.append(Job(kind, work, request, wanted, future, next(self._order)))
        self._next()
        return future

    def _drop_unwanted(self) -> None:
        kept = []
        for job in self.waiting:
            if job.future.done() or not job.wanted():
                self._dropped(job)
            else:
                kept.append(job)
        self.waiting = kept

    def _dropped(self, job: Job) -> None:
        if not job.future.done():
            job.future.set_result(None)
        self.metrics.thinking_job(job.kind, "dropped")

    def _next(self) -> None:
        """Give each free background process the first wanted job, by priority; none
        while the decisions take every processor they may have (a hint or a review
        would only slow them down)."""
        while (
            not self.closed
            and self.waiting
            and len(self.running) < BACKGROUND_PROCESSES
            and self.deciding < DECISION_PROCESSES
        ):
            job = min(self.waiting, key=lambda j: (PRIORITY[j.kind], j.order))
            self.waiting.remove(job)
            if job.future.done() or not job.wanted():
                self._dropped(job)  # its asker went away, or its position did
                continue
            self._start(job)

    def _start(self, job: Job) -> None:
        if self._background is None:
            self._background = _processes(BACKGROUND_PROCESSES, low_priority)
        self.running.add(job)
        self.metrics.thinking_job(job.kind, "run")
        loop = asyncio.get_running_loop()
        done = loop.run_in_executor(self._background, job.work, job.request)
        done.add_done_callback(lambda d: self._finished(job, d))

    def _finished(self, job: Job, done: asyncio.Future[dict[str, Any]]) -> None:
        self.running.discard(job)
        if job.kind == "hint":
            # the time its asker waited, the queue included
            self.metrics.thought("hint", time.perf_counter() - job.queued_at)
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif done.exception() is not None:
                job.future.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                job.future.set_result(done.result())
        self._next()

    def close(self) -> None:
        """Stop: nothing more starts, and the processes end. A search under way is
        let finish (its answer is dropped: a fraction of a second), so that the pools
        release their semaphores and queues before the server exits (else Python's
        resource tracker warns of leaked semaphores at every stop)."""
        self.closed = True
        for job in self.waiting:
            job.future.cancel()
        self.waiting = []
        for executor in (self._decisions, self._background):
            if executor is not None:
                executor.shutdown(wait=True, cancel_futures=True)


def _processes(count: int, initializer: Callable[[int], None]) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=count,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=initializer,
        initargs=(os.getpid(),),
    )


class ThinkingLimits:
    """How much of the strong bot's thinking one account (a guest too) and one client
    address may ask for: a token bucket each (``TAVERNA_HINT_LIMIT_ACCOUNT``,
    ``TAVERNA_HINT_LIMIT_ADDRESS``), across every socket and session. A hint costs one,
    a review :data:`REVIEW_COST`. Counted on each node: a hint is computed on the node
    that owns its table, a review on the node that was asked."""

    def __init__(self, per_account: str, per_address: str) -> None:
        self.accounts = Budgets(per_account)
        self.addresses = Budgets(per_address)

    def refusal(
        self, account: str | None, address: str | None, cost: float
    ) -> tuple[str, float] | None:
        """Which limit ``cost`` more would pass ("account" or "address") and the seconds
        until it would not; None when neither would."""
        waits = [
            ("account", self.accounts.wait(account, cost) if account else 0.0),
            ("address", self.addresses.wait(address, cost) if address else 0.0),
        ]
        limit, seconds = max(waits, key=lambda w: w[1])
        return (limit, seconds) if seconds > 0 else None

    def spend(self, account: str | None, address: str | None, cost: float) -> None:
        if account:
            self.accounts.spend(account, cost)
        if address:
            self.addresses.spend(address, cost)


#: a review's cost in hints: it is a strong bot's estimate at every decision of one
#: seat, tens of searches, asked once per seat of a finished game
REVIEW_COST = 5
