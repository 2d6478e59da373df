"""Live tables: one :class:`Room` per running table, owning its game state.

The room is the only writer of its state. An intent from a client (or a bot,
or a timer) is checked by the engine, committed to the database, and only
then broadcast: every connection gets the events as its seat may see them
and its seat's new view, numbered by a sequence so a client that comes back
catches up exactly (lichess-style versioned history).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from fastapi import WebSocket, WebSocketDisconnect

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.decision import ask, decide
from ..bots.hint import LEVEL as HINT_LEVEL
from ..bots.hint import hint as bot_hint
from ..bots.hint import request as hint_request
from ..bots.levels import level_of, options_for
from ..games import get_game
from ..games.base import (
    Dealer,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    SettingsError,
    State,
    event_for,
)
from ..store.db import DATABASE_AWAY
from ..store.errors import Conflict
from ..store.fencing import Fenced
from ..store.record import StoredGame
from ..store.repo import Store
from ..store.tables import TableInfo
from . import signals
from .chat import TableChat
from .config import Config
from .guard import SocketCounts
from .logs import TableLog
from .metrics import Metrics
from .names import seat_name
from .thinking import Thinkers, ThinkingLimits

if TYPE_CHECKING:
    from .botqueue import BotQueue
    from .cluster import Cluster

log = logging.getLogger("taverna.rooms")

DEFAULT_OPTIONS: dict[str, Any] = {"turn_seconds": 30, "muggins_wait": 3, "public": True}


@dataclass(frozen=True)
class Refusal:
    """Why a room refused an intent: the English message, a reason a client can
    translate (the engine's :attr:`IllegalAction.reason`) and its facts."""

    message: str
    reason: str = "illegal"
    params: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.message


@dataclass(eq=False)
class Conn:
    """One WebSocket: a seat's player or a spectator (seat None).

    Messages are written once, as JSON text (ASCII: a lone surrogate in a name travels
    escaped rather than breaking the sender), and queued for :meth:`pump`. What is
    queued is bounded in bytes: a client that does not read is cut loose (1008) rather
    than grow the server without bound.
    """

    ws: WebSocket
    seat: int | None
    player_id: str | None
    #: the most bytes waiting to be sent to this client
    limit: int = 4 << 20
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    queued: int = 0
    cut: bool = False
    #: the table it is a connection of (None: the lobby's), for the log
    table: str | None = None
    #: the node's figures: messages written, a client cut off for not reading
    metrics: Metrics | None = None
    #: the close to send once what is queued is sent (:meth:`close_after`)
    farewell: tuple[int, str] | None = None
    #: the last update (or welcome) sent: what the client would ask for again
    seq: int | None = None
    #: called when the table moves to another node (several nodes: the socket's
    #: session follows it, docs/scaling.md)
    on_moved: Callable[[], None] | None = None
    #: when (monotonic) this connection last asked for a hint (a search costs CPU)
    hinted_at: float | None = None
    #: the client's address (its proxy's header when trusted), for the limits of an
    #: address across its sockets; None when not known (another node's socket)
    address: str | None = None

    @property
    def socket(self) -> str:
        """Which socket this is: a table's or the lobby's."""
        return "lobby" if self.table is None else "table"

    def send(self, msg: dict[str, Any]) -> None:
        if self.cut or self.farewell is not None:
            return
        if msg["type"] in ("update", "welcome"):
            self.seq = msg["seq"]
        self.send_text(json.dumps(msg, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Queue a message already written (one its table's owner wrote, on another node)."""
        if self.cut or self.farewell is not None:
            return
        if self.queued + len(text) > self.limit:
            self.cut = True
            if self.metrics is not None:
                self.metrics.connections_refused.labels(limit="queue").inc()
            self.queue.put_nowait(None)
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    def close_after(self, code: int, reason: str) -> None:
        """Close once every message queued so far is sent; nothing sent later is."""
        if self.cut or self.farewell is not None:
            return
        self.farewell = (code, reason)
        self.queue.put_nowait(None)

    async def pump(self) -> None:
        sent = None if self.metrics is None else self.metrics.sent[self.socket]
        try:
            while True:
                text = await self.queue.get()
                if text is None or self.cut:  # what is still queued is dropped
                    code, reason = self.farewell or (1008, "the client does not read its messages")
                    await self.ws.close(code=code, reason=reason)
                    return
                self.queued -= len(text)
                await self.ws.send_text(text)
                if sent is not None:
                    sent.inc()
        except asyncio.CancelledError:
            raise
        except WebSocketDisconnect:
            self.cut = True  # the client went away while a message was on its way: no fault
        except Exception:
            # the sender never dies alone: without it the connection would only seem open
            self.cut = True
            about = log if self.table is None else TableLog(log, self.table)
            about.warning("a connection's sender failed; closing it", exc_info=True)
            with contextlib.suppress(Exception):
                await self.ws.close(code=1011)


@dataclass(eq=False)
class ProxyConn(Conn):
    """A socket held by another node (its *edge*), seen from the room that owns the
    table: what the room sends it is written once, cut for its seat, and travels to the
    edge (docs/scaling.md)."""

    link: str = ""
    edge: str = ""
    #: the lease the edge talks to (messages of another lease are not for it)
    lease: str = ""
    post: Callable[[str, dict[str, Any]], None] | None = None
    joined: bool = False

    def send(self, msg: dict[str, Any]) -> None:
        if self.post is None:
            return
        if msg["type"] in ("update", "welcome"):
            self.seq = msg["seq"]
        self.post(
            self.edge,
            {
                "kind": "out",
                "link": self.link,
                "lease": self.lease,
                "seq": self.seq if msg["type"] in ("update", "welcome") else None,
                "text": json.dumps(msg, separators=(",", ":")),
            },
        )

    def send_text(self, text: str) -> None:  # pragma: no cover - the owner writes dicts
        raise TypeError("a proxy connection sends what its room writes")


def seat_at(table: TableInfo, player_id: str | None) -> int | None:
    """The seat a player plays at a table (None: a spectator — who left, or abandoned an
    official game, only watches)."""
    if player_id is None:
        return None
    for s in table.seats:
        if s.player_id == player_id:
            if s.left or (s.replaced and table.options.get("official")):
                return None
            return s.seat
    return None


class Unresumable(Exception):
    """A table's stored game that cannot be rebuilt: it is set aside, with this reason."""


class Room:
    def __init__(self, table: TableInfo, store: Store, config: Config, hub: RoomHub) -> None:
        self.table = table
        self.store = store
        self.config = config
        self.hub = hub
        self.log = TableLog(log, table.id)
        self.cls: type[State] = get_game(table.game)
        self.state: State | None = None
        # every deal after the stored ones comes from the table's secret seed and its
        # number alone: a resumed table deals on exactly as it would have
        self.dealer = Dealer(seed=table.seed)
        self.stored_deals: list[Any] = []  # the deals the database holds, as the state has them
        self.seq = 0
        self.history: list[list[Event]] = []  # history[k] = events of update k + 1
        self.conns: set[Conn] = set()
        self.bots: dict[int, Bot] = {}
        self.lock = asyncio.Lock()
        self.timer: asyncio.TimerHandle | None = None
        self.deadline: float | None = None  # wall-clock end of the turn seat's time
        self.window_opened: float | None = None  # when optional rights (claims) appeared
        self.away: dict[int, float] = {}  # seat -> monotonic time it lost its last connection
        self.moves = 0
        self.rng = random.Random(table.seed ^ 0x5EED)
        #: the timers frozen while the database is away: (turn left, window left) seconds
        self.paused: tuple[float | None, float | None] | None = None
        #: bots wait until then (time.monotonic) after a resume: Config.resume_hold
        self.held_until = 0.0
        #: a write failed: the database may hold a move this room has not applied
        self.unsure = False
        #: the game is over but its end could not be stored yet
        self.finish_pending = False
        #: the server is stopping: no more moves
        self.closing = False
        #: several nodes: this node's fencing token for the table, which every write of
        #: its game carries (None: a single node, nothing to check)
        self.fence: int | None = None
        #: the table's chat (taverna.server.chat): stored, said, and told in a welcome
        self.chat = TableChat(self)

    # ----------------------------------------------------------- lifecycle

    @property
    def options(self) -> dict[str, Any]:
        return {**DEFAULT_OPTIONS, **self.table.options}

    def _make_bots(self) -> None:
        self.bots = {}
        # a practice table may make its bots forget claims and calls (Muggins cards)
        forget = self.table.options.get("bot_forget")
        extra = {} if forget is None else {"forget": float(forget)}
        for s in self.table.seats:
            if s.bot:
                self.bots[s.seat] = self._new_bot(s.bot, s.seat, **extra)

    def _new_bot(self, level: str, seat: int, **extra: Any) -> Bot:
        """A bot of ``level`` (a number, or a name it had before: ``greedy``) for ``seat``,
        with the server's options for its level (``TAVERNA_BOT_OPTIONS``) and ``extra``
        on top, seeded from the table's generator."""
        options = options_for(self.config.bot_options, level_of(level))
        seed = self.rng.randrange(1 << 30)
        return make_bot(level, self.cls, seat, seed=seed, **{**options, **extra})

    async def start(self) -> None:
        """Deal the first hand: the table goes from open to playing, its deal stored."""
        async with self.lock:
            if self.state is not None:
                raise Conflict(f"table {self.table.id} has started already")
            await self.hub.before_start(self.table)  # official tables: the stakes
            state = self.cls.new(self.table.seat_count, self.table.settings, rng=self.dealer)
            deals = state.deals_used
            await self.store.start_table(self.table.id, [self.cls.deal_json(d) for d in deals])
            self.state = state
            self.stored_deals = deals
            self._make_bots()
            self.table.status = "playing"
            for conn in self.conns:  # people who sat down after connecting
                conn.seat = self.seat_of(conn.player_id)
            self._publish(state.initial_events)
        self.hub.lobby_changed()
        self._schedule()

    async def resume(self, stopped_at: datetime | None = None) -> None:
        """Rebuild a playing table from its stored record after a restart (docs/rules.md §4.1).

        ``stopped_at`` is when the server was last seen alive: the turn timer and the
        Muggins window go on with the time they had then. Raises :class:`Unresumable`
        when the stored game cannot be rebuilt.
        """
        rows = await self.store.game_rows(self.table.id)
        if not rows.deals:
            rows = await self._store_legacy_deals(rows)
        state, history = self._rebuild(rows)
        self._install(state, history)
        self._make_bots()
        self._restore_clock(rows, stopped_at)
        self.held_until = time.monotonic() + self.config.resume_hold
        # nobody is connected yet: everybody gets the whole grace period from now
        now = time.monotonic()
        self.away = {s.seat: now for s in self.table.seats if s.player_id and not s.replaced}
        for seat in self.away:
            self._arm_grace(seat)
        if state.over:
            await self._finish()
        self._schedule()

    def _install(self, state: State, history: list[list[Event]]) -> None:
        self.state = state
        self.stored_deals = state.deals_used
        self.history = history
        self.seq = len(history)

    def _rebuild(self, rows: StoredGame) -> tuple[State, list[list[Event]]]:
        """The game of a table's stored deals and actions, with the events of each update."""
        cls, seats, settings = self.cls, self.table.seat_count, self.table.settings
        try:
            deals = [cls.parse_deal(d, seats, settings, i) for i, d in enumerate(rows.deals)]
            state = cls.start(seats, settings, deals, rng=self.dealer)
        except (MalformedRecord, IllegalAction, SettingsError) as e:
            raise Unresumable(f"its stored deals are not a record: {e}") from None
        history = [state.initial_events]
        made = 0  # the stored señas put back (Mus, docs/rules.md §3.8.4), each after its action
        for i, data in enumerate([*rows.actions, None]):
            try:
                made = signals.replay(state, rows.signals, made, i)
            except IllegalAction as e:
                raise Unresumable(f"stored seña {made} does not replay: {e}") from None
            if data is None:
                break
            try:
                history.append(state.apply(cls.parse_action(data, seats)))
            except (InvalidAction, IllegalAction) as e:
                raise Unresumable(f"stored action {i} does not replay: {e}") from None
        if made != len(rows.signals):
            raise Unresumable(f"stored seña {made} is not after any action that was played")
        used = [cls.deal_json(d) for d in state.deals_used]
        if len(used) != len(rows.deals):
            if len(used) < len(rows.deals):
                why = f"the actions end in deal {len(used) - 1} but {len(rows.deals)} are stored"
            else:
                why = f"the actions reach deal {len(rows.deals)}, which was never stored"
            raise Unresumable(f"its deals and actions disagree: {why}")
        return state, history

    async def _store_legacy_deals(self, rows: StoredGame) -> StoredGame:
        """A table stored before deals were (Taverna 0.1's first servers): its deals found
        once, by replaying it as it was played, and stored.

        Those servers dealt every hand from one generator of the seed and tried each
        move on a copy that shared it before playing it; so does this replay. A table
        that was resumed since (its deals came out otherwise) does not replay.
        """
        cls, seats, settings = self.cls, self.table.seat_count, self.table.settings
        shared = random.Random(self.table.seed)
        state = cls.new(seats, settings, rng=shared)
        for i, data in enumerate(rows.actions):
            try:
                action = cls.parse_action(data, seats)
                state.clone(rng=shared).apply(action)
                state.apply(action)
            except (InvalidAction, IllegalAction) as e:
                raise Unresumable(
                    f"stored before deals were kept, and action {i} does not replay "
                    f"as it was played: {e}"
                ) from None
        deals = [cls.deal_json(d) for d in state.deals_used]
        await self.store.put_deals(self.table.id, deals)
        self.log.info("stored before deals were kept; its %d deal(s) are stored now", len(deals))
        return StoredGame(deals, rows.actions, rows.last_at, rows.signals)

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        for c in list(self.conns):
            c.send({"type": "closing", "reason": "restart"})

    # -------------------------------------------------------- connections

    def seat_of(self, player_id: str | None) -> int | None:
        return seat_at(self.table, player_id)

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot plays this seat now (a bot seat, or a human seat taken over)."""
        return seat in self.bots

    async def join(self, conn: Conn, last_seq: int | None) -> None:
        """Welcome a connection; it hears every later update, and nothing before its welcome."""
        await self.chat.load()  # the recent chat its welcome carries
        seat = conn.seat
        if seat is not None:
            self.away.pop(seat, None)
            info = self.table.seats[seat]
            running = self.state is not None and not self.state.over
            if info.replaced and running and not self.table.options.get("official"):
                await self._give_back(seat)
        # no await from here on: the welcome and the membership are one step
        self.conns.add(conn)
        conn.send(self._welcome(conn, last_seq))
        if seat is not None:
            self._send_presence()
            self.chat.came_back(seat)

    async def _give_back(self, seat: int) -> None:
        """A casual table gives a taken-over seat back to its player."""
        info = self.table.seats[seat]
        try:
            await self.store.set_seat(
                self.table.id,
                seat,
                player={"id": info.player_id, "name": info.player_name},
                only_if_empty=False,
                statuses=("playing",),
                fence=self.fence,
            )
        except Fenced:
            await self.hub.disown(self.table.id)
            return
        except Exception:  # the database is away: the bot plays on, the person watches
            self.log.warning("could not give the seat back yet", seat=seat)
            self.hub.database_lost()
            return
        info.replaced = False
        info.bot = None
        self.bots.pop(seat, None)
        self._broadcast_table()
        self._schedule()

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)
        seat = conn.seat
        if seat is None or self.state is None or self.state.over:
            return
        if any(c.seat == seat for c in self.conns):
            return
        self.away[seat] = time.monotonic()
        self._arm_grace(seat)
        self._send_presence()
        self.chat.went_away(seat)

    def _arm_grace(self, seat: int) -> None:
        since = self.away.get(seat)
        if since is None:
            return
        left = max(0.0, self.config.grace_seconds - (time.monotonic() - since))
        asyncio.get_running_loop().call_later(left, lambda: spawn(self._grace_over(seat), self.log))

    async def _grace_over(self, seat: int) -> None:
        since = self.away.get(seat)
        if since is None or self.state is None or self.state.over:
            return
        if self.paused is not None or self.closing:
            return  # downtime counts against nobody: armed again when the database is back
        if time.monotonic() - since < self.config.grace_seconds - 0.01:
            self._arm_grace(seat)  # came back and left again since: its new period runs
            return
        try:
            await self.replace_with_bot(seat, reason="disconnected")
        except Exception:
            self.log.warning("could not give the seat to a bot yet", seat=seat)
            self.hub.database_lost()

    async def replace_with_bot(self, seat: int, reason: str) -> None:
        """A bot takes a human seat for the rest of the game (left, or away too long)."""
        info = self.table.seats[seat]
        if info.replaced or info.bot:
            return
        level = stand_in_level(self.config)
        await self.store.set_seat(
            self.table.id,
            seat,
            player={"id": info.player_id, "name": info.player_name} if info.player_id else None,
            bot=level,
            replaced=True,
            # a choice, not an accident: coming back does not undo it
            left=reason == "left",
            only_if_empty=False,
            statuses=("playing",),
            fence=self.fence,
        )
        info.bot = level
        info.replaced = True
        info.left = reason == "left"
        self.away.pop(seat, None)
        self.bots[seat] = self._new_bot(level, seat)
        if self.table.options.get("official") or reason == "left":
            # the seat is the bot's now: its player's open connections only watch
            for c in self.conns:
                if c.seat == seat:
                    c.seat = None
                    c.send(self._welcome(c, None))
        self.log.info("%s, the level %s bot plays it", reason, level, seat=seat)
        self._broadcast_table()
        self._send_presence()
        self.chat.replaced(seat, reason)
        await self.hub.on_replaced(self.table, seat, reason)
        self._schedule()

    # ------------------------------------------------------------ messages

    def _view(self, seat: int | None) -> dict[str, Any]:
        assert self.state is not None
        return self.state.view(seat)

    def _welcome(self, conn: Conn, last_seq: int | None) -> dict[str, Any]:
        msg: dict[str, Any] = {
            "type": "welcome",
            "table": self.table.public(),
            "seat": conn.seat,
            "seq": self.seq,
            "deadline": self.deadline,
            "paused": self.paused is not None,
            "presence": self.presence(),
            "chat": self.chat.for_seat(conn.seat),
        }
        if self.state is None:
            return msg
        msg["view"] = self._view(conn.seat)
        if last_seq is not None and self.seq - last_seq > self.config.max_catch_up:
            # too far behind to replay it all: the state, and the last few updates for the
            # page's log to tell (docs/protocol.md)
            msg["missed"] = self._missed(
                conn.seat, self.seq - min(SNAPSHOT_TAIL, self.config.max_catch_up)
            )
            msg["snapshot"] = True
        elif last_seq is not None and 0 <= last_seq <= self.seq:
            msg["missed"] = self._missed(conn.seat, last_seq)
        return msg

    def _missed(self, seat: int | None, after: int) -> list[dict[str, Any]]:
        """Every update after number ``after``, as ``seat`` may see it."""
        return [
            {"seq": k, "events": [event_for(e, seat) for e in self.history[k - 1]]}
            for k in range(after + 1, self.seq + 1)
        ]

    def presence(self) -> list[dict[str, Any]]:
        """Who is at the table: per human seat, connected or not, and while a seat is
        away the wall-clock time its grace period ends (then a bot takes it)."""
        out = []
        now_wall, now = time.time(), time.monotonic()
        connected = {c.seat for c in self.conns}
        for info in self.table.seats:
            if info.player_id is None or info.replaced:
                continue
            entry: dict[str, Any] = {"seat": info.seat, "connected": info.seat in connected}
            since = self.away.get(info.seat)
            if since is not None and info.seat not in connected:
                entry["away_for"] = round(now - since, 1)
                entry["grace_ends"] = now_wall + max(0.0, self.config.grace_seconds - (now - since))
            out.append(entry)
        return out

    def _send_presence(self) -> None:
        msg = {"type": "presence", "seats": self.presence()}
        for conn in self.conns:
            conn.send(msg)

    def _publish(self, events: list[Event]) -> None:
        """Number an update and send it to every connection as its seat may see it."""
        assert self.state is not None
        self.seq += 1
        self.history.append(events)
        self._update_timers()
        views: dict[int | None, dict[str, Any]] = {}
        for conn in self.conns:
            if conn.seat not in views:
                views[conn.seat] = self._view(conn.seat)
            conn.send(
                {
                    "type": "update",
                    "seq": self.seq,
                    "events": [event_for(e, conn.seat) for e in events],
                    "view": views[conn.seat],
                    "deadline": self.deadline,
                }
            )
        signals.after_update(self)

    def _broadcast_table(self) -> None:
        msg = {"type": "table", "table": self.table.public()}
        for conn in self.conns:
            conn.send(msg)

    def _send_clock(self) -> None:
        """The turn timer stopped (the database is away) or runs again."""
        msg = {"type": "clock", "deadline": self.deadline, "paused": self.paused is not None}
        for conn in self.conns:
            conn.send(msg)

    # --------------------------------------------------------------- moves

    async def submit(
        self, seat: int, obj: Any, source: str = "player", arrived: float | None = None
    ) -> tuple[bool, Refusal | None]:
        """Apply an intent of ``seat``; returns (ok, why it was refused).

        ``source`` is who made it (player, bot or timeout); ``arrived`` when it came in
        (``time.perf_counter()``; default now), for the latency a player feels.
        """
        if arrived is None:
            arrived = time.perf_counter()
        ok, why = await self._submit(seat, obj, source, arrived)
        if why is not None:
            self.hub.metrics.refused(why.reason)
        return ok, why

    async def _submit(
        self, seat: int, obj: Any, source: str, arrived: float
    ) -> tuple[bool, Refusal | None]:
        async with self.lock:
            state = self.state
            if state is None:
                return False, Refusal("the game has not started", "not_started")
            if state.over:
                return False, Refusal("the game is over", "game_over")
            if isinstance(obj, dict) and "seat" not in obj:
                obj = {**obj, "seat": seat}
            try:
                action = self.cls.parse_action(obj, self.table.seat_count)
            except InvalidAction as e:
                return False, Refusal(str(e), "invalid")
            if action.seat != seat:
                return False, Refusal(
                    f"you sit at seat {seat}, not seat {action.seat}", "wrong_seat", {"seat": seat}
                )
            if self.closing:
                return False, Refusal(
                    "the server is restarting: that move was not made; make it again when "
                    "the table is back",
                    "restarting",
                )
            if self.paused is not None and not await self.hub.recover():
                return False, NOT_STORED
            # Played on a copy that deals as the table does: the live state moves only
            # once the move and what it dealt are stored, together with the seq, so a
            # connection that joins (or a snapshot taken) while the database answers
            # sees a view that matches its seq, and a move the database refuses
            # changes nothing.
            trial = state.clone(rng=self.dealer, record=True)
            try:
                events = trial.apply(action)
            except IllegalAction as e:
                return False, Refusal(str(e), e.reason, e.params)
            index = self.seq - 1  # action k is update k + 1 (update 1 is the first deal)
            dealt = self._dealt(trial)
            writing = time.perf_counter()
            try:
                await self.store.append_action(
                    self.table.id, index, action.to_json(), dealt, fence=self.fence
                )
            except Fenced:
                # another node owns the table now (this one lost its lease): nothing was
                # stored, and the sockets follow the table to its new owner
                self.log.warning("not the owner any more: action %d not stored", index)
                self.hub.spawn(self.hub.disown(self.table.id))
                return False, MOVED
            except Exception:
                self.log.warning(
                    "could not store action %d (%s): the table waits for the database",
                    index,
                    source,
                    exc_info=True,
                    seat=seat,
                )
                self.unsure = True  # a commit that failed late may have gone through
                self.hub.database_lost()
                return False, NOT_STORED
            self.hub.metrics.database_write_seconds.observe(time.perf_counter() - writing)
            # the end is stored before anybody hears of it too: whoever sees "game over"
            # may fetch the record and the replay at once
            result = await self._store_end(trial) if trial.over else None
            if source == "timeout":
                # said as such: time ran out, and a stand-in bot played for the seat
                marker = {"type": "timeout", "seat": seat, "bot": stand_in_level(self.config)}
                events = [marker, *events]
            self.state = trial  # no await between this and the publish
            self.stored_deals = trial.deals_used
            self.moves += 1
            self._publish(events)
            self.hub.metrics.move(source, time.perf_counter() - arrived)
            if result is not None:
                self._announce_end(result)
        self._schedule()
        return True, None

    async def signal(self, seat: int, sign: Any) -> Refusal | None:
        """A Mus seña of ``seat`` (docs/rules.md §3.8): not a move, stored and told apart
        (:mod:`.signals`). None when it was made, else why not (nothing changed)."""
        why = await signals.make(self, seat, sign)
        if why is not None:
            self.hub.metrics.refused(why.reason)
        return why

    def _dealt(self, trial: State) -> list[tuple[int, dict[str, Any]]]:
        """The deals ``trial`` holds that the database does not: new deals, and a deal
        that a Mus reshuffle rewrote (a deal is an immutable value: a new one is a change)."""
        stored, used = self.stored_deals, trial.deals_used
        # a move deals anew or rewrites the hand's own deal: none before the last stored
        return [
            (i, self.cls.deal_json(used[i]))
            for i in range(max(0, len(stored) - 1), len(used))
            if i >= len(stored) or used[i] is not stored[i]
        ]

    async def _finish(self) -> None:
        """Store the end of the game (once more, after a restart or a fault) and say it."""
        assert self.state is not None
        result = await self._store_end(self.state)
        if result is not None:
            self._announce_end(result)

    async def _store_end(self, state: State) -> dict[str, Any] | None:
        """Settle and store the result of a game that is over; None if the database
        failed (the room tries again when it is back)."""
        result = state.result()
        result["names"] = [seat_name(s) for s in self.table.seats]
        try:
            # before the status is stored: a crash in between settles again (once) on resume
            await self.hub.on_finished(self.table, result)
            await self.store.set_status(self.table.id, "finished", result=result, fence=self.fence)
        except Fenced:
            self.hub.spawn(self.hub.disown(self.table.id))
            return None
        except Exception:
            self.log.warning("could not store its end yet", exc_info=True)
            self.finish_pending = True
            self.hub.database_lost()
            return None
        self.finish_pending = False
        return result

    def _announce_end(self, result: dict[str, Any]) -> None:
        if self.hub.cluster is not None:
            # a finished table needs no owner: any node shows it
            self.hub.spawn(self.hub.cluster.give_up(self.table.id))
        self.table.status = "finished"
        self.table.result = result
        self._broadcast_table()
        self.hub.lobby_changed()

    # ------------------------------------------------------ database away

    def pause(self) -> None:
        """The database is away: every timer of the table stops where it is."""
        if self.paused is not None or self.state is None or self.state.over:
            return
        self.paused = self._clock_left()
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.deadline = None
        self._send_clock()

    async def unpause(self, away_for: float) -> None:
        """The database is back after ``away_for`` seconds: the timers go on from where
        they stopped, and nobody's grace period counted the time."""
        if self.paused is None and not self.unsure and not self.finish_pending:
            return
        if self.unsure and not await self._resync():
            return  # away again: still paused
        if self.paused is not None:
            turn_left, window_left = self.paused
            self.paused = None
            self._set_clock(turn_left, window_left)
        for seat in list(self.away):
            self.away[seat] += away_for
            self._arm_grace(seat)
        if self.finish_pending:
            await self._finish()
        self._send_clock()
        self._schedule()

    async def _resync(self) -> bool:
        """After a failed write: take in any move the database holds that this room did
        not apply (a commit that failed late). Presence and seats are left as they are."""
        assert self.state is not None
        try:
            rows = await self.store.game_rows(self.table.id)
        except Exception:
            self.hub.database_lost()
            return False
        self.unsure = False
        if len(rows.actions) == len(self.state.actions_played) and len(rows.signals) == len(
            getattr(self.state, "signals", ())
        ):
            return True
        try:
            state, history = self._rebuild(rows)
        except Unresumable as e:
            self.log.error("its stored game no longer replays: %s", e)
            return True
        before = self.seq
        self._install(state, history)
        self._update_timers()
        self.log.info("took in %d move(s) stored during a fault", self.seq - before)
        for conn in self.conns:
            conn.send(self._welcome(conn, before))
        if state.over:
            self.finish_pending = True
        return True

    # --------------------------------------------------------------- timers

    def _clock_left(self) -> tuple[float | None, float | None]:
        """Seconds left on the turn timer and in the Muggins window (None: not running)."""
        turn = None if self.deadline is None else max(0.0, self.deadline - time.time())
        window = None
        if self.window_opened is not None:
            wait = float(self.options["muggins_wait"])
            window = max(0.0, wait - (time.monotonic() - self.window_opened))
        return turn, window

    def _set_clock(self, turn_left: float | None, window_left: float | None) -> None:
        self.deadline = None if turn_left is None else time.time() + max(0.0, turn_left)
        if window_left is None:
            self.window_opened = None
        else:
            wait = float(self.options["muggins_wait"])
            self.window_opened = time.monotonic() - max(0.0, wait - window_left)

    def clock(self) -> dict[str, Any] | None:
        """The timers as they stand, to be stored when the server stops."""
        if self.state is None or self.state.over:
            return None
        turn, window = self.paused if self.paused is not None else self._clock_left()
        return {"seq": self.seq, "turn_left": turn, "window_left": window, "at": time.time()}

    def _restore_clock(self, rows: StoredGame, stopped_at: datetime | None) -> None:
        """After a restart the timers go on with the time they had when the server stopped:
        the clock saved then (a graceful stop), else the full time from the last move,
        less the time the server still ran after it (its last heartbeat)."""
        state = self.state
        assert state is not None
        if state.over:
            return
        saved = self.table.clock
        stopped = stopped_at.timestamp() if stopped_at is not None else None
        if saved is not None and saved.get("seq") == self.seq:
            turn, window, since = saved.get("turn_left"), saved.get("window_left"), saved.get("at")
        else:
            turn = float(self.options["turn_seconds"]) if state.turn_seat is not None else None
            window = float(self.options["muggins_wait"]) if len(state.to_act) > 1 else None
            since = rows.last_at.timestamp() if rows.last_at is not None else None
        ran = max(0.0, stopped - since) if stopped is not None and since is not None else 0.0
        self._set_clock(
            None if turn is None else max(0.0, turn - ran),
            None if window is None else max(0.0, window - ran),
        )

    def _update_timers(self) -> None:
        state = self.state
        assert state is not None
        turn = state.turn_seat
        if state.over or turn is None:
            self.deadline = None
        else:
            self.deadline = time.time() + float(self.options["turn_seconds"])
        if len(state.to_act) > 1:
            if self.window_opened is None:
                self.window_opened = time.monotonic()
        else:
            self.window_opened = None

    def _schedule(self) -> None:
        """Arm the one timer of the room: a bot's move, or the turn timer."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        state = self.state
        if state is None or state.over or not state.to_act:
            return
        if self.paused is not None or self.closing:
            return
        loop = asyncio.get_running_loop()
        if any(s in self.bots for s in state.to_act):
            delay = self.config.bot_delay * (0.6 + 0.8 * self.rng.random())
            delay = max(delay, self.held_until - time.monotonic())
        elif self.deadline is not None:
            delay = max(0.0, self.deadline - time.time())
        else:
            return
        self.timer = loop.call_later(delay, lambda: spawn(self._automatic(), self.log))

    async def _automatic(self) -> None:
        """Let bots act (optional rights first); or play for a seat whose time ran out."""
        state = self.state
        if state is None or state.over or self.paused is not None or self.closing:
            return
        turn = state.turn_seat
        if self.window_opened is not None and any(s in self.bots for s in state.to_act):
            # PLATFORM.md: while a score is unclaimed every automatic move waits (a bot's
            # claim or Muggins! call too), so people have the time to claim or call first
            left = float(self.options["muggins_wait"]) - (time.monotonic() - self.window_opened)
            if left > 0:
                self.timer = asyncio.get_running_loop().call_later(
                    left, lambda: spawn(self._automatic(), self.log)
                )
                return
        for seat in sorted(state.to_act, key=lambda s: s == turn):
            bot = self.bots.get(seat)
            if bot is None:
                continue
            seq = self.seq
            action, bot_after = await self.hub.think(self, seat, bot)
            if self.seq != seq or self.bots.get(seat) is not bot:
                self._schedule()  # the table moved on while the bot thought
                return
            self.bots[seat] = bot_after
            if action is not None:
                ok, why = await self.submit(seat, action, source="bot")
                if not ok and why is not None and why.reason not in ("not_stored", "restarting"):
                    self.log.error("its bot was refused: %s", why, seat=seat)
                # refused for the database: the table waits, and the bot moves when it is back
                return
        timed_out = self.deadline is not None and time.time() >= self.deadline - 0.01
        if turn is not None and turn not in self.bots and timed_out:
            arrived = time.perf_counter()
            stand_in = self._new_bot(self.config.stand_in_bot, turn)
            chosen = stand_in.choose(self._view(turn))
            self.hub.metrics.thought(stand_in.label, time.perf_counter() - arrived)
            if chosen is not None:
                await self.submit(turn, chosen.to_json(), source="timeout", arrived=arrived)
                return
        self._schedule()


#: updates a snapshot's welcome still carries, for the page's log to tell
SNAPSHOT_TAIL = 50

MOVED = Refusal(
    "the table has moved to another server: that move was not made; make it again in a moment",
    "restarting",
)

NOT_STORED = Refusal(
    "the move could not be stored: the database is not answering. Nothing changed; "
    "make it again in a moment",
    "not_stored",
)


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


#: seconds between two heartbeats of a node (a restart's timers are that precise)
HEARTBEAT = 1.0
#: seconds between two tries to reach the database while it is away
DATABASE_PROBE = 0.5
#: how often a start or a leave follows a table that moved to another node meanwhile
MOVED_TRIES = 5


def _think(bot: Bot, view: dict[str, Any]) -> tuple[dict[str, Any] | None, Bot]:
    """A cheap bot's decision, on the event loop."""
    action = bot.choose(view)
    return (None if action is None else action.to_json()), bot


def stand_in_level(config: Config) -> str:
    """The level of the bot that stands in for a person, as a table keeps it: its number
    (``TAVERNA_STAND_IN_BOT`` may name it by an alias: ``greedy``)."""
    return str(level_of(config.stand_in_bot))


class RoomHub:
    """Every live room of this process, plus lobby watchers and counters."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.lobby: set[Conn] = set()
        #: every figure of this node (/metrics); the live ones are read from this hub
        self.metrics = Metrics(config.node)
        self.metrics.watch(self)
        #: this node's own thinking processes: bots' decisions first, then hints, then
        #: reviews (taverna.server.thinking)
        self.thinkers = Thinkers(self.metrics, config.hint_queue)
        #: the hints and reviews one account and one address may ask for
        self.think_limits = ThinkingLimits(config.hint_limit_account, config.hint_limit_address)
        #: the strong bots' decisions queued for bot workers (a node with Redis)
        self.bot_queue: BotQueue | None = None
        self.set_aside = 0  # tables whose stored game could not be resumed
        self._lobby_pending = False
        #: when this node was last seen alive before it started (its previous run)
        self.stopped_at: datetime | None = None
        #: since when (monotonic) the database has not answered; None while it does
        self.database_down_since: float | None = None
        self.closing = False
        self.sockets = SocketCounts(config.sockets_per_address, config.sockets_per_session)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._recovering = asyncio.Lock()
        #: several nodes (docs/scaling.md): this node's part of the cluster (None: alone)
        self.cluster: Cluster | None = None
        self._adopting: dict[str, asyncio.Future[Room | None]] = {}
        #: moderators' bans and silences of the accounts connected here (moderation.py)
        self.restricted: dict[str, dict[str, Any]] = {}

    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            table = await self.store.table(table_id)
            room = self.rooms.get(table_id)
            if room is None:
                room = Room(table, self.store, self.config, self)
                self.rooms[table_id] = room
                try:
                    if table.status == "playing":
                        await self._resume(room)
                    elif table.status == "finished":
                        await self._reopen(room)
                except BaseException:
                    del self.rooms[table_id]  # the database failed: try again next time
                    raise
        return room

    async def _reopen(self, room: Room) -> None:
        """A finished table shows its last state to whoever opens it (after a restart too)."""
        try:
            room._install(*room._rebuild(await self.store.game_rows(room.table.id)))
        except Unresumable as e:
            room.log.error("its finished game does not replay: %s", e)

    async def open(self) -> int:
        """Start the node: note when it last ran, resume every playing table, beat.
        A node of a cluster resumes none itself: it takes over the tables nobody owns
        as it finds them (:class:`~.cluster.Cluster`)."""
        self.stopped_at = await self.store.heartbeat(self.config.node, starting=True)
        self.set_aside = len(await self.store.tables_set_aside())
        if self.config.redis_url:
            from .botqueue import BotQueue  # redis is imported only by a node that has it
            from .cluster import Cluster

            self.cluster = Cluster(self.config.redis_url, self.config.node, self)
            await self.cluster.open()
            queue = BotQueue(
                self.config.redis_url, self.config.node, self.metrics, self.config.bot_deadline
            )
            await queue.start()
            self.bot_queue = queue
            resumed = 0
        else:
            resumed = await self.resume_all()
        self._keep(self._heartbeat())
        from .matchmaking import keep_filling  # the lobby's part, which imports the rooms

        self._keep(keep_filling(self))
        from .tournaments import keep_running  # the tournaments' scheduler

        self._keep(keep_running(self))
        return resumed

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background, its failure logged (kept until it ends)."""
        self._keep(coro)

    # ------------------------------------------------------------ several nodes

    async def locate(self, table_id: str) -> Room | str:
        """Where a table lives: its room on this node, or (several nodes) the name of
        the node that owns it. Raises NotFound for a table that does not exist."""
        if self.cluster is None:
            return await self.room(table_id)
        table = await self.store.table(table_id)
        if table.status not in ("open", "playing"):
            return await self.room(table_id)  # finished or set aside: any node shows it
        return await self.cluster.locate(table_id)

    async def adopt(self, table_id: str) -> Room | None:
        """Take over a table nobody owns (several nodes): its lease, its fencing token
        stored, its room resumed from the stored record with the timers its last owner
        left. None if another node got it first."""
        assert self.cluster is not None
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        fut: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = fut
        try:
            room = await self._adopt(table_id)
            fut.set_result(room)
            return room
        except BaseException as e:
            fut.set_exception(e)
            fut.exception()  # retrieved: the caller raises it
            raise
        finally:
            del self._adopting[table_id]

    async def adopted(self, table_id: str) -> bool:
        """Wait for this node's takeover of a table, if one is under way (whether it is)."""
        pending = self._adopting.get(table_id)
        if pending is None:
            return False
        with contextlib.suppress(Exception):
            await asyncio.shield(pending)
        return True

    async def _adopt(self, table_id: str) -> Room | None:
        cluster = self.cluster
        assert cluster is not None
        for _ in range(2):
            token = await cluster.acquire(table_id)
            if token is None:
                return None
            try:
                previous = await self.store.claim(table_id, token, self.config.node)
                table = await self.store.table(table_id)
                break
            except Fenced as e:
                await cluster.give_up(table_id)
                if e.stored is None:
                    return None
                # the database has seen a newer token than Redis hands out (Redis lost
                # its data): count on from the stored one, and take the table again
                await cluster.raise_fence(table_id, e.stored)
            except BaseException:
                await cluster.give_up(table_id)
                raise
        else:
            return None
        if table.status not in ("open", "playing"):
            await cluster.give_up(table_id)
            return await self.room(table_id)
        room = Room(table, self.store, self.config, self)
        room.fence = token
        if table.status == "playing":
            # the timers go on from when the last owner was last seen alive
            stopped = await self.store.last_seen(previous) if previous else None
            try:
                await room.resume(stopped)
            except Unresumable:
                await self._resume(room)  # set aside, said once
        # only now: whoever finds the room finds it whole
        self.rooms[table_id] = room
        cluster.takeovers += 1
        room.log.info("taken over (token %d, from %s)", token, previous or "nobody")
        return room

    async def disown(self, table_id: str, *, reconnect: bool = False) -> None:
        """This node owns a table no more (its lease lapsed or was taken): its room stops
        here, and its sockets follow the table to its new owner — or, with
        ``reconnect`` (this node is cut off from Redis), are told to come back."""
        room = self.rooms.pop(table_id, None)
        if room is None:
            return
        room.closing = True
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        if self.cluster is not None:
            self.cluster.forget(table_id)
            for link_id, (_, conn) in list(self.cluster.proxies.items()):
                if conn in room.conns:
                    del self.cluster.proxies[link_id]  # its edge finds the new owner
        for conn in list(room.conns):
            room.conns.discard(conn)
            if isinstance(conn, ProxyConn):
                continue
            if reconnect or conn.on_moved is None:
                conn.send({"type": "closing", "reason": "restart"})
                conn.close_after(1012, "the table moved to another server")
            else:
                conn.on_moved()
        room.log.warning("no longer this node's")

    async def from_edge(self, edge: str, msg: dict[str, Any]) -> None:
        """A message of a socket another node holds, for a table this node owns."""
        from .sockets import table_message  # the socket loop's own dispatch

        cluster = self.cluster
        assert cluster is not None
        link_id, table_id = msg["link"], msg["table"]
        await self.adopted(table_id)  # a takeover under way ends first
        if msg.get("leave"):
            conn = cluster.proxy_gone(link_id)
            room = self.rooms.get(table_id)
            if conn is not None and room is not None:
                room.leave(conn)
            return
        room = self.rooms.get(table_id)
        lease = cluster.leases.get(table_id)
        if room is None or lease is None or msg.get("lease") != lease:
            return  # not this node's (any more): the edge finds the owner
        found = cluster.proxies.get(link_id)
        if found is None:
            player = msg.get("player")
            proxy = ProxyConn(
                ws=None,  # type: ignore[arg-type]
                seat=room.seat_of(player),
                player_id=player,
                table=table_id,
                metrics=self.metrics,
                address=msg.get("address"),
                link=link_id,
                edge=edge,
                lease=lease,
                post=cluster.post,
            )
            cluster.proxies[link_id] = (edge, proxy)
        else:
            proxy = found[1]  # type: ignore[assignment]
        arrived = time.perf_counter() - float(msg.get("waited", 0))
        proxy.joined = await table_message(room, proxy, msg["msg"], proxy.joined, arrived)

    def proxy_left(self, conn: Conn) -> None:
        for room in self.rooms.values():
            if conn in room.conns:
                room.leave(conn)

    async def refresh(self, table_id: str) -> None:
        """The table changed on another node (someone seated; a finished table's "play
        again"): say it here."""
        room = self.rooms.get(table_id)
        if room is not None and room.table.status in ("open", "finished"):
            room.table = await self.store.table(table_id)
            room._broadcast_table()

    def table_changed_anywhere(self, table: TableInfo) -> None:
        """A finished table changed (its players are offered to play again): its room
        says so on this node, and every other node's too."""
        room = self.rooms.get(table.id)
        if room is not None and room.table.status == "finished":
            room.table.again = table.again
            room._broadcast_table()
        if self.cluster is not None:
            self.cluster.publish_lobby({"kind": "refresh", "table": table.id})

    async def start_table(self, table_id: str, table: TableInfo) -> dict[str, Any]:
        """Start a table (its first deal) wherever it lives; the table as it is then."""
        for _ in range(MOVED_TRIES):
            where = await self.locate(table_id)
            if isinstance(where, str):
                answer = await self._ask(where, "start", table=table_id)
                if answer is not None:
                    return answer
                continue  # it moved on meanwhile: look again
            where.table = table
            await where.start()
            return where.table.public()
        raise Conflict(f"table {table_id} keeps moving between nodes: try again", "moved")

    async def leave_game(self, table_id: str, seat: int) -> TableInfo:
        """A player leaves a running game: a bot takes the seat, wherever it lives."""
        for _ in range(MOVED_TRIES):
            where = await self.locate(table_id)
            if isinstance(where, str):
                if await self._ask(where, "leave", table=table_id, seat=seat) is None:
                    continue
                return await self.store.table(table_id)
            await where.replace_with_bot(seat, reason="left")
            return where.table
        raise Conflict(f"table {table_id} keeps moving between nodes: try again", "moved")

    def table_changed(self, table: TableInfo) -> None:
        """An open table's seats changed: its room says so, wherever it lives."""
        room = self.rooms.get(table.id)
        if room is not None and room.table.status == "open":
            room.table = table
            room._broadcast_table()
        elif self.cluster is not None:
            self.cluster.publish_lobby({"kind": "refresh", "table": table.id})
        self.lobby_changed()

    async def _ask(self, node: str, op: str, **args: Any) -> dict[str, Any] | None:
        """Have the owner of a table do ``op``; the table as it is then, or None if that
        node does not own it any more (the caller looks for it again)."""
        assert self.cluster is not None
        answer = await self.cluster.call(node, op, **args)
        if not answer.get("ok"):
            err = answer.get("error") or {}
            if err.get("code") == "moved":
                return None
            raise Conflict(
                err.get("message", "refused"), err.get("code", "conflict"), **err.get("params", {})
            )
        table: dict[str, Any] = answer["table"]
        return table

    async def _owned_room(self, table: str) -> Room:
        """This node's room of a table another node asked about: waited for if this node
        is taking the table over (its lease is there before its room is); Conflict
        "moved" if it lives elsewhere."""
        where = await self.locate(table) if self.cluster is not None else None
        if not isinstance(where, Room):
            raise Conflict(f"table {table} is not on this node", "moved")
        return where

    async def call_start(self, table: str) -> dict[str, Any]:
        room = await self._owned_room(table)
        room.table = await self.store.table(table)
        await room.start()
        return {"ok": True, "table": room.table.public()}

    async def call_leave(self, table: str, seat: int) -> dict[str, Any]:
        room = await self._owned_room(table)
        await room.replace_with_bot(seat, reason="left")
        return {"ok": True, "table": room.table.public()}

    async def options_changed(self, table: TableInfo) -> None:
        """A table's options changed (the host turned its chat off or on): its room takes
        them and says so, wherever it lives."""
        if self.cluster is not None and table.status in ("open", "playing"):
            where = await self.locate(table.id)
            if isinstance(where, str):
                await self._ask(where, "options", table=table.id)
                return
        room = self.rooms.get(table.id)
        if room is not None:
            room.table.options = dict(table.options)
            room._broadcast_table()
        if self.cluster is not None and table.status not in ("open", "playing"):
            self.cluster.publish_lobby({"kind": "refresh", "table": table.id})

    async def call_options(self, table: str) -> dict[str, Any]:
        room = await self._owned_room(table)
        room.table.options = (await self.store.table(table)).options
        room._broadcast_table()
        return {"ok": True, "table": room.table.public()}

    async def resume_all(self) -> int:
        """Resume every playing table; one that cannot be is set aside, and the rest go on."""
        resumed = 0
        for t in await self.store.playing_tables():
            if t.id not in self.rooms:
                room = Room(t, self.store, self.config, self)
                self.rooms[t.id] = room
                resumed += await self._resume(room)
        return resumed

    async def _resume(self, room: Room) -> bool:
        try:
            await room.resume(self.stopped_at)
            return True
        except Unresumable as e:
            why = str(e)
        except DATABASE_AWAY:
            raise  # not the table's fault: it is resumed when the database answers
        except Exception as e:  # a bug must not stop the club either; its trace is logged
            room.log.exception("resuming it failed")
            why = f"resuming it failed: {type(e).__name__}: {e}"
        room.log.error("set aside: %s", why)
        room.state = None
        room.table.status = "set_aside"
        room.table.problem = why
        self.set_aside += 1
        await self.store.set_aside(room.table.id, why)
        return False

    async def _heartbeat(self) -> None:
        while not self.closing:
            await asyncio.sleep(HEARTBEAT)
            try:
                await self.store.heartbeat(self.config.node)
            except Exception:
                self.database_lost()

    def _keep(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = spawn(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------ database away

    def database_lost(self) -> None:
        """A read or write failed: stop every table's timers until the database answers."""
        if self.database_down_since is not None or self.closing:
            return
        self.database_down_since = time.monotonic()
        log.warning("the database is not answering: tables wait, timers stopped")
        for room in self.rooms.values():
            room.pause()
        self._keep(self._wait_for_database())

    async def _wait_for_database(self) -> None:
        while not self.closing and not await self.recover():
            await asyncio.sleep(DATABASE_PROBE)

    async def recover(self) -> bool:
        """Whether the database answers; if it is back, every table goes on first."""
        since = self.database_down_since
        if since is None:
            return True
        if self.closing or not await self.store.ping(timeout=DATABASE_PROBE):
            return False
        async with self._recovering:
            if self.database_down_since is None:
                return True  # another caller got there first
            away_for = time.monotonic() - since
            self.database_down_since = None
            log.warning("the database answers again after %.1f s: tables go on", away_for)
            for room in list(self.rooms.values()):
                await room.unpause(away_for)
        self.lobby_changed()
        return True

    # ------------------------------------------------------------ stopping

    async def begin_shutdown(self) -> None:
        """A graceful stop: no more moves, every move under way stored, each table's
        timers kept, and every connection told that the server is restarting."""
        self.closing = True
        for room in self.rooms.values():
            room.closing = True
            if room.timer is not None:
                room.timer.cancel()
        for room in list(self.rooms.values()):
            async with room.lock:  # a move being stored finishes first
                pass
        clocks = {tid: r.clock() for tid, r in self.rooms.items() if r.table.status == "playing"}
        try:
            await self.store.save_clocks(clocks)
            await self.store.heartbeat(self.config.node)
        except Exception:
            log.warning("could not store the timers before stopping", exc_info=True)
        if self.cluster is not None:
            # the other nodes take the tables over now, with the timers just stored
            await self.cluster.close()
        conns = list(self.lobby) + [
            c for r in self.rooms.values() for c in r.conns if not isinstance(c, ProxyConn)
        ]
        for c in conns:
            c.send({"type": "closing", "reason": "restart"})
        # let the pumps say it before the sockets close
        for _ in range(50):
            if all(c.queue.empty() for c in conns):
                break
            await asyncio.sleep(0.02)

    async def think(self, room: Room, seat: int, bot: Bot) -> tuple[dict[str, Any] | None, Bot]:
        """The decision of ``seat``'s bot at ``room``, and the bot to keep (its memory after
        it): inline when cheap; else by a bot worker when the node has some (a Redis,
        docs/scaling.md), or in a process of the node's own — a search takes up to a
        second of CPU, which must not stall every other table."""
        started = time.perf_counter()
        view = room._view(seat)
        # a bot that does not search is cheap enough to decide on the event loop; a
        # search thinks in a bot worker or a process of the node's own
        if not bot.searches:
            decision = _think(bot, view)
            self.metrics.thought(bot.label, time.perf_counter() - started)
            return decision
        # a seed per decision from the table's generator: the decision is the same
        # wherever it is made
        seed = room.rng.randrange(1 << 30)
        request = ask(bot, view, seed)  # the server's options are the bot's own already
        answer, why = None, "no_redis"
        if self.bot_queue is not None:
            answer, why = await self.bot_queue.ask(request, room.table.id, room.seq)
        if answer is None:
            self.metrics.bot_local[why].inc()
            answer = await self.thinkers.decide(decide, request)
        # the time a table waited for its bot: the queue for a worker included
        self.metrics.thought(bot.label, time.perf_counter() - started)
        if answer.get("capped"):
            self.metrics.bot_capped.inc()  # logged where it was decided (taverna.bots)
        # the bot as it is after the decision, made afresh as a worker makes it (its
        # level, seat and options, the decision's seed, the memory it answered): the
        # room keeps it only if it takes the decision
        after = make_bot(bot.label, bot.game, bot.seat, seed=seed, **bot.options)
        after.recall(answer["memory"])
        return answer["action"], after

    def hint(
        self, room: Room, seat: int, wanted: Callable[[], bool]
    ) -> asyncio.Future[dict[str, Any] | None]:
        """Queue the strong bot's move for ``seat`` from its view alone, and why
        (:mod:`taverna.bots.hint`), for this node's hint process: its future is
        ``{"action", "why"}``, or None when the hint was dropped uncomputed (no longer
        ``wanted`` when its turn came). Raises :class:`~.thinking.Busy` when the queue
        is full. The view is taken now: the hint is for the position as it stands."""
        view = room._view(seat)
        # a seed of its own: a hint takes nothing from the table's generator, whose
        # draws make its bots' decisions
        seed = random.randrange(1 << 30)
        options = options_for(self.config.bot_options, HINT_LEVEL)
        request = hint_request(room.cls, seat, view, seed, options)
        return self.thinkers.hint(bot_hint, request, wanted)

    def tables_live(self) -> int:
        """Tables of this node being played (started, not over)."""
        return sum(1 for r in self.rooms.values() if r.state is not None and not r.state.over)

    def connections(self) -> int:
        return len(self.lobby) + sum(len(r.conns) for r in self.rooms.values())

    def renamed(self, player_id: str, name: str, *, local: bool = False) -> None:
        """A player's name changed (a guest who registered): live tables say the new one
        (on every node; ``local``: on this one, told by another)."""
        if self.cluster is not None and not local:
            self.cluster.publish_lobby({"kind": "renamed", "player": player_id, "name": name})
            return  # this node hears it too
        for room in self.rooms.values():
            seats = [s for s in room.table.seats if s.player_id == player_id]
            for seat in seats:
                seat.player_name = name
            if seats:
                room._broadcast_table()
        self.lobby_changed()

    def lobby_changed(self, *, local: bool = False) -> None:
        """Tell lobby watchers soon (changes within 0.2 s are sent once), on every node
        (``local``: on this one, told by another)."""
        if self.cluster is not None and not local:
            self.cluster.publish_lobby({"kind": "lobby"})
            return  # this node hears it too
        if self._lobby_pending or not self.lobby:
            return
        self._lobby_pending = True
        asyncio.get_running_loop().call_later(0.2, lambda: spawn(self._send_lobby()))

    async def _send_lobby(self) -> None:
        self._lobby_pending = False
        try:
            tables = await self.store.tables(("open", "playing"))
        except Exception:
            self.database_lost()  # the lobby hears again once the database is back
            return
        msg = {
            "type": "tables",
            "tables": [t.public() for t in tables if t.options.get("public", True)],
        }
        for conn in list(self.lobby):
            conn.send(msg)

    # hooks for accounts and rankings (issue 8; see taverna.server.accounts.ClubHub)
    async def before_start(self, table: TableInfo) -> None:
        """Before the first deal; raise Conflict to refuse the start."""

    async def on_finished(self, table: TableInfo, result: dict[str, Any]) -> None:
        """The game is over; runs before the result is stored and may add to it."""

    async def on_replaced(self, table: TableInfo, seat: int, reason: str) -> None:
        """A bot took a human's seat for good (``reason``: left or disconnected)."""

    def close(self) -> None:
        self.closing = True
        for task in list(self._tasks):
            task.cancel()
        if self.cluster is not None:
            self.cluster.stop()
        for room in self.rooms.values():
            room.close()
        if self.bot_queue is not None:
            spawn(self.bot_queue.close())
        self.thinkers.close()
