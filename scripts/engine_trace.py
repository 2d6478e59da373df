"""A fingerprint of a game engine's behaviour, to check that an optimisation changed nothing.

Plays seeded random games of every seat count (and a few tables of settings)
through the protocol and hashes everything a user of the engine can observe:
the events each seat and a spectator receive, every view, the legal actions,
the messages, reasons and parameters of refused actions, clones applying the
same action, samples drawn from views, results, records and their replays.

    .venv/bin/python scripts/engine_trace.py muggins-dominoes      # 12 games per table
    .venv/bin/python scripts/engine_trace.py mus 4                 # quicker

Run it before and after a change to an engine: the two hashes must be equal.
To hash an older version, put its `taverna` folder first on PYTHONPATH
(`git archive REV taverna | tar -x -C /tmp/old`, then `PYTHONPATH=/tmp/old`).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

from taverna.games import get_game
from taverna.games.base import IllegalAction, event_for
from taverna.games.record import replay_text

#: a few tables besides the default, per game
SETTINGS: dict[str, list[dict[str, Any]]] = {
    "muggins-dominoes": [{}, {"target": 60}],
    "muggins-cards": [{}],
    "mus": [{}, {"games_per_cow": 1, "cows": 1}, {"real_31": True}],
}


def trace(game: str, n_games: int) -> str:
    cls = get_game(game)
    h = hashlib.sha256()

    def put(x: Any) -> None:
        h.update(json.dumps(x, sort_keys=True, default=str).encode())
        h.update(b"\n")

    for seats in range(cls.min_seats, cls.max_seats + 1):
        everyone: list[int | None] = [None, *range(seats)]
        for settings in SETTINGS.get(cls.game, [{}]):
            for g in range(n_games):
                rng = random.Random(1000 * seats + g)
                st = cls.new(seats, settings, seed=g * 7 + seats)
                put([event_for(e, s) for e in st.initial_events for s in everyone])
                steps = 0
                while not st.over and steps < 3000:
                    steps += 1
                    for s in everyone:
                        put(st.view(s))
                    put([a.to_json() for a in st.legal_actions()])
                    put(list(st.to_act))
                    if steps % 5 == 0:
                        seat = st.to_act[0]
                        try:
                            smp = cls.sample(st.view(seat), random.Random(steps))
                            put(smp.view(seat))
                            put([a.to_json() for a in smp.legal_actions()])
                        except Exception as e:  # the failure is part of the trace
                            put(["sample-error", type(e).__name__, str(e)])
                    c = st.clone()
                    acts = st.legal_actions()
                    if steps % 3 == 0:
                        # the first actions on offer, tried by a seat that is not to act
                        other = [s for s in range(seats) if s not in st.to_act][:1]
                        for s in other:
                            for cand in acts[:2]:
                                j = dict(cand.to_json(), seat=s)
                                try:
                                    st.apply(cls.parse_action(j, seats))
                                    put(["accepted", j])
                                except IllegalAction as e:
                                    put([str(e), e.reason, e.params])
                                except Exception as e:
                                    put([type(e).__name__, str(e)])
                        put(st.view(None) == c.view(None))
                    a = rng.choice(acts)
                    events = st.apply(a)
                    put([[event_for(e, s) for s in everyone] for e in events])
                    put(events == c.apply(a))
                put(st.result())
                rec = st.record()
                put(rec)
                put(list(replay_text(json.dumps(rec))))
    return h.hexdigest()


if __name__ == "__main__":
    print(trace(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12))
