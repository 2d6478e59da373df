"""Every rule and setting of docs/rules.md §2 (Muggins cards), one test each.

Positions are dealt by hand; each test fails if its rule were broken.
"""

from __future__ import annotations

import json
import random

import pytest

from taverna.games import IllegalAction, MalformedRecord, SettingsError, event_for, get_game
from taverna.games.cards import CARD_STR, VALUE, Cards, card_id
from taverna.games.record import replay_text

from .cards_helpers import (
    action,
    claim,
    credited,
    deal,
    go,
    muggins,
    of_type,
    play,
    play_out,
    start,
)

# two hands used by many tests: seat 0 deals, seat 1 leads
H0 = ["5S", "10H", "KD", "2C", "3C"]
H1 = ["10S", "4H", "7H", "8H", "9H"]


def snapshot(state: Cards) -> str:
    return json.dumps([state.view(s) for s in (None, *range(state.seats))]) + json.dumps(
        state.record()
    )


def assert_refused(state: Cards, act: object, *words: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        state.apply(act)  # type: ignore[arg-type]
    for w in words:
        assert w in str(err.value), str(err.value)
    assert snapshot(state) == before


# ---------------------------------------------------------------- registry


def test_registered_under_its_record_name_and_alias() -> None:
    assert get_game("muggins-cards") is Cards
    assert get_game("cards") is Cards
    assert Cards.deal_unit == "round"


# ------------------------------------------------------------ deck and values


def test_deck_has_52_cards_written_rank_and_suit() -> None:
    assert len(set(CARD_STR)) == 52
    for text in ("AS", "10H", "QD", "KC", "2S", "JH"):
        assert CARD_STR[card_id(text)] == text
    for bad in ("1S", "11H", "QX", "as", "10", "", "JOKER", 7):
        with pytest.raises(ValueError):
            card_id(bad)


def test_card_values_ace_one_faces_ten() -> None:
    expect = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9}
    expect |= {"10": 10, "J": 10, "Q": 10, "K": 10}
    for rank, value in expect.items():
        for suit in "SHDC":
            assert VALUE[card_id(rank + suit)] == value


def test_card_values_add_up_on_the_pile() -> None:
    s = start(deal([["9H", "QC", "2C", "3C", "4C"], ["AS", "JD", "2S", "3S", "4S"]]))
    totals = []
    for seat, card in ((1, "AS"), (0, "9H"), (1, "JD"), (0, "QC")):
        totals.append(of_type(play(s, seat, card), "play")[0]["total"])
    assert totals == [1, 10, 20, 30]


def test_suits_never_matter() -> None:
    a = start(deal([H0, ["5H", "4H", "7H", "8H", "9H"]]))
    b = start(deal([H0, ["5D", "4H", "7H", "8H", "9H"]]))
    ea = of_type(play(a, 1, "5H", claim=True), "play")[0]
    eb = of_type(play(b, 1, "5D", claim=True), "play")[0]
    assert (ea["total"], ea["credit"]) == (eb["total"], eb["credit"]) == (5, 5)


# ---------------------------------------------------------------- settings


def test_settings_defaults() -> None:
    assert Cards.check_settings(2, {}) == {
        "target": 61,
        "limit": 31,
        "hand_size": 5,
        "muggins": True,
        "muggins_on_last": False,
    }


