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
            json.dump(result, out, ensure_ascii=False, indent=2)
        else:
            json.dump(result, out, ensure_ascii=False, separators=(",", ":"))
        out.write("\n")
        worst = max(worst, status)
    return worst


def _cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run_bench

    return run_bench(args.game, seconds=args.seconds, as_json=args.json, seats=args.seats)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="taverna",
        description="Taverna: Muggins dominoes, Muggins cards and Mus — engines, records, bots.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

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
    p.add_argument("game", help="dominoes, cards or mus")
    p.add_argument("--seconds", type=float, default=3.0, help="time per seat count (default 3)")
    p.add_argument("--seats", type=str, default=None, help="comma-separated seat counts")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
