"""What a decision may spend: work, counted; the wall clock only as a safety cap.

A bot's decision is a function of its view, its seed and its budget — counted in
work (search iterations, playouts, samples drawn), never in time — so the same
deal and seed give the same game on a busy machine and an idle one. The wall
clock is looked at for one thing only: a **safety cap** (:data:`SAFETY_SECONDS`,
the bot option ``seconds``) that stops a search whose machine has stalled (a
suspended process, a host swapping) so that a table is not kept waiting for
ever. A normal decision is far from it (docs/bots.md, Budgets). When it is hit,
the decision depends on the machine after all: :meth:`SafetyCap.reached` logs a
warning (logger ``taverna.bots``) and counts it in :data:`hits`, the bot says so
(``capped``), and the server counts it in its metrics.
"""

from __future__ import annotations

import logging
import time

#: the default safety cap of a decision, in seconds of wall time
SAFETY_SECONDS = 10.0

log = logging.getLogger("taverna.bots")

#: decisions of this process the safety cap has stopped
hits = 0


class SafetyCap:
    """The wall-clock cap of one decision, started when it is made::

    >>> cap = SafetyCap(10.0, "expert bot, seat 1")
    >>> cap.reached()
    False
    """

    __slots__ = ("deadline", "hit", "seconds", "who")

    def __init__(self, seconds: float, who: str) -> None:
        self.seconds = seconds
        self.who = who
        self.deadline = time.perf_counter() + seconds
        #: whether the cap has stopped this decision
        self.hit = False

    def reached(self) -> bool:
        """Whether the cap is past: the first time, logged and counted."""
        if self.hit:
            return True
        if time.perf_counter() <= self.deadline:
            return False
        global hits
        hits += 1
        self.hit = True
        log.warning(
            "%s: the safety cap of %g s stopped a decision before its budget was spent "
            "(this decision depends on the machine's speed)",
            self.who,
            self.seconds,
        )
        return True
