"""A player's own figures of a finished match (docs/rules.md §3), for their page: the
lances their pair won, by kind, and the órdagos they called and won.

Counted from the events of the match as the engine's replay makes them
(:func:`taverna.games.record.figures`):

- a lance is won by the pair a hand's end (``hand_end``) names for it: at the
  showdown, the pair holding the best hand; a pair alone with pares or juego; the
  bettors of a refused bet; the winner of an accepted órdago. A lance the count never
  reached because the game was already won (``"counted": false``) is won by nobody,
  unless it was refused: those stones were credited at once. Skipped pares, and lances
  in pass or accepted when a refused bet ended the game before the showdown, are won
  by nobody.
- an órdago the player called is won when their pair wins its lance: accepted and won
  at the showdown (the game with it), or refused (the stake before it, at once).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..base import Event
from .rules import LANCE_NAMES

#: the figures, in the order a page shows them: the lances won by kind, then órdagos
FIGURE_NAMES: Final[tuple[str, ...]] = (*LANCE_NAMES, "ordagos_called", "ordagos_won")


def seat_figures(events: Sequence[Event], seat: int) -> dict[str, int]:
    """What ``seat`` did in the match whose events are ``events``, by figure name."""
    team = seat & 1  # docs/rules.md §3.1: seats 0 and 2 are pair 0, 1 and 3 pair 1
    out = dict.fromkeys(FIGURE_NAMES, 0)
    caller = -1  # the seat whose órdago awaits its answer
    for e in events:
        kind = e["type"]
        if kind == "ordago":
            caller = e["seat"]
            out["ordagos_called"] += caller == seat
        elif kind == "credit" and e["reason"] == "refused":
            # docs/rules.md §3.6.3: the bettors are credited at once
            if caller == seat:
                out["ordagos_won"] += 1
            caller = -1
        elif kind == "hand_end":
            if e["reason"] == "ordago" and caller == seat:
                out["ordagos_won"] += e["ordago"]["team"] == team
            caller = -1
            for lance in e["lances"]:
                if lance.get("team") == team and (
                    lance.get("counted", True) or lance["status"] == "refused"
                ):
                    out[lance["lance"]] += 1
    return out
