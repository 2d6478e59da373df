"""The strong bots' decisions queued in Redis for bot workers: the node's side.

``taverna serve --redis URL`` (``TAVERNA_REDIS_URL``): a node asks for a strong bot's
decision by adding a request to one Redis stream that every node shares; the bot
workers (``taverna worker``, :mod:`taverna.worker`) read it as one consumer group,
each request going to one worker, and push the answer onto the asking node's own
list, which the node pops. docs/scaling.md says why streams, and what happens when a
worker dies.

    node ── XADD {request} ──▶ taverna:bots ──▶ group "workers" ──▶ worker (XREADGROUP)
    node ◀── BLPOP ── taverna:answers:NODE:RUN ◀── RPUSH {answer} ── worker (then XACK)

A request is JSON (never pickle: a worker runs no code a message sends), the decision
request of :func:`taverna.bots.decision.ask` with its envelope: ``id``, ``node``,
``reply`` (the list to answer on), ``table``, ``seq``, ``deadline`` (seconds the node
waits; a worker drops a request older than that in the queue) and ``queued_at``.

The node thinks for its own bots, as without Redis, when no worker has been seen for
:data:`SEEN` seconds, when the oldest request in the queue has waited half the
deadline (the workers are behind), when Redis fails, when the answer has not come
within the deadline, or when the worker could not decide. An answer that comes after
the node stopped waiting is dropped: :meth:`BotQueue.ask` gave up on it, and the room
has either thought itself or moved on.

This module imports redis; the server imports it only when a Redis URL is set.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio as aioredis
from redis.exceptions import RedisError, ResponseError

if TYPE_CHECKING:
    from .metrics import Metrics

log = logging.getLogger("taverna.bots")

#: the stream of requests, shared by every node, and the workers' consumer group
STREAM = "taverna:bots"
GROUP = "workers"
#: a sorted set: each worker and when Redis last saw it (Redis's own clock, in seconds)
WORKERS = "taverna:workers"
#: the lists answers go to: one per node and run of it (a restarted node waits for none
#: of its previous run's answers)
ANSWERS = "taverna:answers:"
#: seconds between a worker's heartbeats (it also keeps its decision under way its own)
BEAT = 0.5
#: seconds after which a worker not seen is gone: nodes stop sending it work
SEEN = 3.0
#: seconds a decision may sit with a worker that does not beat before another claims it
CLAIM_AFTER = 2.0
#: deliveries of a request before the workers give it up (the node then thinks itself)
TRIES = 3
#: seconds an answer waits in its list for a node (a node that is gone reads none)
ANSWER_TTL = 60
#: the most requests the stream keeps, a bound that a working club never nears (each
#: answered or given-up request is deleted)
MAX_QUEUE = 10_000


def connect(url: str, *, blocking: float = 0.0) -> aioredis.Redis:
    """A client of the Redis at ``url`` (raises ValueError for a URL that is not one).

    Every call fails within seconds when Redis does not answer; ``blocking`` is the
    longest a blocking read (BLPOP, XREADGROUP ... BLOCK) of this client waits.
    """
    client: aioredis.Redis = aioredis.Redis.from_url(
        url,
        decode_responses=True,
        socket_connect_timeout=2.0,
        socket_timeout=2.0 + blocking,
    )
    return client


async def ensure_group(client: aioredis.Redis) -> None:
    """The stream and its consumer group, made by whoever comes first (node or worker)."""
    try:
        await client.xgroup_create(STREAM, GROUP, id="0", mkstream=True)
    except ResponseError as e:
        if "BUSYGROUP" not in str(e):
            raise


async def redis_now(client: aioredis.Redis) -> float:
    """Redis's clock, in seconds: every machine measures ages and last-seen times by it."""
    seconds, micros = await client.time()
    return float(seconds) + float(micros) / 1e6


