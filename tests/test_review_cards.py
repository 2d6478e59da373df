"""Independent rules review of Muggins cards (docs/rules.md §2).

Each test is named after the rule it checks; positions are dealt by hand and
every expected number is worked out in the comments from the rule text. The
last test plays random games against a small reference model of docs/rules.md §2 written
from the rule text alone (``review_cards_model``).
"""

from __future__ import annotations

import json
import random

import pytest

from taverna.games import IllegalAction
from taverna.games.cards import Cards

from .cards_helpers import action, claim, deal, go, muggins, of_type, play, start
from .review_cards_model import CardsModel, play_against_model

# Three seats, Deal-Seven, dealer 0: seat 1 leads, turns run 1, 2, 0.
#   seat 0: 5S 5D 10D QD QC JD 9S
#   seat 1: 10H 2S KD AC AH 3C 10C
#   seat 2: KC 3S 7S 2C AS 7H 8S
# The line below is legal card by card (each card fits; a go only when
# nothing fits):
#   pile 1 (seat 1 leads): 3C 3, AS 4, JD 14, KD 24, 2C 26, 5S 31 -> limit, seat 0 +2
#   pile 2 (seat 1 leads, the first active after seat 0): AC 1, KC 11, QD 21,
#          10H 31 -> limit, seat 1 +2
#   pile 3 (seat 2 leads): 8S 8, 9S 17, 10C 27, 3S 30 (seat 2 +30), seat 0 go
#          (5D 10D QC: 35, 40, 40), AH 31 -> limit, seat 1 +2
#   pile 4 (seat 2 leads): 7S 7, 10D 17, 2S 19 (seat 1 is now empty),
#          7H 26 (seat 2 is now empty), 5D 31 -> limit, seat 0 +2
#   seat 0 alone holds QC: it leads pile 5 and QC is the round's final card:
#          10 scores 10 and 'last' 1.
THREE = [
    ["5S", "5D", "10D", "QD", "QC", "JD", "9S"],
    ["10H", "2S", "KD", "AC", "AH", "3C", "10C"],
    ["KC", "3S", "7S", "2C", "AS", "7H", "8S"],
]
THREE_LINE = [
    (1, "3C"), (2, "AS"), (0, "JD"), (1, "KD"), (2, "2C"), (0, "5S"),
    (1, "AC"), (2, "KC"), (0, "QD"), (1, "10H"),
    (2, "8S"), (0, "9S"), (1, "10C"), (2, "3S"), (0, "go"), (1, "AH"),
    (2, "7S"), (0, "10D"), (1, "2S"), (2, "7H"),
]  # fmt: skip


def run(state: Cards, line: list[tuple[int, str]]) -> list[dict]:
    """Play a line: ``(seat, card)`` plays the card unclaimed, ``(seat, "go")`` says go."""
    events: list[dict] = []
    for seat, card in line:
        events += go(state, seat) if card == "go" else play(state, seat, card)
    return events


# ------------------------------------------------------ the next pile's leader


def test_next_pile_after_the_limit_is_led_by_the_first_active_seat_after_its_player() -> None:
    s = start(deal(THREE, dealer=0), hand_size=7, muggins=False, target=1000)
    run(s, THREE_LINE)
    assert s.hand_cards(1) == [] and s.hand_cards(2) == []
    events = play(s, 0, "5D")  # 26 + 5 = 31: seat 0 +2, the pile closes at once
    close = of_type(events, "pile_closed")[0]
    assert (close["reason"], close["seat"], close["total"]) == ("limit", 0, 31)
    # seats 1 and 2 hold no card: they are not active, so seat 0 leads again
    assert close["leader"] == 0 and s.to_act == (0,) and s.total == 0
    events = play(s, 0, "QC")  # the round's final card: 10 scores 10, then 'last' 1
    assert of_type(events, "play")[0]["credit"] == 10
    assert of_type(events, "pile_closed")[0]["reason"] == "last-card"
    assert of_type(events, "pile_closed")[0]["credit"] == 1
    # seat 0: 2 + 2 + 10 + 1; seat 1: 2 + 2; seat 2: 30
    assert of_type(events, "round_end")[0]["scores"] == [15, 4, 30]


def test_every_limit_closure_hands_the_lead_to_the_seat_after_the_player() -> None:
    s = start(deal(THREE, dealer=0), hand_size=7, muggins=False, target=1000)
    leaders = [e["leader"] for e in of_type(run(s, THREE_LINE), "pile_closed")]
    # 5S by seat 0 -> seat 1; 10H by seat 1 -> seat 2; AH by seat 1 -> seat 2
    assert leaders == [1, 2, 2]