@pytest.mark.parametrize(
    "settings, words",
    [
        ({"colour": 1}, "unknown setting 'colour'"),
        ({"target": 0}, "target must be a positive"),
        ({"target": -5}, "target must be a positive"),
        ({"target": True}, "target must be a positive"),
        ({"target": "61"}, "target must be a positive"),
        ({"limit": 25}, "limit must be 31 or 21"),
        ({"limit": True}, "limit must be 31 or 21"),
        ({"hand_size": 6}, "hand_size must be 5 or 7"),
        ({"muggins": "yes"}, "muggins must be true or false"),
        ({"muggins_on_last": 1}, "muggins_on_last must be true or false"),
        ({"muggins": False, "muggins_on_last": True}, "muggins_on_last needs muggins on"),
    ],
)
def test_bad_settings_are_refused_with_a_clear_message(settings: dict, words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        Cards.check_settings(2, settings)


def test_target_may_be_any_positive_number() -> None:
    assert Cards.check_settings(3, {"target": 100})["target"] == 100
    assert Cards.check_settings(3, {"target": 7})["target"] == 7


@pytest.mark.parametrize("seats", [1, 5])
def test_two_to_four_players(seats: int) -> None:
    with pytest.raises(SettingsError):
        Cards.new(seats, seed=1)


# -------------------------------------------------------------------- deal


def test_deal_gives_hand_size_cards_and_the_rest_is_the_stock() -> None:
    for seats in (2, 3, 4):
        for size in (5, 7):
            s = Cards.new(seats, {"hand_size": size}, seed=seats * size)
            assert [len(s.hand_cards(x)) for x in range(seats)] == [size] * seats
            assert s.view(None)["stock"] == 52 - seats * size
            assert s.total == 0


def test_player_after_the_dealer_leads() -> None:
    s = start(deal([H0, H1, ["AS", "AH", "AD", "AC", "2S"]], dealer=1))
    assert s.to_act == (2,)
    s = start(deal([H0, H1], dealer=1))
    assert s.to_act == (0,)


def test_random_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    s = Cards.new(3, seed=1)
    s.dealer = 0  # the next deal is seat 1's
    deck = list(range(52))
    random.Random(99).shuffle(deck)
    d = s._random_deal(random.Random(99))
    assert d.dealer == 1
    # seat 2 sits at dealer 1's left: it gets the 1st, 4th, 7th ... card
    assert d.hands[2] == tuple(deck[0:15:3])
    assert d.hands[0] == tuple(deck[1:15:3])
    assert d.hands[1] == tuple(deck[2:15:3])
    assert d.stock == tuple(deck[15:])


class ScriptedRng(random.Random):
    def __init__(self, draws: list[int]) -> None:
        super().__init__(0)
        self.draws = draws

    def randrange(self, *args: int, **kw: int) -> int:  # type: ignore[override]
        return self.draws.pop(0)


def test_first_dealer_by_high_card_draw() -> None:
    s = Cards.new(2, seed=1)
    # seat 0 draws 2S, seat 1 draws KC: seat 1 deals
    assert s._high_card_draw(ScriptedRng([card_id("2S"), card_id("KC")])) == 1
    # a tie of kings among seats 0 and 2 is drawn again between them: 3H vs 9D
    draws = [card_id(c) for c in ("KS", "5C", "KH", "3H", "9D")]
    assert Cards.new(3, seed=1)._high_card_draw(ScriptedRng(draws)) == 2
    # and the live draw is random: over many seeds every seat deals first
    assert {Cards.new(3, seed=x).dealer for x in range(40)} == {0, 1, 2}


def test_first_dealer_of_a_live_game_is_seeded() -> None:
    assert [Cards.new(4, seed=x).dealer for x in range(10)] == [
        Cards.new(4, seed=x).dealer for x in range(10)
    ]


def test_deal_passes_to_the_next_seat_each_round() -> None:
    s = Cards.new(3, {"hand_size": 7, "target": 10_000}, seed=3)
    first = s.dealer
    for r in range(1, 4):
        play_out(s, lambda st, r=r: st.hand_no == r)  # type: ignore[misc]
        assert s.dealer == (first + r) % 3
        assert s.to_act[0] == (first + r + 1) % 3


def test_deal_record_needs_the_first_dealer() -> None:
    with pytest.raises(MalformedRecord, match="deal 0 must name the dealer"):
        Cards.parse_deal(deal([H0, H1], dealer=None), 2, Cards.check_settings(2, {}), 0)
    # later deals may leave it out
    Cards.parse_deal(deal([H0, H1], dealer=None), 2, Cards.check_settings(2, {}), 1)


def test_wrong_dealer_in_a_later_deal_is_malformed() -> None:
    full = Cards.check_settings(2, {"hand_size": 7})
    d0 = Cards.parse_deal(deal([[*H0, "AS", "AH"], [*H1, "AD", "AC"]], dealer=0), 2, full, 0)
    d1 = Cards.parse_deal(deal([[*H0, "AS", "AH"], [*H1, "AD", "AC"]], dealer=0), 2, full, 1)
    with pytest.raises(MalformedRecord, match="seat 1 deals round 1"):
        Cards.start(2, full, [d0, d1])


def test_wrong_dealer_given_to_deal_is_refused_and_changes_nothing() -> None:
    full = Cards.check_settings(2, {"hand_size": 7, "target": 1000})
    d0 = Cards.parse_deal(deal([[*H0, "AS", "AH"], [*H1, "AD", "AC"]], dealer=1), 2, full, 0)
    s = Cards.start(2, full, [d0])
    play_out(s, lambda st: False)
    assert s.awaiting_deal
    before = snapshot(s)
    bad = Cards.parse_deal(deal([[*H0, "AS", "AH"], [*H1, "AD", "AC"]], dealer=1), 2, full, 1)
    with pytest.raises(IllegalAction, match="seat 0 deals"):
        s.deal(bad)
    assert snapshot(s) == before
    good = Cards.parse_deal(deal([[*H0, "AS", "AH"], [*H1, "AD", "AC"]], dealer=None), 2, full, 1)
    events = s.deal(good)
    assert events[0]["type"] == "deal" and events[0]["dealer"] == 0
    assert s.to_act[0] == 1


@pytest.mark.parametrize(
    "broken, words",
    [
        ({"hands": [H0, [*H1[:4], "ZZ"]]}, "'ZZ' is not a card"),
        ({"hands": [H0, [*H1[:4], "5S"]]}, "card 5S appears twice"),
        ({"hands": [H0, H1[:4]]}, "hand 1 must hold 5 cards"),
        ({"hands": [H0]}, "must list 2 hands"),
        ({"extra": 1}, "unknown field 'extra'"),
        ({"dealer": 2}, "dealer must be a seat 0..1"),
    ],
)
def test_malformed_deals(broken: dict, words: str) -> None:
    obj = deal([H0, H1]) | broken
    with pytest.raises(MalformedRecord, match=words):
        Cards.parse_deal(obj, 2, Cards.check_settings(2, {}), 0)


def test_deal_that_is_not_a_whole_deck() -> None:
    obj = deal([H0, H1])
    obj["stock"] = obj["stock"][:-1]
    with pytest.raises(MalformedRecord, match="not a whole 52-card deck: missing KC"):
        Cards.parse_deal(obj, 2, Cards.check_settings(2, {}), 0)


# -------------------------------------------------------------------- play


def test_must_play_a_card_that_fits_instead_of_go() -> None:
    s = start(deal([H0, H1]))
    assert_refused(s, action(1, "go"), "seat 1 cannot go: 4H fits under 31 (total 0)")


def test_go_only_when_no_card_fits() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "8H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        )
    )
    play(s, 1, "10S")  # 10, draws KS
    play(s, 0, "10H")  # 20, draws QS
    play(s, 1, "QH", claim=True)  # 30, draws KC
    assert s.legal_actions(0) == [action(0, "go")]
    go(s, 0)
    assert s.to_act[0] == 1


