"""Mus cards and hand evaluation (docs/rules.md §3.1, §3.5): a small library of its own.
(``taverna.games.mus_hands`` is another name for this module.)

A card is an int 0..39; its notation is rank + suit (``12o``, ``1e``,
``10c``). Every question the lances ask of a four-card hand depends only on
the multiset of its *classes* (threes are kings, twos are aces), so the
answers for all 330 multisets are computed once and looked up.

Every key is an int where **higher is better** for its lance, so one
function, :func:`lance_winner`, settles every lance with the tie going to
the player closest to mano::

    >>> hands = [parse_hand("12o 3c 1e 7b"), parse_hand("11o 11c 5e 4b"),
    ...          parse_hand("2o 1c 4e 5b"), parse_hand("10o 7c 7e 7o")]
    >>> [grande(h) > grande(hands[1]) for h in hands]
    [True, False, False, False]
    >>> lance_winner([chica(h) for h in hands], mano=1)
    2
    >>> [pares_kind(h) for h in hands], [points(h) for h in hands]
    ([1, 1, 1, 2], [28, 29, 11, 31])
    >>> juego(hands[3], real_31=True) > juego(parse_hand("12o 12c 10e 1b"), real_31=True)
    True
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from ..base import NotationError, TavernaError

#: ranks as written, in card-id order (10 = sota, 11 = caballo, 12 = rey)
RANKS: Final = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)
#: suits as written: oros, copas, espadas, bastos
SUITS: Final = "oceb"
N_CARDS: Final = 40

#: card id -> notation; a card's id is ``RANKS.index(rank) * 4 + SUITS.index(suit)``
CARD_STR: Final[tuple[str, ...]] = tuple(f"{r}{s}" for r in RANKS for s in SUITS)
_CARD_ID: Final = {text: i for i, text in enumerate(CARD_STR)}
#: card id -> rank as written
CARD_RANK: Final[tuple[int, ...]] = tuple(r for r in RANKS for _ in SUITS)

#: the eight classes, lowest first: ace (1, 2), 4, 5, 6, 7, sota, caballo, king (12, 3)
CLASS_NAMES: Final = ("ace", "4", "5", "6", "7", "sota", "caballo", "king")
#: order value of each class for Grande, Chica and Pares (docs/rules.md §3.1)
CLASS_ORDER: Final = (1, 4, 5, 6, 7, 10, 11, 12)
#: points of each class for Juego and Punto (figures and threes 10, aces and twos 1)
CLASS_POINTS: Final = (1, 4, 5, 6, 7, 10, 10, 10)
_RANK_CLASS: Final = {1: 0, 2: 0, 4: 1, 5: 2, 6: 3, 7: 4, 10: 5, 11: 6, 12: 7, 3: 7}
#: card id -> class 0..7
CARD_CLASS: Final[tuple[int, ...]] = tuple(_RANK_CLASS[r] for r in CARD_RANK)
#: card id -> points
CARD_POINTS: Final[tuple[int, ...]] = tuple(CLASS_POINTS[c] for c in CARD_CLASS)

#: docs/rules.md §3.5.4: the order of the juego totals, best first
JUEGO_ORDER: Final = (31, 32, 40, 37, 36, 35, 34, 33)
#: the juego key of a real 31 (7-7-7-sota) when the table plays ``real_31``
REAL_31: Final = len(JUEGO_ORDER) + 1
_JUEGO_KEY: Final = {total: len(JUEGO_ORDER) - i for i, total in enumerate(JUEGO_ORDER)}

NO_PARES: Final = 0
PAR: Final = 1
MEDIAS: Final = 2
DUPLES: Final = 3
PARES_NAMES: Final = ("none", "par", "medias", "duples")


def card_id(text: object) -> int:
    """The id of a card written rank + suit (``12o``); raises NotationError."""
    try:
        return _CARD_ID[text]  # type: ignore[index]
    except (KeyError, TypeError):
        raise NotationError(
            f"{text!r} is not a Mus card (write rank 1-7, 10, 11 or 12, then a suit o c e b)"
        ) from None


def card_str(card: int) -> str:
    """A card's notation: ``card_str(0) == '1o'``."""
    return CARD_STR[card]


