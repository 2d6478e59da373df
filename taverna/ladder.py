"""`taverna ladder`: the levels' ratings, measured.

In each game the levels play each other and the opponent styles
(:mod:`taverna.bots.styles`) on mirrored deals, as ``taverna simulate --vs`` plays them
(:mod:`taverna.versus`: two seats in Muggins, two pairs in Mus, Mus in games of 40);
the ratings that best explain every result are fitted at once on the club's Glicko-2
scale (:func:`taverna.glicko2.fit`, level 4 held at 1500, a newcomer's rating) and
written to the file the club reads (:mod:`taverna.bots.ratings`).

The schedule (:func:`schedule`): ``--games N`` games for each two adjacent levels, N/2
for levels two apart, none further (the chain of near pairs links them all, and a game
between far levels says little: its result is nearly certain); each style meets levels
1, 4 and 7 — the beginner, greedy and the expert — in N/2 games each (a game of the top
levels costs seconds of search: a style against every level would cost the ladder more
than its levels do). Always whole mirrored pairs, at least one.
"""

from __future__ import annotations

import itertools
import math
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import glicko2
from .bots import make_bot, ratings
from .bots.levels import LEVELS
from .bots.styles import PREFIX
from .games import GAMES, get_game
from .games.base import State
from .series import play_all
from .versus import style_names, tally, versus_plan

#: the level held at the club's starting rating: the default level, the one a newcomer
#: (1500) meets
ANCHOR = 4
#: the share of ``--games`` a pair of levels plays, by how far apart they are
LEVEL_SHARE = {1: 1.0, 2: 0.5}
#: the levels a style meets (of those in the ladder; else the lowest), and the share of
#: ``--games`` it plays against each
STYLE_LEVELS = (1, 4, 7)
STYLE_SHARE = 0.5


def parse_levels(text: str) -> list[int]:
    """``--levels``: numbers and ranges, ``1-8`` or ``1,2,5-8``.

    >>> parse_levels("1-3,7")
    [1, 2, 3, 7]
    """
    out: set[int] = set()
    for part in (x.strip() for x in text.split(",") if x.strip()):
        low, dash, high = part.partition("-")
        try:
            span = range(int(low), int(high if dash else low) + 1)
        except ValueError:
            raise ValueError(
                f"--levels takes numbers and ranges (1-8, 1,2,5-8), not {part!r}"
            ) from None
        for n in span:
            if n not in LEVELS:
                raise ValueError(f"no level {n}: the levels are {min(LEVELS)} to {max(LEVELS)}")
            out.add(n)
    if len(out) < 2:
        raise ValueError("a ladder needs two levels at least")
    return sorted(out)


def _pairs_of(games: float) -> int:
    """Games in whole mirrored pairs (half a pair rounded up), one pair at least."""
    return 2 * max(1, math.floor(games / 2 + 0.5))


def schedule(levels: list[int], styles: list[str], games: int) -> list[tuple[str, str, int]]:
    """The matches of a ladder: (entry, entry, games), the stronger-looking entry first.

    >>> for match in schedule([1, 2, 3, 4], ["x"], 8):
    ...     print(*match)
    2 1 8
    3 2 8
    4 3 8
    3 1 4
    4 2 4
    1 style:x 4
    4 style:x 4
    """
    out = []
    for apart, share in sorted(LEVEL_SHARE.items()):
        for low, high in zip(levels, levels[apart:], strict=False):
            out.append((str(high), str(low), _pairs_of(games * share)))
    met = [x for x in levels if x in STYLE_LEVELS] or levels[:1]
    for style in styles:
        for level in met:
            out.append((str(level), PREFIX + style, _pairs_of(games * STYLE_SHARE)))
    return out


