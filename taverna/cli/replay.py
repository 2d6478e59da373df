"""`taverna replay`: game records replayed, their results as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from .arguments import AddParser


def add_commands(add_parser: AddParser) -> None:
    """Add ``taverna replay``."""
    p = add_parser(
        "replay",
        help="replay game records and print the result as JSON",
        description=(
            "Replay one or more game records (docs/rules.md §4.4). One file prints one JSON "
            "object; several print JSON Lines. Exit status: 0 ok, 1 an illegal action, 2 a "
            "malformed record (the highest of all files)."
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="a record file, or - for stdin")
    p.add_argument("--pretty", action="store_true", help="indent the JSON")
    p.set_defaults(func=_cmd_replay)


def _cmd_replay(args: argparse.Namespace) -> int:
    from ..games.record import MALFORMED, replay_text

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
