"""Mus hand evaluation against the rule text (docs/rules.md §3.5), over every hand.

The reference functions below are written straight from the rule text, on
card *notation* (``"12o"``), without the library's classes or tables: ranks
are compared through the written order "king (12 or 3) > 11 > 10 > 7 > 6 >
5 > 4 > ace (1 or 2)". Every one of the 91,390 four-card hands is checked
for its points, pares and juego; the orderings are checked pairwise over
the 330 distinct multisets of ranks (every hand maps onto one of them).
"""

from __future__ import annotations

import doctest
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.games.base import TavernaError
from taverna.games.mus import hands as mus_hands
from taverna.games.mus.hands import (
    CARD_STR,
    JUEGO_ORDER,
    REAL_31,
    card_id,
    card_str,
    chica,
    evaluate,
    grande,
    juego,
    juego_bonus,
    lance_winner,
    pares,
    pares_kind,
    parse_hand,
    points,
    punto,
)

# ------------------------------------------------------ reference, from the text

WRITTEN_ORDER = ["ace", "4", "5", "6", "7", "10", "11", "king"]  # lowest first


def rank_of(card: str) -> int:
    return int(card[:-1])


def named(card: str) -> str:
    """Threes count as kings and twos as aces everywhere."""
    r = rank_of(card)
    if r in (3, 12):
        return "king"
    if r in (1, 2):
        return "ace"
    return str(r)


def strength(card: str) -> int:
    return WRITTEN_ORDER.index(named(card))


def ref_points(cards: list[str]) -> int:
    total = 0
    for c in cards:
        r = rank_of(c)
        total += 10 if r in (10, 11, 12, 3) else 1 if r in (1, 2) else r
    return total


def ref_grande(cards: list[str]) -> list[int]:
    """Compare the highest card, then the second, and so on."""
    return sorted((strength(c) for c in cards), reverse=True)


def ref_chica(cards: list[str]) -> list[int]:
    """Compare the lowest card, then the next; the lower wins (so negate)."""
    return [-x for x in sorted(strength(c) for c in cards)]


def ref_pares(cards: list[str]) -> tuple[int, ...]:
    """(kind, ranks...) with duples 3 > medias 2 > par 1 > none 0."""
    counts = Counter(strength(c) for c in cards)
    groups = sorted(((n, r) for r, n in counts.items() if n >= 2), reverse=True)
    if not groups:
        return (0,)
    if groups[0][0] == 4:
        return (3, groups[0][1], groups[0][1])  # four of a kind: duples of one rank
    if len(groups) == 2:
        hi, lo = sorted((groups[0][1], groups[1][1]), reverse=True)
        return (3, hi, lo)
    if groups[0][0] == 3:
        return (2, groups[0][1])
    return (1, groups[0][1])


def ref_juego_rank(cards: list[str], real_31: bool) -> int:
    """Position in 31, 32, 40, 37, ..., 33 (0 best); real 31 ahead of all; None-ish 99."""
    total = ref_points(cards)
    if total < 31:
        return 99
    if real_31 and sorted(rank_of(c) for c in cards) == [7, 7, 7, 10]:
        return -1
    return [31, 32, 40, 37, 36, 35, 34, 33].index(total)


def sign(x: int) -> int:
    return (x > 0) - (x < 0)


def cmp(a: object, b: object) -> int:
    return (a > b) - (a < b)  # type: ignore[operator]


ALL_HANDS = list(combinations(range(40), 4))


def multisets() -> list[tuple[int, ...]]:
    """One representative hand per multiset of *named* ranks (330 of them)."""
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    for h in ALL_HANDS:
        key = tuple(sorted(strength(CARD_STR[c]) for c in h))
        seen.setdefault(key, h)
    return list(seen.values())


# ------------------------------------------------------------------ tests


def test_there_are_91390_hands_and_330_rank_multisets() -> None:
    assert len(ALL_HANDS) == 91_390
    assert len(multisets()) == 330


def test_card_notation_round_trips_for_all_40_cards() -> None:
    assert len(set(CARD_STR)) == 40
    for i, text in enumerate(CARD_STR):
        assert card_id(text) == i
        assert card_str(i) == text
    for bad in ("8o", "9c", "13e", "0b", "1x", "12", "o1", "", "10 o"):
        try:
            card_id(bad)
        except ValueError as e:
            assert repr(bad) in str(e)
        else:
            raise AssertionError(f"{bad!r} parsed")