def run_game(
    cls: type[State],
    levels: list[int],
    styles: list[str],
    games: int,
    seed: int,
    jobs: int,
    max_hands: int,
    progress: bool,
) -> dict[str, Any]:
    """Play one game's ladder and fit it: the measurement :func:`ratings.save` writes."""
    matches = schedule(levels, styles, games)
    total = sum(n for _, _, n in matches)
    say(f"{cls.game}: {len(matches)} matches, {total} games")
    t0 = time.perf_counter()
    results = []
    for k, (a, b, n) in enumerate(matches, 1):
        t1 = time.perf_counter()
        plan = versus_plan(cls, {}, (a, b), {}, seed, max_hands)
        row = tally(plan, play_all(plan, n, jobs, progress=progress))
        score = row["wins"] + 0.5 * row["capped"]
        results.append({"a": a, "b": b, "games": n, "score": score})
        say(
            f"{cls.game} [{k}/{len(matches)}] {_label(a)} vs {_label(b)}: "
            f"{score:g} of {n} ({score / n:.0%}), {time.perf_counter() - t1:.0f} s; "
            f"{_clock(time.perf_counter() - t0)} so far"
        )
    seconds = time.perf_counter() - t0
    entries = [str(x) for x in levels] + [PREFIX + s for s in styles]
    anchor = str(ANCHOR) if ANCHOR in levels else str(levels[0])
    found = glicko2.fit(
        entries, [(r["a"], r["b"], r["score"], r["games"]) for r in results], anchor=anchor
    )

    def rated(entry: str) -> dict[str, float]:
        r = found.ratings[entry]
        return {"rating": round(r.r, 1), "rd": round(r.rd, 1)}

    adjacent = []
    for low, high in itertools.pairwise(levels):
        diff, rd = found.difference(str(high), str(low))
        adjacent.append({"levels": [low, high], "difference": round(diff, 1), "rd": round(rd, 1)})
    styles_part = ",".join(styles) if styles else "none"
    return {
        "measured": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "command": f"taverna ladder {cls.game} --levels {_span(levels)} --styles "
        f"{styles_part} --games {games} --seed {seed}",
        "seconds": round(seconds, 1),
        "fit": "maximum likelihood on the Glicko-2 scale, one drawn game more a pair",
        "anchor": anchor,
        "levels": {str(x): rated(str(x)) for x in levels},
        "styles": {s: rated(PREFIX + s) for s in styles},
        "adjacent": adjacent,
        "results": results,
    }


def main(args: Any) -> int:
    """Run the ladder of each game named (every game when none is), print the ratings
    and write them to ``args.out``."""
    try:
        classes = [get_game(g) for g in args.game] if args.game else list(GAMES.values())
        levels = parse_levels(args.levels)
        plan: list[tuple[type[State], list[str]]] = []
        for cls in classes:
            styles = [] if args.styles.strip() == "none" else style_names(cls, args.styles)
            for entry in [str(x) for x in levels] + [PREFIX + s for s in styles]:
                make_bot(entry, cls, 0, 0)  # refused now, in one line, not mid-run
            plan.append((cls, styles))
    except (KeyError, ValueError) as e:
        print(f"taverna ladder: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else ratings.PATH
    progress = sys.stderr.isatty() and not args.no_progress
    for cls, styles in plan:
        measured = run_game(
            cls, levels, styles, args.games, args.seed, max(1, args.jobs), args.max_hands, progress
        )
        ratings.save(cls.game, measured, out)
        print_ratings(cls.game, measured)
    say(f"ratings written to {out}")
    return 0


def print_ratings(game: str, measured: dict[str, Any]) -> None:
    from rich.table import Table

    from .console import stdout_console

    table = Table(
        title=f"{game}: ratings (level {measured['anchor']} held at 1500), "
        f"{sum(r['games'] for r in measured['results'])} games in "
        f"{_clock(measured['seconds'])}"
    )
    for col in ("", "rating", "± 2 RD", "interval"):
        table.add_column(col, justify="left" if not col else "right")
    rows = [(f"level {k}", v) for k, v in measured["levels"].items()]
    rows += [(f"style {k}", v) for k, v in measured["styles"].items()]
    for name, v in rows:
        r, rd = v["rating"], v["rd"]
        table.add_row(name, f"{r:.0f}", f"{2 * rd:.0f}", f"{r - 2 * rd:.0f}–{r + 2 * rd:.0f}")
    console = stdout_console()
    console.print(table)
    for gap in measured["adjacent"]:
        low, high = gap["levels"]
        d, rd = gap["difference"], gap["rd"]
        verdict = "≥ 100" if d >= 100 else "< 100"
        console.print(
            f"level {high} − level {low}: {d:+.0f} ± {2 * rd:.0f} ({verdict}; "
            f"{d - 2 * rd:+.0f} to {d + 2 * rd:+.0f})"
        )


def say(line: str) -> None:
    """A line of progress on stderr."""
    print(line, file=sys.stderr, flush=True)


def _label(entry: str) -> str:
    return entry if entry.startswith(PREFIX) else f"level {entry}"


def _span(levels: list[int]) -> str:
    if levels == list(range(levels[0], levels[-1] + 1)):
        return f"{levels[0]}-{levels[-1]}"
    return ",".join(map(str, levels))


def _clock(seconds: float) -> str:
    m, s = divmod(round(seconds), 60)
    return f"{m} min {s} s" if m else f"{s} s"
