"""Independent rules review of Mus (docs/rules.md §3).

Each test is named after the rule it checks; deals are built by hand and
every expected number is worked out in the comments from the rule text. The
last tests play random games against a small reference model of docs/rules.md §3 written
from the rule text alone (``review_mus_model``).
"""

from __future__ import annotations

import json

import pytest

from taverna.games.base import IllegalAction
from taverna.games.mus import Mus

from .mus_helpers import credits, deal, of_type, play, start
from .review_mus_model import MusModel, evaluate, play_against_model

ALL_PASS = ["0 pass", "1 pass", "2 pass", "3 pass"]

# D1, as in test_mus_rules (mano 0):
#   seat 0: 12o 12c 4e 5b  K K 5 4, par of kings, 29
#   seat 1: 11o 11c 10e 1b 11 11 10 A, par of caballos, 31
#   seat 2: 1o 2c 4c 6b    A A 4 6, par of aces, 12
#   seat 3: 7o 7c 10o 3b   K 10 7 7, par of sevens, 34
# Grande seat 0; Chica seat 2; Pares (all hold) seat 0's kings: pair 0, 1 + 1;
# Juego only pair 1 (31 and 34): pair 1 alone, 3 + 2.
D1 = ["12o 12c 4e 5b", "11o 11c 10e 1b", "1o 2c 4c 6b", "7o 7c 10o 3b"]

# J3, mano 0: nobody holds pares; juego for seats 0 (31), 1 (37) and 2 (31).
#   seat 0: 12o 11o 10o 1o  K 11 10 A, 31
#   seat 1: 12c 11c 10c 7c  K 11 10 7, 37
#   seat 2: 12e 11e 10e 2e  K 11 10 A (a two is an ace), 31
#   seat 3: 4o 5o 6o 7o     7 6 5 4, 22
# Grande: K 11 10 then 7 beats A -> seat 1, pair 1. Chica: the lowest card is
# an ace for seats 0 and 2, their hands tie all the way -> seat 0 (closer to
# mano), pair 0. Pares: skipped. Juego speakers: 0, 1, 2.
J3 = ["12o 11o 10o 1o", "12c 11c 10c 7c", "12e 11e 10e 2e", "4o 5o 6o 7o"]


# ------------------------------------------------------------------- mano


def test_mano_passes_on_after_a_game_won_at_the_count() -> None:
    s = start(deal(D1, 0), deal(D1, None))
    s.stones = [38, 0]
    events = play(s, "0 no_mus", *ALL_PASS, *ALL_PASS, *ALL_PASS)
    # grande 39, chica 40: the game is over for pair 0
    assert of_type(events, "game_end")[0]["stones"] == [40, 0]
    assert (s.mano, s.hand_no, s.game_no, s.stones, s.games) == (1, 1, 1, [0, 0], [1, 0])
    assert s.to_act == (1,)


# --------------------------------------------------------- mus and discards


def test_mus_and_discards_run_from_mano_and_a_new_mus_round_starts_at_mano() -> None:
    s = start(deal(D1, 3))
    play(s, "3 mus", "0 mus", "1 mus", "2 mus")
    assert s.to_act == (3,)
    with pytest.raises(IllegalAction, match="seat 3's turn to discard"):
        play(s, "0 discard 4e")
    play(s, "3 discard 7o", "0 discard 4e", "1 discard 1b", "2 discard 6b")
    assert s.to_act == (3,) and s.phase == 0  # a new mus round, at mano
    events = play(s, "3 mus", "0 no_mus")  # the first no mus ends the phase
    assert of_type(events, "lance")[0] == {
        "type": "lance",
        "lance": "grande",
        "speakers": [3, 0, 1, 2],
    }


# Deck of deal(D1), top first: 1c 1e 2o 2e | 2b 3o 3c 3e | 4o 4b 5o 5c |
# 5e 6o 6c 6e | 7e 7b 10c 10b | 11e 11b 12e 12b.
ROUND_1 = ["0 discard 12o 12c 4e 5b", "1 discard 11o 11c 10e 1b"]
ROUND_1 += ["2 discard 1o 2c 4c 6b", "3 discard 7o 7c 10o 3b"]
# seat 0 now holds 1c 1e 2o 2e, seat 1 2b 3o 3c 3e, seat 2 4o 4b 5o 5c
ROUND_2 = ["0 discard 1c 1e 2o 2e", "1 discard 2b 3o 3c 3e"]
# the discards of this hand before seat 2 is served in round 2
PILE = [
    *["12o", "12c", "4e", "5b", "11o", "11c", "10e", "1b"],  # round 1, seats 0 and 1
    *["1o", "2c", "4c", "6b", "7o", "7c", "10o", "3b"],  # round 1, seats 2 and 3
    *["1c", "1e", "2o", "2e", "2b", "3o", "3c", "3e"],  # round 2, seats 0 and 1
]


