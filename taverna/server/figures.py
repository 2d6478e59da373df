"""Each game's own figures on a player's page (issue 18, Statistics): Muggins! calls
made and suffered, lances won by kind, órdagos called and won...

The game declares and counts them (:func:`~taverna.games.record.figures`, from a
finished game's record); here they are summed per game over the finished games a
profile lists, and remembered per (table, seat): a finished table's record never
changes, so each is replayed once per server process.

What it costs: a profile lists at most 200 games. The first time a game is seen, its
record is read (three small selects) and replayed — about 1 ms for a round of
Muggins cards, 20 ms for a whole game of dominoes to 250 or a Mus match — in a worker
thread, so the event loop never waits on it. After that a game costs a dict lookup.
The memory is bounded (:data:`KEPT` entries, the least recently used dropped first).
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from ..games import TavernaError, get_game
from ..games.record import figures
from ..store.errors import NotFound
from ..store.repo import Store

log = logging.getLogger("taverna.figures")

#: how many (table, seat) figures are remembered: a few hundred bytes each
KEPT = 20_000


class FigureBook:
    """The figures of finished games per (table, seat), counted once and remembered."""

    def __init__(self, store: Store, kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._known: OrderedDict[tuple[str, int], dict[str, int]] = OrderedDict()

    async def summed(self, games: Iterable[dict[str, Any]]) -> dict[str, dict[str, int]]:
        """Per game, the figures of ``games`` (finished games a player sat at, as the
        profile lists them: ``table``, ``game``, ``seat``) added up; a game that declares
        no figures has ``{}``."""
        games = list(games)
        wanted = [(h["table"], h["seat"]) for h in games]
        missing = list(dict.fromkeys(k for k in wanted if k not in self._known))
        if missing:
            records = {}
            for table in dict.fromkeys(t for t, _ in missing):
                try:
                    records[table] = await self.store.record(table)
                except NotFound:  # a table deleted since: it counts nothing
                    log.warning("no record of finished table %s for its figures", table)
            counted = await asyncio.to_thread(_count, records, missing)
            self._known.update(counted)
            while len(self._known) > self.kept:
                self._known.popitem(last=False)
        out: dict[str, dict[str, int]] = {}
        for h, key in zip(games, wanted, strict=True):
            total = out.setdefault(h["game"], dict.fromkeys(get_game(h["game"]).figure_names, 0))
            known = self._known.get(key)
            if known is None:
                continue
            self._known.move_to_end(key)
            for name, n in known.items():
                if name in total:
                    total[name] += n
        return out


def _count(
    records: dict[str, dict[str, Any]], keys: list[tuple[str, int]]
) -> dict[tuple[str, int], dict[str, int]]:
    """Each (table, seat)'s figures from its table's record (a worker thread's job)."""
    out = {}
    for table, seat in keys:
        record = records.get(table)
        if record is None:
            continue
        try:
            out[table, seat] = figures(record, seat)
        except TavernaError as e:  # a record the game cannot read: it counts nothing
            log.warning("the figures of table %s: %s", table, e)
            out[table, seat] = {}
    return out
