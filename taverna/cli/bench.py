"""`taverna bench`: an engine's speed, or the club's (server, cluster, hints)."""

from __future__ import annotations

import argparse

from ..games import short_names
from .arguments import AddParser, at_least_one, not_negative, not_negative_int, positive


def add_commands(add_parser: AddParser) -> None:
    """Add ``taverna bench``."""
    p = add_parser(
        "bench",
        help="measure an engine's speed with random self-play",
        description="Random self-play through the game protocol; prints hands/s and actions/s.",
    )
    p.add_argument("game", help=f"{short_names(',')}, server, cluster or hints")
    p.add_argument(
        "--seconds",
        type=positive,
        default=None,
        help="time per seat count (default 3; server 20; hints: each period, 30)",
    )
    p.add_argument("--seats", type=str, default=None, help="comma-separated seat counts")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--tables", type=at_least_one, default=500, help="server: concurrent tables (500)"
    )
    p.add_argument(
        "--connections",
        type=not_negative_int,
        default=2000,
        help="server: connections held open (2000)",
    )
    p.add_argument(
        "--database",
        default=None,
        help="server: database URL (default temp SQLite); cluster: a PostgreSQL (default "
        "TAVERNA_DATABASE_URL, else the local test database), a schema of its own in it",
    )
    p.add_argument("--nodes", type=at_least_one, default=3, help="cluster: nodes (3)")
    p.add_argument(
        "--ramp", default="300,600,900", help="cluster: table counts to try (300,600,900)"
    )
    p.add_argument(
        "--bot-tables", type=at_least_one, default=6, help="cluster: Mus tables of bots (6)"
    )
    p.add_argument(
        "--think",
        type=not_negative,
        default=1.0,
        help="server: players' mean think time, s (1; 0: flat out)",
    )
    p.set_defaults(func=_cmd_bench)


def _cmd_bench(args: argparse.Namespace) -> int:
    # each bench has its own default time (--help says which)
    given = args.seconds is not None
    if args.game == "cluster":
        from ..bench.cluster import run_cluster_bench

        return run_cluster_bench(
            database=args.database,
            nodes=args.nodes,
            tables=args.ramp,
            bot_tables=args.bot_tables,
            seconds=args.seconds if given else 20.0,
            think=args.think,
            as_json=args.json,
        )
    if args.game == "hints":
        from ..bench.hints import run_hints_bench

        return run_hints_bench(seconds=args.seconds if given else 30.0, as_json=args.json)
    if args.game == "server":
        from ..bench.server import run_server_bench

        return run_server_bench(
            tables=args.tables,
            seconds=args.seconds if given else 20.0,
            connections=args.connections,
            database=args.database,
            as_json=args.json,
            think=args.think,
        )
    from ..bench import run_bench

    seconds = args.seconds if given else 3.0
    return run_bench(args.game, seconds=seconds, as_json=args.json, seats=args.seats)
