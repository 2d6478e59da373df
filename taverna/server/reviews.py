"""Reviews of finished games (:mod:`taverna.bots.review`): asked on the replay page,
computed in the background, stored, shown with their progress.

``POST /api/games/{id}/reviews/{seat}`` asks for one (once per seat: asked again, it is
the same review), ``GET /api/games/{id}/reviews`` tells every seat's as it stands. A node
works on its reviews one at a time, each decision in the node's low-priority process
after any hint waiting, never before a bot's decision (:mod:`.thinking`: a strong bot's
search must not stall the tables), or by a bot worker when the cluster has some
(``taverna worker``), like a bot's decision. Asking counts against the same limits of
an account and an address as hints do. A review a stopped node left half done is taken
up by the next node that looks (every :data:`LOOK` seconds).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import time
from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy.exc import IntegrityError

from ..bots.review import estimate, forced, in_units, requests, summary
from ..store.errors import Conflict
from ..store.repo import Store
from ..store.reviews import ReviewStore
from .deps import Player, SeatNumber, store_of
from .errors import Refused
from .gate import client_address
from .hub import RoomHub
from .tasks import spawn
from .thinking import REVIEW_COST

router = APIRouter(tags=["history"])
log = logging.getLogger("taverna.reviews")

#: the most reviews a node keeps waiting; beyond, the club is busy (503)
QUEUE = 16
#: the most reviews waiting or under way that one person may have asked
PER_PERSON = 3
#: seconds between two looks for reviews a stopped node left (and its staleness)
LOOK = 30.0
STALE = 60.0
#: seconds between two progress marks in the database
MARK_EVERY = 0.5


def review_seed(table_id: str, seat: int) -> int:
    """The review's seed: the same review on any node."""
    digest = hashlib.sha256(f"{table_id}/{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 2


class Reviewer:
    """A node's reviews: a queue, one review at a time."""

    def __init__(self, store: Store, hub: RoomHub) -> None:
        self.store = store
        self.reviews = ReviewStore(store)
        self.hub = hub
        self.queue: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self.waiting: set[tuple[str, int]] = set()
        self.current: tuple[str, int] | None = None
        #: who asked each review waiting or under way on this node
        self.asked_by: dict[tuple[str, int], str] = {}
        self._tasks: list[asyncio.Task[Any]] = []

    def start(self) -> None:
        self._tasks = [spawn(self._run(), log), spawn(self._look(), log)]

    def close(self) -> None:
        for task in self._tasks:
            task.cancel()

    def busy(self) -> bool:
        return len(self.waiting) >= QUEUE

    def enqueue(self, table_id: str, seat: int) -> None:
        key = (table_id, seat)
        if key in self.waiting or key == self.current:
            return
        self.waiting.add(key)
        self.queue.put_nowait(key)

    async def _look(self) -> None:
        """Take up the reviews stopped nodes left (at start, then every LOOK seconds)."""
        while True:
            with contextlib.suppress(Exception):
                for table_id, seat in await self.reviews.claim_stale(STALE):
                    log.info("taking up the review of %s seat %d", table_id, seat)
                    self.enqueue(table_id, seat)
            await asyncio.sleep(LOOK)

    async def _run(self) -> None:
        while True:
            table_id, seat = await self.queue.get()
            self.waiting.discard((table_id, seat))
            self.current = (table_id, seat)
            try:
                await self._review(table_id, seat)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.exception("the review of %s seat %d failed", table_id, seat)
                with contextlib.suppress(Exception):
                    await self.reviews.finish(table_id, seat, None, f"{type(e).__name__}: {e}")
            finally:
                self.current = None
                self.asked_by.pop((table_id, seat), None)

    async def _review(self, table_id: str, seat: int) -> None:
        record = await self.store.finished_record(table_id)
        if record is None:
            await self.reviews.finish(table_id, seat, None, "the game is not finished")
            return
        asked = await asyncio.to_thread(requests, record, seat, review_seed(table_id, seat))
        without_choice = await asyncio.to_thread(forced, record, seat)
        total = len(asked)
        await self.reviews.progress(table_id, seat, 0, total)
        answers = []
        marked = time.monotonic()
        started = time.perf_counter()
        for i, request in enumerate(asked):
            answers.append((int(request["index"]), await self._estimate(request, table_id)))
            if time.monotonic() - marked >= MARK_EVERY and i + 1 < total:
                await self.reviews.progress(table_id, seat, i + 1, total)
                marked = time.monotonic()
        result = summary(seat, answers, without_choice)
        await self.reviews.finish(table_id, seat, result)
        log.info(
            "reviewed %s seat %d: %d decisions in %.1f s",
            table_id,
            seat,
            total,
            time.perf_counter() - started,
        )

    async def _estimate(self, request: dict[str, Any], table_id: str) -> dict[str, Any]:
        queue = self.hub.bot_queue
        if queue is not None:
            answer, _why = await queue.ask(request, table_id, int(request["index"]))
            if answer is not None:
                return {k: answer[k] for k in ("played", "best", "cost", "actions")}
        return await self.hub.thinkers.review(estimate, request)


def reviewer_of(request: Request) -> Reviewer:
    return request.app.state.reviewer  # type: ignore[no-any-return]


async def _finished(request: Request, table_id: str) -> Any:
    table = await store_of(request).table(table_id)
    if table.status != "finished":
        # a running game's review would tell its hidden cards: never
        raise Conflict(f"game {table_id} is not finished", "not_finished")
    return table


@router.get(
    "/api/games/{table_id}/reviews", summary="A finished game's reviews, each seat's as it stands"
)
async def game_reviews(table_id: str, request: Request) -> dict[str, Any]:
    table = await _finished(request, table_id)
    reviewer = reviewer_of(request)
    return {"reviews": [told(table.game, r) for r in await reviewer.reviews.of_table(table_id)]}


def told(game: str, review: dict[str, Any]) -> dict[str, Any]:
    """A review as the API tells it: a done one's costs in the game's units too."""
    if not review.get("result"):
        return review
    return {**review, "result": in_units(game, review["result"])}


@router.post(
    "/api/games/{table_id}/reviews/{seat}",
    status_code=202,
    summary="Ask the strong bot to review one seat's decisions",
)
async def ask_review(
    table_id: str, seat: SeatNumber, request: Request, player: Player
) -> dict[str, Any]:
    table = await _finished(request, table_id)
    if seat >= table.seat_count:
        raise Refused(
            422, "no_such_seat", f"the table has seats 0 to {table.seat_count - 1}", seat=seat
        )
    reviewer = reviewer_of(request)
    existing = await reviewer.reviews.get(table_id, seat)
    if existing is not None and existing["status"] != "failed":
        return {"review": told(table.game, existing)}
    if reviewer.busy():
        raise Refused(503, "reviews_busy", "too many reviews are waiting: ask again in a minute")
    mine = sum(
        1
        for key in [*reviewer.waiting, *([reviewer.current] if reviewer.current else [])]
        if key in reviewer.asked_by and reviewer.asked_by[key] == player["id"]
    )
    if mine >= PER_PERSON:
        raise Refused(
            429,
            "reviews_per_person",
            f"you have {mine} reviews waiting: wait for them first",
            limit=PER_PERSON,
        )
    # a review is tens of searches: it spends what an account and an address may ask of
    # the strong bot, hints included (no await from here to the spending)
    address = client_address(request.app.state.config, request.headers, request.client)
    limits = reviewer.hub.think_limits
    limited = limits.refusal(player["id"], address, REVIEW_COST)
    if limited is not None:
        limit, wait = limited
        seconds = max(1, math.ceil(wait))
        raise Refused(
            429,
            "reviews_too_fast",
            f"too many reviews and hints asked from your {limit}: ask again in {seconds} s",
            {"Retry-After": str(seconds)},
            seconds=seconds,
            limit=limit,
        )
    limits.spend(player["id"], address, REVIEW_COST)
    try:
        review, new = await reviewer.reviews.ask(table_id, seat, player["id"])
    except IntegrityError:  # asked at the same moment by somebody else: theirs
        again = await reviewer.reviews.get(table_id, seat)
        if again is None:
            raise
        return {"review": told(table.game, again)}
    if new:
        reviewer.asked_by[(table_id, seat)] = player["id"]
        reviewer.enqueue(table_id, seat)
    return {"review": review}
