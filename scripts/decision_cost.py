"""What one decision of a searching bot costs: CPU and wall time, and the work it did.

Plays seeded games of a bot (default ``expert``) against ``greedy``, the sides swapped
every game, and measures every decision of the bot's seats that searched (more than one
move to choose from): CPU seconds of this process, wall seconds, the iterations (Mus:
playouts) the search made when the bot says so (``done``), and whether the safety cap
stopped it. For Mus, with ``--pools``, it also draws at each betting decision the 200
samples of the pool as the rule before issue 30 drew them, by time (at least 8, cut at
0.15 s of wall time; a hint's at 0.05 s), and says how many a cut at each of
``--pool-seconds`` would have kept: on this machine as loaded now (wall time) and on
an idle one, where a cut at so many seconds of wall time is one at as many of CPU.

    .venv/bin/python scripts/decision_cost.py muggins-dominoes --games 20
    .venv/bin/python scripts/decision_cost.py mus --games 6 --set games_per_cow=1 --pools

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
from taverna.series import parse_sets


def timed_pool(state: State, view: dict[str, Any], seed: int) -> list[tuple[float, float]] | None:
    """The wall and CPU seconds at which each of the 200 samples of the old timed pool
    would have been drawn now (None: no pool for this view): how many a cut at a given
    time would have kept, on this machine as loaded now (wall) and on an idle one (CPU)."""
    from taverna.bots import mus

    if view["phase"] in ("mus", "discard") or (not view["lances"] and not view["betting"]):
        return None
    rng = random.Random(seed)
    me = view["seat"]
    marks = []
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(200):
        s = type(state).sample(view, rng)
        mus.likelihood(s, me)
        marks.append((time.perf_counter() - t0, time.process_time() - c0))
    return marks


def kept(marks: list[tuple[float, float]], seconds: float, clock: int) -> int:
    """The samples a pool cut at ``seconds`` of one clock (0: wall, 1: CPU) keeps (8 at
    least, as the old rule drew)."""
    return max(8, sum(1 for m in marks if m[clock] <= seconds))


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
    p.add_argument("--pools", action="store_true", help="Mus: time the old pool too")
    p.add_argument("--pool-seconds", type=float, nargs="+", default=[0.15, 0.05])
    args = p.parse_args()
    cls = get_game(args.game)
    seats = cls.max_seats if cls.team_count else 2
    settings = cls.check_settings(seats, parse_sets(args.set))
    options = parse_sets(args.option)
    cpu: list[float] = []
    wall: list[float] = []
    done: list[float] = []
    pools: list[list[tuple[float, float]]] = []
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
                    if cls.game == "mus" and args.pools:
                        marks = timed_pool(state, view, seed + len(cpu))
                        if marks is not None:
                            pools.append(marks)
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
        "cpu_max": round(max(cpu), 4) if cpu else None,
        "capped": capped,
    }
    if done:
        out["iterations"] = mean_ci(done)
    if pools:
        out["timed_pool"] = {"decisions": len(pools)}
        for seconds in args.pool_seconds:
            for clock, name in ((0, "wall"), (1, "cpu")):
                n = [kept(m, seconds, clock) for m in pools]
                out["timed_pool"][f"{seconds:g}s_{name}"] = {
                    "mean": round(statistics.fmean(n), 1),
                    "median": statistics.median(n),
                    "full_200": round(sum(x >= 200 for x in n) / len(n), 3),
                }
        out["timed_pool"]["cpu_for_200"] = mean_ci([m[-1][1] for m in pools])
    print(json.dumps(out))


if __name__ == "__main__":
    main()
