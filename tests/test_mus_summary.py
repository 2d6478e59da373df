"""The Mus hand-end accounting (docs/rules.md §3.7): where every stone of a hand came from,
and why each lance compared at the showdown was won.

``hand_end`` carries ``stones_before``, a ``tally`` of every stone credited in the hand
(refused bets at once, then the showdown lance by lance, the pares and juego bonuses
per player) and the ``verdicts`` of the lances decided by comparing hands. Every
expected value below is worked out in the comments from the rule text.
"""

from __future__ import annotations

import random

from taverna.games.mus import Mus

from .mus_helpers import deal, of_type, play, start

PASS4 = ["0 pass", "1 pass", "2 pass", "3 pass"]


def _counted(tally: list[dict]) -> list[int]:
    out = [0, 0]
    for row in tally:
        if row.get("counted", True):
            out[row["team"]] += row["stones"]
    return out


def test_refused_bets_are_in_the_tally_with_what_they_were_worth() -> None:
    # Mano 0. Nobody holds pares or juego, so Pares is skipped and Punto is played:
    #   seat 0: 12o 11o 7o 1o  K 11 7 A, 28 points
    #   seat 1: 3c 10c 6c 4c   K 10 6 4 (a three is a king), 30 points
    #   seat 2: 12e 11e 5e 2e  K 11 5 A (a two is an ace), 26 points
    #   seat 3: 3b 10b 6b 2b   K 10 6 A, 27 points
    s = start(deal(["12o 11o 7o 1o", "3c 10c 6c 4c", "12e 11e 5e 2e", "3b 10b 6b 2b"]))
    # Grande: seat 0 bets 3, seat 1 raises by 2 (stake 5), seats 2 and 0 reject: the
    # raise is refused, pair 1 is credited the stake before it, 3, at once.
    # Chica: seat 1 bets 2, seats 2 and 0 reject: the lance's first bet, 1 to pair 1.
    # Punto: seat 0 bets 2, seats 1 and 3 reject: 1 to pair 0 at once; at the
    # showdown Punto's extra stone goes to the bettors of the refused bet: 1 more.
    events = play(
        s,
        "0 no_mus",
        *("0 bet 3", "1 raise 2", "2 reject", "0 reject"),
        *("0 pass", "1 bet 2", "2 reject", "0 reject"),
        *("0 bet 2", "1 reject", "3 reject"),
    )
    end = of_type(events, "hand_end")[0]
    assert end["tally"] == [
        {"lance": "grande", "team": 1, "stones": 3, "for": "refused"},
        {"lance": "chica", "team": 1, "stones": 1, "for": "refused"},
        {"lance": "punto", "team": 0, "stones": 1, "for": "refused"},
        {"lance": "punto", "team": 0, "stones": 1, "for": "punto"},
    ]
    # 0 + 1 + 1 = 2 for pair 0, 0 + 3 + 1 = 4 for pair 1
    assert end["stones_before"] == [0, 0] and end["stones"] == [2, 4] == s.stones
    # the showdown's own lance stones (the old summary) miss the refused credits
    assert [x["stones"] for x in end["lances"]] == [0, 0, 0, 1]
    assert end["verdicts"] == []  # no lance was decided by comparing hands


