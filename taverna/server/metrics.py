"""Every figure a node shows at ``/metrics``: one :class:`Metrics` per app owns them all.

Each app has a registry of its own (not prometheus_client's process-wide one): the
tests start several apps in one process, and a figure must never be counted twice.
Two kinds of figure:

- **counted as things happen** (counters, histograms): the room, the sockets and the
  hub call the few methods below, each one or two attribute lookups and a lock, so
  the hot path pays about a microsecond a move;
- **read when scraped** (gauges of what is live: tables, connections, bots thinking,
  the database): :class:`_Live` asks the hub then, so nothing is kept in step by hand.

A figure of the cluster (leases, intents forwarded, the bot queue, workers seen) is
added here the same way, as a counter its code calls or a gauge read at scrape time:
the bot queue's gauges are there when the node has Redis (:mod:`.botqueue`).
See docs/operations.md for what each figure means.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import choose_encoder

from .. import __version__

if TYPE_CHECKING:
    from .hub import RoomHub

# no `_created` series beside each counter and histogram: a second series each, which
# the Prometheus text format has no use for (prometheus_client's switch is per process)
disable_created_metrics()  # type: ignore[no-untyped-call]

#: who made a move: a person at a socket, a bot of the table, or the timer's stand-in
SOURCES = ("player", "bot", "timeout")
#: a move as a player feels it: a few ms when the database is local, up to seconds
#: when it is slow or a room is busy
MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
#: one action stored: SQLite on a local disk takes under a millisecond to a few
DATABASE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5)
#: why a strong bot's decision was made on its node, not by a bot worker: Redis not
#: configured, not answering, no worker seen, the queue behind, no answer in time, or
#: the worker could not decide (docs/scaling.md)
#: the limits a WebSocket may be refused or cut off by (taverna_connections_refused)
CONNECTION_LIMITS = ("address", "session", "rate", "queue", "frames", "pings", "keepalive")
#: the server's own reasons to refuse an intent (taverna_moves_refused; the engines'
#: reasons are counted too, each from its first refusal)
SERVER_REFUSALS = ("not_stored", "restarting", "spectator", "not_joined", "not_your_turn")
LOCAL_REASONS = ("no_redis", "redis_error", "no_workers", "backlog", "timed_out", "refused")
#: what became of a job for the node's thinking processes (taverna.server.thinking)
THINKING_OUTCOMES = (
    ("decision", "run"),
    ("hint", "run"),
    ("hint", "dropped"),
    ("hint", "busy"),
    ("review", "run"),
)
#: a bot's decision: easy and medium bots take microseconds to milliseconds, the strong
#: one's search up to a few seconds (in a worker process)
THINK_BUCKETS = (0.0001, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class Metrics:
    """The registry of one node and every figure in it."""

    def __init__(self, node: str) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        # the process's own figures (CPU, memory, open files, GC), read when scraped
        ProcessCollector(registry=r)
        PlatformCollector(registry=r)
        GCCollector(registry=r)
        Info(
            "taverna_node", "This node: its name (TAVERNA_NODE) and Taverna's version", registry=r
        ).info({"node": node, "version": __version__})
        self.moves = Counter("taverna_moves", "Moves made and stored", registry=r)
        move_seconds = Histogram(
            "taverna_move_seconds",
            "From an intent's arrival to its broadcast (the wait for the table, the "
            "engine, the database write), by who made it",
            ["source"],
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        # each label's child made once: .labels() on every move would cost a lookup
        self.move_seconds = {s: move_seconds.labels(source=s) for s in SOURCES}
        self.database_write_seconds = Histogram(
            "taverna_database_write_seconds",
            "The store's write of one action (and what it dealt), when it succeeded",
            buckets=DATABASE_BUCKETS,
            registry=r,
        )
        self.bot_think_seconds = Histogram(
            "taverna_bot_think_seconds",
            "A bot's decision, by level (1 to 8; a worker process's included)",
            ["level"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.bot_capped = Counter(
            "taverna_bot_capped",
            "Bots' decisions that the wall-clock safety cap stopped before their budget "
            "was spent (their choice then depends on the machine: docs/bots.md, Budgets)",
            registry=r,
        )
        requests = Counter(
            "taverna_bot_requests",
            "Strong bots' decisions queued for the bot workers, by outcome: sent, "
            "answered (in time), timed_out (the node thought itself)",
            ["outcome"],
            registry=r,
        )
        self.bot_requests = {
            o: requests.labels(outcome=o) for o in ("sent", "answered", "timed_out")
        }
        local = Counter(
            "taverna_bot_decisions_local",
            "Strong bots' decisions this node made itself (in its own processes), by why "
            "not by a worker: no_redis, redis_error, no_workers, backlog, timed_out, refused",
            ["reason"],
            registry=r,
        )
        self.bot_local = {why: local.labels(reason=why) for why in LOCAL_REASONS}
        self.bot_answers_dropped = Counter(
            "taverna_bot_answers_dropped",
            "Workers' answers that came after this node stopped waiting for them (it "
            "thought itself), or a second answer to one request",
            registry=r,
        )
        self.moves_refused = Counter(
            "taverna_moves_refused",
            "Intents refused, by reason (the engine's, or the server's: not_stored, "
            "restarting, spectator...)",
            ["reason"],
            registry=r,
        )
        received = Counter(
            "taverna_websocket_messages_received",
            "WebSocket messages from clients, by socket (table or lobby)",
            ["socket"],
            registry=r,
        )
        sent = Counter(
            "taverna_websocket_messages_sent",
            "WebSocket messages written to clients, by socket (table or lobby)",
            ["socket"],
            registry=r,
        )
        self.received = {s: received.labels(socket=s) for s in ("table", "lobby")}
        self.sent = {s: sent.labels(socket=s) for s in ("table", "lobby")}
        jobs = Counter(
            "taverna_thinking_jobs",
            "Jobs for the node's own thinking processes, by kind (decision, hint, review) "
            "and outcome: run; dropped (a hint whose socket closed or whose table moved on "
            "before its turn); busy (a hint refused: the queue was full)",
            ["kind", "outcome"],
            registry=r,
        )
        self.thinking_jobs = {(k, o): jobs.labels(kind=k, outcome=o) for k, o in THINKING_OUTCOMES}
        self.connections_refused = Counter(
            "taverna_connections_refused",
            "WebSockets refused or cut off by a limit: address, session (too many at "
            "once), rate (too many messages), queue (a client that does not read), frames "
            "(a frame or message refused under the app), pings (too many pings and pongs), "
            "keepalive (no pong in time)",
            ["limit"],
            registry=r,
        )
        # every series there from the start, at 0: an alert on a rate reads 0, not "no data"
        for limit in CONNECTION_LIMITS:
            self.connections_refused.labels(limit=limit)
        for reason in SERVER_REFUSALS:
            self.moves_refused.labels(reason=reason)

    def watch(self, hub: RoomHub) -> None:
        """Read the hub's live figures when scraped (once the app has a hub)."""
        self.registry.register(_Live(hub))

    def move(self, source: str, seconds: float) -> None:
        self.moves.inc()
        self.move_seconds[source].observe(seconds)

    def thought(self, level: str, seconds: float) -> None:
        self.bot_think_seconds.labels(level=level).observe(seconds)

    def thinking_job(self, kind: str, outcome: str) -> None:
        self.thinking_jobs[kind, outcome].inc()

    def refused(self, reason: str) -> None:
        self.moves_refused.labels(reason=reason).inc()

    def exposition(self, accept: str | None) -> tuple[bytes, str]:
        """The registry as text, in the format the scraper asks for; and its media type."""
        encode, media_type = choose_encoder(accept or "")
        return encode(self.registry), media_type


