"""The `taverna` command: replay, bench (and, as they land, serve, play, simulate)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _cmd_replay(args: argparse.Namespace) -> int:
    from .games.record import MALFORMED, replay_text

    worst = 0
    out = sys.stdout
    for name in args.files:
        try:
            if name == "-":
                text: str | bytes = sys.stdin.buffer.read()
            else:
                with open(name, "rb") as f:
                    text = f.read()
        except OSError as e:
            result, status = (
                {"ok": False, "malformed": f"cannot read {name}: {e.strerror}"},
                MALFORMED,
            )
        else:
            result, status = replay_text(text)
        if status == MALFORMED and len(args.files) == 1:
            print(f"taverna replay: {name}: {result['malformed']}", file=sys.stderr)
        if args.pretty:
            out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        else:
            out.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
        worst = max(worst, status)
    return worst


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.game == "server":
        from .bench_server import run_server_bench

        return run_server_bench(
            tables=args.tables,
            seconds=args.seconds if args.seconds_given else 20.0,
            connections=args.connections,
            database=args.database,
            as_json=args.json,
            think=args.think,
        )
    from .bench import run_bench

    return run_bench(args.game, seconds=args.seconds, as_json=args.json, seats=args.seats)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from .simulate import main as simulate_main

    return simulate_main(args)


def _cmd_play(args: argparse.Namespace) -> int:
    from .play import main as play_main

    return play_main(args)


def _cmd_serve(args: argparse.Namespace) -> int:
    import logging

    import uvicorn

    from .server.app import create_app
    from .server.config import Config

    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)
    config = Config()
    if args.database:
        config.database_url = args.database
    if args.bot_delay is not None:
        config.bot_delay = args.bot_delay
    print(f"Taverna at http://{args.host}:{args.port}  (database {config.database_url})")
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_max_size=1 << 20,  # larger messages get a clear error from the app, not a close
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taverna",
        description="Taverna: Muggins dominoes, Muggins cards and Mus — engines, records, bots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "serve",
        help="run the club: lobby, tables, live play, web client",
        description="Run the Taverna server (TAVERNA_DATABASE_URL, default sqlite:///taverna.db).",
    )
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database", default=None, help="database URL (sqlite:///… or postgresql://…)")
    p.add_argument("--bot-delay", type=float, default=None, help="seconds bots wait before moving")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser(
        "replay",
        help="replay game records and print the result as JSON",
        description=(
            "Replay one or more game records (RULES.md §4). One file prints one JSON object; "
            "several print JSON Lines. Exit status: 0 ok, 1 an illegal action, 2 a malformed "
            "record (the highest of all files)."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="a record file, or - for stdin")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser(
        "bench",
        help="measure an engine's speed with random self-play",
        description="Random self-play through the game protocol; prints hands/s and actions/s.",
    )
    p.add_argument("game", help="dominoes, cards, mus, or server")
    p.add_argument(
        "--seconds", type=float, default=None, help="time per seat count (default 3; server 20)"
    )
    p.add_argument("--seats", type=str, default=None, help="comma-separated seat counts")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--tables", type=int, default=500, help="server: concurrent tables (500)")
    p.add_argument(
        "--connections", type=int, default=2000, help="server: connections held open (2000)"
    )
    p.add_argument("--database", default=None, help="server: database URL (default temp SQLite)")
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="server: players' mean think time, s (1; 0: flat out)",
    )
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser(
        "simulate",
        help="a tournament between bots, with win rates and ratings",
        description=(
            "Play N games between bots, rotating seats (or pairs in Mus), and report wins, "
            "win rate with a 95 % interval, mean score, time per decision and an Elo-style rating."
        ),
    )
    p.add_argument("game", help="dominoes, cards or mus")
    p.add_argument(
        "--bots", required=True, help="bots per seat (Mus: per pair), e.g. expert,greedy"
    )
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    p.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    p.add_argument("--seats", type=int, default=None, help="seat count (default: one per bot)")
    p.add_argument(
        "--set", action="append", metavar="KEY=VALUE", help="a table setting, e.g. target=100"
    )
    p.add_argument(
        "--option", action="append", metavar="KEY=VALUE", help="a bot option, e.g. iterations=500"
    )
    p.add_argument(
        "--max-hands", type=int, default=100, help="hands before a game is a draw (default 100)"
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play in the terminal: pick moves by number; ? for help, q to quit.",
    )
    p.add_argument("game", help="dominoes, cards or mus")
    p.add_argument("--seats", type=int, default=None, help="seat count (default 2; Mus 4)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument(
        "--bots", default="greedy", help="bot level(s) for the other seats (default greedy)"
    )
    p.add_argument("--seed", type=int, default=None, help="a seed for a reproducible game")
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="a table setting")
    p.set_defaults(func=_cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "bench":
        args.seconds_given = args.seconds is not None
        if args.seconds is None:
            args.seconds = 3.0
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): not an error of ours
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