def test_stakes_bonuses_per_player_and_why_each_lance_was_won() -> None:
    # Mano 0.
    #   seat 0: 12o 12c 11o 11c  duples (kings and caballos), 40 points: juego
    #   seat 1: 7o 7c 7e 4o      medias of sevens, 25 points
    #   seat 2: 10o 11e 10c 1o   par of sotas, 31 points: juego
    #   seat 3: 10e 11b 6o 6c    par of sixes, 32 points: juego
    # Grande, bet 2 and accepted: seat 0 (K K 11 11) over pair 1's best, seat 3
    # (11 10 6 6; seat 1 has 7 7 7 4): the first card, king over caballo. Stake 2.
    # Chica in pass: seat 2 (A 10 10 11) over pair 1's best, seat 1 (4 7 7 7; seat 3
    # has 6 6 10 11): the lowest card, ace over 4. 1 stone.
    # Pares in pass: seat 0's duples beat seat 1's medias; pair 0 scores per player
    # holding pares: duples 3 (seat 0) + par 1 (seat 2).
    # Juego in pass (seats 0, 2, 3 hold it): seat 2's 31 beats seat 3's 32; pair 0
    # scores per player holding juego: 2 for seat 0's 40, 3 for seat 2's 31.
    s = start(deal(["12o 12c 11o 11c", "7o 7c 7e 4o", "10o 11e 10c 1o", "10e 11b 6o 6c"]))
    events = play(
        s, "0 no_mus", "0 bet 2", "1 accept", *PASS4, *PASS4, "0 pass", "2 pass", "3 pass"
    )
    end = of_type(events, "hand_end")[0]
    assert end["tally"] == [
        {"lance": "grande", "team": 0, "stones": 2, "for": "stake"},
        {"lance": "chica", "team": 0, "stones": 1, "for": "pass"},
        {"lance": "pares", "team": 0, "stones": 3, "for": "pares", "seat": 0, "kind": "duples"},
        {"lance": "pares", "team": 0, "stones": 1, "for": "pares", "seat": 2, "kind": "par"},
        {"lance": "juego", "team": 0, "stones": 2, "for": "juego", "seat": 0, "points": 40},
        {"lance": "juego", "team": 0, "stones": 3, "for": "juego", "seat": 2, "points": 31},
    ]
    # 2 + 1 + 4 + 5 = 12
    assert end["stones_before"] == [0, 0] and end["stones"] == [12, 0]
    assert end["verdicts"] == [
        {
            "lance": "grande",
            "seat": 0,
            "over": 3,
            "by": "card",
            "at": 0,
            "ranks": ["king", "caballo"],
        },
        {"lance": "chica", "seat": 2, "over": 1, "by": "card", "at": 0, "ranks": ["ace", "4"]},
        {"lance": "pares", "seat": 0, "over": 1, "by": "kind", "kinds": ["duples", "medias"]},
        {"lance": "juego", "seat": 2, "over": 3, "by": "juego", "points": [31, 32]},
    ]


def test_a_later_card_the_pair_rank_and_a_tie_closer_to_mano() -> None:
    # Mano 0.
    #   seat 0: 12o 12c 7o 4o  par of kings, K K 7 4, 31 points: juego
    #   seat 1: 12e 10o 10c 5o par of sotas, K 10 10 5, 35 points: juego
    #   seat 2: 4c 5e 6o 7c    nothing, 7 6 5 4, 22 points
    #   seat 3: 4e 5b 6c 7e    the same as seat 2
    # Grande: seat 0 over seat 1 (seat 3 has 7 6 5 4): kings both, then king over sota.
    # Chica: seats 2 and 3 hold the same 4 5 6 7, better than seat 0's 4 7 and seat 1's
    # 5: a tie, to seat 2, the closer to mano.
    # Pares (seats 0 and 1): both a par, kings over sotas; 1 stone for seat 0's par.
    # Juego (seats 0 and 1): 31 beats 35; 3 stones for seat 0's 31.
    s = start(deal(["12o 12c 7o 4o", "12e 10o 10c 5o", "4c 5e 6o 7c", "4e 5b 6c 7e"]))
    events = play(s, "0 no_mus", *PASS4, *PASS4, "0 pass", "1 pass", "0 pass", "1 pass")
    end = of_type(events, "hand_end")[0]
    assert end["verdicts"] == [
        {"lance": "grande", "seat": 0, "over": 1, "by": "card", "at": 1, "ranks": ["king", "sota"]},
        {"lance": "chica", "seat": 2, "over": 3, "by": "tie"},
        {
            "lance": "pares",
            "seat": 0,
            "over": 1,
            "by": "rank",
            "kind": "par",
            "ranks": ["king", "sota"],
        },
        {"lance": "juego", "seat": 0, "over": 1, "by": "juego", "points": [31, 35]},
    ]
    # grande 1 + chica 1 + pares 1 + juego 3
    assert end["stones"] == [6, 0] and _counted(end["tally"]) == [6, 0]


def test_a_real_31_is_said_as_such() -> None:
    # real_31, mano 0. Juego: seat 0's 31 (10 11 12 A) and seat 1's 7-7-7-sota; seat 0
    # is closer to mano, but the real 31 beats every other 31.
    s = start(
        deal(["10o 11o 12o 1o", "7o 7c 7e 10c", "4o 5o 6o 4c", "5c 6c 4e 5e"]),
        settings={"real_31": True},
    )
    # pares: seat 1 medias, seats 2 and 3 a par each, so all three speak; juego: 0 and 1
    events = play(s, "0 no_mus", *PASS4, *PASS4, "1 pass", "2 pass", "3 pass", "0 pass", "1 pass")
    end = of_type(events, "hand_end")[0]
    assert end["verdicts"][-1] == {"lance": "juego", "seat": 1, "over": 0, "by": "real_31"}