def parse_hand(text: str) -> tuple[int, ...]:
    """Cards from space-separated notation: ``parse_hand("12o 3c 1e 7b")``."""
    return tuple(card_id(t) for t in text.split())


class HandValue(NamedTuple):
    """Everything the lances need to know about one four-card hand."""

    grande: int
    chica: int
    pares: int  # 0: no pares
    pares_kind: int  # NO_PARES, PAR, MEDIAS or DUPLES
    points: int
    juego: int  # 0: no juego; real 31 counts as a plain 31 here
    juego_real: int  # the juego key when the table plays real_31
    punto: int  # the points (only compared when nobody has juego)


def _value(classes: Sequence[int]) -> HandValue:
    """Evaluate a hand from its classes (any order)."""
    order = sorted((CLASS_ORDER[c] for c in classes), reverse=True)
    # Grande: highest card first, then the next (docs/rules.md §3.5.1).
    g = 0
    for r in order:
        g = g * 16 + r
    # Chica: lowest card first, then the next; a lower card makes a higher key.
    ch = 0
    for r in reversed(order):
        ch = ch * 16 + (15 - r)
    # Pares (docs/rules.md §3.5.3): duples > medias > par, then the rank(s).
    counts: dict[int, int] = {}
    for r in order:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((n, r) for r, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        kind, key = NO_PARES, 0
    elif groups[0][0] == 4:
        kind, key = DUPLES, (DUPLES << 8) | (groups[0][1] << 4) | groups[0][1]
    elif len(groups) == 2:
        hi, lo = max(groups[0][1], groups[1][1]), min(groups[0][1], groups[1][1])
        kind, key = DUPLES, (DUPLES << 8) | (hi << 4) | lo
    elif groups[0][0] == 3:
        kind, key = MEDIAS, (MEDIAS << 8) | (groups[0][1] << 4)
    else:
        kind, key = PAR, (PAR << 8) | (groups[0][1] << 4)
    pts = sum(CLASS_POINTS[c] for c in classes)
    j = _JUEGO_KEY.get(pts, 0)
    # docs/rules.md §3.5.4: with real_31, 7-7-7-sota beats every other 31.
    real = REAL_31 if sorted(classes) == [4, 4, 4, 5] else j
    return HandValue(g, ch, key, kind, pts, j, real, pts)


def _signature(cards: Iterable[int]) -> int:
    """A number that names the multiset of classes of ``cards`` (3 bits per class)."""
    sig = 0
    for c in cards:
        sig += _SIG_WEIGHT[c]
    return sig


_SIG_WEIGHT: Final[tuple[int, ...]] = tuple(1 << (3 * c) for c in CARD_CLASS)


def _signature_of_classes(classes: Iterable[int]) -> int:
    """:func:`_signature` of cards of these classes."""
    return sum(1 << (3 * x) for x in classes)


def _table() -> dict[int, HandValue]:
    table: dict[int, HandValue] = {}
    for a in range(8):
        for b in range(a, 8):
            for c in range(b, 8):
                for d in range(c, 8):
                    cls = (a, b, c, d)
                    table[_signature_of_classes(cls)] = _value(cls)
    return table


#: class-multiset signature -> HandValue, for all 330 four-card multisets
VALUES: Final[dict[int, HandValue]] = _table()

#: the 36 pairs of classes (lower first), in order
_CLASS_PAIRS: Final = [(x, y) for x in range(8) for y in range(x, 8)]
#: PAIR_OF[a][b]: the index in _CLASS_PAIRS of the classes of cards a and b (either order)
PAIR_OF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        _CLASS_PAIRS.index((min(CARD_CLASS[a], CARD_CLASS[b]), max(CARD_CLASS[a], CARD_CLASS[b])))
        for b in range(N_CARDS)
    )
    for a in range(N_CARDS)
)
#: VALUE_OF_PAIRS[p][q]: the HandValue of a hand made of class pairs p and q, so that
#: ``VALUE_OF_PAIRS[PAIR_OF[a][b]][PAIR_OF[c][d]]`` evaluates cards a b c d with
#: lookups only (summing signatures makes a new int object at each step)
VALUE_OF_PAIRS: Final[tuple[tuple[HandValue, ...], ...]] = tuple(
    tuple(VALUES[_signature_of_classes(p + q)] for q in _CLASS_PAIRS) for p in _CLASS_PAIRS
)


