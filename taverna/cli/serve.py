"""`taverna serve` (the club) and `taverna worker` (a bot worker of a cluster's)."""

from __future__ import annotations

import argparse
import errno
import logging
import socket
import sys
from typing import Any

from ..server.logs import LOG_FORMATS
from .arguments import AddParser, at_least_one, not_negative, port_number


def add_commands(add_parser: AddParser) -> None:
    """Add ``taverna serve`` and ``taverna worker``."""
    p = add_parser(
        "serve",
        help="run the club: lobby, tables, live play, web client",
        description="Run the Taverna server (TAVERNA_DATABASE_URL, default sqlite:///taverna.db).",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1; all: 0.0.0.0)"
    )
    p.add_argument(
        "--port",
        type=port_number,
        default=8000,
        help="port to listen on (default 8000; 0: any free)",
    )
    p.add_argument(
        "--database",
        default=None,
        help="database URL, sqlite:///PATH or postgresql://USER@HOST/NAME "
        "(default: TAVERNA_DATABASE_URL, else sqlite:///taverna.db in the current folder)",
    )
    p.add_argument(
        "--bot-delay",
        type=not_negative,
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

    p = add_parser(
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
        type=at_least_one,
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
    from ..server.config import Config
    from ..store.db import check_database, display_url

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
        from .. import native
        from ..server.app import ClubServer, create_app, server_config
        from ..server.logs import configure

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

    from ..server.botqueue import check_redis

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
    from ..bots import make_bot
    from ..bots.base import BotOptionError
    from ..games import GAMES

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
    from ..bots.base import UnknownBot
    from ..bots.levels import level_of

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
    from ..worker import run

    return run(url, concurrency=args.concurrency, name=args.name, log_format=log_format)