def test_stones_not_counted_after_40_are_marked_so() -> None:
    # D1 of test_mus_rules: grande seat 0 and chica seat 2 in pass, 1 each to pair 0;
    # pares pair 0 (par of kings 1 + par of aces 1), juego pair 1 alone (31: 3, 34: 2).
    # On 38, pair 0 reaches 40 with the chica: pares and juego are not counted.
    s = start(deal(["12o 12c 4e 5b", "11o 11c 10e 1b", "1o 2c 4c 6b", "7o 7c 10o 3b"]))
    s.stones = [38, 30]
    events = play(s, "0 no_mus", *PASS4, *PASS4, *PASS4)
    end = of_type(events, "hand_end")[0]
    assert [(r["lance"], r["stones"], r.get("counted", True)) for r in end["tally"]] == [
        ("grande", 1, True),
        ("chica", 1, True),
        ("pares", 1, False),
        ("pares", 1, False),
        ("juego", 3, False),
        ("juego", 2, False),
    ]
    assert end["stones_before"] == [38, 30] and end["stones"] == [40, 30]


def test_an_accepted_ordago_says_who_won_its_lance_and_why() -> None:
    # D1: grande refused (1 to pair 0 at once); chica: seat 1 calls órdago, seat 2
    # accepts. Seat 2 (A A 4 6) over pair 1's best chica, seat 1 (A 10 11 11; seat 3
    # has 7 7 10 K): aces both, then ace over sota.
    s = start(deal(["12o 12c 4e 5b", "11o 11c 10e 1b", "1o 2c 4c 6b", "7o 7c 10o 3b"]))
    events = play(
        s, "0 no_mus", "0 bet 2", "1 reject", "3 reject", "0 pass", "1 ordago", "2 accept"
    )
    end = of_type(events, "hand_end")[0]
    assert end["reason"] == "ordago"
    assert end["verdicts"] == [
        {"lance": "chica", "seat": 2, "over": 1, "by": "card", "at": 1, "ranks": ["ace", "sota"]}
    ]
    assert end["tally"] == [{"lance": "grande", "team": 0, "stones": 1, "for": "refused"}]
    assert end["stones_before"] == [0, 0] and end["stones"] == [1, 0]


def test_a_game_won_by_a_refused_bet_has_its_tally_too() -> None:
    s = start(deal(["12o 12c 4e 5b", "11o 11c 10e 1b", "1o 2c 4c 6b", "7o 7c 10o 3b"]))
    s.stones = [12, 38]
    events = play(s, "0 no_mus", "0 pass", "1 bet 3", "2 raise 2", "3 reject", "1 reject")
    # the raise is refused: pair 0 gets the stake before it, 3 -> 15; then chica...
    events += play(s, "0 pass", "1 bet 2", "2 reject", "0 reject")  # 1 to pair 1: 39
    events += play(s, "0 pass", "1 bet 2", "2 reject", "0 reject")  # pares: 40, won
    end = of_type(events, "hand_end")[0]
    assert end["reason"] == "game won"
    assert end["tally"] == [
        {"lance": "grande", "team": 0, "stones": 3, "for": "refused"},
        {"lance": "chica", "team": 1, "stones": 1, "for": "refused"},
        {"lance": "pares", "team": 1, "stones": 1, "for": "refused"},
    ]
    assert end["stones_before"] == [12, 38] and end["stones"] == [15, 40]


def test_every_hand_adds_up() -> None:
    """Over random games: the counted rows take each hand from the stones its deal
    started with to the stones it ended with."""
    rng = random.Random(3)
    hands = 0
    for seed in range(40):
        s = Mus.new(4, {"cows": 1, "games_per_cow": 1}, seed=seed)
        start_stones = s.stones[:]
        while not s.over:
            for e in s.apply(rng.choice(s.legal_actions())):
                if e["type"] == "deal":
                    start_stones = e["stones"]
                elif e["type"] == "hand_end":
                    hands += 1
                    assert e["stones_before"] == start_stones
                    got = _counted(e["tally"])
                    assert [a + b for a, b in zip(start_stones, got, strict=True)] == e["stones"]
                    compared = {
                        "showdown": sum(
                            1 for x in e["lances"] if x["status"] in ("pass", "accepted")
                        ),
                        "ordago": 1,  # only the órdago's lance is played out
                        "game won": 0,  # a refused bet: no hand is compared
                    }[e["reason"]]
                    assert len(e["verdicts"]) == compared
    assert hands > 40
