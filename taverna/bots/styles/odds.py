"""The exact odds of a Mus lance at the showdown, from what one seat knows.

At an accepted órdago (or any lance decided at the showdown) only that lance's
comparison matters (docs/rules.md §3.5, §3.6.4): the pair holding the best
hand among the players taking part wins, the tie to the player closest to mano.
:func:`lance_odds` counts, over every deal of the cards the seat has not seen,
the deals its pair wins, each weighted by how many ways of dealing the cards
give it — exactly, as a fraction.

The count runs over classes of cards, not cards: every lance asks only which
classes a hand holds (threes are kings, twos aces; suits never matter), so a hand
is one of 330 multisets and its ways are a product of binomials (two pairs of
kings among the six unseen kings: C(6, 2)). The other pair's two hands are
enumerated; the partner's hands are summed by one lookup in a table of its
hands ordered by strength, made once for each set of cards the opponents leave.

A deal counts when it fits what the seat knows: the pares and juego
announcements (who holds them) and, when given, the señas it saw (a seña is
always true: docs/rules.md §3.8.2).

    >>> from taverna.games.mus.hands import parse_hand
    >>> from taverna.games.mus.rules import CHICA
    >>> lance_odds(parse_hand("1o 1c 2e 2b"), (), seat=1, mano=0, lance=CHICA)
    Fraction(58904, 58905)

Four aces are the best Chica; only mano, holding the other four, beats them by
the tie: one hand in C(36, 4) = 58905.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import comb
from typing import Final

from ...games.mus.hands import CARD_CLASS, N_CARDS, VALUES, HandValue
from ...games.mus.rules import CHICA, GRANDE, PARES, SEATS
from ...games.mus.senas import holds

#: HANDS[i]: the classes of hand multiset i, lowest first (0 aces .. 7 kings)
HANDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    (a, b, c, d) for a in range(8) for b in range(a, 8) for c in range(b, 8) for d in range(c, 8)
)
#: cards of each class in the deck: four, but eight aces and eight kings
CLASS_CARDS: Final = tuple(tuple(c for c in range(N_CARDS) if CARD_CLASS[c] == k) for k in range(8))


def _counts(classes: Iterable[int]) -> tuple[int, ...]:
    out = [0] * 8
    for k in classes:
        out[k] += 1
    return tuple(out)


def _packed(counts: Sequence[int]) -> int:
    """Class counts as one int, four bits a class (a count is at most 8)."""
    out = 0
    for k in range(8):
        out |= counts[k] << (4 * k)
    return out


#: PACKED[i]: hand i's class counts packed (:func:`_packed`); a deal's leftovers are
#: found by subtracting hands (no field ever borrows: a hand's counts are in the pool)
PACKED: Final[tuple[int, ...]] = tuple(_packed(_counts(h)) for h in HANDS)
#: TERMS[i]: (shift of the class's field, cards of it) for each class hand i holds
TERMS: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((4 * k, n) for k, n in enumerate(_counts(h)) if n) for h in HANDS
)
#: VALUE[i]: hand i's HandValue
VALUE: Final[tuple[HandValue, ...]] = tuple(VALUES[sum(1 << (3 * k) for k in h)] for h in HANDS)
#: a representative of each hand in cards (the señas ask of cards)
CARDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(CLASS_CARDS[k][j] for k in range(8) for j in range(_counts(h)[k])) for h in HANDS
)
#: BINOMIAL[n][r]: C(n, r) for the counts of a class (n ≤ 8) and a hand (r ≤ 4)
BINOMIAL: Final = tuple(tuple(comb(n, r) for r in range(5)) for n in range(16))

_INDEX: Final = {h: i for i, h in enumerate(HANDS)}


def hand_index(cards: Sequence[int]) -> int:
    """The multiset index (0..329) of four card ids."""
    return _INDEX[tuple(sorted(CARD_CLASS[c] for c in cards))]


def ways(i: int, pool: int) -> int:
    """How many sets of four cards of the packed ``pool`` make hand ``i``."""
    w = 1
    for shift, n in TERMS[i]:
        w *= BINOMIAL[(pool >> shift) & 15][n]
        if not w:
            return 0
    return w


def key(i: int, lance: int, punto: bool, real_31: bool) -> int:
    """Hand ``i``'s key in ``lance`` (higher wins; 0 in Pares or Juego: not taking part)."""
    v = VALUE[i]
    if lance == GRANDE:
        return v.grande
    if lance == CHICA:
        return v.chica
    if lance == PARES:
        return v.pares
    if punto:
        return v.punto + 1  # every hand takes part in Punto
    return v.juego_real if real_31 else v.juego


