"""Tournament pairings and standings (taverna.pairing), cases worked out by hand."""

from __future__ import annotations

from taverna.pairing import Game, knockout_round, knockout_rounds, standings, swiss_round


def test_swiss_first_round_pairs_the_seeding_in_order() -> None:
    # nobody has played: the standings are the seeding; 1-2, 3-4, 5-6
    assert swiss_round([1, 2, 3, 4, 5, 6], []) == ([(1, 2), (3, 4), (5, 6)], None)


def test_swiss_pairs_by_score_and_never_twice() -> None:
    r1 = [
        Game(1, [1, 2], {1: 1.0, 2: 0.0}),
        Game(1, [3, 4], {3: 1.0, 4: 0.0}),
        Game(1, [5, 6], {5: 0.0, 6: 1.0}),
    ]
    # winners 1, 3, 6 (Buchholz all 0, one win each: seeding order), losers 2, 4, 5
    pairs, bye = swiss_round([1, 2, 3, 4, 5, 6], r1)
    assert bye is None
    assert pairs == [(1, 3), (6, 2), (4, 5)]
    r2 = [
        Game(2, [1, 3], {1: 1.0, 3: 0.0}),
        Game(2, [6, 2], {6: 1.0, 2: 0.0}),
        Game(2, [4, 5], {4: 1.0, 5: 0.0}),
    ]
    # standings: 1 and 6 on 2 (Buchholz: 1 met 2 and 3 = 0 + 1 = 1; 6 met 5 and 2 =
    # 0 + 0 = 0), then 3 and 4 on 1 (3 met 4 and 1: 1 + 2 = 3; 4 met 3 and 5: 1 + 0 = 1),
    # then 2 and 5 on 0 (2 met 1 and 6: 4; 5 met 6 and 4: 3)
    order = [s.entry for s in standings([1, 2, 3, 4, 5, 6], r1 + r2)]
    assert order == [1, 6, 3, 4, 2, 5]
    pairs, _ = swiss_round([1, 2, 3, 4, 5, 6], r1 + r2)
    # 1-6 (new); 3 met 4, so 3-2, which leaves 4-5 (met in round 2): back to 3, who
    # takes 5, and 4-2
    assert pairs == [(1, 6), (3, 5), (4, 2)]
    met = {frozenset(g.entries) for g in r1 + r2}
    assert not any(frozenset(p) in met for p in pairs)


def test_the_bye_goes_to_the_lowest_who_had_none() -> None:
    pairs, bye = swiss_round([1, 2, 3, 4, 5], [])
    assert bye == 5 and pairs == [(1, 2), (3, 4)]
    games = [
        Game(1, [1, 2], {1: 1.0, 2: 0.0}),
        Game(1, [3, 4], {3: 0.5, 4: 0.5}),
        Game(1, [5], {5: 1.0}),
    ]
    # standings: 1 (1, a win), 5 (1, a bye), 3 and 4 (½), 2 (0): the lowest, 2, had none
    _, bye = swiss_round([1, 2, 3, 4, 5], games)
    assert bye == 2
    # a bye is worth a win in points but not in Buchholz of the one who had it
    st = {s.entry: s for s in standings([1, 2, 3, 4, 5], games)}
    assert st[5].points == 1.0 and st[5].byes == 1 and st[5].buchholz == 0.0
    assert st[2].buchholz == 1.0  # met 1, who has 1


def test_knockout_best_against_worst_then_the_winners() -> None:
    assert knockout_rounds(4) == 2 and knockout_rounds(5) == 3 and knockout_rounds(2) == 1
    pairs, bye = knockout_round([10, 20, 30, 40], [], 1)
    assert pairs == [(10, 40), (20, 30)] and bye is None
    r1 = [Game(1, [10, 40], {10: 0.0, 40: 1.0}), Game(1, [20, 30], {20: 1.0, 30: 0.0})]
    assert knockout_round([10, 20, 30, 40], r1, 2) == ([(40, 20)], None)


def test_knockout_with_an_odd_count_gives_the_top_seed_a_bye() -> None:
    pairs, bye = knockout_round([1, 2, 3, 4, 5], [], 1)
    assert bye == 1 and pairs == [(2, 5), (3, 4)]
    r1 = [
        Game(1, [2, 5], {2: 1.0, 5: 0.0}),
        Game(1, [3, 4], {3: 0.0, 4: 1.0}),
        Game(1, [1], {1: 1.0}),
    ]
    # winners in the order of their best seed: 1 (bye), 2, 4: 1-2, and 4 waits
    assert knockout_round([1, 2, 3, 4, 5], r1, 2) == ([(1, 2)], 4)


def test_a_drawn_knockout_game_goes_to_the_better_seed() -> None:
    r1 = [Game(1, [1, 4], {1: 0.5, 4: 0.5}), Game(1, [2, 3], {2: 0.0, 3: 1.0})]
    assert knockout_round([1, 2, 3, 4], r1, 2) == ([(1, 3)], None)