def test_cannot_play_over_the_limit() -> None:
    s = start(deal([["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "2H", "9H"]]))
    play(s, 1, "10S")
    play(s, 0, "10H")
    play(s, 1, "9H")  # 29
    assert_refused(s, action(0, "play", "9D"), "seat 0 cannot play 9D", "its 9 would take")
    assert_refused(s, action(0, "play", "KD"), "its 10 would take the total 29 over 31")
    assert action(0, "play", "9D") not in s.legal_actions(0)


def test_cannot_play_a_card_not_held_or_out_of_turn() -> None:
    s = start(deal([H0, H1]))
    assert_refused(s, action(1, "play", "5S"), "seat 1 cannot play 5S: it does not hold that card")
    assert_refused(s, action(0, "play", "5S"), "it is seat 1's turn")
    assert_refused(s, action(0, "go"), "seat 0 cannot go: it is seat 1's turn")


def test_turns_pass_to_the_next_seat() -> None:
    s = start(
        deal(
            [
                ["AS", "2S", "3S", "4S", "6S"],
                ["AH", "2H", "3H", "4H", "6H"],
                ["AD", "7D", "8D", "9D", "10D"],
            ]
        )
    )
    assert s.to_act == (1,)
    play(s, 1, "AH")
    assert s.to_act == (2,)
    play(s, 2, "AD")
    assert s.to_act == (0,)


def test_go_draws_one_card_from_the_stock() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "8H", "9H"]],
            stock_top=["2D", "3D", "KC", "4D"],
        ),
        muggins=False,
    )
    play(s, 1, "10S")  # draws 2D
    play(s, 0, "10H")  # draws 3D
    play(s, 1, "QH")  # 30, draws KC
    events = go(s, 0)  # KD 9D 9C 8C 3D: nothing fits
    assert [e["type"] for e in events] == ["go", "draw"]
    assert events[1]["private"] == {0: {"card": "4D"}}
    assert "4D" in s.hand_cards(0)
    # docs/rules.md §2.4 Reading: a go may leave the player with more than hand_size cards
    assert len(s.hand_cards(0)) == 6


def test_go_with_an_empty_stock_draws_nothing() -> None:
    s = Cards.new(2, {"target": 10_000}, seed=5)
    play_out(s, lambda st: not st.stock and st.legal_actions(st.turn)[0].type == "go")
    seat = s.turn
    before = len(s.hand_cards(seat))
    events = go(s, seat)
    assert "draw" not in [e["type"] for e in events]
    assert len(s.hand_cards(seat)) == before


def test_draw_back_up_to_hand_size_after_a_play() -> None:
    s = start(deal([H0, H1], stock_top=["2D", "3D"]))
    events = play(s, 1, "10S")
    assert [e["type"] for e in events] == ["play", "draw"]
    assert sorted(s.hand_cards(1)) == sorted(["2D", "4H", "7H", "8H", "9H"])
    assert s.view(None)["stock"] == 41


def test_no_draw_after_a_play_while_holding_more_than_hand_size() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "8H", "9H"]],
            stock_top=["2D", "3D", "AC", "4D"],
        ),
        muggins=False,
    )
    play(s, 1, "10S")  # draws 2D
    play(s, 0, "10H")  # draws 3D
    play(s, 1, "QH")  # 30, draws AC
    go(s, 0)  # seat 0 draws 4D: six cards
    play(s, 1, "AC")  # 31 closes; seat 1 draws back up
    assert s.to_act == (0,)
    events = play(s, 0, "4D")  # seat 0 leads the new pile from six cards: five left
    assert [e["type"] for e in events] == ["play"]
    assert len(s.hand_cards(0)) == 5


def test_player_without_cards_is_skipped_in_turn_order() -> None:
    # Deal-Seven, 3 seats. Seat 1 holds seven aces-and-twos worth 1+1+1+1+2+2+2=10
    s = start(
        deal(
            [
                ["KS", "KH", "KD", "KC", "QS", "QH", "QD"],
                ["AS", "AH", "AD", "AC", "2S", "2H", "2D"],
                ["JS", "JH", "JD", "JC", "10S", "10H", "10D"],
            ],
            dealer=0,
        ),
        hand_size=7,
        target=1000,
    )
    # seat 1 leads: 1, then 2 plays J (11), 0 plays K (21), 1: A (22), 2: J (32>31)...
    play(s, 1, "AS")
    play(s, 2, "JS")
    play(s, 0, "KS")  # 21
    play(s, 1, "AH")  # 22
    go(s, 2)  # J would be 32
    go(s, 0)
    play(s, 1, "AD")  # 23
    go(s, 2)
    go(s, 0)
    play(s, 1, "AC")  # 24
    go(s, 2)
    go(s, 0)
    play(s, 1, "2S")  # 26
    go(s, 2)
    go(s, 0)
    play(s, 1, "2H")  # 28
    go(s, 2)
    go(s, 0)
    play(s, 1, "2D")  # 30: scores 30, seat 1 has no cards left
    assert s.hand_cards(1) == []
    go(s, 2)
    events = go(s, 0)  # every active player (2 and 0) said go: seat 1's 'last'
    close = of_type(events, "pile_closed")[0]
    assert close["reason"] == "go" and close["seat"] == 1 and close["last"] == 1
    # the new pile is led by the first active player after seat 1: seat 2
    assert s.to_act[0] == 2
    play(s, 2, "JH")
    assert s.to_act[0] == 0  # seat 0, then seat 2 again: seat 1 is skipped
    play(s, 0, "KH")
    assert s.to_act[0] == 2


# ------------------------------------------------------------ closing a pile


def test_limit_closes_at_once_scores_2_and_next_player_leads() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "AH", "8H", "9H"]],
            stock_top=["2D", "3D", "4D", "5D"],
        )
    )
    play(s, 1, "10S")  # draws 2D
    play(s, 0, "10H")  # draws 3D
    play(s, 1, "QH", claim=True)  # 30 for 30, draws 4D
    go(s, 0)  # KD 9D 9C 8C 3D: nothing fits under 31 at 30; draws 5D
    events = play(s, 1, "AH", claim=True)  # 31
    p = of_type(events, "play")[0]
    assert (p["total"], p["points"], p["credit"]) == (31, 2, 2)
    close = of_type(events, "pile_closed")[0]
    assert close["reason"] == "limit" and close["seat"] == 1 and close["last"] == 0
    # nobody said go after the 31: the pile closed at once, total back to 0
    assert s.total == 0 and s.view(None)["pile"] == []
    assert s.to_act == (0,) and close["leader"] == 0
    assert s.scores == [0, 32]