def test_reshuffle_only_when_a_card_is_missing_and_without_the_servees_new_discards() -> None:
    new_deck = PILE[::-1]  # any order; top first: 3e
    s = start(deal(D1, reshuffles=[new_deck]))
    play(s, *["0 mus", "1 mus", "2 mus", "3 mus"], *ROUND_1)
    play(s, *["0 mus", "1 mus", "2 mus", "3 mus"], ROUND_2[0])
    events = play(s, ROUND_2[1])  # takes the last four cards: no reshuffle yet
    assert not of_type(events, "reshuffle") and s.view(None)["deck"] == 0
    assert s.hand_cards(1) == ["11e", "11b", "12e", "12b"]
    # seat 2 throws 4o and must be served from an empty deck: every discard of
    # the hand (both rounds, seats 0 and 1 included) but 4o makes the new deck
    events = play(s, "2 discard 4o")
    assert of_type(events, "reshuffle")[0]["deck"] == 24
    assert s.hand_cards(2) == ["4b", "5o", "5c", "3e"]
    assert s.view(None)["deck"] == 23 and s.view(2)["discarded"] == ["4o"]


def test_a_reshuffle_holding_the_servees_new_discard_is_refused() -> None:
    wrong = [c for c in PILE if c != "3e"] + ["4o"]
    s = start(deal(D1, reshuffles=[wrong]))
    play(s, *["0 mus", "1 mus", "2 mus", "3 mus"], *ROUND_1)
    play(s, *["0 mus", "1 mus", "2 mus", "3 mus"], *ROUND_2)
    with pytest.raises(IllegalAction, match="lacks 3e and holds 4o"):
        play(s, "2 discard 4o")


# ------------------------------------------------------ who takes part


def test_eligible_players_speak_from_mano_skipping_those_not_taking_part() -> None:
    # D3 with mano 3: seat 3 (mano) holds no pares, so seat 0 speaks first
    d3 = ["12o 12c 5b 4b", "11o 11c 6b 7b", "1o 2c 4c 6c", "7o 10o 5o 3b"]
    s = start(deal(d3, 3))
    events = play(s, "3 no_mus", "3 pass", "0 pass", "1 pass", "2 pass")
    events += play(s, "3 pass", "0 pass", "1 pass", "2 pass")
    assert of_type(events, "lance")[-1] == {
        "type": "lance",
        "lance": "pares",
        "speakers": [0, 1, 2],
    }
    assert s.to_act == (0,)


def test_a_single_holder_answering_for_its_pair_refuses_by_its_own_rejection() -> None:
    s = start(deal(J3))
    events = play(s, "0 no_mus", *ALL_PASS, *ALL_PASS)
    assert of_type(events, "lance")[-1] == {
        "type": "lance",
        "lance": "juego",
        "speakers": [0, 1, 2],
    }
    play(s, "0 bet 2")
    assert s.to_act == (1,)  # seat 3 holds no juego: seat 1 answers alone
    events = play(s, "1 reject")
    # refused at once: 1 stone to pair 0. The count: grande pair 1 (1), chica
    # pair 0 (1), juego refused: the bettors' juego holders, 31 -> 3, 31 -> 3.
    assert credits(events) == [("juego", 0, 1), ("grande", 1, 1), ("chica", 0, 1), ("juego", 0, 6)]
    assert s.stones == [8, 1]


def test_an_accepted_juego_pays_the_stake_and_three_for_each_31_of_the_winning_pair() -> None:
    s = start(deal(J3))
    play(s, "0 no_mus", *ALL_PASS, *ALL_PASS)
    events = play(s, "0 bet 2", "1 accept")
    # 31 beats 37; seats 0 and 2 tie on 31 and seat 0 is closer to mano: pair 0
    # gets the stake 2 + 3 (seat 0) + 3 (seat 2)
    assert credits(events) == [("grande", 1, 1), ("chica", 0, 1), ("juego", 0, 8)]


# ------------------------------------------------------------- betting


def test_the_answer_starts_after_the_bettor_and_accepting_settles_the_lance() -> None:
    s = start(deal(D1, 2))
    play(s, "2 no_mus", "2 pass", "3 bet 2")
    assert s.to_act == (0,)  # the other pair, starting after seat 3: 0, then 2
    play(s, "0 reject")
    assert s.to_act == (2,)
    events = play(s, "2 accept")  # seats 0 and 1 never spoke before the bet
    assert of_type(events, "lance")[-1]["lance"] == "chica" and s.to_act == (2,)
    assert credits(events) == []


def test_a_raise_by_the_partner_after_a_rejection_is_answered_from_after_the_raiser() -> None:
    s = start(deal(D1))
    play(s, "0 no_mus", "0 bet 2", "1 reject")
    assert s.to_act == (3,)
    play(s, "3 raise 3")  # stake 5
    assert s.to_act == (0,)  # after seat 3: seat 0, then seat 2
    play(s, "0 reject")
    assert s.to_act == (2,)
    events = play(s, "2 reject")
    # refused: pair 1 made the last bet; the stake before it was 2
    assert credits(events) == [("grande", 1, 2)]
    assert of_type(events, "lance")[-1]["lance"] == "chica" and s.to_act == (0,)


