"""The `taverna` command: serve, play, simulate, ladder, replay, bench."""

from __future__ import annotations

import argparse
import errno
import json
import logging
import math
import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .games import short_names, titles
from .server.logs import LOG_FORMATS

# ------------------------------------------------ argument types
# argparse turns an ArgumentTypeError into "taverna CMD: error: argument --x: why", exit 2


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


N = TypeVar("N", int, float)


def _checked(parse: Callable[[str], N], ok: Callable[[N], bool], needs: str) -> Callable[[str], N]:
    """An argparse type: ``parse`` the text, then refuse a value for which ``ok`` fails."""

    def check(text: str) -> N:
        value = parse(text)
        if not ok(value):
            raise argparse.ArgumentTypeError(f"must be {needs}, not {text}")
        return value

    return check


_at_least_one = _checked(_whole, lambda v: v >= 1, "at least 1")
_not_negative_int = _checked(_whole, lambda v: v >= 0, "0 or more")
_positive = _checked(_number, lambda v: v > 0, "more than 0")
_not_negative = _checked(_number, lambda v: v >= 0, "0 or more")


def _port(text: str) -> int:
    value = _whole(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535 (0: any free port), not {value}")
    return value


# ------------------------------------------------------ commands


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
            why = str(result["malformed"])
            # "cannot read NAME: why" names the file already
            where = "" if why.startswith("cannot read ") else f"{name}: "
            print(f"taverna replay: {where}{why}", file=sys.stderr)
        if args.pretty:
            out.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
        else:
            out.write(json.dumps(result, ensure_ascii=False, separators=(",", ":")) + "\n")
        worst = max(worst, status)
    return worst


def _cmd_bench(args: argparse.Namespace) -> int:
    if args.game == "cluster":
        from .bench_cluster import run_cluster_bench

        return run_cluster_bench(
            database=args.database,
            nodes=args.nodes,
            tables=args.ramp,
            bot_tables=args.bot_tables,
            seconds=args.seconds if args.seconds_given else 20.0,
            think=args.think,
            as_json=args.json,
        )
    if args.game == "hints":
        from .bench_hints import run_hints_bench

        return run_hints_bench(
            seconds=args.seconds if args.seconds_given else 30.0, as_json=args.json
        )
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


def _cmd_ladder(args: argparse.Namespace) -> int:
    from .ladder import main as ladder_main

    return ladder_main(args)


def _cmd_play(args: argparse.Namespace) -> int:
    from .play import main as play_main

    return play_main(args)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` (raises OSError), handed to uvicorn to listen on.

    Binding before anything else means a port in use is refused at once, before
    the database is touched or anything is announced.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def _websocket_lines(record: logging.LogRecord) -> bool:
    """Of uvicorn's INFO lines, only those of a WebSocket ('"WebSocket /ws/…" [accepted]')."""
    return record.levelno >= logging.WARNING or '"WebSocket ' in str(record.msg)


def _cmd_serve(args: argparse.Namespace) -> int:
    from .server.config import Config
    from .store.db import check_database, display_url

    try:
        config = Config()
    except ValueError as e:  # a TAVERNA_* variable that is not a number
        print(f"taverna serve: a TAVERNA_* setting is not valid: {e}", file=sys.stderr)
        return 2
    if args.database:
        config.database_url = args.database
    if args.bot_delay is not None:
        config.bot_delay = args.bot_delay
    if args.access_log:
        config.access_log = True
    if args.log_format is not None:
        config.log_format = args.log_format
    if args.node is not None:
        config.node = args.node
    if config.log_format not in LOG_FORMATS:
        print(
            f"taverna serve: TAVERNA_LOG_FORMAT is {' or '.join(LOG_FORMATS)}, "
            f"not {config.log_format!r}",
            file=sys.stderr,
        )
        return 2
    if args.redis is not None:
        config.redis_url = args.redis or None
    problem = _check_bots(config.bot_options)
    if problem is not None:
        print(f"taverna serve: TAVERNA_BOT_OPTIONS: {problem}", file=sys.stderr)
        return 2
    problem = _check_level(config.stand_in_bot)
    if problem is not None:
        print(f"taverna serve: TAVERNA_STAND_IN_BOT: {problem}", file=sys.stderr)
        return 2
    where = f"{args.host}:{args.port}"
    try:
        sock = _listen(args.host, args.port)
    except OSError as e:
        why = e.strerror or str(e)
        hint = " (is another server running there? choose another with --port N)"
        in_use = e.errno == errno.EADDRINUSE
        print(
            f"taverna serve: cannot listen on {where}: {why}{hint if in_use else ''}",
            file=sys.stderr,
        )
        return 1
    with sock:
        database = display_url(config.database_url)
        problem = check_database(config.database_url)
        if problem is not None:
            print(f"taverna serve: database {database}: {problem}", file=sys.stderr)
            return 1
        if config.redis_url:
            refused = _check_cluster(config, sock)
            if refused is not None:
                print(f"taverna serve: {refused[1]}", file=sys.stderr)
                return refused[0]
        from . import native
        from .server.app import ClubServer, create_app, server_config
        from .server.logs import configure

        configure(config.log_format, config.node)
        logging.getLogger("alembic").setLevel(logging.WARNING)
        native.pass_to_children()  # its bots run the build its tables run
        app = create_app(config)
        server = ClubServer(server_config(app, config), app)
        if config.access_log:
            # one line per HTTP request (client, method, path, status); uvicorn tells of
            # each WebSocket on its error log, at INFO among its start-up chatter
            logging.getLogger("uvicorn.access").setLevel(logging.INFO)
            uvicorn_log = logging.getLogger("uvicorn.error")
            uvicorn_log.setLevel(logging.INFO)
            uvicorn_log.addFilter(_websocket_lines)
        host, port = sock.getsockname()[:2]
        shown = f"[{host}]" if ":" in host else host
        print(f"Taverna at http://{shown}:{port}  (database {database})", flush=True)
        server.run(sockets=[sock])
        if not server.started:
            # a log line, so that a JSON log stays JSON to its end
            logging.getLogger("taverna.server").error(
                "the server did not start (the lines above say why)"
            )
            return 3
    return 0


def _check_cluster(config: Any, sock: socket.socket) -> tuple[int, str] | None:
    """A node of a cluster (--redis) needs a Redis that answers (the nodes share it, and a
    PostgreSQL database: docs/scaling.md); a node with no name of its own is named after
    its host and port. The exit status and what is wrong, or None."""
    import asyncio

    from .server.botqueue import check_redis

    problem = asyncio.run(check_redis(config.redis_url))
    if problem is not None:
        if "not a Redis URL" in problem:
            return 2, f"--redis: {problem}"
        return 1, f"Redis {config.redis_url}: {problem}"
    if config.node == "main":
        config.node = f"{socket.gethostname()}:{sock.getsockname()[1]}"
    return None


def _check_bots(options: dict[str, dict[str, Any]]) -> str | None:
    """Why the bots' options by level are not usable, in one line; None if they are."""
    from .bots import make_bot
    from .bots.base import BotOptionError
    from .games import GAMES

    for level, given in options.items():
        problem = _check_level(level)
        if problem is not None:
            return problem
        for game in GAMES.values():
            try:
                make_bot(level, game, 0, **given)
            except BotOptionError as e:
                return str(e)
    return None


def _check_level(level: str) -> str | None:
    """Why ``level`` names no bot level, in one line; None if it names one."""
    from .bots.base import UnknownBot
    from .bots.levels import level_of

    try:
        level_of(level)
    except UnknownBot as e:
        return str(e)
    return None


def _cmd_worker(args: argparse.Namespace) -> int:
    import os

    url = args.redis or os.environ.get("TAVERNA_REDIS_URL", "")
    if not url:
        print(
            "taverna worker: which Redis? give --redis URL (or TAVERNA_REDIS_URL)",
            file=sys.stderr,
        )
        return 2
    log_format = args.log_format or os.environ.get("TAVERNA_LOG_FORMAT", "text")
    if log_format not in LOG_FORMATS:
        print(
            f"taverna worker: TAVERNA_LOG_FORMAT is {' or '.join(LOG_FORMATS)}, not {log_format!r}",
            file=sys.stderr,
        )
        return 2
    from .worker import run

    return run(url, concurrency=args.concurrency, name=args.name, log_format=log_format)


def _on_database(args: argparse.Namespace, work: Any) -> Any:
    """Run ``work(store)`` (a coroutine function) on the admin command's database
    (``--database``, else the server's); None, said on stderr, if it cannot be opened."""
    import asyncio

    from .server.config import Config
    from .store.db import check_database, display_url
    from .store.repo import Store

    url = args.database or Config().database_url
    problem = check_database(url)
    if problem is not None:
        print(f"taverna admin: database {display_url(url)}: {problem}", file=sys.stderr)
        return None

    async def run() -> Any:
        store = await asyncio.to_thread(Store, url)
        try:
            return await work(store)
        finally:
            await asyncio.to_thread(store.close)

    return asyncio.run(run())


def _cmd_grant(args: argparse.Namespace) -> int:

    from .server.passwords import username_key
    from .store.tournaments import TournamentStore

    role = args.role if args.grant else None
    done = _on_database(
        args, lambda store: TournamentStore(store).grant(username_key(args.name), role)
    )
    if done is None:
        return 1
    if not done:
        print(f"taverna admin: no registered account named {args.name!r}", file=sys.stderr)
        return 1
    print(f"{args.name}: {args.role if args.grant else 'no longer ' + args.role}")
    return 0


def _cmd_ratings(args: argparse.Namespace) -> int:

    from .games import get_game
    from .store.accounts import AccountStore

    try:
        game = get_game(args.game).game
    except KeyError:
        print(f"taverna admin ratings: no game {args.game!r}", file=sys.stderr)
        return 2
    found = _on_database(args, lambda store: AccountStore(store).recompute_skills(game))
    if found is None:
        return 1
    differ = {pid: v for pid, v in found.items() if v["stored"] != v["computed"]}
    if args.json:
        print(json.dumps(found))
    else:
        for pid, v in differ.items():
            print(f"{pid}: stored {v['stored']}, computed {v['computed']}")
        print(f"{len(found)} ratings of {game}, {len(differ)} differ")
    return 1 if differ else 0


def _cmd_look_alikes(args: argparse.Namespace) -> int:

    from .server.names import name_keys
    from .store.accounts import AccountStore

    async def look(store: Any) -> list[list[str]]:
        accounts = AccountStore(store)
        await accounts.fill_keys(name_keys)
        return await accounts.look_alikes()

    groups = _on_database(args, look)
    if groups is None:
        return 1
    if args.json:
        print(json.dumps(groups, ensure_ascii=False))
    else:
        for group in groups:
            print("  ".join(group))
        if not groups:
            print("no look-alike account names", file=sys.stderr)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taverna",
        description=f"Taverna: {titles()} — engines, records, bots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "serve",
        help="run the club: lobby, tables, live play, web client",
        description="Run the Taverna server (TAVERNA_DATABASE_URL, default sqlite:///taverna.db).",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; all: 0.0.0.0)"
    )
    p.add_argument(
        "--port", type=_port, default=8000, help="port to listen on (default 8000; 0: any free)"
    )
    p.add_argument(
        "--database",
        default=None,
        help="database URL, sqlite:///PATH or postgresql://USER@HOST/NAME "
        "(default: TAVERNA_DATABASE_URL, else sqlite:///taverna.db in the current folder)",
    )
    p.add_argument(
        "--bot-delay",
        type=_not_negative,
        default=None,
        help="seconds bots wait before moving (default: TAVERNA_BOT_DELAY, else 0.8)",
    )
    p.add_argument(
        "--access-log",
        action="store_true",
        help="log every HTTP request and WebSocket to stderr (or TAVERNA_ACCESS_LOG=1)",
    )
    p.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default=None,
        help="text: readable lines; json: one JSON object a line, with the node, table and "
        "seat as fields (default: TAVERNA_LOG_FORMAT, else text)",
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="join a cluster of nodes that share this Redis and a PostgreSQL database; the "
        "strong bots' decisions go to bot workers (taverna worker) while there are some, "
        "e.g. redis://127.0.0.1:6379/0 (default: TAVERNA_REDIS_URL, else none: one node)",
    )
    p.add_argument(
        "--node",
        default=None,
        help="this node's name, in its health, metrics and log (default: TAVERNA_NODE, "
        "else main; with --redis, HOST:PORT)",
    )
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser(
        "worker",
        help="a bot worker: make strong bots' decisions for the club's nodes (Redis)",
        description=(
            "Take strong bots' decisions from the club's queue in Redis and answer them "
            "(docs/scaling.md). Each process makes one decision at a time; run one per "
            "core, on any machine. SIGTERM finishes the decisions under way, then stops."
        ),
    )
    p.add_argument(
        "--redis",
        default=None,
        metavar="URL",
        help="the club's Redis, redis://HOST:PORT/DB (default: TAVERNA_REDIS_URL)",
    )
    p.add_argument(
        "--concurrency",
        type=_at_least_one,
        default=1,
        metavar="N",
        help="worker processes, each one decision at a time (default 1; one per core)",
    )
    p.add_argument(
        "--name",
        default=None,
        help="this machine's name among the workers (default: its host name)",
    )
    p.add_argument(
        "--log-format",
        choices=LOG_FORMATS,
        default=None,
        help="text or json (default: TAVERNA_LOG_FORMAT, else text)",
    )
    p.set_defaults(func=_cmd_worker)

    p = sub.add_parser(
        "admin",
        help="look after the club's data (operators)",
        description="Operators' tools on the club's database.",
    )
    admin = p.add_subparsers(dest="admin_command", required=True, metavar="TOOL")
    a = admin.add_parser(
        "look-alikes",
        help="accounts whose names look alike (made before look-alikes were refused)",
        description=(
            "List groups of registered accounts whose names look alike to the eye "
            "(Unicode's confusables, UTS #39: Cyrillic 'А' for Latin 'A', 'l' for 'I', any "
            "case). They keep their names; "
            "new look-alikes are refused. One group per line."
        ),
    )
    a.add_argument(
        "--database",
        default=None,
        help="database URL (default: TAVERNA_DATABASE_URL, else sqlite:///taverna.db)",
    )
    a.add_argument("--json", action="store_true", help="print JSON instead of lines")
    a.set_defaults(func=_cmd_look_alikes)

    for verb, what in (("grant", "make an account a moderator"), ("revoke", "take it back")):
        a = admin.add_parser(
            verb,
            help=f"{what} (moderators schedule tournaments)",
            description=f"{what.capitalize()}: ROLE is 'moderator'.",
        )
        a.add_argument("name", help="the account's username")
        a.add_argument("role", choices=["moderator"], help="the role")
        a.add_argument(
            "--database",
            default=None,
            help="database URL (default: TAVERNA_DATABASE_URL, else sqlite:///taverna.db)",
        )
        a.set_defaults(func=_cmd_grant, grant=verb == "grant")

    a = admin.add_parser(
        "ratings",
        help="recompute a game's skill ratings from the stored results and compare",
        description=(
            "Compute every Glicko-2 rating of GAME afresh from the stored results of its "
            "ranked official games, in the order they were settled, and compare each with "
            "the stored one. Exit status 0 when all agree, 1 otherwise (each difference "
            "is printed)."
        ),
    )
    a.add_argument("game", help=f"the game's name or alias: {short_names()}")
    a.add_argument(
        "--database",
        default=None,
        help="database URL (default: TAVERNA_DATABASE_URL, else sqlite:///taverna.db)",
    )
    a.add_argument("--json", action="store_true", help="print every rating as JSON")
    a.set_defaults(func=_cmd_ratings)

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
    p.add_argument("game", help=f"{short_names(',')}, server, cluster or hints")
    p.add_argument(
        "--seconds",
        type=_positive,
        default=None,
        help="time per seat count (default 3; server 20; hints: each period, 30)",
    )
    p.add_argument("--seats", type=str, default=None, help="comma-separated seat counts")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument(
        "--tables", type=_at_least_one, default=500, help="server: concurrent tables (500)"
    )
    p.add_argument(
        "--connections",
        type=_not_negative_int,
        default=2000,
        help="server: connections held open (2000)",
    )
    p.add_argument(
        "--database",
        default=None,
        help="server: database URL (default temp SQLite); cluster: a PostgreSQL (default "
        "TAVERNA_DATABASE_URL, else the local test database), a schema of its own in it",
    )
    p.add_argument("--nodes", type=_at_least_one, default=3, help="cluster: nodes (3)")
    p.add_argument(
        "--ramp", default="300,600,900", help="cluster: table counts to try (300,600,900)"
    )
    p.add_argument(
        "--bot-tables", type=_at_least_one, default=6, help="cluster: Mus tables of bots (6)"
    )
    p.add_argument(
        "--think",
        type=_not_negative,
        default=1.0,
        help="server: players' mean think time, s (1; 0: flat out)",
    )
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser(
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
    p.add_argument("--games", type=_at_least_one, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=_whole, default=1, help="tournament seed (default 1)")
    p.add_argument("--jobs", type=_at_least_one, default=2, help="worker processes (default 2)")
    p.add_argument(
        "--seats", type=_at_least_one, default=None, help="seat count (default: one per bot)"
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
        type=_at_least_one,
        default=100,
        help="hands before a game is a draw (default 100)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser(
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
        type=_at_least_one,
        default=20,
        help="games between two adjacent levels (default 20); levels two apart play half "
        "as many, and each style half as many against levels 1, 4 and 7",
    )
    p.add_argument("--seed", type=_whole, default=1, help="the deals' seed (default 1)")
    p.add_argument("--jobs", type=_at_least_one, default=1, help="worker processes (default 1)")
    p.add_argument(
        "--out",
        default=None,
        metavar="FILE",
        help="the ratings file to write, each game's part replaced, the others kept "
        "(default: the club's, taverna/bots/data/ratings.json)",
    )
    p.add_argument(
        "--max-hands",
        type=_at_least_one,
        default=100,
        help="hands before a game is a draw (default 100)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_ladder)

    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play in the terminal: pick moves by number; ? for help, q to quit.",
    )
    p.add_argument("game", help=short_names())
    p.add_argument(
        "--seats", type=_at_least_one, default=None, help="seat count (default: the game's own)"
    )
    p.add_argument("--seat", type=_whole, default=0, help="your seat (default 0)")
    p.add_argument(
        "--bots",
        default="4",
        help="bot level(s) for the other seats, 1 to 8 (default 4; random, greedy and "
        "expert name levels 1, 4 and 7)",
    )
    p.add_argument("--seed", type=_whole, default=None, help="a seed for a reproducible game")
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