def test_points_pares_and_juego_of_every_hand_match_the_rule_text() -> None:
    counts = Counter()
    for h in ALL_HANDS:
        cards = [CARD_STR[c] for c in h]
        v = evaluate(h)
        pts = ref_points(cards)
        assert v.points == pts == v.punto, cards
        kind = ref_pares(cards)[0]
        assert v.pares_kind == kind, cards
        assert (v.pares > 0) == (kind > 0), cards
        assert (v.juego > 0) == (pts >= 31), cards
        assert (v.juego_real > 0) == (pts >= 31), cards
        counts[kind] += 1
        counts["juego"] += pts >= 31
        counts["real"] += v.juego_real == REAL_31
    # the real 31s: three of the four 7s with one of the four sotas
    assert counts["real"] == 4 * 4
    # a census derived independently: no pares means four different named ranks
    named_counts = Counter(named(c) for c in CARD_STR)
    assert named_counts == {"king": 8, "ace": 8, "4": 4, "5": 4, "6": 4, "7": 4, "10": 4, "11": 4}
    no_pares = sum(
        a * b * c * d
        for a, b, c, d in combinations(named_counts.values(), 4)  # one card of each of 4 ranks
    )
    assert counts[0] == no_pares


def test_orderings_agree_with_the_rule_text_for_every_pair_of_multisets() -> None:
    reps = multisets()
    ref = []
    for h in reps:
        cards = [CARD_STR[c] for c in h]
        ref.append(
            (
                ref_grande(cards),
                ref_chica(cards),
                ref_pares(cards),
                ref_juego_rank(cards, False),
                ref_juego_rank(cards, True),
                ref_points(cards),
            )
        )
    keys = [evaluate(h) for h in reps]
    for i in range(len(reps)):
        a, ka = ref[i], keys[i]
        for j in range(len(reps)):
            b, kb = ref[j], keys[j]
            assert sign(ka.grande - kb.grande) == cmp(a[0], b[0])
            assert sign(ka.chica - kb.chica) == cmp(a[1], b[1])
            assert sign(ka.pares - kb.pares) == cmp(a[2], b[2])
            # juego: a lower position in the written order wins
            if a[3] != 99 and b[3] != 99:
                assert sign(ka.juego - kb.juego) == cmp(b[3], a[3])
                assert sign(ka.juego_real - kb.juego_real) == cmp(b[4], a[4])
            assert sign(ka.punto - kb.punto) == cmp(a[5], b[5])


def test_every_hand_evaluates_like_its_multiset() -> None:
    """The table lookup gives each hand the value of its named-rank multiset."""
    by_multiset = {}
    for h in multisets():
        by_multiset[tuple(sorted(strength(CARD_STR[c]) for c in h))] = evaluate(h)
    for h in ALL_HANDS:
        key = tuple(sorted(strength(CARD_STR[c]) for c in h))
        v = evaluate(h)
        w = by_multiset[key]
        assert (v.grande, v.chica, v.pares, v.pares_kind, v.points) == (
            w.grande,
            w.chica,
            w.pares,
            w.pares_kind,
            w.points,
        )


def test_juego_order_is_31_32_40_37_36_35_34_33() -> None:
    assert JUEGO_ORDER == (31, 32, 40, 37, 36, 35, 34, 33)
    examples = {
        31: "10o 10c 10e 1b",
        32: "10o 10c 6e 6b",
        33: "10o 10c 7e 6b",
        34: "10o 10c 7e 7b",
        35: "10o 11c 10e 5b",
        36: "10o 11c 10e 6b",
        37: "10o 11c 10e 7b",
        40: "10o 11c 12e 3b",
    }
    keys = {t: juego(parse_hand(h)) for t, h in examples.items()}
    assert all(points(parse_hand(h)) == t for t, h in examples.items())
    ranked = sorted(keys, key=lambda t: -keys[t])
    assert ranked == [31, 32, 40, 37, 36, 35, 34, 33]
    assert juego(parse_hand("10o 10c 7e 2b")) == 0  # 28: no juego
    assert juego(parse_hand("10o 10c 10e 12b")) == keys[40]


def test_real_31_beats_every_other_31_only_with_the_setting() -> None:
    real = parse_hand("7o 7c 7e 10b")
    other = parse_hand("10o 11c 12e 1b")
    fake = parse_hand("7o 7c 7e 11b")  # three 7s and a caballo: a plain 31
    assert points(real) == points(other) == points(fake) == 31
    assert juego(real) == juego(other) == juego(fake)
    assert juego(real, real_31=True) > juego(other, real_31=True)
    assert juego(fake, real_31=True) == juego(other, real_31=True)
    assert juego(real, real_31=True) > juego(parse_hand("10o 11c 12e 2b"), real_31=True)


