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
import logging
import multiprocessing
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from ..bots import make_bot
from ..bots.base import Bot
from ..games import get_game
from ..games.base import Event, IllegalAction, InvalidAction, State, event_for
from ..store.repo import Conflict, Store, TableInfo
from .config import Config
from .names import seat_name

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
    """One WebSocket: a seat's player or a spectator (seat None)."""

    ws: WebSocket
    seat: int | None
    player_id: str | None
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=1000)
    )

    def send(self, msg: dict[str, Any]) -> None:
        try:
            self.queue.put_nowait(msg)
        except asyncio.QueueFull:
            # a client that does not read: cut it loose rather than grow without bound
            with contextlib.suppress(asyncio.QueueFull):
                self.queue.put_nowait(None)

    async def pump(self) -> None:
        while True:
            msg = await self.queue.get()
            if msg is None:
                await self.ws.close(code=1008)
                return
            await self.ws.send_json(msg)


class Room:
    def __init__(self, table: TableInfo, store: Store, config: Config, hub: RoomHub) -> None:
        self.table = table
        self.store = store
        self.config = config
        self.hub = hub
        self.cls: type[State] = get_game(table.game)
        self.state: State | None = None
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
                self.bots[s.seat] = make_bot(
                    s.bot, self.cls, s.seat, seed=self.rng.randrange(1 << 30), **extra
                )

    async def start(self) -> None:
        """Deal the first hand: the table goes from open to playing."""
        async with self.lock:
            if self.state is not None:
                raise Conflict(f"table {self.table.id} has started already")
            await self.hub.before_start(self.table)  # official tables: the stakes
            self.state = self.cls.new(
                self.table.seat_count, self.table.settings, seed=self.table.seed
            )
            self._make_bots()
            self.table.status = "playing"
            await self.store.set_status(self.table.id, "playing")
            for conn in self.conns:  # people who sat down after connecting
                conn.seat = self.seat_of(conn.player_id)
            self._publish(self.state.initial_events)
        self.hub.lobby_changed()
        self._schedule()

    async def resume(self) -> None:
        """Rebuild a playing table from its stored actions after a restart."""
        state = self.cls.new(self.table.seat_count, self.table.settings, seed=self.table.seed)
        history = [state.initial_events]
        for data in await self.store.actions(self.table.id):
            action = self.cls.parse_action(data, self.table.seat_count)
            history.append(state.apply(action))
        self.state = state
        self.history = history
        self.seq = len(history)
        self._make_bots()
        # nobody is connected yet: everybody gets the grace period from now
        now = time.monotonic()
        self.away = {s.seat: now for s in self.table.seats if s.player_id and not s.replaced}
        for seat in self.away:
            self._arm_grace(seat)
        if state.over:
            await self._finish()
        self._schedule()

    def close(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        for c in list(self.conns):
            c.send({"type": "closing"})

    # -------------------------------------------------------- connections

    def seat_of(self, player_id: str | None) -> int | None:
        if player_id is None:
            return None
        for s in self.table.seats:
            if s.player_id == player_id:
                if s.left or (s.replaced and self.table.options.get("official")):
                    return None  # who left (or abandoned an official game) only watches
                return s.seat
        return None

    def bot_plays(self, seat: int) -> bool:
        """Whether a bot plays this seat now (a bot seat, or a human seat taken over)."""
        return seat in self.bots

    async def join(self, conn: Conn, last_seq: int | None) -> None:
        """Welcome a connection; it hears every later update, and nothing before its welcome."""
        seat = conn.seat
        if seat is not None:
            self.away.pop(seat, None)
            info = self.table.seats[seat]
            running = self.state is not None and not self.state.over
            if info.replaced and running and not self.table.options.get("official"):
                # a casual table gives the seat back to its player
                await self.store.set_seat(
                    self.table.id,
                    seat,
                    player={"id": info.player_id, "name": info.player_name},
                    only_if_empty=False,
                    statuses=("playing",),
                )
                info.replaced = False
                info.bot = None
                self.bots.pop(seat, None)
                self._broadcast_table()
                self._schedule()
        # no await from here on: the welcome and the membership are one step
        conn.send(self._welcome(conn, last_seq))
        self.conns.add(conn)

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)
        seat = conn.seat
        if seat is None or self.state is None or self.state.over:
            return
        if any(c.seat == seat for c in self.conns):
            return
        self.away[seat] = time.monotonic()
        self._arm_grace(seat)

    def _arm_grace(self, seat: int) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(
            self.config.grace_seconds,
            lambda: asyncio.ensure_future(self._grace_over(seat)),
        )

    async def _grace_over(self, seat: int) -> None:
        since = self.away.get(seat)
        if since is None or self.state is None or self.state.over:
            return
        if time.monotonic() - since < self.config.grace_seconds - 0.01:
            return
        await self.replace_with_bot(seat, reason="disconnected")

    async def replace_with_bot(self, seat: int, reason: str) -> None:
        """A bot takes a human seat for the rest of the game (left, or away too long)."""
        info = self.table.seats[seat]
        if info.replaced or info.bot:
            return
        level = self.config.stand_in_bot
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
        )
        info.bot = level
        info.replaced = True
        info.left = reason == "left"
        self.bots[seat] = make_bot(level, self.cls, seat, seed=self.rng.randrange(1 << 30))
        if self.table.options.get("official") or reason == "left":
            # the seat is the bot's now: its player's open connections only watch
            for c in self.conns:
                if c.seat == seat:
                    c.seat = None
                    c.send(self._welcome(c, None))
        log.info("table %s: seat %d %s, %s bot plays it", self.table.id, seat, reason, level)
        self._broadcast_table()
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
        }
        if self.state is None:
            return msg
        msg["view"] = self._view(conn.seat)
        if last_seq is not None and 0 <= last_seq <= self.seq:
            msg["missed"] = [
                {"seq": k, "events": [event_for(e, conn.seat) for e in self.history[k - 1]]}
                for k in range(last_seq + 1, self.seq + 1)
            ]
        return msg

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

    def _broadcast_table(self) -> None:
        msg = {"type": "table", "table": self.table.public()}
        for conn in self.conns:
            conn.send(msg)

    # --------------------------------------------------------------- moves

    async def submit(
        self, seat: int, obj: Any, source: str = "player"
    ) -> tuple[bool, Refusal | None]:
        """Apply an intent of ``seat``; returns (ok, why it was refused)."""
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
            # tried on a cheap copy first: the live state moves only once the move is
            # stored, together with the seq, so a connection that joins (or a snapshot
            # taken) while the database answers sees a view that matches its seq
            try:
                state.clone().apply(action)
            except IllegalAction as e:
                return False, Refusal(str(e), e.reason, e.params)
            index = self.seq - 1  # action k is update k + 1 (update 1 is the first deal)
            try:
                await self.store.append_action(self.table.id, index, action.to_json())
            except Exception:
                log.exception(
                    "table %s: could not store action %d; reloading", self.table.id, index
                )
                await self._reload()
                return False, Refusal(
                    "the server could not store that move; please try again", "not_stored"
                )
            events = state.apply(action)  # no await between this and the publish
            self.moves += 1
            self.hub.moves += 1
            self._publish(events)
            if state.over:
                await self._finish()
        self._schedule()
        return True, None

    async def _reload(self) -> None:
        """The in-memory state ran ahead of the database: rebuild it from what is stored."""
        await self.resume()
        for conn in self.conns:
            conn.send(self._welcome(conn, None))

    async def _finish(self) -> None:
        assert self.state is not None
        result = self.state.result()
        result["names"] = [seat_name(s) for s in self.table.seats]
        record = self.state.record()
        self.table.status = "finished"
        self.table.result = result
        # before the status is stored: a crash in between settles again (once) on resume
        await self.hub.on_finished(self.table, result)
        await self.store.set_status(self.table.id, "finished", result=result, record=record)
        self._broadcast_table()
        self.hub.lobby_changed()

    # --------------------------------------------------------------- timers

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
        loop = asyncio.get_running_loop()
        if any(s in self.bots for s in state.to_act):
            delay = self.config.bot_delay * (0.6 + 0.8 * self.rng.random())
        elif self.deadline is not None:
            delay = max(0.0, self.deadline - time.time())
        else:
            return
        self.timer = loop.call_later(delay, lambda: asyncio.ensure_future(self._automatic()))

    async def _automatic(self) -> None:
        """Let bots act (optional rights first); or play for a seat whose time ran out."""
        state = self.state
        if state is None or state.over:
            return
        turn = state.turn_seat
        if self.window_opened is not None and any(s in self.bots for s in state.to_act):
            # PLATFORM.md: while a score is unclaimed every automatic move waits (a bot's
            # claim or Muggins! call too), so people have the time to claim or call first
            left = float(self.options["muggins_wait"]) - (time.monotonic() - self.window_opened)
            if left > 0:
                self.timer = asyncio.get_running_loop().call_later(
                    left, lambda: asyncio.ensure_future(self._automatic())
                )
                return
        for seat in sorted(state.to_act, key=lambda s: s == turn):
            bot = self.bots.get(seat)
            if bot is None:
                continue
            seq = self.seq
            action, bot_after = await self.hub.think(bot, self._view(seat))
            if self.seq != seq or self.bots.get(seat) is not bot:
                self._schedule()  # the table moved on while the bot thought
                return
            self.bots[seat] = bot_after
            if action is not None:
                ok, why = await self.submit(seat, action, source="bot")
                if not ok:
                    log.error("table %s: bot of seat %d was refused: %s", self.table.id, seat, why)
                return
        timed_out = self.deadline is not None and time.time() >= self.deadline - 0.01
        if turn is not None and turn not in self.bots and timed_out:
            stand_in = make_bot(
                self.config.stand_in_bot, self.cls, turn, seed=self.rng.randrange(1 << 30)
            )
            chosen = stand_in.choose(self._view(turn))
            if chosen is not None:
                await self.submit(turn, chosen.to_json(), source="timeout")
                return
        self._schedule()