# ------------------------------------------- who is active, muggins window


def test_a_seat_without_cards_may_still_call_muggins() -> None:
    # docs/rules.md §2.7: "any opponent may call Muggins!"; "every seat holds a right to act"
    s = start(deal(THREE, dealer=0), hand_size=7, target=1000)
    run(s, THREE_LINE)  # nothing claimed: every score so far was lost
    assert s.scores == [0, 0, 0] and s.hand_cards(1) == []
    play(s, 0, "5D")  # 31 for 2, unclaimed
    assert set(s.to_act) == {0, 1, 2}
    assert s.legal_actions(1) == [action(1, "muggins")]
    muggins(s, 1)
    assert s.scores == [0, 2, 0]


def test_the_scorers_own_next_play_closes_its_window() -> None:
    # seat 0 is the only active seat after its 31: its next play closes the window
    s = start(deal(THREE, dealer=0), hand_size=7, target=1000)
    run(s, THREE_LINE)
    play(s, 0, "5D")  # 2 pending for seat 0
    events = play(s, 0, "QC")
    assert events[0] == {"type": "lost", "seat": 0, "points": 2}
    # the final card's 10 now waits for a claim; its 'last' 1 is credited at once
    assert of_type(events, "play")[0]["pending"] == 10
    assert s.scores == [1, 0, 0]
    assert s.view(None)["pending"] == {"seat": 0, "points": 10, "credits": [10]}


def test_a_score_may_be_claimed_after_its_pile_closed_at_the_limit() -> None:
    s = start(deal(THREE, dealer=0), hand_size=7, target=1000)
    run(s, THREE_LINE[:6])  # ... 2C 26, seat 0's 5S makes 31, unclaimed
    assert s.total == 0 and s.to_act[0] == 1  # closed; seat 1 leads the next pile
    claim(s, 0)
    assert s.scores == [2, 0, 0]


# ------------------------------------- the round's final card, 'last' point

