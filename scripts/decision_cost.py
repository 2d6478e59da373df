"""What one decision of a searching bot costs: CPU and wall time, and the work it did.

Plays seeded games of a bot (default ``expert``) against ``greedy``, the sides swapped
every game, and measures every decision of the bot's seats that searched (more than one
move to choose from): CPU seconds of this process, wall seconds, the iterations (Mus:
playouts) the search made when the bot says so (``done``), and whether the safety cap
stopped it. For Mus it also counts, at each betting decision, how many samples the pool
drawn by time (the rule before issue 30: 200 at most, at least 8, cut at
``--pool-seconds`` of wall time) would have held on this machine at that moment.

    .venv/bin/python scripts/decision_cost.py muggins-dominoes --games 20
    .venv/bin/python scripts/decision_cost.py mus --games 6 --set games_per_cow=1

Works on older versions too (``git archive REV taverna | tar -x -C /tmp/old``, then
``PYTHONPATH=/tmp/old``). Run it niced, and on the compiled build (``make engines``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from typing import Any

from taverna.bots import make_bot
from taverna.bots.match import make_signals
from taverna.games import get_game
from taverna.games.base import State
from taverna.simulate import parse_sets


def timed_pool(state: State, view: dict[str, Any], seconds: float, seed: int) -> int | None:
    """How many samples the old timed pool would draw now (None: no pool for this view)."""
    from taverna.bots import mus

    if view["phase"] in ("mus", "discard") or (not view["lances"] and not view["betting"]):
        return None
    rng = random.Random(seed)
    me = view["seat"]
    n = 0
    stop = time.perf_counter() + seconds
    while n < 200 and (n < 8 or time.perf_counter() < stop):
        s = type(state).sample(view, rng)
        mus.likelihood(s, me)
        n += 1
    return n


def mean_ci(xs: list[float]) -> dict[str, float]:
    if not xs:
        return {}
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return {"mean": round(m, 5), "ci95": [round(m - half, 5), round(m + half, 5)]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game")
    p.add_argument("--bot", default="expert")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--pool-seconds", type=float, default=0.15)
    args = p.parse_args()
    cls = get_game(args.game)
    seats = cls.max_seats if cls.team_count else 2
    settings = cls.check_settings(seats, parse_sets(args.set))
    options = parse_sets(args.option)
    cpu: list[float] = []
    wall: list[float] = []
    done: list[float] = []
    pools: list[int] = []
    capped = 0
    for g in range(args.games):
        seed = random.Random(f"{args.seed}:{g}").randrange(1 << 62)
        state = cls.new(seats, settings, seed=seed)
        side = g % 2  # the measured bot's side
        bots = [
            make_bot(args.bot, cls, s, seed + s, **options)
            if cls.side_of(s) == side
            else make_bot("greedy", cls, s, seed + s)
            for s in range(seats)
        ]
        while not state.over and state.hand_no < 100:
            action = None
            views = sorted(
                ((s, state.view(s)) for s in state.to_act),
                key=lambda sv: sv[1].get("turn") == sv[0],
            )
            for s, view in views:
                bot = bots[s]
                c0, t0 = time.process_time(), time.perf_counter()
                action = bot.choose(view)
                c1, t1 = time.process_time(), time.perf_counter()
                if cls.side_of(s) == side and getattr(bot, "estimates", None):
                    cpu.append(c1 - c0)
                    wall.append(t1 - t0)
                    if getattr(bot, "done", None):
                        done.append(bot.done)
                    capped += bool(getattr(bot, "capped", False))
                    if cls.game == "mus":
                        n = timed_pool(state, view, args.pool_seconds, seed + len(cpu))
                        if n is not None:
                            pools.append(n)
                if action is not None:
                    break
            if action is None:
                break
            state.apply(action)
            make_signals(state, bots, seed)
    out: dict[str, Any] = {
        "game": cls.game,
        "bot": args.bot,
        "options": options,
        "games": args.games,
        "searched_decisions": len(cpu),
        "cpu_seconds": mean_ci(cpu),
        "wall_seconds": mean_ci(wall),
        "wall_median": round(statistics.median(wall), 5) if wall else None,
        "wall_max": round(max(wall), 4) if wall else None,
        "capped": capped,
    }
    if done:
        out["iterations"] = mean_ci(done)
    if pools:
        out["timed_pool"] = {
            "pool_seconds": args.pool_seconds,
            "decisions": len(pools),
            "mean": round(statistics.fmean(pools), 1),
            "median": statistics.median(pools),
            "full_200": round(sum(n >= 200 for n in pools) / len(pools), 3),
            "min": min(pools),
        }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
