"""A table's game rebuilt from its stored record (docs/rules.md §4.1): after a restart, a
takeover by another node, or a write that may have gone through during a fault.

The record is the table's deals and actions, and its señas after the actions they
followed; replayed in order by the engine, it gives the state and the events of every
update, so a reconnecting client catches up exactly as if nothing had happened.
"""

from __future__ import annotations

import random
from typing import Any

from ..games.base import (
    Dealer,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    SettingsError,
    State,
)
from ..store.record import StoredGame
from ..store.repo import Store
from ..store.tables import TableInfo
from . import signals
from .logs import TableLog


class Unresumable(Exception):
    """A table's stored game that cannot be rebuilt: it is set aside, with this reason."""


def rebuild(
    cls: type[State], table: TableInfo, rows: StoredGame, dealer: Dealer
) -> tuple[State, list[list[Event]]]:
    """The game of a table's stored deals and actions, with the events of each update
    (``history[k]``: the events of update ``k + 1``). Raises :class:`Unresumable`."""
    seats, settings = table.seat_count, table.settings
    try:
        deals = [cls.parse_deal(d, seats, settings, i) for i, d in enumerate(rows.deals)]
        state = cls.start(seats, settings, deals, rng=dealer)
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


async def store_legacy_deals(
    store: Store, cls: type[State], table: TableInfo, rows: StoredGame, log: TableLog
) -> StoredGame:
    """A table stored before deals were (Taverna 0.1's first servers): its deals found
    once, by replaying it as it was played, and stored.

    Those servers dealt every hand from one generator of the seed and tried each
    move on a copy that shared it before playing it; so does this replay. A table
    that was resumed since (its deals came out otherwise) does not replay.
    """
    seats, settings = table.seat_count, table.settings
    shared = random.Random(table.seed)
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
    deals: list[Any] = [cls.deal_json(d) for d in state.deals_used]
    await store.put_deals(table.id, deals)
    log.info("stored before deals were kept; its %d deal(s) are stored now", len(deals))
    return StoredGame(deals, rows.actions, rows.last_at, rows.signals)
