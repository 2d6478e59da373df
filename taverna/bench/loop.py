"""The loop `taverna bench` plays a game through its protocol with: random legal actions
for a fixed time, counting hands (card rounds) and actions.

Compiled with the engines, as the bots' searches are (their playouts are compiled
code calling the engine): what it measures is then the engine and its protocol, not
the Python interpreter running a benchmark's loop. The pure build runs it from this
source. A move is drawn with ``randrange``'s very numbers, drawn by compiled code
(:func:`deal_below`); the minimal loops draw theirs with ``randrange`` and ``choice``
(Mus's mus-or-not with ``random()``), in Python.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
import time
from typing import Any, Final

from ..games.base import State, deal_below

#: random play may never reach the target (dominoes subtracts); start afresh after this
HAND_CAP: Final = 100


def protocol_loop(
    cls: type[State], seats: int, seconds: float, seed: int = 1, events: bool = False
) -> dict[str, Any]:
    """Random self-play through the protocol for ``seconds``: ``legal_actions`` and
    ``step`` (a search's way), or ``apply`` with ``events`` (the server's way, every
    event made). Counts hands and actions; games that end start afresh."""
    rng = random.Random(seed)
    hands = actions = games = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    # one seeded rng deals every game, as the minimal loop's does (no reseeding per game)
    deals = random.Random(seed + 1)
    state = cls.new(seats, rng=deals)
    while True:
        for _ in range(200):
            if state.over or state.hand_no >= HAND_CAP:
                hands += state.hand_no + (1 if state.over else 0)
                games += 1
                state = cls.new(seats, rng=deals)
            legal = state.legal_actions()
            action = legal[deal_below(rng, len(legal))]
            if events:
                state.apply(action)
            else:
                state.step(action)
            actions += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    hands += state.hand_no
    return {
        "seats": seats,
        "hands_per_second": round(hands / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "games": games,
        "state": state,
    }