# Deal-Seven, two seats, dealer 0 (seat 1 leads).
#   pile 1: 10S 10, 10H 20, QH 30, AS 31 (limit); seat 1 leads pile 2:
#   AH 1, AD 2, 2H 4, 2S 6, 3H 9, 2D 11, AC 12, KC 22, 5H 27, and seat 0's
#   last card is the round's final card.
TWO_0 = ["10H", "AS", "AD", "2S", "2D", "KC"]
TWO_1 = ["10S", "QH", "AH", "2H", "3H", "AC", "5H"]
TWO_LINE = [
    (1, "10S"), (0, "10H"), (1, "QH"), (0, "AS"),
    (1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D"),
    (1, "AC"), (0, "KC"), (1, "5H"),
]  # fmt: skip


def two(final: str, **settings: object) -> Cards:
    s = start(deal([[*TWO_0, final], TWO_1]), hand_size=7, **settings)  # type: ignore[arg-type]
    run(s, TWO_LINE)
    return s


def test_final_card_last_point_is_automatic_while_its_play_waits_for_a_claim() -> None:
    s = two("3C", target=1000)  # 27 + 3 = 30: the final card scores 30
    assert s.scores == [0, 0]  # every earlier score was left unclaimed and lost
    events = play(s, 0, "3C")
    assert of_type(events, "play")[0]["pending"] == 30
    assert of_type(events, "pile_closed")[0]["credit"] == 1  # 'last' needs no claim
    assert s.scores == [1, 0]
    muggins(s, 1)  # the 30 is still there to be stolen
    assert s.scores == [1, 30]


def test_muggins_on_last_final_card_at_the_limit_owes_only_the_2() -> None:
    s = two("4C", target=1000, muggins_on_last=True)  # 27 + 4 = 31
    events = play(s, 0, "4C")
    close = of_type(events, "pile_closed")[0]
    assert close["last"] == 0 and "pending" not in close
    assert s.view(None)["pending"] == {"seat": 0, "points": 2, "credits": [2]}
    claim(s, 0)
    assert s.scores == [2, 0]


def test_muggins_on_last_final_card_scoring_nothing_may_be_claimed_for_its_last() -> None:
    # 27 + 2 = 29 scores nothing, but the final card's 'last' 1 must be claimed
    s = two("2C", target=1000, muggins_on_last=True)
    assert action(0, "play", "2C", claim=True) in s.legal_actions(0)
    events = play(s, 0, "2C", claim=True)
    assert of_type(events, "pile_closed")[0]["credit"] == 1 and s.scores == [1, 0]
    # unclaimed it waits, and the opponent may steal it
    s = two("2C", target=1000, muggins_on_last=True)
    play(s, 0, "2C")
    assert s.scores == [0, 0] and s.view(None)["pending"]["credits"] == [1]
    muggins(s, 1)
    assert s.scores == [0, 1]


def test_without_muggins_on_last_claiming_a_final_card_that_scored_nothing_is_refused() -> None:
    s = two("2C", target=1000)
    assert action(0, "play", "2C", claim=True) not in s.legal_actions(0)
    with pytest.raises(IllegalAction, match="scores nothing"):
        play(s, 0, "2C", claim=True)
    play(s, 0, "2C")
    assert s.scores == [1, 0]  # 'last' credited automatically


def test_a_muggins_call_credits_one_at_a_time_and_stops_at_the_target() -> None:
    # muggins_on_last: the final card leaves 30 then 1 pending; seat 1 needs 30
    s = two("3C", target=30, muggins_on_last=True)
    play(s, 0, "3C")
    assert s.view(None)["pending"]["credits"] == [30, 1]
    events = muggins(s, 1)
    assert of_type(events, "muggins")[0]["credit"] == 30
    assert s.over and s.winner == 1 and s.scores == [0, 30]


def test_muggins_on_last_window_of_the_final_card_crosses_into_the_next_round() -> None:
    # three seats: the stolen points go to a seat that is not the new leader
    d1 = deal([[*THREE[1]], [*THREE[2]], [*THREE[0]]], dealer=None)
    s = start(deal(THREE, dealer=0), d1, hand_size=7, target=1000, muggins_on_last=True)
    run(s, THREE_LINE)
    play(s, 0, "5D")
    play(s, 0, "QC")  # closes the 2's window; the final card leaves 10 and 1 pending
    assert s.hand_no == 1 and s.dealer == 1 and s.turn == 2  # round 1: seat 2 leads
    assert s.view(None)["pending"] == {"seat": 0, "points": 11, "credits": [10, 1]}
    assert set(s.to_act) == {0, 1, 2}
    muggins(s, 1)
    assert s.scores == [0, 11, 0]


# ---------------------------------------------------- dealer and who leads


def test_the_deal_passes_to_the_next_seat_and_the_seat_after_the_dealer_leads() -> None:
    hands = [["AS", "2S", "3S", "4S", "5S"], ["AH", "2H", "3H", "4H", "5H"]]
    hands.append(["AD", "2D", "3D", "4D", "5D"])
    s = start(deal(hands, dealer=2), deal(hands, dealer=None), deal(hands, dealer=1))
    assert (s.dealer, s.turn) == (2, 0)
    for expected_dealer in (0, 1):
        while s.hand_no == expected_dealer:  # play the lowest card or go until the round ends
            s.apply(s.legal_actions(s.turn)[0])
        assert (s.dealer, s.turn) == (expected_dealer, expected_dealer + 1)


# ------------------------------------------------------- reference model


def test_the_model_agrees_with_this_review_on_a_hand_worked_line() -> None:
    model = CardsModel(3, Cards.check_settings(3, {"hand_size": 7, "muggins": False}))
    d = deal(THREE, dealer=0)
    model.begin(d["hands"], d["stock"], 0)
    for seat, card in [*THREE_LINE, (0, "5D"), (0, "QC")]:
        obj = {"seat": seat, "type": "go"} if card == "go" else {"seat": seat, "type": "play"}
        if card != "go":
            obj["card"] = card
        model.apply(obj)
    assert model.scores == [15, 4, 30] and model.awaiting


@pytest.mark.parametrize("seed", range(24))
def test_random_games_follow_the_rules_model(seed: int) -> None:
    rng = random.Random(seed)
    seats = 2 + seed % 3
    settings: dict[str, object] = {"target": rng.choice([61, 300, 600])}
    if seed % 2:
        settings["hand_size"] = 7
    if seed % 5 == 1:
        settings["limit"] = 21
    if seed % 4 == 1:
        settings["muggins"] = False
    elif seed % 4 == 2:
        settings["muggins_on_last"] = True
    problem = play_against_model(seed, seats, settings)
    assert problem is None, json.dumps(problem)
