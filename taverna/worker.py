"""``taverna worker --redis URL``: a bot worker, which makes strong bots' decisions for
every node of a club (docs/scaling.md).

Each worker process is one consumer of the Redis stream the nodes queue decisions in
(:mod:`taverna.server.botqueue`), and makes one decision at a time: a search is pure
Python and CPU-bound, so one process decides one at a time whatever it does, and more
processes (``--concurrency N``, one per core) or more machines decide more. A process of
its own per decision slot, rather than one reader feeding a pool, keeps each slot's
decision its own in Redis: when a process dies, only its decision is claimed again.

A worker process:

- takes a decision whose worker stopped beating for :data:`CLAIM_AFTER` seconds first
  (XAUTOCLAIM), else a new one (XREADGROUP), and gives up one delivered
  :data:`TRIES` times (the node then thinks itself: a decision that kills its workers
  must not kill them all);
- drops a request older than its node's deadline (that node has thought itself);
- makes the bot from the request — a level, never code: JSON, never pickle — and lets
  it choose (:func:`taverna.bots.decision.decide`), in a thread, so that its heartbeat
  goes on while it thinks;
- answers on the node's list and acknowledges the request, in one transaction;
- beats every :data:`BEAT` seconds (a sorted set the nodes read), which also tells
  Redis its decision under way is alive;
- on SIGTERM (or Ctrl-C) finishes its decision under way, answers it, and leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import signal
import socket
import sys
import time
import uuid
from typing import Any

from redis.exceptions import RedisError

from . import native
from .bots.decision import decide
from .bots.review import estimate
from .server.botqueue import (
    ANSWER_TTL,
    ANSWERS,
    BEAT,
    CLAIM_AFTER,
    GROUP,
    STREAM,
    TRIES,
    WORKERS,
    check_redis,
    connect,
    display_url,
    ensure_group,
    entry_time,
    redis_now,
)
from .server.logs import TableLog, configure

log = logging.getLogger("taverna.worker")

#: seconds after which a consumer of the group that holds nothing is forgotten
GONE = 3600


class Worker:
    """One worker process: one consumer of the queue, one decision at a time."""

    def __init__(self, url: str, name: str, parent: int | None = None) -> None:
        self.url = url
        self.name = name
        #: the process that started this one (``--concurrency``): gone, this one stops
        self.parent = parent
        self.client = connect(url, blocking=1.0)
        self.current: str | None = None  # the stream entry being decided
        self.stopping = False
        self.decided = 0
        self._away = False

    def stop(self) -> None:
        if not self.stopping:
            self.stopping = True
            doing = " once its decision under way is answered" if self.current else ""
            log.info("stopping%s", doing)

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.stop)
        await ensure_group(self.client)
        await self._tidy()
        left = asyncio.Event()
        beat = asyncio.ensure_future(self._beat(left))
        log.info("ready: takes strong bots' decisions from %s", display_url(self.url))
        try:
            while not self.stopping:
                try:
                    taken = await self._next()
                    if taken is not None:
                        await self._handle(*taken)
                    self._back()
                except (RedisError, OSError) as e:
                    self._lost(e)
                    await asyncio.sleep(1.0)
        finally:
            # told, not cancelled: a Redis call cancelled half-way can hang its client
            left.set()
            await beat
            await self._leave()
            log.info("stopped after %d decision(s)", self.decided)

    def _lost(self, error: BaseException) -> None:
        if not self._away:
            log.warning("Redis is not answering (%s): waiting for it", error)
        self._away = True

    def _back(self) -> None:
        if self._away:
            log.warning("Redis answers again")
        self._away = False

    async def _next(self) -> tuple[str, dict[str, Any], int] | None:
        """The next request: one whose worker stopped beating first, else a new one
        (waiting a second at most); its entry id, fields and deliveries."""
        claimed = await self.client.xautoclaim(
            STREAM, GROUP, self.name, int(CLAIM_AFTER * 1000), "0-0", count=1
        )
        for entry_id, fields in claimed[1]:
            if fields is None:  # deleted, its node gave up on it (Redis 6.2 says so)
                await self.client.xack(STREAM, GROUP, entry_id)
                continue
            pending = await self.client.xpending_range(STREAM, GROUP, entry_id, entry_id, 1)
            tries = int(pending[0]["times_delivered"]) if pending else TRIES + 1
            return entry_id, fields, tries
        got = await self.client.xreadgroup(GROUP, self.name, {STREAM: ">"}, count=1, block=1000)
        for _, entries in got or ():
            for entry_id, fields in entries:
                return entry_id, fields or {}, 1
        return None

    async def _handle(self, entry: str, fields: dict[str, Any], tries: int) -> None:
        self.current = entry
        try:
            try:
                request = json.loads(fields["request"])
                rid, reply = str(request["id"]), str(request["reply"])
                if not reply.startswith(ANSWERS):
                    raise ValueError(f"it asks for its answer on {reply!r}")
            except (KeyError, TypeError, ValueError) as e:
                log.warning("dropped a request that is not one (%s): %.200s", e, fields)
                await self._done(entry)
                return
            about = TableLog(log, str(request.get("table")))
            seat, seq = request.get("seat"), request.get("seq")
            waited = await redis_now(self.client) - entry_time(entry)
            if tries > TRIES:
                about.warning(
                    "gave up the decision at seq %s: delivered %d times", seq, tries, seat=seat
                )
                answer = {"error": f"given up after {tries - 1} tries"}
            elif waited > float(request.get("deadline", 0)):
                about.info(
                    "dropped the decision at seq %s: %.1f s in the queue, its node "
                    "has thought itself",
                    seq,
                    waited,
                    seat=seat,
                )
                await self._done(entry)
                return
            else:
                answer = await self._decide(request, about, tries)
            await self._answer(entry, reply, {"id": rid, "worker": self.name, **answer})
        finally:
            self.current = None

    async def _decide(self, request: dict[str, Any], about: TableLog, tries: int) -> dict[str, Any]:
        seat = request.get("seat")
        started = time.perf_counter()
        try:
            # a thread: the heartbeat goes on while the search holds the processor
            # a review's decision (taverna.bots.review) or a bot's
            work = estimate if request.get("kind") == "review" else decide
            answer = await asyncio.to_thread(work, request)
        except Exception as e:  # the node thinks itself, and says so
            about.warning("could not decide: %s: %s", type(e).__name__, e, seat=seat)
            return {"error": f"{type(e).__name__}: {e}"}
        seconds = time.perf_counter() - started
        self.decided += 1
        again = f" (delivery {tries})" if tries > 1 else ""
        about.info(
            "%s for %s at seq %s (%s, %s) in %.2f s%s",
            "reviewed" if request.get("kind") == "review" else "decided",
            request.get("node"),
            request.get("seq"),
            request.get("game"),
            request.get("level", request.get("kind")),
            seconds,
            again,
            seat=seat,
        )
        return {**answer, "seconds": round(seconds, 4)}

    async def _answer(self, entry: str, reply: str, answer: dict[str, Any]) -> None:
        """The answer on the node's list and the request acknowledged, at once: a worker
        that dies before leaves the request to another."""
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.rpush(reply, json.dumps(answer, separators=(",", ":")))
            pipe.expire(reply, ANSWER_TTL)
            pipe.xack(STREAM, GROUP, entry)
            pipe.xdel(STREAM, entry)
            await pipe.execute()

    async def _done(self, entry: str) -> None:
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.xack(STREAM, GROUP, entry)
            pipe.xdel(STREAM, entry)
            await pipe.execute()

    async def _beat(self, left: asyncio.Event) -> None:
        """Say this worker is alive, and that its decision under way is still its own,
        until it has ``left``."""
        while not left.is_set():
            if self.parent is not None and os.getppid() != self.parent:
                log.warning("the worker that started this process is gone: stopping")
                self.stop()
            try:
                now = await redis_now(self.client)
                async with self.client.pipeline(transaction=False) as pipe:
                    pipe.zadd(WORKERS, {self.name: now})
                    current = self.current
                    if current is not None:  # its idle time back to 0: nobody claims it
                        pipe.xclaim(STREAM, GROUP, self.name, 0, [current], justid=True)
                    await pipe.execute()
            except (RedisError, OSError) as e:
                self._lost(e)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(left.wait(), BEAT)

    async def _tidy(self) -> None:
        """Forget the group's consumers that have held nothing for an hour: workers
        killed long ago (what they held was claimed since)."""
        for consumer in await self.client.xinfo_consumers(STREAM, GROUP):
            if consumer["pending"] == 0 and consumer["idle"] > GONE * 1000:
                await self.client.xgroup_delconsumer(STREAM, GROUP, consumer["name"])

    async def _leave(self) -> None:
        """Nodes stop counting this worker at once; it leaves the group if it holds
        nothing (a decision it holds stays for another worker to claim)."""
        try:
            await self.client.zrem(WORKERS, self.name)
            held = await self.client.xpending_range(STREAM, GROUP, "-", "+", 1, self.name)
            if not held:
                await self.client.xgroup_delconsumer(STREAM, GROUP, self.name)
        except (RedisError, OSError):
            pass
        with contextlib.suppress(Exception):
            await self.client.aclose()


def _process(url: str, name: str, log_format: str, parent: int | None) -> None:
    """One worker process (``parent``: the process that started it, if any)."""
    configure(log_format, name)
    log.info("engines: %s", native.status().said)
    asyncio.run(Worker(url, name, parent).run())


def run(url: str, concurrency: int = 1, name: str | None = None, log_format: str = "text") -> int:
    """Check Redis, then run ``concurrency`` worker processes until SIGTERM; the exit
    status (1: Redis does not answer at start)."""
    problem = asyncio.run(check_redis(url))
    if problem is not None:
        print(f"taverna worker: Redis at {display_url(url)}: {problem}", file=sys.stderr)
        return 1
    base = name or socket.gethostname()
    names = [f"{base}-{uuid.uuid4().hex[:6]}" for _ in range(concurrency)]
    if concurrency == 1:
        _process(url, names[0], log_format, None)
        return 0
    native.pass_to_children()  # every worker process on the same build
    context = multiprocessing.get_context("spawn")
    me = os.getpid()
    children = [
        context.Process(target=_process, args=(url, n, log_format, me), name=n) for n in names
    ]
    for child in children:
        child.start()

    def forward(signum: int, _frame: Any) -> None:
        for child in children:
            if child.pid is not None and child.is_alive():
                os.kill(child.pid, signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    for child in children:
        child.join()
    return int(any(child.exitcode != 0 for child in children))
