"""`taverna simulate` and `taverna ladder`: bots against bots, with statistics."""

from __future__ import annotations

import argparse

from ..games import short_names
from .arguments import AddParser, at_least_one, whole


def add_commands(add_parser: AddParser) -> None:
    """Add ``taverna simulate`` and ``taverna ladder``."""
    p = add_parser(
        "simulate",
        help="a tournament between bots, with win rates and ratings",
        description=(
            "Play N games between bots, rotating seats (or sides in a game of pairs), and report "
            "wins, "
            "win rate with a 95 % interval, mean score, time per decision and an Elo-style rating."
        ),
    )
    p.add_argument("game", help=short_names())
    p.add_argument(
        "--bots",
        required=True,
        help="bots per seat (per side in a game of pairs): levels 1 to 8 (random, greedy and "
        "expert name levels 1, 4 and 7) or a module:Class, e.g. 8,expert; each may take "
        "options of its own, NAME:KEY=VALUE[:KEY=VALUE], e.g. for Mus señas read by one pair "
        "and ignored by the other: greedy:senas=read,greedy:senas=ignore (every bot makes "
        "the señas its hand allows; catches are drawn from each game's seed)",
    )
    p.add_argument(
        "--vs",
        default=None,
        metavar="STYLE[,STYLE]",
        help="measure the one bot of --bots against opponent styles (a list, or all: each "
        "game has its own, docs/bots.md) or levels (careful,7), on mirrored deals (a game of "
        "pairs in games of 40)",
    )
    p.add_argument("--games", type=at_least_one, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=whole, default=1, help="tournament seed (default 1)")
    p.add_argument("--jobs", type=at_least_one, default=2, help="worker processes (default 2)")
    p.add_argument(
        "--seats", type=at_least_one, default=None, help="seat count (default: one per bot)"
    )
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="a table setting, e.g. target=100"
    )
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a bot option, e.g. iterations=500"
    )
    p.add_argument(
        "--records",
        metavar="DIR",
        default=None,
        help="write each game's record (with its señas) to DIR/game-<i>.json",
    )
    p.add_argument(
        "--max-hands",
        type=at_least_one,
        default=100,
        help="hands before a game is a draw (default 100)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = add_parser(
        "ladder",
        help="measure the levels' ratings: the levels against each other and the styles",
        description=(
            "Play the levels against each other and against the opponent styles in each "
            "game (mirrored deals; Mus as pairs, in games of 40), fit their Glicko-2 "
            "ratings at once (level 4 held at 1500), print each rating with ± 2 RD and "
            "write them to the file the club reads (docs/bots.md, Ratings of the levels). "
            "Progress on stderr."
        ),
    )
    p.add_argument("game", nargs="*", help=f"the games (default: every game): {short_names()}")
    p.add_argument("--levels", default="1-8", help="the levels, e.g. 1-8 or 1,2,5-8 (default 1-8)")
    p.add_argument(
        "--styles",
        default="all",
        help="the styles each level meets: a list, all (default) or none",
    )
    p.add_argument(
        "--games",
        type=at_least_one,
        default=20,
        help="games between two adjacent levels (default 20); levels two apart play half "
        "as many, and each style half as many against levels 1, 4 and 7",
    )
    p.add_argument("--seed", type=whole, default=1, help="the deals' seed (default 1)")
    p.add_argument("--jobs", type=at_least_one, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="the ratings file to write, each game's part replaced, the others kept "
        "(default: the club's, taverna/bots/data/ratings.json)",
    )
    p.add_argument(
        "--max-hands",
        type=at_least_one,
        default=100,
        help="hands before a game is a draw (default 100)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_ladder)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from ..simulate import main as simulate_main

    return simulate_main(args)


def _cmd_ladder(args: argparse.Namespace) -> int:
    from ..ladder import main as ladder_main

    return ladder_main(args)
