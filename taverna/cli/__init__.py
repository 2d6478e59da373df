"""The `taverna` command: serve, worker, admin, replay, bench, simulate, ladder, play.

Each command is a module of this package that adds its parser (``add_commands``) and
the function it runs; :func:`main` parses the command line and runs it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ..games import titles
from . import admin, bench, play, replay, serve, simulate


def build_parser() -> argparse.ArgumentParser:
    """The ``taverna`` command's parser, every command's own in it."""
    parser = argparse.ArgumentParser(
        prog="taverna",
        description=f"Taverna: {titles()} — engines, records, bots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for commands in (serve, admin, replay, bench, simulate, play):
        commands.add_commands(sub.add_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``taverna`` with these arguments (the command line's by default); its exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`| head`): not an error of ours
        sys.stderr.close()
        return 0
