"""Mus señas at a live table (docs/rules.md §3.8): made, stored, and told to whoever sees them.

A seña is not an action: it changes no stone and no turn and takes no update number
(``seq``). Like a move, it is stored before anybody hears of it — with who caught it,
drawn once from a generator of the table's seed and the seña's number
(:func:`~taverna.games.mus.senas.draw_catches`), so a restart or a takeover never
draws again — and a seña the database does not take changes nothing. Then each
connection hears it as its seat may (the engine's ``signal_for``: the partner, an
opponent who caught it, the maker with who caught it; a spectator nothing while the
hand is played), in a ``signal`` message (docs/protocol.md).

Bots make theirs through the same door, after each update, each from its own seat's
view alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..games.base import IllegalAction
from ..games.mus.senas import draw_catches
from ..store.fencing import Fenced
from .protocol import Refusal

if TYPE_CHECKING:
    from .table import Room

NOT_STORED = (
    "the seña could not be stored: the database is not answering. Nothing changed; "
    "make it again in a moment"
)
MOVED = "the table has moved to another server: that seña was not made; make it again"

# The engine's señas (check_signal, make_signal, signal_for, signals) are Mus's own, not
# every game's (a game with señas has signal_signs): a state is Any here.


def has_senas(state: Any) -> bool:
    """Whether the game being played makes señas (Mus with the table setting on)."""
    return (
        state is not None
        and bool(state.signal_signs)
        and bool(state.settings.get("senas"))
        and not state.over
    )


async def make(room: Room, seat: int, sign: Any) -> Refusal | None:
    """``seat``'s seña ``sign`` at ``room``: checked by the engine, its catches drawn,
    stored, then told. None when it was made; else why not (nothing changed)."""
    async with room.lock:
        return await _make(room, seat, sign)


async def _make(room: Room, seat: int, sign: Any) -> Refusal | None:
    """:func:`make`, the room's lock held."""
    state: Any = room.state
    if state is None:
        return Refusal("the game has not started", "not_started")
    if not state.signal_signs:
        return Refusal(f"{room.table.game} has no señas", "no_signals")
    if room.closing:
        return Refusal(
            "the server is restarting: that seña was not made; make it again when the "
            "table is back",
            "restarting",
        )
    if room.paused is not None and not await room.hub.recover():
        return Refusal(NOT_STORED, "not_stored")
    try:
        state.check_signal(seat, sign)
    except IllegalAction as e:
        return Refusal(str(e), e.reason, e.params)
    index = len(state.signals)
    caught = draw_catches(room.table.seed, index, seat, float(state.settings["catch"]))
    # made on a copy, as a move is: the table's game takes it once it is stored
    trial = state.clone(rng=room.dealer, record=True)
    entry = trial.make_signal(seat, sign, caught)
    try:
        await room.store.append_signal(room.table.id, index, entry, fence=room.fence)
    except Fenced:
        room.log.warning("not the owner any more: seña %d not stored", index)
        room.hub.spawn(room.hub.disown(room.table.id))
        return Refusal(MOVED, "restarting")
    except Exception:
        room.log.warning(
            "could not store seña %d: the table waits for the database",
            index,
            exc_info=True,
            seat=seat,
        )
        room.unsure = True  # a commit that failed late may have gone through
        room.hub.database_lost()
        return Refusal(NOT_STORED, "not_stored")
    room.state = trial  # no await between this and the telling
    tell(room, trial, entry)
    return None


def tell(room: Room, state: Any, entry: dict[str, Any]) -> None:
    """Send seña ``entry`` to each connection whose seat may see it; the maker's
    connections also hear the señas it may still make."""
    seen: dict[int | None, dict[str, Any] | None] = {}
    for conn in room.conns:
        if conn.seat not in seen:
            seen[conn.seat] = state.signal_for(entry, conn.seat)
        shown = seen[conn.seat]
        if shown is None:
            continue
        msg: dict[str, Any] = {"type": "signal", "signal": shown}
        if conn.seat == entry["seat"]:
            msg["may_signal"] = state.may_signal(conn.seat)
        conn.send(msg)


def after_update(room: Room) -> None:
    """An update was published: the bots of the table make the señas they want, once the
    room is free (they wait for the lock like anybody)."""
    state: Any = room.state
    if room.bots and has_senas(state) and any(state.may_signal(s) for s in room.bots):
        room.hub.spawn(bots_make(room))


async def bots_make(room: Room) -> None:
    """Each seat a bot plays makes the señas it wants now, deciding from its own seat's
    view alone (no peeking), through the same door as a person's. The lock is held
    throughout: each view is the table as it is when the seña is made (two updates in
    a row do not offer a bot the same seña twice)."""
    async with room.lock:
        for seat, bot in sorted(room.bots.items()):
            state: Any = room.state
            if not has_senas(state) or room.closing or room.paused is not None:
                return
            if not state.may_signal(seat):
                continue
            for sign in bot.signals(room.view(seat)):
                why = await _make(room, seat, sign)
                if why is None:
                    continue
                if why.reason not in ("not_stored", "restarting"):
                    room.log.warning("its bot's seña %s was refused: %s", sign, why, seat=seat)
                return


def replay(state: Any, signals: list[dict[str, Any]], done: int, actions: int) -> int:
    """Put stored señas back into ``state`` (a table resuming): those from number
    ``done`` made after ``actions`` actions; the number of señas put back."""
    while done < len(signals) and signals[done]["after"] == actions:
        state.replay_signal(signals[done])  # IllegalAction if it does not replay
        done += 1
    return done