def entry_time(entry_id: str) -> float:
    """When Redis added a stream entry (its id is its time in ms), in seconds."""
    return int(entry_id.split("-", 1)[0]) / 1000


class BotQueue:
    """One node's side of the queue: it asks, waits for the answer, and watches the queue
    and the workers (:meth:`ask`; the figures below, read by /metrics and /api/health)."""

    def __init__(self, url: str, node: str, metrics: Metrics, deadline: float) -> None:
        self.node = node
        self.metrics = metrics
        #: seconds a node waits for a worker's answer before it thinks itself
        self.deadline = deadline
        self.client = connect(url)
        self.reader = connect(url, blocking=1.0)  # its own connection: BLPOP holds it
        self.reply = f"{ANSWERS}{node}:{uuid.uuid4().hex[:8]}"
        self.waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        # what the watcher saw last (every second)
        self.up = False
        self.workers = 0
        self.depth = 0
        self.oldest = 0.0
        self._tasks: list[asyncio.Task[None]] = []
        self._forgetting: set[asyncio.Task[None]] = set()
        self._closing = False
        self._closed = asyncio.Event()

    # ------------------------------------------------------------- running

    async def start(self) -> None:
        """Look at Redis once (a node starts even while Redis is away), then keep watching
        it and listening for answers."""
        await self._look()
        self._tasks = [
            asyncio.ensure_future(self._watch()),
            asyncio.ensure_future(self._listen()),
        ]

    async def close(self) -> None:
        # the watcher and the listener are told, not cancelled (a Redis call cancelled
        # half-way can hang its client): each ends within a second
        self._closing = True
        self._closed.set()
        if self._tasks:
            _, late = await asyncio.wait(self._tasks, timeout=5)
            for task in late:
                task.cancel()
        for fut in self.waiting.values():
            fut.cancel()
        for client in (self.client, self.reader):
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _watch(self) -> None:
        while not self._closing:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._closed.wait(), 1.0)
            if not self._closing:
                await self._look()

    async def _look(self) -> None:
        """Read the workers seen and the queue's depth and age (and tidy the workers'
        set); note whether Redis answers."""
        try:
            if not self.up:
                await ensure_group(self.client)
            now = await redis_now(self.client)
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.zremrangebyscore(WORKERS, "-inf", now - 3600)
                pipe.zcount(WORKERS, now - SEEN, "+inf")
                pipe.xlen(STREAM)
                pipe.xrange(STREAM, "-", "+", count=1)
                _, workers, depth, first = await pipe.execute()
        except (RedisError, OSError) as e:
            self._lost(e)
            return
        if not self.up:
            log.info("Redis answers: strong bots' decisions go to the bot workers it has")
        self.up = True
        self.workers = int(workers)
        self.depth = int(depth)
        self.oldest = max(0.0, now - entry_time(first[0][0])) if first else 0.0

    def _lost(self, error: BaseException) -> None:
        if self.up or not self._tasks:
            log.warning("Redis is not answering (%s): this node's bots think here", error)
        self.up = False
        self.workers = 0

    async def _listen(self) -> None:
        """Pop this node's answers and hand each to the decision waiting for it."""
        while not self._closing:
            try:
                popped = await cast(
                    "Awaitable[list[str] | None]", self.reader.blpop([self.reply], timeout=1)
                )
            except (RedisError, OSError) as e:
                self._lost(e)
                await asyncio.sleep(0.5)
                continue
            if popped is None:
                continue
            try:
                answer = json.loads(popped[1])
                fut = self.waiting.pop(str(answer["id"]), None)
            except (ValueError, KeyError, TypeError):
                log.warning("an answer that is not one was dropped: %.200s", popped[1])
                continue
            if fut is None or fut.done():
                # the node stopped waiting (it thought itself), or another worker answered
                self.metrics.bot_answers_dropped.inc()
                continue
            fut.set_result(answer)

    # -------------------------------------------------------------- asking

    def why_not(self) -> str | None:
        """Why a decision would not be sent to the workers now (None: it would)."""
        if not self.up:
            return "redis_error"
        if self.workers == 0:
            return "no_workers"
        if self.oldest > self.deadline / 2:
            return "backlog"
        return None

    async def ask(
        self, request: dict[str, Any], table: str, seq: int
    ) -> tuple[dict[str, Any] | None, str]:
        """A worker's answer to a decision request (:func:`taverna.bots.decision.ask`)
        for ``table`` at ``seq``: ``(answer, "answered")``, or ``(None, why)`` when the
        node is to think itself (why: :meth:`why_not`'s reasons, ``timed_out``, or
        ``refused``: the worker could not decide)."""
        why = self.why_not()
        if why is not None:
            return None, why
        rid = uuid.uuid4().hex
        envelope = {
            **request,
            "id": rid,
            "node": self.node,
            "reply": self.reply,
            "table": table,
            "seq": seq,
            "deadline": self.deadline,
            "queued_at": time.time(),
        }
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[rid] = fut
        try:
            try:
                entry = await self.client.xadd(
                    STREAM,
                    {"request": json.dumps(envelope, separators=(",", ":"))},
                    maxlen=MAX_QUEUE,
                    approximate=True,
                )
            except (RedisError, OSError) as e:
                self._lost(e)
                return None, "redis_error"
            self.metrics.bot_requests["sent"].inc()
            try:
                answer = await asyncio.wait_for(fut, self.deadline)
            except TimeoutError:
                self.metrics.bot_requests["timed_out"].inc()
                # nobody will want it: a worker that has not started it never will
                forgetting = asyncio.ensure_future(self._forget(entry))
                self._forgetting.add(forgetting)
                forgetting.add_done_callback(self._forgetting.discard)
                return None, "timed_out"
        finally:
            self.waiting.pop(rid, None)
        if "error" not in answer and not _well_formed(answer, request.get("kind")):
            answer = {**answer, "error": "its answer is not one (an action and a memory)"}
        if "error" in answer:
            log.warning(
                "worker %s could not decide (table %s seq %d): %s",
                answer.get("worker"),
                table,
                seq,
                answer["error"],
            )
            return None, "refused"
        self.metrics.bot_requests["answered"].inc()
        return answer, "answered"

    async def _forget(self, entry: str) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.client.xdel(STREAM, entry)

    def health(self) -> dict[str, Any]:
        """The queue as /api/health says it."""
        return {
            "redis": "ok" if self.up else "unavailable",
            "workers": self.workers,
            "queue": self.depth,
            "oldest_seconds": round(self.oldest, 3),
            "waiting": len(self.waiting),
        }


def _well_formed(answer: dict[str, Any], kind: Any = None) -> bool:
    """An answer with an action (an object, or null) and a memory (an object); the room
    checks the action as it checks a person's. A review's (``kind`` "review"): its
    estimate (:func:`taverna.bots.review.estimate`)."""
    if kind == "review":
        cost = answer.get("cost")
        return (
            isinstance(cost, int | float)
            and not isinstance(cost, bool)
            and all(isinstance(answer.get(k), dict) for k in ("played", "best"))
            and isinstance(answer.get("actions"), list)
        )
    action = answer.get("action")
    return (action is None or isinstance(action, dict)) and isinstance(answer.get("memory"), dict)


def display_url(url: str) -> str:
    """The URL to show people: any password masked."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    where = f"{host}:{parts.port}" if parts.port else host
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{where}"))


async def check_redis(url: str) -> str | None:
    """Why the Redis at ``url`` cannot be used, in one line; None when it answers."""
    try:
        client = connect(url)
    except ValueError as e:
        return f"{url!r} is not a Redis URL ({e}): write redis://HOST:PORT/DB"
    try:
        await client.ping()
    except (RedisError, OSError) as e:
        return f"it does not answer ({e})"
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()
    return None