def evaluate(cards: Iterable[int]) -> HandValue:
    """The :class:`HandValue` of four cards."""
    return VALUES[_signature(cards)]


def hand_value(hand: Sequence[int]) -> HandValue:
    """The :class:`HandValue` of a hand of four cards, by two lookups: what the engine
    asks at every showdown (:func:`evaluate` sums a signature first)."""
    a, b, c, d = hand
    return VALUE_OF_PAIRS[PAIR_OF[a][b]][PAIR_OF[c][d]]


def grande(cards: Iterable[int]) -> int:
    """Grande key: compare the highest card, then the second, ... (higher wins)."""
    return evaluate(cards).grande


def chica(cards: Iterable[int]) -> int:
    """Chica key: compare the lowest card, then the next (a *higher key* wins)."""
    return evaluate(cards).chica


def pares(cards: Iterable[int]) -> int:
    """Pares key, 0 without pares: duples > medias > par, then the higher rank(s)."""
    return evaluate(cards).pares


def pares_kind(cards: Iterable[int]) -> int:
    """0 none, 1 par, 2 medias, 3 duples (also the stones each holder scores)."""
    return evaluate(cards).pares_kind


def points(cards: Iterable[int]) -> int:
    """The Juego/Punto points: figures and threes 10, aces and twos 1, 4–7 face value."""
    return evaluate(cards).points


def juego(cards: Iterable[int], real_31: bool = False) -> int:
    """Juego key, 0 without juego: 31 > 32 > 40 > 37 > 36 > 35 > 34 > 33 (> with real 31)."""
    v = evaluate(cards)
    return v.juego_real if real_31 else v.juego


def punto(cards: Iterable[int]) -> int:
    """Punto key: the points; the highest total wins when nobody has juego."""
    return evaluate(cards).punto


def juego_bonus(total: int) -> int:
    """Stones per juego holder of the winning pair: 3 for 31, 2 for any other juego."""
    return 3 if total == 31 else 2


def lance_winner(keys: Sequence[int], mano: int, eligible: Iterable[int] | None = None) -> int:
    """The seat with the best key among ``eligible`` (all seats by default).

    Ties go to the seat closest to mano: seats are compared in turn order
    starting at ``mano`` and only a strictly better key displaces the best
    so far. Raises TavernaError when nobody is eligible.
    """
    n = len(keys)
    allowed = set(range(n) if eligible is None else eligible)
    best = -1
    for i in range(n):
        s = (mano + i) % n
        if s in allowed and (best < 0 or keys[s] > keys[best]):
            best = s
    if best < 0:
        raise TavernaError("no seat takes part in this lance")
    return best


__all__ = [
    "CARD_CLASS",
    "CARD_POINTS",
    "CARD_RANK",
    "CARD_STR",
    "CLASS_NAMES",
    "CLASS_ORDER",
    "CLASS_POINTS",
    "DUPLES",
    "JUEGO_ORDER",
    "MEDIAS",
    "NO_PARES",
    "N_CARDS",
    "PAIR_OF",
    "PAR",
    "PARES_NAMES",
    "RANKS",
    "REAL_31",
    "SUITS",
    "VALUES",
    "VALUE_OF_PAIRS",
    "HandValue",
    "card_id",
    "card_str",
    "chica",
    "evaluate",
    "grande",
    "hand_value",
    "juego",
    "juego_bonus",
    "lance_winner",
    "pares",
    "pares_kind",
    "parse_hand",
    "points",
    "punto",
]
