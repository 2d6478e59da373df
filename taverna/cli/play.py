"""`taverna play`: a game in the terminal against bots."""

from __future__ import annotations

import argparse

from ..games import short_names
from .arguments import AddParser, at_least_one, whole


def add_commands(add_parser: AddParser) -> None:
    """Add ``taverna play``."""
    p = add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play in the terminal: pick moves by number; ? for help, q to quit.",
    )
    p.add_argument("game", help=short_names())
    p.add_argument(
        "--seats", type=at_least_one, default=None, help="seat count (default: the game's own)"
    )
    p.add_argument("--seat", type=whole, default=0, help="your seat (default 0)")
    p.add_argument(
        "--bots",
        default="4",
        help="bot level(s) for the other seats, 1 to 8 (default 4; random, greedy and "
        "expert name levels 1, 4 and 7)",
    )
    p.add_argument("--seed", type=whole, default=None, help="a seed for a reproducible game")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a table setting")
    p.set_defaults(func=_cmd_play)


def _cmd_play(args: argparse.Namespace) -> int:
    from ..play import main as play_main

    return play_main(args)
