"""`taverna simulate`: tournaments between bots, with honest statistics.

Each game rotates the entries over the sides (seats, or pairs in Mus) so no
bot profits from its position. Games run in worker processes (``--jobs``).
An entry is a bot with options of its own, ``NAME[:KEY=VALUE...]``
(``greedy:senas=ignore``), on top of the ``--option`` ones every bot gets.
After each action every bot is asked for the signals it makes (Mus señas, when
the table plays them); catches are drawn from the game's seed
(:meth:`~taverna.games.base.State.catches`). With ``--records DIR`` each game's
record, its signals included, is written to ``DIR/game-<i>.json``.
The report gives, per entry: wins, win rate with a 95 % Wilson interval,
mean final score, seconds per decision, and a Bradley–Terry (Elo-scale)
rating fitted to every pairwise result.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from .bots import make_bot
from .bots.match import Outcome
from .games import get_game
from .games.base import State
from .series import Plan, entry_of_side, parse_entry, parse_sets, play_all, wilson


def bradley_terry(n: int, results: list[tuple[int, int, float]], rounds: int = 200) -> list[float]:
    """Elo-scale ratings (mean 1500) from pairwise results (i, j, score of i in [0, 1])."""
    wins = [0.5] * n  # a prior half-win each keeps ratings finite
    pairs: dict[tuple[int, int], int] = {}
    for i, j, s in results:
        wins[i] += s
        wins[j] += 1 - s
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0) + 1
    strength = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            # the prior half-win is one virtual game against a reference of strength 1
            denom = 1.0 / (strength[i] + 1.0)
            for (a, b), count in pairs.items():
                if i in (a, b):
                    denom += count / (strength[a] + strength[b])
            new.append(wins[i] / denom)
        mean_log = sum(math.log(x) for x in new) / n
        strength = [x / math.exp(mean_log) for x in new]
    return [round(1500 + 400 * math.log10(s), 1) for s in strength]


def summarize(plan: Plan, outcomes: list[tuple[int, Outcome]]) -> dict[str, Any]:
    cls = get_game(plan.game)
    k = plan.sides
    wins = [0] * k
    score_sum = [0.0] * k
    score_n = [0] * k
    seconds = [0.0] * k
    cpu = [0.0] * k
    slowest = [0.0] * k
    decisions = [0] * k
    capped_decisions = [0] * k
    pairwise: list[tuple[int, int, float]] = []
    capped = 0
    for i, out in outcomes:
        side_entry = [entry_of_side(plan, i, side) for side in range(k)]
        if out.winner is None:
            capped += 1
        else:
            wins[side_entry[out.winner]] += 1
        for side in range(k):
            e = side_entry[side]
            score_sum[e] += out.scores[side]
            score_n[e] += 1
        for seat in range(plan.seats):
            e = side_entry[cls.side_of(seat)]
            seconds[e] += out.seconds[seat]
            cpu[e] += out.cpu[seat] if out.cpu else 0.0
            decisions[e] += out.decisions[seat]
            capped_decisions[e] += out.capped_decisions[seat] if out.capped_decisions else 0
            slowest[e] = max(slowest[e], out.slowest[seat] if out.slowest else 0.0)
        for a in range(k):
            for b in range(a + 1, k):
                ea, eb = side_entry[a], side_entry[b]
                if out.winner is None:
                    s = 0.5
                elif out.winner == a:
                    s = 1.0
                elif out.winner == b:
                    s = 0.0
                else:
                    continue  # a third side won: says nothing about a against b
                pairwise.append((ea, eb, s))
    n = len(outcomes)
    ratings = bradley_terry(k, pairwise)
    names = list(plan.entries)
    labels = [
        name if names.count(name) == 1 else f"{name}#{names[:i].count(name) + 1}"
        for i, name in enumerate(names)
    ]
    bots = []
    for e in range(k):
        lo, hi = wilson(wins[e], n)
        bots.append(
            {
                "bot": labels[e],
                "wins": wins[e],
                "win_rate": round(wins[e] / n, 4) if n else 0.0,
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_score": round(score_sum[e] / score_n[e], 2) if score_n[e] else 0.0,
                "seconds_per_decision": round(seconds[e] / decisions[e], 6)
                if decisions[e]
                else 0.0,
                "max_seconds_per_decision": round(slowest[e], 4),
                # processor seconds: what a decision costs, whatever the machine's load
                "cpu_seconds_per_decision": round(cpu[e] / decisions[e], 6)
                if decisions[e]
                else 0.0,
                "decisions": decisions[e],
                # stopped by the wall-clock safety cap (taverna.bots.budget): 0 in a run
                # whose games do not depend on the machine
                "capped": capped_decisions[e],
                "elo": ratings[e],
            }
        )
    return {"game": plan.game, "games": n, "draws": capped, "bots": bots}


def run(plan: Plan, games: int, jobs: int, progress: bool = True) -> dict[str, Any]:
    return summarize(plan, play_all(plan, games, jobs, progress))


def print_table(report: dict[str, Any], seconds: float) -> None:
    from rich.table import Table

    from .console import stdout_console

    table = Table(
        title=f"{report['game']}: {report['games']} games "
        f"({report['draws']} capped as draws) in {seconds:.1f} s"
    )
    columns = (
        "bot",
        "wins",
        "win rate",
        "95 % CI",
        "mean score",
        "s/decision",
        "CPU/decision",
        "slowest",
        "rating",
    )
    for col in columns:
        table.add_column(col, justify="left" if col == "bot" else "right")
    for b in report["bots"]:
        lo, hi = b["ci95"]
        table.add_row(
            b["bot"],
            str(b["wins"]),
            f"{b['win_rate']:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            f"{b['mean_score']:.1f}",
            f"{b['seconds_per_decision'] * 1000:.2f} ms",
            f"{b.get('cpu_seconds_per_decision', 0.0) * 1000:.2f} ms",
            f"{b.get('max_seconds_per_decision', 0.0) * 1000:.0f} ms",
            f"{b['elo']:.0f}",
        )
    stdout_console().print(table)
    capped = sum(b.get("capped", 0) for b in report["bots"])
    if capped:
        stdout_console().print(
            f"{capped} decisions were stopped by the bots' safety cap (seconds): "
            "those games depend on this machine's speed"
        )


def _versus_check(
    args: Any, cls: type[State], entries: tuple[str, ...], settings: dict[str, Any]
) -> dict[str, Any]:
    """``--vs``: the bot options, once the bot, the styles and the settings are checked
    (:mod:`taverna.versus`): a mistake is refused in one line before any game."""
    from . import versus

    if len(entries) != 1:
        raise ValueError("--vs measures one bot: give --bots NAME")
    options = parse_sets(args.option or [])
    styles = versus.style_names(cls, args.vs)
    name, own = parse_entry(entries[0])
    make_bot(name, cls, 0, 0, **{**options, **own})
    for style in styles:
        make_bot(versus.opponent(cls, style), cls, 0, 0, **options)
    seats = cls.max_seats if cls.team_count is not None else 2
    cls.check_settings(seats, versus.versus_settings(cls, settings))
    return options


def main(args: Any) -> int:
    import time

    versus = bool(getattr(args, "vs", None))
    try:
        cls: type[State] = get_game(args.game)
        entries = tuple(x.strip() for x in args.bots.split(",") if x.strip())
        settings = parse_sets(args.set or [])
        if versus:
            options = _versus_check(args, cls, entries, settings)
        else:
            seats, settings, options, records = _checked(args, cls, entries, settings)
    except (KeyError, ValueError) as e:
        msg = e.args[0] if e.args else str(e)
        print(f"taverna simulate: {msg}", file=sys.stderr)
        return 2
    except Exception as e:  # SettingsError and friends: a clear message, no trace
        print(f"taverna simulate: {e}", file=sys.stderr)
        return 2
    if versus:
        from . import versus as against

        return against.main(args, cls, settings, options)
    plan = Plan(cls.game, seats, settings, entries, options, args.seed, args.max_hands, records)
    t0 = time.perf_counter()
    show = sys.stderr.isatty() and not args.no_progress
    report = run(plan, args.games, max(1, args.jobs), progress=show)
    if args.json:
        print(json.dumps(report))
    else:
        print_table(report, time.perf_counter() - t0)
    return 0


def _checked(
    args: Any, cls: type[State], entries: tuple[str, ...], settings: dict[str, Any]
) -> tuple[int, dict[str, Any], dict[str, Any], str | None]:
    """(seats, settings, bot options, records folder) of a tournament, checked."""
    seats = args.seats
    if cls.team_count is not None:
        seats = seats or cls.max_seats
        if len(entries) != cls.team_count:
            raise ValueError(f"{cls.game} needs one bot per pair: --bots A,B")
    else:
        seats = seats or len(entries)
        if len(entries) != seats:
            raise ValueError(f"give one bot per seat: {seats} seats, {len(entries)} bots")
    settings = cls.check_settings(seats, settings)
    options = parse_sets(args.option or [])
    # make each bot once here: a bad option is refused now, in one line, and
    # not in every worker process in the middle of the tournament
    for entry in dict.fromkeys(entries):
        name, own = parse_entry(entry)
        make_bot(name, cls, 0, 0, **{**options, **own})
    records = getattr(args, "records", None)
    if records is not None:
        Path(records).mkdir(parents=True, exist_ok=True)
    return seats, settings, options, records