def test_an_ordago_rejected_by_one_and_accepted_by_the_partner_decides_the_game() -> None:
    s = start(deal(D1))
    events = play(s, "0 no_mus", "0 ordago", "1 reject", "3 accept")
    # grande: seat 0's K K 5 4 wins, so pair 0 wins the game at once
    assert of_type(events, "game_end")[0]["team"] == 0
    assert of_type(events, "hand_end")[0]["reason"] == "ordago"
    assert credits(events) == [] and s.games == [1, 0]


def test_an_ordago_answering_a_raise_is_worth_the_raised_stake_when_refused() -> None:
    s = start(deal(D1))
    play(s, "0 no_mus", "0 bet 2", "1 raise 3", "2 ordago")  # stake 5, then órdago
    assert s.to_act == (3,)  # after seat 2: seat 3, then seat 1
    assert [a.type for a in s.legal_actions()] == ["accept", "reject"]
    events = play(s, "3 reject", "1 reject")
    assert credits(events) == [("grande", 0, 5)]


# ------------------------------------------------------------ the count


def test_a_refused_pares_bet_pays_the_bettors_their_own_bonuses() -> None:
    s = start(deal(D1))
    play(s, "0 no_mus", *ALL_PASS, *ALL_PASS)
    events = play(s, "0 pass", "1 bet 2", "2 reject", "0 reject")
    # refused at once: 1 to pair 1, although pair 0 holds the better pares.
    # Count: grande pair 0 (1), chica pair 0 (1), pares to the bettors: seat 1's
    # par 1 + seat 3's par 1, juego pair 1 alone: 31 -> 3, 34 -> 2.
    assert credits(events) == [
        ("pares", 1, 1),
        ("grande", 0, 1),
        ("chica", 0, 1),
        ("pares", 1, 2),
        ("juego", 1, 5),
    ]
    assert s.stones == [2, 8]


def test_the_count_stops_at_40_before_a_later_lance_of_the_other_pair() -> None:
    s = start(deal(D1))
    s.stones = [37, 38]
    events = play(s, "0 no_mus", *ALL_PASS, *ALL_PASS, *ALL_PASS)
    # grande 38, chica 39, pares +2 -> 41: pair 0 wins; pair 1's juego 5 (which
    # would have made 43) is never counted
    assert credits(events) == [("grande", 0, 1), ("chica", 0, 1), ("pares", 0, 2)]
    game_end = of_type(events, "game_end")[0]
    assert (game_end["team"], game_end["stones"]) == (0, [41, 38])


@pytest.mark.parametrize(("real", "team"), [(False, 0), (True, 1)])
def test_an_accepted_ordago_in_juego_is_won_by_the_real_31_only_with_the_setting(
    real: bool, team: int
) -> None:
    # seat 0 (mano) a plain 31, seat 1 the 7-7-7-sota; pares: only seat 1 (medias)
    hands = ["10o 11o 12o 1o", "7o 7c 7e 10c", "4o 5o 6o 1c", "4c 5c 6c 2o"]
    s = start(deal(hands), settings={"real_31": real})
    events = play(s, "0 no_mus", *ALL_PASS, *ALL_PASS)
    assert of_type(events, "lance")[-1]["speakers"] == [0, 1]
    events = play(s, "0 ordago", "1 accept")
    assert of_type(events, "game_end")[0]["team"] == team


# ----------------------------------------------------- reference model


def test_the_models_hand_values_follow_the_rule_text() -> None:
    d1 = [evaluate(h.split(), False) for h in D1]
    assert [v["kind"] for v in d1] == [1, 1, 1, 1]
    assert [v["points"] for v in d1] == [29, 31, 12, 34]
    j3 = [evaluate(h.split(), True) for h in J3]
    assert max(range(4), key=lambda x: j3[x]["grande"]) == 1
    assert j3[0]["chica"] == j3[2]["chica"] > j3[3]["chica"]


def test_the_model_counts_a_hand_worked_out_here() -> None:
    model = MusModel(Mus.check_settings(4, {}))
    d = deal(J3)
    model.begin(d["hands"], d["deck"], 0)
    for text in ["0 no_mus", *ALL_PASS, *ALL_PASS, "0 bet 2", "1 reject"]:
        seat, kind, *rest = text.split()
        a: dict[str, object] = {"seat": int(seat), "type": kind}
        if rest:
            a["amount"] = int(rest[0])
        model.apply(a)
    assert model.stones == [8, 1]


@pytest.mark.parametrize("seed", range(40))
def test_random_games_follow_the_rules_model(seed: int) -> None:
    settings = {"cows": 1 + seed % 2, "games_per_cow": 1 + seed % 3, "real_31": seed % 4 < 2}
    problem = play_against_model(seed, settings)
    assert problem is None, json.dumps(problem)