#: bots cheap enough to decide on the event loop; others think in a worker process
INLINE_BOTS = frozenset({"random", "greedy"})


def _think(bot: Bot, view: dict[str, Any]) -> tuple[dict[str, Any] | None, Bot]:
    """A bot's decision in a worker process; the bot comes back with its rng advanced."""
    action = bot.choose(view)
    return (None if action is None else action.to_json()), bot


class RoomHub:
    """Every live room of this process, plus lobby watchers and counters."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self._pool: ProcessPoolExecutor | None = None
        self.rooms: dict[str, Room] = {}
        self.lobby: set[Conn] = set()
        self.moves = 0
        self._lobby_pending = False

    async def room(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            table = await self.store.table(table_id)
            room = self.rooms.get(table_id)
            if room is None:
                room = Room(table, self.store, self.config, self)
                self.rooms[table_id] = room
                if table.status == "playing":
                    await room.resume()
        return room

    async def resume_all(self) -> int:
        tables = await self.store.tables(("playing",))
        for t in tables:
            if t.id not in self.rooms:
                room = Room(t, self.store, self.config, self)
                self.rooms[t.id] = room
                await room.resume()
        return len(tables)

    async def think(self, bot: Bot, view: dict[str, Any]) -> tuple[dict[str, Any] | None, Bot]:
        """A bot's decision: inline when cheap, else in a worker process (searches take up
        to a second of CPU, which must not stall every other table)."""
        if bot.name in INLINE_BOTS:
            return _think(bot, view)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=max(1, min(2, os.cpu_count() or 1)),
                mp_context=multiprocessing.get_context("spawn"),
            )
        return await asyncio.get_running_loop().run_in_executor(self._pool, _think, bot, view)

    def connections(self) -> int:
        return len(self.lobby) + sum(len(r.conns) for r in self.rooms.values())

    def renamed(self, player_id: str, name: str) -> None:
        """A player's name changed (a guest who registered): live tables say the new one."""
        for room in self.rooms.values():
            seats = [s for s in room.table.seats if s.player_id == player_id]
            for seat in seats:
                seat.player_name = name
            if seats:
                room._broadcast_table()
        self.lobby_changed()

    def lobby_changed(self) -> None:
        """Tell lobby watchers soon (changes within 0.2 s are sent once)."""
        if self._lobby_pending or not self.lobby:
            return
        self._lobby_pending = True
        asyncio.get_running_loop().call_later(
            0.2, lambda: asyncio.ensure_future(self._send_lobby())
        )

    async def _send_lobby(self) -> None:
        self._lobby_pending = False
        tables = await self.store.tables(("open", "playing"))
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
        for room in self.rooms.values():
            room.close()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
