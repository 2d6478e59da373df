"""`taverna simulate GAME --bots BOT --vs STYLE`: one bot measured against opponent styles.

Each style (:mod:`taverna.bots.styles`), or level (``--vs careful,7``), plays the bot on
mirrored deals: every deal
is played twice, the sides swapped, so neither side profits from its cards. Two seats
in Muggins (one each), two pairs in Mus (two seats of the bot against two of the
style), and Mus is counted in games of 40 (``games_per_cow=1``, one cow: a match is
one game). The report gives, per style, the bot's wins with a 95 % Wilson interval,
and the stones a hand of each side (Mus) or their mean final score (Muggins).
"""

from __future__ import annotations

import json
import time
from typing import Any

from .bots.levels import LEVELS, TOP, find_level
from .bots.match import Outcome
from .bots.styles import PREFIX, styles_of
from .games import get_game
from .games.base import State
from .series import Plan, entry_of_side, play_all, wilson


def style_names(cls: type[State], given: str) -> list[str]:
    """The opponents ``--vs`` names (comma-separated, or ``all``: every style), checked
    against the game: styles without their prefix, and levels as given (``7``,
    ``expert``: a bot of that level measured the same way, on mirrored deals)."""
    known = styles_of(cls)
    names = known if given.strip() == "all" else [x.strip() for x in given.split(",") if x]
    for name in names:
        short = name.removeprefix(PREFIX)
        if short not in known and find_level(short) is None:
            raise ValueError(
                f"{cls.game} has no style {short!r} (styles: {', '.join(known)}; "
                f"or a level, {min(LEVELS)} to {TOP})"
            )
    return [x.removeprefix(PREFIX) for x in names]


def opponent(cls: type[State], name: str) -> str:
    """The bot name of an opponent of ``--vs`` (:func:`style_names`): a style's with its
    prefix, a level's as it is."""
    return PREFIX + name if name in styles_of(cls) else name


def versus_settings(cls: type[State], settings: dict[str, Any]) -> dict[str, Any]:
    """Counted in single games: a match of one game (Mus: one game of 40, one cow) unless
    the table says otherwise."""
    declared = {x.name for x in cls.settings_declared}
    return {**{k: 1 for k in ("games_per_cow", "cows") if k in declared}, **settings}


def versus_plan(
    cls: type[State],
    settings: dict[str, Any],
    entries: tuple[str, str],
    options: dict[str, Any],
    seed: int,
    max_hands: int,
) -> Plan:
    """Two entries on mirrored deals: two seats in Muggins (one each), two pairs in Mus,
    counted in single games (:func:`versus_settings`)."""
    seats = cls.max_seats if cls.team_count is not None else 2
    return Plan(
        cls.game,
        seats,
        cls.check_settings(seats, versus_settings(cls, settings)),
        entries,
        options,
        seed,
        max_hands,
        None,
        mirrored=True,
    )


def tally(plan: Plan, outcomes: list[tuple[int, Outcome]]) -> dict[str, Any]:
    """The bot's (entry 0's) record against the style (entry 1) over ``outcomes``."""
    wins = capped = hands = 0
    points = [0.0, 0.0]
    cpu = decisions = 0.0
    their_cpu = their_decisions = 0.0
    side_of = get_game(plan.game).side_of
    for i, out in outcomes:
        sides = [entry_of_side(plan, i, side) for side in range(2)]
        if out.winner is None:
            capped += 1
        elif sides[out.winner] == 0:
            wins += 1
        for side in range(2):
            points[sides[side]] += out.scores[side]
        hands += out.hands
        for seat in range(plan.seats):
            if sides[side_of(seat)] == 0:
                cpu += out.cpu[seat]
                decisions += out.decisions[seat]
            else:
                their_cpu += out.cpu[seat]
                their_decisions += out.decisions[seat]
    n = len(outcomes)
    lo, hi = wilson(wins, n)
    row: dict[str, Any] = {
        "bot": plan.entries[0],
        "vs": plan.entries[1].removeprefix(PREFIX),
        "games": n,
        "wins": wins,
        "win_rate": round(wins / n, 4) if n else 0.0,
        "ci95": [round(lo, 4), round(hi, 4)],
        "capped": capped,
        "cpu_seconds_per_decision": round(cpu / decisions, 6) if decisions else 0.0,
        # the opponent's, on the same games (a level's cost against another's)
        "vs_cpu_seconds_per_decision": round(their_cpu / their_decisions, 6)
        if their_decisions
        else 0.0,
    }
    if get_game(plan.game).team_count is not None:  # Mus: stones a hand
        row["stones_per_hand"] = [round(x / hands, 3) if hands else 0.0 for x in points]
    else:
        row["mean_score"] = [round(x / n, 2) if n else 0.0 for x in points]
    return row


def main(args: Any, cls: type[State], settings: dict[str, Any], options: dict[str, Any]) -> int:
    """Play ``args.bots`` against each style of ``args.vs``; print a table or JSON."""
    entry = args.bots.strip()
    games = args.games + args.games % 2  # whole mirrored pairs
    rows = []
    t0 = time.perf_counter()
    for style in style_names(cls, args.vs):
        plan = versus_plan(
            cls, settings, (entry, opponent(cls, style)), options, args.seed, args.max_hands
        )
        rows.append(tally(plan, play_all(plan, games, max(1, args.jobs), progress=False)))
    seconds = time.perf_counter() - t0
    if args.json:
        report = {"game": cls.game, "mirrored": True, "seconds": round(seconds, 1), "rows": rows}
        print(json.dumps(report))
    else:
        print_rows(cls.game, rows, seconds)
    return 0


def print_rows(game: str, rows: list[dict[str, Any]], seconds: float) -> None:
    from rich.table import Table

    from .console import stdout_console

    stones = "stones_per_hand" in rows[0] if rows else False
    unit = "games of 40, " if stones else ""
    table = Table(title=f"{game}: {unit}mirrored deals, in {seconds:.1f} s")
    last = "stones a hand (bot / style)" if stones else "mean score (bot / style)"
    for col in (
        "bot",
        "vs",
        "games",
        "wins",
        "win rate",
        "95 % CI",
        last,
        "CPU/decision",
        "theirs",
    ):
        table.add_column(col, justify="left" if col in ("bot", "vs") else "right")
    for r in rows:
        lo, hi = r["ci95"]
        pair = r["stones_per_hand"] if stones else r["mean_score"]
        table.add_row(
            r["bot"],
            r["vs"],
            str(r["games"]),
            str(r["wins"]),
            f"{r['win_rate']:.1%}",
            f"{lo:.1%}–{hi:.1%}",
            f"{pair[0]:.2f} / {pair[1]:.2f}",
            f"{r['cpu_seconds_per_decision'] * 1000:.1f} ms",
            f"{r['vs_cpu_seconds_per_decision'] * 1000:.1f} ms",
        )
    stdout_console().print(table)
