"""`taverna admin`: operators' tools on the club's database."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..games import short_names
from .arguments import AddParser


def add_commands(add_parser: AddParser) -> None:
    """Add ``taverna admin`` and its tools (look-alikes, grant, revoke, ratings)."""
    p = add_parser(
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


def _on_database(args: argparse.Namespace, work: Any) -> Any:
    """Run ``work(store)`` (a coroutine function) on the admin command's database
    (``--database``, else the server's); None, said on stderr, if it cannot be opened."""
    import asyncio

    from ..server.config import Config
    from ..store.db import check_database, display_url
    from ..store.repo import Store

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

    from ..server.passwords import username_key
    from ..store.tournaments import TournamentStore

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

    from ..games import get_game
    from ..store.accounts import AccountStore

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

    from ..server.names import name_keys
    from ..store.accounts import AccountStore

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
