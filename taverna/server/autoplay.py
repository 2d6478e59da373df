"""What plays at a table without a person: its bots, and a stand-in bot when a turn's
time runs out; and where a bot's decision is made.

A room has one timer (:func:`schedule`): a bot's move after a short delay, or the end
of the turn seat's time. When it fires (:func:`_automatic`) the bots act, optional
rights first; else a stand-in plays for the seat whose time ran out. A bot that
searches thinks away from the event loop (:func:`think`): in a bot worker when the node
has some, else in one of the node's own thinking processes (:mod:`.thinking`).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from ..bots import make_bot
from ..bots.base import Bot
from ..bots.decision import ask, decide
from ..bots.levels import level_of, options_for
from .config import Config
from .tasks import spawn

if TYPE_CHECKING:
    from .table import Room


def stand_in_level(config: Config) -> str:
    """The level of the bot that stands in for a person, as a table keeps it: its number
    (``TAVERNA_STAND_IN_BOT`` may name it by an alias: ``greedy``)."""
    return str(level_of(config.stand_in_bot))


def new_bot(room: Room, level: str, seat: int, **extra: Any) -> Bot:
    """A bot of ``level`` (a number, or a name it had before: ``greedy``) for ``seat``,
    with the server's options for its level (``TAVERNA_BOT_OPTIONS``) and ``extra`` on
    top, seeded from the table's generator."""
    options = options_for(room.config.bot_options, level_of(level))
    seed = room.rng.randrange(1 << 30)
    return make_bot(level, room.cls, seat, seed=seed, **{**options, **extra})


def make_bots(room: Room) -> None:
    """The bots of a table's bot seats, made afresh (a start, a resume)."""
    room.bots = {}
    # a practice table may make its bots forget claims and calls (Muggins cards)
    forget = room.table.options.get("bot_forget")
    extra = {} if forget is None else {"forget": float(forget)}
    for s in room.table.seats:
        if s.bot:
            room.bots[s.seat] = new_bot(room, s.bot, s.seat, **extra)


def schedule(room: Room) -> None:
    """Arm the one timer of the room: a bot's move, or the turn timer."""
    if room.timer is not None:
        room.timer.cancel()
        room.timer = None
    state = room.state
    if state is None or state.over or not state.to_act:
        return
    if room.paused is not None or room.closing:
        return
    loop = asyncio.get_running_loop()
    if any(s in room.bots for s in state.to_act):
        delay = room.config.bot_delay * (0.6 + 0.8 * room.rng.random())
        delay = max(delay, room.held_until - time.monotonic())
    elif room.deadline is not None:
        delay = max(0.0, room.deadline - time.time())
    else:
        return
    room.timer = loop.call_later(delay, lambda: spawn(_automatic(room), room.log))


async def _automatic(room: Room) -> None:
    """Let bots act (optional rights first); or play for a seat whose time ran out."""
    state = room.state
    if state is None or state.over or room.paused is not None or room.closing:
        return
    turn = state.turn_seat
    if room.window_opened is not None and any(s in room.bots for s in state.to_act):
        # PLATFORM.md: while a score is unclaimed every automatic move waits (a bot's
        # claim or Muggins! call too), so people have the time to claim or call first
        left = float(room.options["muggins_wait"]) - (time.monotonic() - room.window_opened)
        if left > 0:
            room.timer = asyncio.get_running_loop().call_later(
                left, lambda: spawn(_automatic(room), room.log)
            )
            return
    for seat in sorted(state.to_act, key=lambda s: s == turn):
        bot = room.bots.get(seat)
        if bot is None:
            continue
        seq = room.seq
        action, bot_after = await think(room, seat, bot)
        if room.seq != seq or room.bots.get(seat) is not bot:
            schedule(room)  # the table moved on while the bot thought
            return
        room.bots[seat] = bot_after
        if action is not None:
            ok, why = await room.submit(seat, action, source="bot")
            if not ok and why is not None and why.reason not in ("not_stored", "restarting"):
                room.log.error("its bot was refused: %s", why, seat=seat)
            # refused for the database: the table waits, and the bot moves when it is back
            return
    timed_out = room.deadline is not None and time.time() >= room.deadline - 0.01
    if turn is not None and turn not in room.bots and timed_out:
        arrived = time.perf_counter()
        stand_in = new_bot(room, room.config.stand_in_bot, turn)
        chosen = stand_in.choose(room.view(turn))
        room.hub.metrics.thought(stand_in.label, time.perf_counter() - arrived)
        if chosen is not None:
            await room.submit(turn, chosen.to_json(), source="timeout", arrived=arrived)
            return
    schedule(room)


def _think(bot: Bot, view: dict[str, Any]) -> tuple[dict[str, Any] | None, Bot]:
    """A cheap bot's decision, on the event loop."""
    action = bot.choose(view)
    return (None if action is None else action.to_json()), bot


async def think(room: Room, seat: int, bot: Bot) -> tuple[dict[str, Any] | None, Bot]:
    """The decision of ``seat``'s bot at ``room``, and the bot to keep (its memory after
    it): inline when cheap; else by a bot worker when the node has some (a Redis,
    docs/scaling.md), or in a process of the node's own — a search takes up to a
    second of CPU, which must not stall every other table."""
    hub = room.hub
    started = time.perf_counter()
    view = room.view(seat)
    # a bot that does not search is cheap enough to decide on the event loop; a
    # search thinks in a bot worker or a process of the node's own
    if not bot.searches:
        decision = _think(bot, view)
        hub.metrics.thought(bot.label, time.perf_counter() - started)
        return decision
    # a seed per decision from the table's generator: the decision is the same
    # wherever it is made
    seed = room.rng.randrange(1 << 30)
    request = ask(bot, view, seed)  # the server's options are the bot's own already
    answer, why = None, "no_redis"
    if hub.bot_queue is not None:
        answer, why = await hub.bot_queue.ask(request, room.table.id, room.seq)
    if answer is None:
        hub.metrics.bot_local[why].inc()
        answer = await hub.thinkers.decide(decide, request)
    # the time a table waited for its bot: the queue for a worker included
    hub.metrics.thought(bot.label, time.perf_counter() - started)
    if answer.get("capped"):
        hub.metrics.bot_capped.inc()  # logged where it was decided (taverna.bots)
    # the bot as it is after the decision, made afresh as a worker makes it (its
    # level, seat and options, the decision's seed, the memory it answered): the
    # room keeps it only if it takes the decision
    after = make_bot(bot.label, bot.game, bot.seat, seed=seed, **bot.options)
    after.recall(answer["memory"])
    return answer["action"], after
