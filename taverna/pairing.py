"""Tournament pairings and standings (PLATFORM.md, Competition): Swiss rounds and
knockout, byes, and standings with the Buchholz tie-break.

An *entry* is a number (one player, or a Mus pair). A *game* of a round is a list of
the entries that met (one entry alone: a bye) and, once decided, the points each took:
1 a win, ½ a draw, 0 a loss; a bye is worth a win.

>>> games = [Game(1, [1, 2], {1: 1.0, 2: 0.0}), Game(1, [3], {3: 1.0})]
>>> [(s.entry, s.points) for s in standings([1, 2, 3], games)]
[(1, 1.0), (3, 1.0), (2, 0.0)]
>>> swiss_round([1, 3, 2], games)
([(1, 3)], 2)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Game:
    round: int
    entries: list[int]
    #: entry -> points, once the game is decided (None while it is played)
    points: dict[int, float] | None = None

    @property
    def bye(self) -> bool:
        return len(self.entries) == 1


@dataclass
class Standing:
    entry: int
    points: float = 0.0
    #: the sum of the points of every opponent met (byes count nothing): who scored
    #: against stronger opposition ranks first among equals
    buchholz: float = 0.0
    wins: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(entries: Sequence[int], games: Sequence[Game]) -> list[Standing]:
    """Every entry's standing, best first: points, then Buchholz, then wins, then the
    order of ``entries`` (the seeding)."""
    table = {e: Standing(e) for e in entries}
    for g in games:
        if g.points is None:
            continue
        for e in g.entries:
            st = table.get(e)
            if st is None:
                continue
            got = g.points.get(e, 0.0)
            st.points += got
            if g.bye:
                st.byes += 1
                continue
            st.played += 1
            st.wins += got == 1.0
            st.opponents.extend(o for o in g.entries if o != e)
    for st in table.values():
        st.buchholz = sum(table[o].points for o in st.opponents if o in table)
    seed = {e: i for i, e in enumerate(entries)}
    return sorted(table.values(), key=lambda s: (-s.points, -s.buchholz, -s.wins, seed[s.entry]))


def _met(games: Sequence[Game]) -> set[frozenset[int]]:
    return {frozenset(g.entries) for g in games if not g.bye}


def swiss_round(
    entries: Sequence[int], games: Sequence[Game]
) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs of the next Swiss round, and the entry with a bye (None when even).

    Entries are ranked by the standings so far; the bye goes to the lowest-ranked entry
    that has not had one; each entry meets the best-ranked one below it that it has not
    met yet (a search that backtracks; only when no such pairing exists do two entries
    meet again)."""
    ranked = [s.entry for s in standings(entries, games)]
    had_bye = {g.entries[0] for g in games if g.bye}
    bye = None
    if len(ranked) % 2:
        bye = next((e for e in reversed(ranked) if e not in had_bye), ranked[-1])
        ranked.remove(bye)
    met = _met(games)
    pairs = _pair(ranked, met) or _pair(ranked, set())
    assert pairs is not None
    return pairs, bye


def _pair(rest: list[int], met: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    if not rest:
        return []
    first, others = rest[0], rest[1:]
    for i, other in enumerate(others):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(others[:i] + others[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None


def knockout_rounds(count: int) -> int:
    """How many rounds a knockout of ``count`` entries takes."""
    return max(1, math.ceil(math.log2(max(2, count))))


def knockout_round(
    seeds: Sequence[int], games: Sequence[Game], round_no: int
) -> tuple[list[tuple[int, int]], int | None]:
    """The pairs of knockout round ``round_no`` (from 1), and the entry with a bye.

    Round 1 pairs the seeds first against last (``seeds`` best first); a later round
    pairs the winners of the round before in its order (a bye counts as a win). A game
    that nobody won goes to the better seed."""
    if round_no == 1:
        alive = list(seeds)
    else:
        rank = {e: i for i, e in enumerate(seeds)}
        alive = [
            _winner(g, rank)
            for g in sorted(
                (g for g in games if g.round == round_no - 1),
                key=lambda g: min(rank[e] for e in g.entries),
            )
        ]
    bye = None
    if len(alive) % 2:
        bye = alive.pop(0) if round_no == 1 else alive.pop()
    half = len(alive) // 2
    if round_no == 1:
        pairs = [(alive[i], alive[-1 - i]) for i in range(half)]
    else:
        pairs = [(alive[2 * i], alive[2 * i + 1]) for i in range(half)]
    return pairs, bye


def _winner(g: Game, rank: dict[int, int]) -> int:
    if g.bye or g.points is None:
        return g.entries[0]
    best = max(g.points.get(e, 0.0) for e in g.entries)
    return min((e for e in g.entries if g.points.get(e, 0.0) == best), key=lambda e: rank[e])
