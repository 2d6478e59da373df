"""A table's chat: what people say at the table, and what the table says itself.

Two rooms per table: the players' and the spectators'. A seated player writes to the
players' room and reads only it (a spectator could pass on what the hands hold, and
chat must not carry it back); a spectator writes to the spectators' room and reads
both. Like a move, a message is stored before anybody hears it; it is not part of the
game record (the replay page shows it beside). Each :class:`~.table.Room` owns a
:class:`TableChat`, so on several nodes chat travels like moves: a socket held by
another node reaches the owner's room through the same ``table_message``.

The table says itself who lost the connection, came back, left, or whose seat a bot
plays (``event`` messages), in the players' room, said in each reader's language.
See docs/protocol.md (Chat).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from ..store.db import DATABASE_AWAY
from ..store.errors import Conflict
from .protocol import error
from .text import TextProblem, prose

if TYPE_CHECKING:
    from .conns import Conn
    from .hub import RoomHub
    from .table import Room

#: the quick phrases, said in each reader's language (lang/*.json: chat.phrase.<key>)
PHRASES = (
    "hello",
    "good_luck",
    "nice_hand",
    "well_played",
    "good_game",
    "thanks",
    "sorry",
    "oops",
    "hurry_up",
    "bye",
)
#: the longest message, in characters, once trimmed
MAX_TEXT = 300
#: a person sends at most RATE_COUNT messages in RATE_SECONDS (all their sockets together)
RATE_COUNT = 3
RATE_SECONDS = 5.0
#: the messages a welcome carries (per connection: what it may read)
RECENT = 50
#: seconds a seat stays away before the table says so (a page reload says nothing)
AWAY_SAYING = 5.0

PLAYERS = "players"
SPECTATORS = "spectators"


def hand_in_play(room: Room) -> bool:
    """Whether a hand is being played at the room's table: started, not over, and some
    seat to act (every engine's ``to_act`` is empty when over or between deals)."""
    state = room.state
    return state is not None and not state.over and bool(state.to_act)


def readable(message: dict[str, Any], seat: int | None) -> bool:
    """Whether a connection of ``seat`` (None: a spectator) may read ``message``."""
    return message["room"] == PLAYERS or seat is None


def said(raw: str) -> str:
    """A message as it is kept (:func:`~.text.prose`: NFC, trimmed, nothing hidden), or
    Conflict with the refusal's code: ``chat_empty``, ``chat_too_long`` or ``bad_text``
    (a character it may not hold: ``params.problem`` and ``params.char``)."""
    try:
        return prose(raw, "a message", MAX_TEXT)
    except TextProblem as e:
        if e.problem == "blank":
            raise Conflict("an empty message says nothing", "chat_empty") from None
        if e.problem == "long":
            raise Conflict(
                str(e), "chat_too_long", length=e.params["length"], limit=MAX_TEXT
            ) from None
        raise Conflict(str(e), e.code, **e.params) from None


class TableChat:
    """One table's chat, owned by its room: the recent messages of each room (for a
    welcome), each person's pace, and the table's own words about its seats."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.recent: dict[str, deque[dict[str, Any]]] = {
            PLAYERS: deque(maxlen=RECENT),
            SPECTATORS: deque(maxlen=RECENT),
        }
        self.loaded = False
        self._loading = asyncio.Lock()
        #: per person: when (monotonic) their last messages were taken
        self.sent: dict[str, deque[float]] = {}
        #: seats the table said were away (or given to a bot): their return is said too
        self.said_away: set[int] = set()

    # -------------------------------------------------------------- reading

    async def load(self) -> bool:
        """The recent messages from the database, once (a room made after a restart, or
        on the node that took the table over). False if the database did not answer:
        the welcome goes without them, and the next one tries again."""
        if self.loaded:
            return True
        async with self._loading:
            if self.loaded:
                return True
            store, tid = self.room.store, self.room.table.id
            try:
                players = await store.chat(tid, [PLAYERS], RECENT)
                spectators = await store.chat(tid, [SPECTATORS], RECENT)
            except Exception:
                self.room.log.warning("could not read its chat yet", exc_info=True)
                return False
            self.recent[PLAYERS].extendleft(reversed(players))
            self.recent[SPECTATORS].extendleft(reversed(spectators))
            self.loaded = True
            return True

    def for_seat(self, seat: int | None) -> list[dict[str, Any]]:
        """The recent messages a connection of ``seat`` may read, oldest first."""
        if seat is not None:
            return list(self.recent[PLAYERS])
        both = sorted([*self.recent[PLAYERS], *self.recent[SPECTATORS]], key=lambda m: m["id"])
        return both[-RECENT:]

    # -------------------------------------------------------------- writing

    def check(self, conn: Conn, msg: dict[str, Any]) -> tuple[str | None, str | None]:
        """The ``text`` or ``phrase`` of a chat message, or Conflict saying why not (its
        code is the refusal's: docs/protocol.md)."""
        text, phrase = msg.get("text"), msg.get("phrase")
        if (text is None) == (phrase is None):
            raise Conflict("a chat message has a 'text' or a 'phrase' (one of them)", "bad_chat")
        if text is not None and not isinstance(text, str):
            raise Conflict("a chat message's 'text' is a string", "bad_chat")
        if conn.player_id is None:
            raise Conflict("tell the club your name first: POST /api/session", "no_session")
        options = self.room.table.options
        if options.get("chat", True) is False:
            raise Conflict("the host has turned the chat off at this table", "chat_off")
        if phrase is not None and phrase not in PHRASES:
            raise Conflict(
                f"there is no quick phrase {str(phrase)[:40]!r} (the phrases: "
                f"{', '.join(PHRASES)})",
                "unknown_phrase",
                phrase=str(phrase)[:40],
            )
        if options.get("official"):
            if text is not None:
                raise Conflict(
                    "an official table's chat is quick phrases only", "chat_phrases_only"
                )
            if not hand_in_play(self.room):
                raise Conflict(
                    "an official table chats only while a hand is being played",
                    "chat_not_in_hand",
                )
        if text is not None:
            text = said(text)
        return text, phrase

    def _spend(self, person: str) -> float:
        """Count a message of ``person`` against their pace (Conflict if too fast); the
        stamp it took, to give back if the message is not stored."""
        now = time.monotonic()
        times = self.sent.setdefault(person, deque())
        while times and now - times[0] >= RATE_SECONDS:
            times.popleft()
        if len(times) >= RATE_COUNT:
            wait = math.ceil((RATE_SECONDS - (now - times[0])) * 10) / 10
            raise Conflict(
                f"too many messages: at most {RATE_COUNT} in {RATE_SECONDS:g} seconds; "
                f"you may write again in {wait:.1f} s",
                "chat_too_fast",
                seconds=wait,
            )
        times.append(now)
        return now

    async def say(self, conn: Conn, text: str | None, phrase: str | None) -> dict[str, Any]:
        """Store a person's message, then send it to every connection that may read it;
        the message. Raises what the store raised when it could not be stored."""
        assert conn.player_id is not None
        stamp = self._spend(conn.player_id)
        room = PLAYERS if conn.seat is not None else SPECTATORS
        try:
            await self.load()
            message = await self.room.store.add_chat(
                self.room.table.id,
                room,
                player_id=conn.player_id,
                seat=conn.seat,
                text=text,
                phrase=phrase,
            )
        except BaseException:
            # not said: it does not count against the person's pace
            times = self.sent.get(conn.player_id)
            if times is not None and stamp in times:
                times.remove(stamp)
            raise
        self._deliver(message)
        return message

    def _deliver(self, message: dict[str, Any], *, elsewhere: bool = False) -> None:
        """Send a stored message to every connection here that may read it. A finished
        table has no owner (any node shows it): said on this node, the others are told
        (``elsewhere``: this node was told by another)."""
        if self.loaded:  # else the welcome's load reads it from the database
            self.recent[message["room"]].append(message)
        out = {"type": "chat", "message": message}
        for c in list(self.room.conns):
            if readable(message, c.seat):
                c.send(out)
        cluster = self.room.hub.cluster
        if cluster is not None and not elsewhere and self.room.table.status == "finished":
            cluster.publish_lobby(
                {
                    "kind": "chat",
                    "node": cluster.node,
                    "table": self.room.table.id,
                    "message": message,
                }
            )

    # ------------------------------------------------- the table's own words

    def _event(self, kind: str, seat: int) -> None:
        """The table says ``kind`` (away, back, left, bot) of ``seat``'s player, in the
        players' room (every connection reads it), stored like any message."""
        info = self.room.table.seats[seat]
        if info.player_id is None:
            return
        event = {"type": kind, "seat": seat, "name": info.player_name}
        self.room.hub.spawn(self._store_event(event, info.player_name, seat))

    async def _store_event(self, event: dict[str, Any], name: str | None, seat: int) -> None:
        try:
            await self.load()
            message = await self.room.store.add_chat(
                self.room.table.id, PLAYERS, name=name, seat=seat, event=event
            )
        except Exception:
            self.room.log.warning("could not store a chat event %s", event["type"], seat=seat)
            return
        self._deliver(message)

    def went_away(self, seat: int) -> None:
        """The seat's last connection closed during the game: said if it stays away."""
        since = self.room.away.get(seat)
        if since is None:
            return

        def check() -> None:
            room = self.room
            info = room.table.seats[seat]
            still = room.away.get(seat) == since and not info.replaced
            if still and seat not in self.said_away and hand_in_play(room) and not room.closing:
                self.said_away.add(seat)
                self._event("away", seat)

        asyncio.get_running_loop().call_later(AWAY_SAYING, check)

    def came_back(self, seat: int) -> None:
        """A seat's player connected again: said if the table had said they were away."""
        if seat in self.said_away:
            self.said_away.discard(seat)
            self._event("back", seat)

    def replaced(self, seat: int, reason: str) -> None:
        """A bot takes the seat of a player who left (``left``) or stayed away too long."""
        if reason == "left":
            self.said_away.discard(seat)
            self._event("left", seat)
        else:
            self.said_away.add(seat)  # coming back (a casual table) is said
            self._event("bot", seat)


def heard_elsewhere(hub: RoomHub, msg: dict[str, Any]) -> None:
    """Another node said a message of a finished table (several nodes): its room here, if
    this node shows that table, says it to its own connections."""
    if msg.get("node") == hub.config.node:
        return
    room = hub.rooms.get(str(msg.get("table")))
    if room is not None:
        room.chat._deliver(msg["message"], elsewhere=True)


async def chat_message(room: Room, conn: Conn, msg: dict[str, Any], joined: bool) -> None:
    """A ``chat`` message of a table's socket: stored and said, or refused with a code."""
    mid = msg.get("id")
    if not joined:
        conn.send(error("not_joined", "say hello first", mid))
        return
    try:
        text, phrase = room.chat.check(conn, msg)
        message = await room.chat.say(conn, text, phrase)
    except Conflict as e:
        conn.send(error(e.code, str(e), mid, e.code, e.params))
        return
    except DATABASE_AWAY:
        room.log.warning("could not store a chat message", exc_info=True, seat=conn.seat)
        room.hub.database_lost()
        conn.send(
            error(
                "unavailable",
                "the message could not be stored: the database is not answering; "
                "say it again in a moment",
                mid,
                "not_stored",
            )
        )
        return
    if mid is not None:
        conn.send({"type": "ack", "id": mid, "chat": message["id"]})