def fits(
    i: int,
    seat: int,
    pares: Sequence[int] | None,
    juego: Sequence[int] | None,
    signs: Iterable[str],
) -> bool:
    """Whether ``seat`` may hold hand ``i``: the announcements and the señas seen of it."""
    v = VALUE[i]
    if pares is not None and (v.pares_kind > 0) != (seat in pares):
        return False
    if juego is not None and (v.juego > 0) != (seat in juego):
        return False
    return all(holds(sign, CARDS[i]) for sign in signs)


def lance_odds(
    hand: Sequence[int],
    known: Sequence[int],
    *,
    seat: int,
    mano: int,
    lance: int,
    punto: bool = False,
    real_31: bool = False,
    pares: Sequence[int] | None = None,
    juego: Sequence[int] | None = None,
    told: dict[int, frozenset[str]] | None = None,
) -> Fraction:
    """The chance that ``seat``'s pair wins ``lance`` at the showdown, exactly.

    ``hand``: the seat's four cards; ``known``: other cards it has seen that no other
    seat can hold (its own discards still in the pile); ``pares``, ``juego``: the
    seats announced holding them (None: not announced yet); ``told``: the señas the
    seat saw, by seat. Every deal of the unseen cards to the three other seats that
    fits them counts by its number of ways. Raises ValueError when none fits.
    """
    seen = _counts(CARD_CLASS[c] for c in (*hand, *known))
    pool = _packed([len(CLASS_CARDS[k]) - seen[k] for k in range(8)])
    # the count depends on the seats only through their places after mano: seat 0 is
    # made mano, so that a position met from another seat is found in the cache
    seat = (seat - mano) % SEATS
    told = {(x - mano) % SEATS: s for x, s in (told or {}).items() if s}
    pares = _moved(pares, mano)
    juego = _moved(juego, mano)
    signs = tuple(sorted((x, tuple(sorted(s))) for x, s in told.items() if x != seat))
    cache_key = (hand_index(hand), pool, seat, lance, punto, real_31, pares, juego, signs)
    hit = _CACHE.get(cache_key)
    if hit is not None:
        return hit
    partner, left, right = seat ^ 2, (seat + 1) % SEATS, (seat + 3) % SEATS

    def allowed(x: int) -> list[int]:
        no_signs: frozenset[str] = frozenset()
        return [i for i in range(len(HANDS)) if fits(i, x, pares, juego, told.get(x, no_signs))]

    def rank(x: int, i: int) -> int:
        k = key(i, lance, punto, real_31)
        return k * SEATS + (SEATS - 1 - x) if k else -1

    ours = rank(seat, hand_index(hand))
    mates = sorted(allowed(partner), key=lambda i: rank(partner, i))
    mate_ranks = [rank(partner, i) for i in mates]
    lefts = [(PACKED[a], a, rank(left, a)) for a in allowed(left)]
    rights = [(PACKED[b], b, rank(right, b)) for b in allowed(right)]
    # where the partner's hands that beat the other pair's best begin, for each rank
    cut = {r: bisect_right(mate_ranks, r) for r in {x[2] for x in lefts + rights}}
    tables: dict[int, list[int]] = {}
    won = total = 0
    for packed_a, a, rank_a in lefts:
        wa = ways(a, pool)
        if not wa:
            continue
        after_a = pool - packed_a
        for packed_b, b, rank_b in rights:
            wb = ways(b, after_a)
            if not wb:
                continue
            rest = after_a - packed_b
            suffix = tables.get(rest)
            if suffix is None:
                suffix = tables[rest] = _suffix(mates, rest)
            best = rank_a if rank_a > rank_b else rank_b
            w = wa * wb
            total += w * suffix[0]
            won += w * (suffix[0] if ours > best else suffix[cut[best]])
    if not total:
        raise ValueError("no deal of what the seat has not seen fits what it knows")
    odds = Fraction(won, total)
    if len(_CACHE) >= CACHE_SIZE:
        _CACHE.clear()
    _CACHE[cache_key] = odds
    return odds


def _suffix(mates: list[int], pool: int) -> list[int]:
    """suffix[t]: the ways of the partner's hands ``mates[t:]`` from ``pool``."""
    out = [0] * (len(mates) + 1)
    acc = 0
    for t in range(len(mates) - 1, -1, -1):
        acc += ways(mates[t], pool)
        out[t] = acc
    return out


def _moved(seats: Sequence[int] | None, mano: int) -> tuple[int, ...] | None:
    """``seats`` numbered from ``mano`` (None stays None: not announced)."""
    return None if seats is None else tuple(sorted((x - mano) % SEATS for x in seats))


#: answers already worked out (a position recurs: the same hand, lance and announcements)
CACHE_SIZE: Final = 20_000
_CACHE: Final[dict[tuple[object, ...], Fraction]] = {}
