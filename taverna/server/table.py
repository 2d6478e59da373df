"""One live table: a :class:`Room` per running table, owning its game state.

The room is the only writer of its state. An intent from a client (or a bot,
or a timer) is checked by the engine, committed to the database, and only
then broadcast: every connection gets the events as its seat may see them
and its seat's new view, numbered by a sequence so a client that comes back
catches up exactly (lichess-style versioned history).

Around it: its bots and timers (:mod:`.autoplay`), its record rebuilt after a restart
(:mod:`.restore`), its señas (:mod:`.signals`) and chat (:mod:`.chat`). It asks its
hub (:class:`~.hub.RoomHub`) for what is the node's: the database's state, the lobby,
the hooks of accounts, the cluster.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..bots.base import Bot
from ..games import get_game
from ..games.base import Dealer, Event, IllegalAction, InvalidAction, State, event_for
from ..store.errors import Conflict
from ..store.fencing import Fenced
from ..store.record import StoredGame
from ..store.repo import Store
from ..store.tables import TableInfo
from . import autoplay, clock, signals
from .autoplay import stand_in_level
from .chat import TableChat
from .config import Config
from .conns import Conn
from .logs import TableLog
from .names import seat_name
from .protocol import Refusal
from .restore import rebuild, store_legacy_deals
from .tasks import spawn

if TYPE_CHECKING:
    from .hub import RoomHub

log = logging.getLogger("taverna.rooms")

DEFAULT_OPTIONS: dict[str, Any] = {"turn_seconds": 30, "muggins_wait": 3, "public": True}


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


class Room:
    """One live table: its seats, its game and the history of its updates, its clock,
    and the connections that hear it."""

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
            autoplay.make_bots(self)
            self.table.status = "playing"
            for conn in self.conns:  # people who sat down after connecting
                conn.seat = self.seat_of(conn.player_id)
            self._publish(state.initial_events)
        self.hub.lobby_changed()
        autoplay.schedule(self)

    async def resume(self, stopped_at: datetime | None = None) -> None:
        """Rebuild a playing table from its stored record after a restart (docs/rules.md §4.1).

        ``stopped_at`` is when the server was last seen alive: the turn timer and the
        Muggins window go on with the time they had then. Raises
        :class:`~.restore.Unresumable` when the stored game cannot be rebuilt.
        """
        rows = await self.store.game_rows(self.table.id)
        if not rows.deals:
            rows = await store_legacy_deals(self.store, self.cls, self.table, rows, self.log)
        state, history = self.rebuild(rows)
        self.install(state, history)
        autoplay.make_bots(self)
        clock.restore(self, rows, stopped_at)
        self.held_until = time.monotonic() + self.config.resume_hold
        # nobody is connected yet: everybody gets the whole grace period from now
        now = time.monotonic()
        self.away = {s.seat: now for s in self.table.seats if s.player_id and not s.replaced}
        for seat in self.away:
            self.arm_grace(seat)
        if state.over:
            await self.finish()
        autoplay.schedule(self)

    def install(self, state: State, history: list[list[Event]]) -> None:
        """Take ``state`` as the table's game, ``history`` as the events of its updates."""
        self.state = state
        self.stored_deals = state.deals_used
        self.history = history
        self.seq = len(history)

    def rebuild(self, rows: StoredGame) -> tuple[State, list[list[Event]]]:
        """The game of the table's stored deals and actions, with the events of each
        update (:func:`.restore.rebuild`); raises :class:`~.restore.Unresumable`."""
        return rebuild(self.cls, self.table, rows, self.dealer)

    def close(self) -> None:
        """The server stops: the timer ends, and every connection is told."""
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
        conn.send(self.welcome(conn, last_seq))
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
        self.broadcast_table()
        autoplay.schedule(self)

    def leave(self, conn: Conn) -> None:
        self.conns.discard(conn)
        seat = conn.seat
        if seat is None or self.state is None or self.state.over:
            return
        if any(c.seat == seat for c in self.conns):
            return
        self.away[seat] = time.monotonic()
        self.arm_grace(seat)
        self._send_presence()
        self.chat.went_away(seat)

    def arm_grace(self, seat: int) -> None:
        """Give a seat whose player is away a bot once its grace period ends."""
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
            self.arm_grace(seat)  # came back and left again since: its new period runs
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
        self.bots[seat] = autoplay.new_bot(self, level, seat)
        if self.table.options.get("official") or reason == "left":
            # the seat is the bot's now: its player's open connections only watch
            for c in self.conns:
                if c.seat == seat:
                    c.seat = None
                    c.send(self.welcome(c, None))
        self.log.info("%s, the level %s bot plays it", reason, level, seat=seat)
        self.broadcast_table()
        self._send_presence()
        self.chat.replaced(seat, reason)
        await self.hub.on_replaced(self.table, seat, reason)
        autoplay.schedule(self)

    # ------------------------------------------------------------ messages

    def view(self, seat: int | None) -> dict[str, Any]:
        """The game as ``seat`` sees it (None: a spectator); the game has started."""
        assert self.state is not None
        return self.state.view(seat)

    def welcome(self, conn: Conn, last_seq: int | None) -> dict[str, Any]:
        """The ``welcome`` a connection gets (docs/protocol.md): the table, its seat's
        view, and every update after ``last_seq`` it missed (or, too far behind, a
        snapshot with the last few)."""
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
        msg["view"] = self.view(conn.seat)
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
        clock.update(self)
        views: dict[int | None, dict[str, Any]] = {}
        for conn in self.conns:
            if conn.seat not in views:
                views[conn.seat] = self.view(conn.seat)
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

    def broadcast_table(self) -> None:
        """Tell every connection the table as it is now (its seats, options, status)."""
        msg = {"type": "table", "table": self.table.public()}
        for conn in self.conns:
            conn.send(msg)

    def send_clock(self) -> None:
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
        autoplay.schedule(self)
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

    async def finish(self) -> None:
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
        self.broadcast_table()
        self.hub.lobby_changed()


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
