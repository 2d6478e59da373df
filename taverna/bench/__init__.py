"""`taverna bench`: random self-play through the real protocol, with figures.

For each seat count it plays random games for a fixed time through
``legal_actions``/``step`` (as a search plays) and prints hands (card rounds) per second
and actions per second, next to a minimal hand-written loop of the same game
(no protocol, no events, no checks) so the protocol's cost is visible, and the same
through ``apply``, every event made (as the server plays). A game's
minimal loop is found through the entry point group ``taverna.bench``
(:mod:`taverna.registry`): ``minimal(seats, seconds, seed) -> {"hands_per_second",
"actions_per_second"}``; a game without one is measured alone.

The club's own benches are modules beside it: :mod:`.server` (``taverna bench server``:
real tables over WebSockets), :mod:`.cluster` (``taverna bench cluster``: several nodes
and bot workers) and :mod:`.hints` (``taverna bench hints``: a flood of hints against a
table's strong bot).
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from typing import Any

from ..games import UnknownGame, get_game
from ..games.base import SettingsError, State
from ..registry import parts
from . import loop

#: a game's minimal loop: (seats, seconds, seed) -> hands and actions per second
Minimal = Callable[[int, float, int], dict[str, Any]]


def deep_sizeof(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes held by ``obj`` and what only it refers to (not classes, rngs or the shared
    constants ``seen`` starts with: :func:`shared_tables`)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, type | random.Random):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_sizeof(k, seen) + deep_sizeof(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(deep_sizeof(x, seen) for x in obj)
    elif (hasattr(obj, "__slots__") or hasattr(obj, "__mypyc_attrs__")) and not isinstance(
        obj, int | str | float | bool
    ):
        for klass in type(obj).__mro__:
            # a class compiled by mypyc lists its fields in __mypyc_attrs__
            fields = vars(klass).get("__mypyc_attrs__", ()) or getattr(klass, "__slots__", ())
            for name in fields:
                if name != "__dict__" and hasattr(obj, name):
                    size += deep_sizeof(getattr(obj, name), seen)
    return size


def shared_tables(cls: type) -> set[int]:
    """The ids of what the modules of a game's class keep at module level — its tables
    (every action made once, what each total scores...) — and all in them: a state
    refers to them, every state the same, and its size does not include them."""
    out: set[int] = set()

    def walk(x: Any) -> None:
        if id(x) in out or not isinstance(x, dict | list | tuple | set | frozenset):
            return
        out.add(id(x))
        items = list(x.keys()) + list(x.values()) if isinstance(x, dict) else list(x)
        for y in items:
            if isinstance(y, dict | list | tuple | set | frozenset):
                walk(y)
            else:
                out.add(id(y))

    for klass in cls.__mro__:
        module = sys.modules.get(klass.__module__)
        for name, value in vars(module).items() if module is not None else ():
            if not name.startswith("__"):
                walk(value)
    return out


def protocol_loop(
    cls: type[State], seats: int, seconds: float, seed: int = 1, events: bool = False
) -> dict[str, Any]:
    """Random self-play through the protocol for ``seconds`` (:mod:`.loop`: ``step``, or
    ``apply`` with ``events``); counts hands and actions, and weighs a copy of the
    last state."""
    out = loop.protocol_loop(cls, seats, seconds, seed, events)
    out["state_bytes"] = deep_sizeof(out.pop("state").clone(), shared_tables(cls))
    return out


def minimal_loop(game: str) -> Minimal | None:
    """The installed minimal loop of ``game`` (a record name), if it has one."""
    found: Minimal | None = parts("taverna.bench").get(game)
    return found


def parse_seat_counts(cls: type[State], text: str) -> list[int]:
    """``--seats 2,3``: seat counts the game allows; raises ValueError saying which is not."""
    counts = []
    for part in text.split(","):
        part = part.strip()
        try:
            n = int(part)
        except ValueError:
            raise ValueError(
                f"give seat counts separated by commas, e.g. 2,3; {part!r} is not a number"
            ) from None
        try:
            counts.append(cls.check_seats(n))
        except SettingsError as e:
            raise ValueError(str(e)) from None
    return counts


def run_bench(
    game: str, seconds: float = 3.0, as_json: bool = False, seats: str | None = None
) -> int:
    try:
        cls = get_game(game)
    except UnknownGame as e:
        print(f"taverna bench: {e}", file=sys.stderr)
        return 2
    if seats is not None:
        try:
            counts = parse_seat_counts(cls, seats)
        except ValueError as e:
            print(f"taverna bench: --seats: {e}", file=sys.stderr)
            return 2
    else:
        counts = list(range(cls.min_seats, cls.max_seats + 1))
    minimal = minimal_loop(cls.game)
    results = []
    # Alternate short slices of the two loops and keep each one's best slice, so
    # that another process stealing the CPU for a while does not skew the ratio.
    slices = max(1, round(seconds / 0.5))
    part = seconds / slices
    for n in counts:
        row: dict[str, Any] | None = None
        best_base = best_loud = 0.0
        for k in range(slices):
            r = protocol_loop(cls, n, part, seed=1 + k)
            if row is None or r["hands_per_second"] > row["hands_per_second"]:
                row = r
            loud = protocol_loop(cls, n, part, seed=1 + k, events=True)
            best_loud = max(best_loud, loud["hands_per_second"])
            if minimal is not None:
                best_base = max(best_base, minimal(n, part, 1 + k)["hands_per_second"])
        assert row is not None
        row["events_hands_per_second"] = best_loud
        if minimal is not None:
            row["minimal_hands_per_second"] = best_base
            row["protocol_cost"] = round(best_base / row["hands_per_second"], 2)
            row["events_cost"] = round(best_base / best_loud, 2)
        results.append(row)
    from .. import native

    build = native.status()
    if as_json:
        print(
            json.dumps(
                {"game": cls.game, "build": build.build, "build_why": build.why, "results": results}
            )
        )
        return 0
    from rich.table import Table

    from ..console import stdout_console

    table = Table(
        title=f"{cls.game}: random self-play, {seconds:g} s per loop and seat count "
        f"(best of {slices} alternating slices)",
        caption=f"engines: {build}; step: legal_actions and step, as a search plays; "
        "apply: every event made, as the server plays; cost = the minimal pure-Python "
        f"loop's {cls.deal_unit}s/s ÷ the engine's (below 1: the engine is faster)",
    )
    unit = cls.deal_unit
    table.add_column("seats", justify="right")
    table.add_column(f"step {unit}s/s", justify="right")
    table.add_column("step actions/s", justify="right")
    table.add_column(f"apply {unit}s/s", justify="right")
    table.add_column(f"minimal loop {unit}s/s", justify="right")
    table.add_column("cost, step", justify="right")
    table.add_column("cost, apply", justify="right")
    table.add_column("state bytes", justify="right")
    for r in results:
        table.add_row(
            str(r["seats"]),
            f"{r['hands_per_second']:,.0f}",
            f"{r['actions_per_second']:,.0f}",
            f"{r['events_hands_per_second']:,.0f}",
            f"{r['minimal_hands_per_second']:,.0f}" if "minimal_hands_per_second" in r else "-",
            f"{r['protocol_cost']:.2f}×" if "protocol_cost" in r else "-",
            f"{r['events_cost']:.2f}×" if "events_cost" in r else "-",
            f"{r['state_bytes']:,}",
        )
    stdout_console().print(table)
    return 0