def test_every_active_player_saying_go_closes_the_pile_for_last_1() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        )
    )
    play(s, 1, "10S")  # 10, draws KS
    play(s, 0, "10H")  # 20, draws QS
    play(s, 1, "7H")  # 27, draws KC
    events = go(s, 0)  # 9D 9C 8C KD QS: nothing fits under 31; draws QC
    assert not of_type(events, "pile_closed")
    events = go(s, 1)  # seat 1: QH JH 9H KS KC, nothing fits; draws JC
    close = of_type(events, "pile_closed")[0]
    assert close["reason"] == "go" and close["seat"] == 1 and close["last"] == 1
    assert close["credit"] == 1 and s.scores == [0, 1]
    # the next pile: led by the first active player after seat 1
    assert s.total == 0 and s.to_act == (0,)


def test_a_go_then_a_play_starts_the_go_count_again() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "AH"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        )
    )
    play(s, 1, "10S")  # 10, draws KS
    play(s, 0, "10H")  # 20, draws QS
    play(s, 1, "7H")  # 27, draws KC
    go(s, 0)  # draws QC
    events = play(s, 1, "AH")  # 28: a card after the go
    assert not of_type(events, "pile_closed")
    events = go(s, 0)
    assert not of_type(events, "pile_closed")  # seat 1 has not said go since the AH
    events = go(s, 1)
    assert of_type(events, "pile_closed")[0]["seat"] == 1


def test_a_card_drawn_on_a_go_does_not_reopen_the_go_round() -> None:
    # Reading: 'every active player, one after another, has said go since the last card'
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
            stock_top=["KS", "QS", "KC", "AC", "JC"],
        )
    )
    play(s, 1, "10S")  # draws KS
    play(s, 0, "10H")  # draws QS
    play(s, 1, "7H")  # 27, draws KC
    go(s, 0)  # draws AC, which would fit at 27
    events = go(s, 1)  # seat 1 cannot play: both active players said go
    assert of_type(events, "pile_closed")[0]["reason"] == "go"
    assert "AC" in s.hand_cards(0)


def test_the_rounds_final_card_closes_the_pile_for_last_1() -> None:
    # Deal-Seven, lowest card first: 1 2 4 6 9 12 16 20 26, two gos ('last' to seat 1),
    # 6S 7H 7S 9H = 29, a go ('last' to seat 1), then seat 0's 8S is the final card
    s = start(
        deal(
            [
                ["AS", "2S", "3S", "4S", "6S", "7S", "8S"],
                ["AH", "2H", "3H", "4H", "6H", "7H", "9H"],
            ]
        ),
        hand_size=7,
        target=1000,
    )
    events = play_out(s, lambda st: False)
    closes = of_type(events, "pile_closed")
    assert [(c["reason"], c["seat"], c["credit"]) for c in closes] == [
        ("go", 1, 1),
        ("go", 1, 1),
        ("last-card", 0, 1),
    ]
    assert of_type(events, "play")[-1]["card"] == "8S"
    assert len(of_type(events, "round_end")) == 1 and s.awaiting_deal


