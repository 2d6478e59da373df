"""What señas are worth to a Mus pair against each opponent style, on paired games.

For each style, the bot plays it twice on the same mirrored deals with the same seeds
(``taverna simulate mus --bots BOT --vs STYLE``): once as given, once with
``senas=off`` (it neither makes nor reads señas). The games are paired deal by deal:
a deal is played twice, the sides swapped, so each run scores 0, 1 or 2 on it, and
the difference with señas less without, over the deals, gives the win rate's change
with a 95 % interval (mean ± 1.96 standard errors of the per-deal difference), which
is narrower than two independent intervals when the runs agree on many deals.

    nice -n 19 .venv/bin/python scripts/senas_worth.py --bots 4 --vs all --games 200 --seed 40
    nice -n 19 .venv/bin/python scripts/senas_worth.py --bots 7 --vs careful --games 20 --seed 40

Prints one JSON line per style, as each is done.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

from taverna.bots.styles import PREFIX
from taverna.games import get_game
from taverna.series import Plan, entry_of_side, play_all, wilson
from taverna.versus import style_names, versus_settings


def wins_by_deal(plan: Plan, games: int) -> tuple[list[int], float]:
    """The bot's (entry 0's) wins on each deal (0, 1 or 2) and the seconds it took."""
    t0 = time.perf_counter()
    outcomes = play_all(plan, games, 1, progress=False)
    seconds = time.perf_counter() - t0
    deals = [0] * (games // 2)
    for i, out in outcomes:
        if out.winner is not None and entry_of_side(plan, i, out.winner) == 0:
            deals[i // 2] += 1
    return deals, seconds


def compare(
    bot: str, style: str, games: int, seed: int, settings: dict[str, Any]
) -> dict[str, Any]:
    """The bot with and without señas against ``style`` on the same deals and seeds."""
    cls = get_game("mus")
    checked = cls.check_settings(4, versus_settings(cls, settings))
    runs = {}
    for label, entry in (("with", bot), ("without", f"{bot}:senas=off")):
        plan = Plan("mus", 4, checked, (entry, PREFIX + style), {}, seed, 200, None, mirrored=True)
        runs[label] = wins_by_deal(plan, games)
    with_, without = runs["with"][0], runs["without"][0]
    n = len(with_)
    diffs = [(a - b) / 2 for a, b in zip(with_, without, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    row: dict[str, Any] = {"bot": bot, "vs": style, "games": 2 * n, "seed": seed}
    for label in ("with", "without"):
        deals, seconds = runs[label]
        wins = sum(deals)
        lo, hi = wilson(wins, 2 * n)
        row[label] = {
            "wins": wins,
            "win_rate": round(wins / (2 * n), 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "seconds": round(seconds, 1),
        }
    row["difference"] = round(mean, 4)
    row["difference_ci95"] = [round(mean - half, 4), round(mean + half, 4)]
    row["deals_differing"] = sum(1 for d in diffs if d)
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", required=True, help="the bot, a level (4) or NAME:KEY=VALUE")
    parser.add_argument("--vs", default="all", help="styles, comma-separated, or all")
    parser.add_argument("--games", type=int, default=40, help="games a run (raised to even)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--set", action="append", default=[], help="table settings KEY=VALUE")
    args = parser.parse_args(argv)
    from taverna.series import parse_sets

    settings = parse_sets(args.set)
    games = args.games + args.games % 2
    for style in style_names(get_game("mus"), args.vs):
        row = compare(args.bots, style, games, args.seed, settings)
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