class _Live:
    """Gauges of what is live now, read from the hub at each scrape."""

    def __init__(self, hub: RoomHub) -> None:
        self.hub = hub

    def describe(self) -> Iterable[Metric]:
        return []  # known only when collected; nothing to check at registration

    def collect(self) -> Iterable[Metric]:
        hub = self.hub
        figures: list[tuple[str, str, float]] = [
            ("taverna_tables_live", "Tables being played on this node", hub.tables_live()),
            ("taverna_connections", "WebSockets open (tables and lobby)", hub.connections()),
            (
                "taverna_bots_thinking",
                "Strong bots' decisions under way in this node's own processes",
                hub.thinkers.deciding,
            ),
            (
                "taverna_database_up",
                "1 while the database answers, 0 while the tables wait for it",
                0 if hub.database_down_since is not None else 1,
            ),
            (
                "taverna_tables_set_aside",
                "Tables whose stored game could not be resumed (see /api/health)",
                hub.set_aside,
            ),
        ]
        cluster = hub.cluster
        if cluster is not None:  # several nodes (docs/scaling.md)
            figures += [
                ("taverna_tables_owned", "Tables whose lease this node holds", len(cluster.leases)),
                (
                    "taverna_links",
                    "Sockets here whose table another node owns",
                    len(cluster.edge.links),
                ),
                (
                    "taverna_proxies",
                    "Sockets of other nodes at tables owned here",
                    len(cluster.owner.proxies),
                ),
            ]
        queue = hub.bot_queue
        if queue is not None:  # a node with Redis (docs/scaling.md)
            figures += [
                ("taverna_bot_queue_up", "1 while Redis answers this node, else 0", queue.up),
                (
                    "taverna_bot_queue_depth",
                    "Strong bots' decisions in the queue (every node's): waiting for a "
                    "worker or being decided",
                    queue.depth,
                ),
                (
                    "taverna_bot_queue_oldest_seconds",
                    "How long the oldest decision in the queue has been there",
                    queue.oldest,
                ),
                (
                    "taverna_bot_workers_seen",
                    "Bot workers seen in the last few seconds",
                    queue.workers,
                ),
                (
                    "taverna_bots_waiting",
                    "This node's decisions waiting for a worker's answer",
                    len(queue.waiting),
                ),
            ]
        for name, documentation, value in figures:
            yield GaugeMetricFamily(name, documentation, value=value)
        thinkers = hub.thinkers
        for name, documentation, counts in (
            (
                "taverna_thinking_waiting",
                "Hints and reviews waiting for the node's hint process, by kind",
                thinkers.waiting_by_kind(),
            ),
            (
                "taverna_thinking_running",
                "Jobs under way in the node's own thinking processes, by kind (decisions: "
                "waiting for one of their processes too)",
                thinkers.running_by_kind(),
            ),
        ):
            family = GaugeMetricFamily(name, documentation, labels=["kind"])
            for kind, count in counts.items():
                family.add_metric([kind], count)
            yield family
        if cluster is not None:
            for name, documentation, count in (
                (
                    "taverna_intents_forwarded",
                    "Socket messages sent on to a table's owner",
                    cluster.edge.forwarded,
                ),
                (
                    "taverna_takeovers",
                    "Tables this node took over (nobody owned them)",
                    cluster.owner.takeovers,
                ),
            ):
                yield CounterMetricFamily(name, documentation, value=count)
