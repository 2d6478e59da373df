"""A series of games between bots, as `taverna simulate` and `taverna ladder` play them.

A :class:`Plan` says which bots (entries) play which game, how many seats, with which
settings and options, and from which seed; each game's deals follow from that seed and
the game's index alone, and the entries rotate over the sides (seats, or pairs in Mus),
or, with ``mirrored``, play each deal twice with the sides swapped. :func:`play_all`
plays a series in worker processes; :func:`wilson` is the interval a win rate is given
with.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .bots import make_bot
from .bots.match import Outcome, play_game
from .games import get_game


@dataclass(frozen=True)
class Plan:
    """A series: its game, seats, settings, entries (one a side) and their options,
    the seed its deals follow from, and the hands after which a game is a draw."""

    game: str
    seats: int
    settings: dict[str, Any]
    entries: tuple[str, ...]
    options: dict[str, Any]
    seed: int
    max_hands: int
    #: a folder to write each game's record to (None: no records)
    records: str | None = None
    #: games in pairs on the same deals, the sides swapped (game 2k and 2k + 1)
    mirrored: bool = False

    @property
    def sides(self) -> int:
        return len(self.entries)


def entry_of_side(plan: Plan, game_index: int, side: int) -> int:
    """Which entry plays ``side`` in game ``game_index``: a rotation."""
    return (side + game_index) % plan.sides


def parse_entry(entry: str) -> tuple[str, dict[str, Any]]:
    """An entry of ``--bots``: ``NAME[:KEY=VALUE...]`` -> (bot name, its own options).

    The name may itself be an import path (``package.module:Class``): the parts with
    an ``=`` are options, the others the name.

        >>> parse_entry("greedy:senas=ignore")
        ('greedy', {'senas': 'ignore'})
        >>> parse_entry("my.bots:Bot:depth=3")
        ('my.bots:Bot', {'depth': 3})
    """
    parts = entry.split(":")
    name = ":".join(x for x in parts if "=" not in x)
    return name, parse_sets([x for x in parts if "=" in x])


def parse_sets(items: list[str]) -> dict[str, Any]:
    """``KEY=VALUE`` settings; values are JSON when they parse (31, true), else strings."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--set and --option take KEY=VALUE, not {item!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def play_one(args: tuple[Plan, int]) -> tuple[int, Outcome]:
    """Game ``i`` of a plan (``args``: the plan and ``i``), its bots seated as the plan
    says: its index and outcome (its record written when the plan keeps records)."""
    plan, i = args
    cls = get_game(plan.game)
    deals = i // 2 if plan.mirrored else i  # a game's deals follow from its seed alone
    seed = random.Random(f"{plan.seed}:{deals}").randrange(1 << 62)
    state = cls.new(plan.seats, plan.settings, seed=seed)
    bots = []
    for seat in range(plan.seats):
        entry = entry_of_side(plan, i, cls.side_of(seat))
        name, own = parse_entry(plan.entries[entry])
        options = {**plan.options, **own}
        bots.append(make_bot(name, cls, seat, seed + 7919 * (seat + 1), **options))
    outcome = play_game(state, bots, seed, plan.max_hands)
    if plan.records is not None:
        path = Path(plan.records) / f"game-{i}.json"
        path.write_text(json.dumps(state.record()) + "\n")
    return i, outcome


def play_all(plan: Plan, games: int, jobs: int, progress: bool = True) -> list[tuple[int, Outcome]]:
    """Each game's outcome, by game index, played in ``jobs`` processes."""
    tasks = [(plan, i) for i in range(games)]
    outcomes: list[tuple[int, Outcome]] = []
    if progress:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            transient=True,
            console=_stderr_console(),
        )
    else:
        bar = None
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(jobs) if jobs > 1 else _InlinePool() as pool:
        it = pool.imap_unordered(play_one, tasks, chunksize=max(1, games // (jobs * 20) or 1))
        if bar is None:
            outcomes = list(it)
        else:
            with bar:
                task = bar.add_task(f"{plan.game}: {' vs '.join(plan.entries)}", total=games)
                for item in it:
                    outcomes.append(item)
                    bar.advance(task)
    outcomes.sort(key=lambda x: x[0])
    return outcomes


class _InlinePool:
    """The Pool interface without processes, for --jobs 1."""

    def __enter__(self) -> _InlinePool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap_unordered(self, fn: Any, tasks: list[Any], chunksize: int = 1) -> Any:
        return map(fn, tasks)


def _stderr_console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