def test_threes_are_kings_and_twos_are_aces() -> None:
    assert grande(parse_hand("3o 4c 5e 6b")) == grande(parse_hand("12o 4c 5e 6b"))
    assert chica(parse_hand("2o 4c 5e 6b")) == chica(parse_hand("1o 4c 5e 6b"))
    assert pares_kind(parse_hand("3o 12c 5e 6b")) == 1  # a pair of kings
    assert pares_kind(parse_hand("2o 1c 5e 6b")) == 1  # a pair of aces
    assert pares_kind(parse_hand("2o 1c 3e 12b")) == 3  # duples: aces and kings
    assert points(parse_hand("3o 2c 5e 6b")) == 10 + 1 + 5 + 6


def test_pares_kinds_and_order_examples() -> None:
    duples_kk_aa = pares(parse_hand("12o 3c 1e 2b"))
    four_kings = pares(parse_hand("12o 3c 12e 3b"))
    duples_11_10 = pares(parse_hand("11o 11c 10e 10b"))
    medias_k = pares(parse_hand("12o 12c 12e 1b"))
    medias_4 = pares(parse_hand("4o 4c 4e 1b"))
    par_k = pares(parse_hand("12o 12c 5e 1b"))
    par_k_other = pares(parse_hand("3o 12c 7e 6b"))
    par_5 = pares(parse_hand("5o 5c 7e 6b"))
    assert four_kings > duples_kk_aa > duples_11_10 > medias_k > medias_4 > par_k > par_5 > 0
    assert par_k == par_k_other  # kickers do not count: tie to mano
    assert pares(parse_hand("12o 11c 7e 6b")) == 0


def test_grande_and_chica_examples() -> None:
    assert grande(parse_hand("12o 1c 1e 1b")) > grande(parse_hand("11o 11c 11e 10b"))
    assert grande(parse_hand("12o 7c 1e 1b")) > grande(parse_hand("12o 6c 6e 5b"))
    assert chica(parse_hand("1o 2c 4e 12b")) > chica(parse_hand("1o 4c 4e 5b"))
    assert chica(parse_hand("1o 4c 5e 12b")) > chica(parse_hand("4o 4c 4e 5b"))


def test_bonuses() -> None:
    assert juego_bonus(31) == 3
    assert [juego_bonus(t) for t in (32, 33, 34, 35, 36, 37, 40)] == [2] * 7
    assert [pares_kind(parse_hand(h)) for h in ("5o 5c 6e 7b", "5o 5c 5e 7b", "5o 5c 7e 7b")] == [
        1,
        2,
        3,
    ]


def test_punto_is_the_points() -> None:
    assert punto(parse_hand("10o 10c 7e 2b")) == 28
    assert punto(parse_hand("10o 10c 5e 4b")) == 29
    assert punto(parse_hand("10o 10c 4e 6b")) == 30


@settings(max_examples=300, deadline=None)
@given(
    keys=st.lists(st.integers(0, 5), min_size=4, max_size=4),
    mano=st.integers(0, 3),
    eligible=st.sets(st.integers(0, 3), min_size=1),
)
def test_lance_winner_best_key_ties_to_closest_to_mano(
    keys: list[int], mano: int, eligible: set[int]
) -> None:
    w = lance_winner(keys, mano, eligible)
    assert w in eligible
    distance = {s: (s - mano) % 4 for s in range(4)}
    expected = min(eligible, key=lambda s: (-keys[s], distance[s]))
    assert w == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(range(40)), min_size=8, max_size=8, unique=True))
def test_two_hands_compare_like_the_reference(cards: list[int]) -> None:
    a, b = tuple(cards[:4]), tuple(cards[4:])
    ta, tb = [CARD_STR[c] for c in a], [CARD_STR[c] for c in b]
    assert sign(grande(a) - grande(b)) == cmp(ref_grande(ta), ref_grande(tb))
    assert sign(chica(a) - chica(b)) == cmp(ref_chica(ta), ref_chica(tb))
    assert sign(pares(a) - pares(b)) == cmp(ref_pares(ta), ref_pares(tb))
    # evaluation does not depend on the order of the cards
    assert evaluate(a) == evaluate(tuple(reversed(a)))


def test_lance_winner_without_eligible_seats_raises() -> None:
    try:
        lance_winner([1, 2, 3, 4], 0, [])
    except TavernaError as e:
        assert "no seat takes part" in str(e)
    else:
        raise AssertionError("no error")


def test_docstring_examples() -> None:
    from taverna.games import mus

    assert doctest.testmod(mus_hands).failed == 0
    assert doctest.testmod(mus).failed == 0


def test_the_old_module_name_still_works() -> None:
    from taverna.games import mus_hands as old_name

    assert old_name.evaluate is mus_hands.evaluate
    assert sorted(old_name.__all__) == sorted(mus_hands.__all__)