def test_final_card_scores_its_play_and_the_last_point() -> None:
    s = start(
        deal(
            [
                ["10H", "AS", "AD", "2S", "2D", "2C", "3S"],
                ["10S", "QH", "AH", "2H", "3H", "3D", "AC"],
            ],
        ),
        hand_size=7,
        target=1000,
        muggins=False,
    )
    # pile 1: 10S 10H QH = 30, AS = 31 closes (seat 0 +2); seat 1 leads
    for seat, card in ((1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")):
        play(s, seat, card)
    # pile 2: AH AD 2H 2S 3H 2D 3D 2C AC = 17
    seq = [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D")]
    seq += [(1, "3D"), (0, "2C"), (1, "AC")]
    for seat, card in seq:
        play(s, seat, card)
    events = play(s, 0, "3S")  # the final card: 20 scores 20, and 'last' 1
    close = of_type(events, "pile_closed")[0]
    assert close["reason"] == "last-card" and close["last"] == 1 and close["credit"] == 1
    assert of_type(events, "play")[0]["credit"] == 20
    assert of_type(events, "round_end")[0]["scores"] == [2 + 20 + 20 + 1, 10 + 30]


def test_final_card_reaching_the_limit_gets_2_and_no_last() -> None:
    s = start(
        deal(
            [
                ["10H", "AS", "AD", "2D", "3D", "4D", "6D"],
                ["10S", "QH", "AH", "2H", "3H", "4H", "5H"],
            ]
        ),
        hand_size=7,
        target=1000,
        muggins=False,
    )
    for seat, card in ((1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")):
        play(s, seat, card)
    # pile 2: 1 2 4 6 9 12 16 20 25, and seat 0's 6D, the final card, makes 31
    seq = [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2D"), (1, "3H"), (0, "3D")]
    seq += [(1, "4H"), (0, "4D"), (1, "5H")]
    for seat, card in seq:
        play(s, seat, card)
    events = play(s, 0, "6D")
    assert of_type(events, "play")[0]["points"] == 2
    close = of_type(events, "pile_closed")[0]
    assert close["reason"] == "last-card" and close["last"] == 0 and close["credit"] == 0
    # seat 0: 20 + 2 + 20 + 2; seat 1: 10 + 30 + 25
    assert s.scores == [44, 65]


# ------------------------------------------------------------ scoring a play


def test_a_multiple_of_five_scores_its_total() -> None:
    s = start(
        deal([["5H", "5C", "AS", "4H", "KD"], ["5S", "5D", "4S", "AH", "KH"]]),
        muggins=False,
    )
    seq = [(1, "5S"), (0, "5H"), (1, "5D"), (0, "5C"), (1, "4S"), (0, "AS"), (1, "AH")]
    seq += [(0, "4H")]
    plays = [of_type(play(s, seat, card), "play")[0] for seat, card in seq]
    assert [p["total"] for p in plays] == [5, 10, 15, 20, 24, 25, 26, 30]
    assert [p["credit"] for p in plays] == [5, 10, 15, 20, 0, 25, 0, 30]
    assert s.scores == [10 + 20 + 25 + 30, 5 + 15]


def test_a_total_that_is_not_a_multiple_of_five_scores_nothing() -> None:
    s = start(deal([H0, H1]), muggins=False)
    e = of_type(play(s, 1, "7H"), "play")[0]
    assert (e["total"], e["points"], e["credit"]) == (7, 0, 0)
    assert s.scores == [0, 0]


def test_scores_carry_over_across_rounds() -> None:
    s = Cards.new(2, {"hand_size": 7, "target": 10_000, "muggins": False}, seed=11)
    play_out(s, lambda st: st.hand_no == 1)
    after_one = s.scores[:]
    assert sum(after_one) > 0
    events = play_out(s, lambda st: st.hand_no == 2)
    gained = credited(events, 2)
    assert s.scores == [after_one[i] + gained[i] for i in range(2)]


# ---------------------------------------------------------- the muggins rule


def test_unclaimed_score_is_pending_and_every_seat_may_act() -> None:
    s = start(deal([H0, H1, ["AS", "AH", "AD", "AC", "2S"]], dealer=2))
    # dealer 2: seat 0 leads
    e = of_type(play(s, 0, "5S"), "play")[0]
    assert e["credit"] == 0 and e["pending"] == 5
    assert s.to_act == (1, 2, 0)  # the turn first, then every other seat
    v = s.view(2)
    assert v["pending"] == {"seat": 0, "points": 5, "credits": [5]}
    assert s.legal_actions(0) == [action(0, "claim")]
    assert s.legal_actions(2) == [action(2, "muggins")]
    assert action(1, "muggins") in s.legal_actions(1)
    assert s.scores == [0, 0, 0]


def test_claim_with_the_play_credits_at_once() -> None:
    s = start(deal([H0, H1]))
    e = of_type(play(s, 1, "10S", claim=True), "play")[0]
    assert e["credit"] == 10 and "pending" not in e
    assert s.scores == [0, 10] and s.to_act == (0,)


def test_late_claim_before_the_next_play_credits() -> None:
    s = start(deal([H0, H1]))
    play(s, 1, "10S")
    events = claim(s, 1)
    assert events == [{"type": "claim", "seat": 1, "points": 10, "credit": 10}]
    assert s.scores == [0, 10] and s.to_act == (0,)


def test_muggins_call_takes_the_unclaimed_points() -> None:
    s = start(deal([H0, H1]))
    play(s, 1, "10S")
    events = muggins(s, 0)
    assert events == [{"type": "muggins", "seat": 0, "from": 1, "points": 10, "credit": 10}]
    assert s.scores == [10, 0]


def test_the_first_of_claim_or_muggins_settles_it() -> None:
    s = start(deal([H0, H1, ["AS", "AH", "AD", "AC", "2S"]], dealer=0))
    play(s, 1, "10S")
    muggins(s, 2)
    # a late claim or call hears what happened to the score it meant
    assert_refused(
        s,
        action(1, "claim"),
        "seat 1 cannot claim: nothing to claim, seat 2 called muggins first and took its 10 points",
    )
    assert_refused(
        s,
        action(0, "muggins"),
        "seat 0 cannot call muggins: nothing to claim, seat 2 called muggins first "
        "and took seat 1's 10 points",
    )
    assert_refused(s, action(2, "muggins"), "it already called muggins on seat 1's 10 points")
    assert s.scores == [0, 0, 10]
    s = start(deal([H0, H1, ["AS", "AH", "AD", "AC", "2S"]], dealer=0))
    play(s, 1, "10S")
    claim(s, 1)
    assert_refused(s, action(2, "muggins"), "nothing to claim, seat 1 claimed its 10 points first")
    assert_refused(s, action(1, "claim"), "nothing to claim, it already claimed its 10 points")
    assert s.scores == [0, 10, 0]


def test_the_next_play_closes_the_window_and_the_points_are_lost() -> None:
    s = start(deal([H0, H1]))
    play(s, 1, "10S")
    events = play(s, 0, "2C")
    assert events[0] == {"type": "lost", "seat": 1, "points": 10}
    assert_refused(
        s,
        action(1, "claim"),
        "seat 1 cannot claim: nothing to claim, the window on its 10 points closed "
        "when seat 0 played 2C",
    )
    assert_refused(
        s, action(0, "muggins"), "the window on seat 1's 10 points closed when seat 0 played 2C"
    )
    assert s.scores == [0, 0]


def test_the_next_go_closes_the_window_too() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "8H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        )
    )
    play(s, 1, "10S", claim=True)
    play(s, 0, "10H", claim=True)
    play(s, 1, "QH")  # 30 unclaimed
    events = go(s, 0)
    assert events[0] == {"type": "lost", "seat": 1, "points": 30}
    assert s.scores == [20, 10]
    assert_refused(s, action(1, "claim"), "the window on its 30 points closed when seat 0 said go")


def test_a_late_claim_or_call_names_how_the_window_closed() -> None:
    """The race a person can lose: the table moves on while the click is on its way."""
    s = start(deal([H0, H1, ["5D", "AH", "AD", "AC", "2S"]], dealer=0))
    play(s, 1, "10S")  # 10 unclaimed for seat 1
    play(s, 2, "5D")  # 15: the window closes, and seat 2's opens
    with pytest.raises(IllegalAction) as err:
        s.clone().apply(action(1, "claim"))
    assert err.value.reason == "window_closed"
    assert err.value.params == {"owner": 1, "points": 10, "how": "play", "by": 2, "card": "5D"}
    assert str(err.value) == (
        "seat 1 cannot claim: nothing to claim, the window on its 10 points closed when "
        "seat 2 played 5D (the unclaimed 15 points now are seat 2's)"
    )
    # seat 2's own call on seat 1's score arrives after its own play
    with pytest.raises(IllegalAction) as err:
        s.clone().apply(action(2, "muggins"))
    assert err.value.reason == "window_closed" and err.value.params["by"] == 2
    # a fresh game: nothing ever waited
    fresh = start(deal([H0, H1]))
    with pytest.raises(IllegalAction) as err:
        fresh.apply(action(0, "muggins"))
    assert err.value.reason == "nothing_to_claim" and err.value.params == {}


def test_claiming_a_play_that_scored_nothing_is_refused() -> None:
    s = start(deal([H0, H1]))
    assert_refused(
        s,
        action(1, "play", "7H", claim=True),
        "seat 1 cannot claim with 7H: the total 7 scores nothing",
    )
    assert_refused(s, action(1, "claim"), "seat 1 cannot claim: no score is waiting")
    assert action(1, "play", "7H", claim=True) not in s.legal_actions(1)
    assert action(1, "play", "10S", claim=True) in s.legal_actions(1)


def test_only_the_scorer_claims_and_only_opponents_call() -> None:
    s = start(deal([H0, H1]))
    play(s, 1, "10S")
    assert_refused(s, action(0, "claim"), "seat 0 cannot claim", "seat 1's")
    assert_refused(s, action(1, "muggins"), "seat 1 cannot call muggins on its own 10 points")


def test_the_scorer_may_claim_after_the_turn_has_passed() -> None:
    s = start(deal([H0, H1]))
    play(s, 1, "10S", claim=True)
    play(s, 0, "5S")  # 15 unclaimed; seat 1 is on turn, seat 0 may still claim
    assert s.to_act == (1, 0)
    claim(s, 0)
    assert s.scores == [15, 10] and s.to_act == (1,)


def test_last_point_is_credited_automatically_by_default() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        )
    )
    play(s, 1, "10S")
    play(s, 0, "10H")
    play(s, 1, "7H")
    go(s, 0)
    events = go(s, 1)
    close = of_type(events, "pile_closed")[0]
    assert close["credit"] == 1 and "pending" not in close
    assert s.pend_seat == -1 and s.to_act == (0,)


def test_muggins_on_last_the_last_point_must_be_claimed_and_can_be_stolen() -> None:
    def position() -> Cards:
        s = start(
            deal(
                [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
                stock_top=["KS", "QS", "KC", "QC", "JC"],
            ),
            muggins_on_last=True,
        )
        play(s, 1, "10S")
        play(s, 0, "10H")
        play(s, 1, "7H")
        go(s, 0)
        close = of_type(go(s, 1), "pile_closed")[0]
        assert close["credit"] == 0 and close["pending"] == 1
        assert s.to_act == (0, 1)
        return s

    s = position()
    claim(s, 1)
    assert s.scores == [0, 1]
    s = position()
    muggins(s, 0)
    assert s.scores == [1, 0]
    s = position()
    events = play(s, 0, "KD")
    assert events[0] == {"type": "lost", "seat": 1, "points": 1}
    assert s.scores == [0, 0]


def test_window_left_open_by_the_final_card_stays_open_into_the_next_round() -> None:
    # Deal-Seven, 2 seats. Round 0 ends with seat 1's 5H bringing the pile to 25.
    d0 = deal(
        [
            ["10H", "AS", "AD", "2S", "2D", "KC", "3C"],
            ["10S", "QH", "AH", "2H", "3H", "AC", "5H"],
        ]
    )
    d1 = deal([[*H0, "AH", "AC"], [*H1, "AD", "AS"]], dealer=None)
    s = start(d0, d1, hand_size=7, target=1000)
    seq = [(1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")]  # 30, then 31 for 2
    seq += [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D")]  # 11
    seq += [(1, "AC"), (0, "KC"), (1, "5H")]  # 12, 22, 27
    for seat, card in seq:
        play(s, seat, card)
    # seat 0 holds 3C: 30, the round's final card
    events = play(s, 0, "3C")
    assert of_type(events, "play")[0]["pending"] == 30
    assert [e["type"] for e in events] == ["play", "pile_closed", "round_end", "deal"]
    assert s.hand_no == 1 and s.dealer == 1
    # the window is still open: seat 0 to claim, seat 1 (now on turn) to call
    assert s.to_act == (0, 1)
    assert s.view(1)["pending"]["points"] == 30
    muggins(s, 1)
    assert s.scores[1] >= 30


def test_window_from_the_final_card_closes_at_the_next_rounds_first_play() -> None:
    d0 = deal(
        [
            ["10H", "AS", "AD", "2S", "2D", "KC", "3C"],
            ["10S", "QH", "AH", "2H", "3H", "AC", "5H"],
        ]
    )
    d1 = deal([[*H0, "AH", "AC"], [*H1, "AD", "AS"]], dealer=None)
    s = start(d0, d1, hand_size=7, target=1000)
    seq = [(1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")]
    seq += [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D")]
    seq += [(1, "AC"), (0, "KC"), (1, "5H"), (0, "3C")]
    for seat, card in seq:
        play(s, seat, card)
    before = s.scores[:]
    events = play(s, 0, "2C")
    assert events[0] == {"type": "lost", "seat": 0, "points": 30}
    assert s.scores == before


def test_window_stays_open_while_the_next_deal_is_awaited() -> None:
    d0 = deal(
        [
            ["10H", "AS", "AD", "2S", "2D", "KC", "3C"],
            ["10S", "QH", "AH", "2H", "3H", "AC", "5H"],
        ]
    )
    s = start(d0, hand_size=7, target=1000)
    seq = [(1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")]
    seq += [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D")]
    seq += [(1, "AC"), (0, "KC"), (1, "5H"), (0, "3C")]
    for seat, card in seq:
        play(s, seat, card)
    assert s.awaiting_deal
    assert s.to_act == (0, 1)
    assert s.legal_actions() == [action(0, "claim"), action(1, "muggins")]
    assert_refused(s, action(1, "play", "AS"), "the next round has not been dealt")
    claim(s, 0)
    assert s.to_act == ()


def test_muggins_on_last_final_card_claim_covers_the_play_and_the_last() -> None:
    d0 = deal(
        [
            ["10H", "AS", "AD", "2S", "2D", "KC", "3C"],
            ["10S", "QH", "AH", "2H", "3H", "AC", "5H"],
        ]
    )
    seq = [(1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")]
    seq += [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D")]
    seq += [(1, "AC"), (0, "KC"), (1, "5H")]
    s = start(d0, hand_size=7, target=1000, muggins_on_last=True)
    for seat, card in seq:
        play(s, seat, card, claim=False)
    base = s.scores[:]
    events = play(s, 0, "3C", claim=True)
    assert of_type(events, "play")[0]["credit"] == 30
    assert of_type(events, "pile_closed")[0]["credit"] == 1
    assert s.scores[0] == base[0] + 31
    # unclaimed, both wait together and a call takes both
    s = start(d0, hand_size=7, target=1000, muggins_on_last=True)
    for seat, card in seq:
        play(s, seat, card)
    play(s, 0, "3C")
    assert s.view(1)["pending"] == {"seat": 0, "points": 31, "credits": [30, 1]}
    muggins(s, 1)
    assert s.scores[1] == base[1] + 31


def test_no_muggins_credits_every_score_and_refuses_claims() -> None:
    s = start(deal([H0, H1]), muggins=False)
    e = of_type(play(s, 1, "10S"), "play")[0]
    assert e["credit"] == 10 and s.scores == [0, 10] and s.to_act == (0,)
    assert all(a.type == "play" and not a.claim for a in s.legal_actions())
    assert_refused(s, action(0, "play", "5S", claim=True), "No-Muggins")
    assert_refused(s, action(0, "claim"), "seat 0 cannot claim: this table plays No-Muggins")
    assert_refused(s, action(1, "muggins"), "No-Muggins")


# ------------------------------------------------------------------ winning


def test_a_score_below_the_target_does_not_win() -> None:
    s = start(deal([H0, H1]), target=21)
    play(s, 1, "10S", claim=True)  # 10
    play(s, 0, "10H", claim=True)  # 20
    assert not s.over and s.scores == [20, 10]


def test_win_in_the_middle_of_a_round() -> None:
    s = start(deal([H0, H1]), target=20)
    play(s, 1, "10S", claim=True)  # seat 1: 10
    events = play(s, 0, "10H", claim=True)  # seat 0: 20 reaches the target
    assert s.over and s.winner == 0
    assert events[-1] == {"type": "game_end", "winner": 0, "scores": [20, 10]}
    # the draw back up does not happen: the game ended at the credit
    assert [e["type"] for e in events] == ["play", "game_end"]
    assert s.to_act == () and s.legal_actions() == []
    assert_refused(s, action(1, "play", "4H"), "the game is over")
    assert_refused(s, action(1, "claim"), "the game is over")


def test_a_muggins_call_that_reaches_the_target_wins_at_once() -> None:
    s = start(deal([H0, H1]), target=10)
    play(s, 1, "10S")
    events = muggins(s, 0)
    assert s.over and s.winner == 0 and events[-1]["type"] == "game_end"


def test_a_late_claim_that_reaches_the_target_wins_at_once() -> None:
    s = start(deal([H0, H1]), target=10)
    play(s, 1, "10S")
    assert not s.over
    claim(s, 1)
    assert s.over and s.winner == 1


def test_credits_count_one_at_a_time() -> None:
    # No-Muggins: the final card's 30 wins; its 'last' point is never credited
    d0 = deal(
        [
            ["10H", "AS", "AD", "2S", "2D", "KC", "3C"],
            ["10S", "QH", "AH", "2H", "3H", "AC", "5H"],
        ]
    )
    seq = [(1, "10S"), (0, "10H"), (1, "QH"), (0, "AS")]
    seq += [(1, "AH"), (0, "AD"), (1, "2H"), (0, "2S"), (1, "3H"), (0, "2D")]
    seq += [(1, "AC"), (0, "KC"), (1, "5H")]
    s = start(d0, hand_size=7, muggins=False, target=1000)
    for seat, card in seq:
        play(s, seat, card)
    target = s.scores[0] + 30
    s = start(d0, hand_size=7, muggins=False, target=target)
    for seat, card in seq:
        play(s, seat, card)
    events = play(s, 0, "3C")
    assert s.over and s.winner == 0 and s.scores[0] == target
    assert not of_type(events, "pile_closed")


def test_the_last_point_can_win() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        ),
        target=1,
    )
    play(s, 1, "10S")  # unclaimed 10
    play(s, 0, "10H")  # unclaimed 20
    play(s, 1, "7H")
    go(s, 0)
    events = go(s, 1)
    assert s.over and s.winner == 1 and s.scores == [0, 1]
    assert events[-1]["type"] == "game_end"


# ---------------------------------------------------------------- variants


def test_strict_21_limit() -> None:
    s = start(
        deal([["10H", "KD", "9D", "9C", "8C"], ["10S", "AH", "JH", "7H", "9H"]]),
        limit=21,
        muggins=False,
    )
    play(s, 1, "10S")  # 10 scores 10
    play(s, 0, "10H")  # 20 scores 20
    assert_refused(s, action(1, "play", "7H"), "its 7 would take the total 20 over 21")
    events = play(s, 1, "AH")  # 21: the limit
    assert of_type(events, "play")[0]["points"] == 2
    assert of_type(events, "pile_closed")[0]["reason"] == "limit"
    assert s.scores == [20, 12] and s.total == 0


def test_strict_21_go() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        ),
        limit=21,
    )
    play(s, 1, "10S")
    play(s, 0, "9D")  # 19
    assert s.legal_actions(1) == [action(1, "go")]
    assert_refused(s, action(1, "play", "7H"), "over 21")


def test_deal_seven_never_draws() -> None:
    s = start(deal([[*H0, "AS", "AH"], [*H1, "AD", "AC"]]), hand_size=7, target=1000)
    events = play(s, 1, "10S")
    assert not of_type(events, "draw")
    assert len(s.hand_cards(1)) == 6
    assert s.view(None)["stock"] == 38
    events = play_out(s, lambda st: False)
    assert not of_type(events, "draw")
    assert of_type(events, "round_end") and s.view(None)["stock"] == 38


def test_deal_seven_go_draws_nothing_and_the_round_ends_when_hands_are_empty() -> None:
    s = start(
        deal(
            [
                ["10H", "KD", "9D", "9C", "8C", "QC", "JC"],
                ["10S", "QH", "JH", "7H", "9H", "AS", "2S"],
            ]
        ),
        hand_size=7,
        target=1000,
    )
    play(s, 1, "10S")
    play(s, 0, "10H")
    play(s, 1, "9H")  # 29
    events = go(s, 0)
    assert [e["type"] for e in events] == ["go"]
    events = play_out(s, lambda st: False)
    assert of_type(events, "round_end")[0]["round"] == 0
    assert of_type(events, "pile_closed")[-1]["reason"] == "last-card"
    assert s.hand_cards(0) == s.hand_cards(1) == [] and s.view(None)["stock"] == 38


# ------------------------------------------------------------------- views


def test_view_shows_own_hand_and_the_public_table_only() -> None:
    s = start(deal([H0, H1], stock_top=["2D", "3D"]))
    play(s, 1, "10S")
    v = s.view(0)
    assert v["hand"] == s.hand_cards(0)
    assert v["pile"] == ["10S"] and v["total"] == 10 and v["limit"] == 31
    assert v["stock"] == 41 and v["hand_sizes"] == [5, 5]
    assert v["scores"] == [0, 0] and v["dealer"] == 0
    assert v["to_act"] == [0, 1] and v["pending"]["seat"] == 1
    assert {"seat": 0, "type": "muggins"} in v["legal"]
    text = json.dumps(v)
    for c in s.hand_cards(1):
        assert f'"{c}"' not in text
    assert '"2D"' not in text and '"3D"' not in text
    spectator = s.view(None)
    assert "hand" not in spectator and "legal" not in spectator


def test_deal_and_draw_events_show_cards_to_their_seat_only() -> None:
    s = start(deal([H0, H1], stock_top=["2D", "3D"]))
    d = s.initial_events[0]
    assert event_for(d, 0)["cards"] == H0
    assert event_for(d, 1)["cards"] == H1
    assert "cards" not in event_for(d, None)
    draw = of_type(play(s, 1, "10S"), "draw")[0]
    assert event_for(draw, 1)["card"] == "2D"
    assert "card" not in event_for(draw, 0) and "card" not in event_for(draw, None)


def test_a_go_shows_the_least_values_of_the_hidden_cards() -> None:
    s = start(
        deal(
            [["10H", "KD", "9D", "9C", "8C"], ["10S", "QH", "JH", "7H", "9H"]],
            stock_top=["KS", "QS", "KC", "QC", "JC"],
        )
    )
    play(s, 1, "10S")
    play(s, 0, "10H")
    play(s, 1, "7H")  # 27: a go now shows every card is worth 5 or more
    go(s, 0)
    assert s.view(1)["min_values"][0] == [5, 5, 5, 5, 5, 0]


# ----------------------------------------------------------------- records


def test_replay_of_the_record_reproduces_the_game() -> None:
    s = Cards.new(3, {"target": 100}, seed=8)
    rng = random.Random(8)
    events = list(s.initial_events)
    while not s.over:
        events += s.apply(rng.choice(s.legal_actions()))
    result, status = replay_text(json.dumps(s.record()))
    assert status == 0
    assert result["scores"] == s.scores and result["winner"] == s.winner
    assert len(result["events"]) == len(events)


def test_record_actions_in_the_notation() -> None:
    assert action(1, "play", "10H", claim=True).to_json() == {
        "seat": 1,
        "type": "play",
        "card": "10H",
        "claim": True,
    }
    assert action(1, "play", "10H").to_json() == {"seat": 1, "type": "play", "card": "10H"}
    for kind in ("go", "claim", "muggins"):
        assert action(2, kind).to_json() == {"seat": 2, "type": kind}


# ---------------------------------------------------------------- protocol


def test_a_deal_when_none_is_due_is_refused() -> None:
    s = start(deal([H0, H1]))
    d = Cards.parse_deal(deal([H0, H1], dealer=None), 2, Cards.check_settings(2, {}), 1)
    with pytest.raises(IllegalAction, match="no deal is due"):
        s.deal(d)


def test_sample_needs_a_seat_and_keeps_the_view() -> None:
    s = start(deal([H0, H1], stock_top=["2D", "3D"]))
    play(s, 1, "10S")
    with pytest.raises(ValueError):
        Cards.sample(s.view(None), random.Random(1))
    sampled = Cards.sample(s.view(0), random.Random(1))
    assert sampled.view(0) == s.view(0)
    assert sampled.actions_played == [] and sampled.deals_used == []


def test_clone_keeps_no_record_and_plays_on_alone() -> None:
    s = start(deal([H0, H1]))
    c = s.clone()
    play(c, 1, "10S")
    assert c.actions_played == [] and s.to_act == (1,) and s.total == 0


def test_turn_seat_is_the_player_to_move_even_while_a_score_is_pending() -> None:
    s = start(deal([H0, H1]))
    assert s.turn_seat == 1
    play(s, 1, "10S")
    assert s.to_act == (0, 1) and s.turn_seat == 0
