"""One test per rule of docs/rules.md §3 (Mus), each on a deal built by hand.

Every expected number is worked out in the comments from the rule text; a
test fails if its rule is broken. Deals list four hands and mano; the deck is
the other 24 cards (see ``mus_helpers.deal``).
"""

from __future__ import annotations

import json
import random

import pytest

from taverna.games import get_game
from taverna.games.base import IllegalAction, InvalidAction, MalformedRecord, SettingsError
from taverna.games.mus import ANSWER, SPEAK, Mus
from taverna.games.record import replay_text

from .mus_helpers import (
    ALL_CARDS,
    action,
    cards_in,
    credits,
    deal,
    of_type,
    play,
    snapshot,
    start,
)

# D1, mano 0.
#   seat 0: 12o 12c 4e 5b  grande K K 5 4, par of kings, 29 points
#   seat 1: 11o 11c 10e 1b grande 11 11 10 A, par of caballos, 31 (juego)
#   seat 2: 1o 2c 4c 6b    chica A A 4 6 (the lowest), par of aces, 12 points
#   seat 3: 7o 7c 10o 3b   grande K 10 7 7, par of sevens, 34 (juego)
# Grande: seat 0 (K K beats K 10). Chica: seat 2. Pares: all four hold,
# seat 0's kings best -> pair 0 with par 1 + par 1 = 2. Juego: only pair 1
# holds (seats 1 and 3) -> pair 1 without betting, 3 (31) + 2 (34) = 5.
D1 = ["12o 12c 4e 5b", "11o 11c 10e 1b", "1o 2c 4c 6b", "7o 7c 10o 3b"]
GRANDE_PASS = ["0 pass", "1 pass", "2 pass", "3 pass"]
CHICA_PASS = GRANDE_PASS
PARES_PASS = GRANDE_PASS


def d1(mano: int = 0, **kw: object) -> Mus:
    return start(deal(D1, mano, **kw))  # type: ignore[arg-type]


# ----------------------------------------------------------------- deck


def test_deck_is_40_spanish_cards_rank_and_suit() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 40
    ok = deal(D1)
    Mus.parse_deal(ok, 4, {}, 0)
    bad = deal(D1)
    bad["deck"] = bad["deck"][:-1]
    with pytest.raises(MalformedRecord, match="missing 12b"):
        Mus.parse_deal(bad, 4, {}, 0)
    bad = deal(D1)
    bad["deck"][0] = "8o"
    with pytest.raises(MalformedRecord, match="'8o' is not a Mus card"):
        Mus.parse_deal(bad, 4, {}, 0)
    bad = deal(D1)
    bad["deck"][0] = "12o"
    with pytest.raises(MalformedRecord, match="12o appears twice"):
        Mus.parse_deal(bad, 4, {}, 0)
    bad = deal(D1)
    bad["hands"][0] = bad["hands"][0][:3]
    with pytest.raises(MalformedRecord, match="hand 0 must hold 4 cards"):
        Mus.parse_deal(bad, 4, {}, 0)


def test_exactly_four_seats() -> None:
    with pytest.raises(SettingsError, match="exactly 4 seats"):
        Mus.new(3, seed=1)
    assert get_game("mus") is Mus


def test_settings_cows_games_per_cow_real_31() -> None:
    senas = {"senas": True, "catch": 0.25}  # docs/rules.md §3.8, tested in test_mus_senas
    assert Mus.check_settings(4, None) == {
        "cows": 1,
        "games_per_cow": 3,
        "real_31": False,
        **senas,
    }
    assert Mus.check_settings(4, {"cows": 3, "games_per_cow": 1, "real_31": True}) == {
        "cows": 3,
        "games_per_cow": 1,
        "real_31": True,
        **senas,
    }
    for bad in ({"cows": 0}, {"cows": 4}, {"games_per_cow": 4}, {"real_31": 1}, {"target": 40}):
        with pytest.raises(SettingsError):
            Mus.check_settings(4, bad)


def test_threes_count_as_kings_in_grande() -> None:
    # seat 1's 3 is a king; with 11 10 7 it beats seat 0's 11 11 10 10 only
    # because a three counts as a king.
    s = start(deal(["11o 11c 10e 10b", "3o 11e 10c 7b", "4o 5c 6e 7e", "4c 5e 6c 7c"]))
    events = play(s, "0 no_mus", *GRANDE_PASS)
    end = _hand_end_after_passes(events, s)
    assert end["lances"][0] == {
        "lance": "grande",
        "status": "pass",
        "team": 1,
        "seat": 1,
        "stones": 1,
    }


def test_twos_count_as_aces_in_chica() -> None:
    # seat 3 holds 2 4 5 6 and seat 1 holds 1 4 5 6: equal for chica, so the
    # tie goes to the closest to mano (mano 2: order 2 3 0 1) -> seat 3.
    s = start(deal(["12o 11c 10e 7b", "1o 4c 5e 6b", "12c 11e 10c 7c", "2o 4o 5o 6o"], mano=2))
    events = play(s, "2 no_mus", "2 pass", "3 pass", "0 pass", "1 pass")
    end = _hand_end_after_passes(events, s)
    assert end["lances"][1]["seat"] == 3


def _hand_end_after_passes(events: list[dict], s: Mus) -> dict:
    """Pass everything that is left and return the hand_end event."""
    while s.phase in (SPEAK, ANSWER):
        events = events + s.apply(Mus.parse_action({"seat": s.turn, "type": "pass"}, 4))
    return of_type(events, "hand_end")[0]


# ----------------------------------------------------------------- mano


def test_first_mano_is_drawn_at_random() -> None:
    manos = {Mus.new(4, seed=seed).mano for seed in range(40)}
    assert manos == {0, 1, 2, 3}


def test_mano_passes_to_the_next_seat_every_hand() -> None:
    s = start(deal(D1, 3), deal(D1, None), deal(D1, 1))
    seen = [s.mano]
    for _ in range(2):
        events = play(s, f"{s.mano} no_mus")
        _hand_end_after_passes(events, s)
        seen.append(s.mano)
    assert seen == [3, 0, 1]


def test_mano_speaks_first_in_mus_and_in_each_lance() -> None:
    s = d1(mano=2)
    assert s.to_act == (2,)
    with pytest.raises(IllegalAction, match="it is seat 2's turn to say mus or no mus"):
        play(s, "0 no_mus")
    events = play(s, "2 no_mus")
    assert of_type(events, "lance")[0]["speakers"] == [2, 3, 0, 1]
    assert s.to_act == (2,)


def test_deal_0_must_name_mano_and_later_manos_are_checked() -> None:
    with pytest.raises(MalformedRecord, match="deal 0 must name the mano"):
        Mus.parse_deal(deal(D1, None), 4, {}, 0)
    Mus.parse_deal(deal(D1, None), 4, {}, 1)
    with pytest.raises(MalformedRecord, match="deal 1 names mano 3"):
        start(deal(D1, 1), deal(D1, 3))
    s = start(deal(D1, 1))
    play(s, "1 no_mus")
    _hand_end_after_passes([], s)
    assert s.awaiting_deal
    with pytest.raises(IllegalAction, match="mano passes to seat 2"):
        s.deal(Mus.parse_deal(deal(D1, 0), 4, {}, 1))
    s.deal(Mus.parse_deal(deal(D1, 2), 4, {}, 1))
    assert s.mano == 2


# ------------------------------------------------------------ mus phase


def test_first_no_mus_ends_the_mus_phase() -> None:
    s = d1()
    events = play(s, "0 mus", "1 no_mus")
    assert [e["type"] for e in events] == ["mus", "no_mus", "lance"]
    assert events[-1]["lance"] == "grande"
    assert s.to_act == (0,)


def test_all_mus_then_each_discards_in_turn_order_from_mano() -> None:
    s = d1(mano=1, top=["5o", "5c", "6o", "6c", "7e", "7b"])
    play(s, "1 mus", "2 mus", "3 mus", "0 mus")
    assert s.to_act == (1,)
    with pytest.raises(IllegalAction, match="it is seat 1's turn to discard"):
        play(s, "2 discard 1o")
    events = play(s, "1 discard 1b 10e")
    # served at once, from the top of the deck, as many as discarded
    assert events[0]["count"] == 2 and events[0]["deck"] == 22
    assert events[0]["private"][1] == {"cards": ["1b", "10e"], "drawn": ["5o", "5c"]}
    assert sorted(s.hand_cards(1)) == sorted(["11o", "11c", "5o", "5c"])
    assert s.to_act == (2,)
    play(s, "2 discard 1o", "3 discard 7o 7c 10o", "0 discard 12o 12c 4e 5b")
    assert s.hand_cards(2)[-1] == "6o"
    assert s.hand_cards(3)[-3:] == ["6c", "7e", "7b"]
    # then a new mus round at mano
    assert s.phase == 0 and s.to_act == (1,) and s.mus_round == 1


def test_discard_is_one_to_four_cards_held() -> None:
    s = d1()
    play(s, "0 mus", "1 mus", "2 mus", "3 mus")
    with pytest.raises(IllegalAction, match="seat 0 cannot discard 1o: it does not hold that card"):
        play(s, "0 discard 12o 1o")
    # docs/rules.md §4.5: well-formed discards that break the rule are illegal actions,
    # refused by the rules with the state as it was (not malformed notation)
    before = s.view(0)
    held = s.hand_cards(0)
    for cards, why in (
        ([], "seat 0 cannot discard 0 cards: a discard is 1 to 4 cards"),
        ([*held, ALL_CARDS[39]], "seat 0 cannot discard 5 cards: a discard is 1 to 4 cards"),
        ([held[0], held[0]], f"seat 0 cannot discard {held[0]} twice"),
    ):
        a = Mus.parse_action({"seat": 0, "type": "discard", "cards": cards}, 4)
        with pytest.raises(IllegalAction, match=why):
            s.apply(a)
        assert s.view(0) == before
    with pytest.raises(InvalidAction, match="lists its cards"):
        Mus.parse_action({"seat": 0, "type": "discard", "cards": "1o"}, 4)
    assert len(s.legal_actions(0)) == 15


def _discard_everything(s: Mus, seats: list[int], counts: list[int], pile: list[str]) -> None:
    for seat, k in zip(seats, counts, strict=True):
        cards = s.hand_cards(seat)[:k]
        pile.extend(cards)
        play(s, f"{seat} discard {' '.join(cards)}")


def test_deck_running_out_reshuffles_the_discards_except_the_servees() -> None:
    # Round 1: all four discard 4 (16 cards served, 8 left). Round 2: seat 0
    # discards 4 (4 left), seat 1 discards 3 (1 left), seat 2 discards 2: it
    # gets the last card of the old deck, then the 23 discards so far (not
    # its own 2 just discarded) become a new deck and it gets its top card.
    def run(reshuffles: list[list[str]] | None) -> tuple[Mus, list[str], list[str]]:
        s = d1(reshuffles=reshuffles)
        pile: list[str] = []
        play(s, "0 mus", "1 mus", "2 mus", "3 mus")
        _discard_everything(s, [0, 1, 2, 3], [4, 4, 4, 4], pile)
        play(s, "0 mus", "1 mus", "2 mus", "3 mus")
        _discard_everything(s, [0, 1], [4, 3], pile)
        return s, pile, list(s.deck)

    s, pile, deck = run(None)
    assert len(pile) == 23 and len(deck) == 1
    with pytest.raises(IllegalAction, match="lists no reshuffle 0"):
        play(s, f"2 discard {' '.join(s.hand_cards(2)[:2])}")
    new_deck = sorted(pile, key=ALL_CARDS.index, reverse=True)  # any order: top first
    s, pile, deck = run([new_deck])
    kept = s.hand_cards(2)[2:]
    thrown = s.hand_cards(2)[:2]
    events = play(s, f"2 discard {' '.join(thrown)}")
    assert of_type(events, "reshuffle")[0]["deck"] == 23
    last_of_old = ALL_CARDS[deck[0]]
    assert s.hand_cards(2) == [*kept, last_of_old, new_deck[0]]
    assert len(s.deck) == 22
    assert s.piles[2] == [ALL_CARDS.index(c) for c in thrown]
    assert sum(len(p) for p in s.piles) == 2


def test_a_wrong_reshuffle_is_a_clear_error() -> None:
    s = d1(reshuffles=[ALL_CARDS[:23]])
    pile: list[str] = []
    play(s, "0 mus", "1 mus", "2 mus", "3 mus")
    _discard_everything(s, [0, 1, 2, 3], [4, 4, 4, 4], pile)
    play(s, "0 mus", "1 mus", "2 mus", "3 mus")
    _discard_everything(s, [0, 1], [4, 3], pile)
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="reshuffle 0 of deal 0 must be the 23 discarded cards"):
        play(s, f"2 discard {' '.join(s.hand_cards(2)[:2])}")
    assert snapshot(s) == before


def test_unused_reshuffles_are_an_error() -> None:
    s = d1(reshuffles=[ALL_CARDS[:23]])
    with pytest.raises(IllegalAction, match="deal 0 lists 1 reshuffle, but only 0 happened"):
        play(s, "0 no_mus")


def test_live_reshuffles_are_recorded_and_replay_exactly() -> None:
    s = Mus.new(4, seed=11)
    for _ in range(3):  # three all-mus rounds discarding everything: 48 cards needed
        for i in range(4):
            play(s, f"{(s.mano + i) % 4} mus")
        for i in range(4):
            seat = (s.mano + i) % 4
            play(s, f"{seat} discard {' '.join(s.hand_cards(seat))}")
    play(s, f"{s.mano} no_mus")
    rec = s.record()
    assert len(rec["deals"][0]["reshuffles"]) == 1
    result, status = replay_text(json.dumps(rec))
    assert status == 0 and result["to_act"] == list(s.to_act)
    replayed = Mus.start(4, {}, [Mus.parse_deal(rec["deals"][0], 4, {}, 0)])
    for a in rec["actions"]:
        replayed.apply(Mus.parse_action(a, 4))
    assert [replayed.hand_cards(x) for x in range(4)] == [s.hand_cards(x) for x in range(4)]


# ------------------------------------------------------------ the lances


def test_the_four_lances_come_in_order() -> None:
    s = d1()
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS, *PARES_PASS)
    names = [e["lance"] for e in of_type(events, "lance")]
    assert names == ["grande", "chica", "pares", "juego"]


def test_all_pass_each_lance_is_in_pass_and_decided_at_the_showdown() -> None:
    s = d1()
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS, *PARES_PASS)
    # no credit before the showdown; then grande 1, chica 1, pares 2 to pair 0, juego 5 to pair 1
    assert credits(events) == [("grande", 0, 1), ("chica", 0, 1), ("pares", 0, 2), ("juego", 1, 5)]
    assert s.stones == [4, 5]
    end = of_type(events, "hand_end")[0]
    assert [x["status"] for x in end["lances"]] == ["pass", "pass", "pass", "alone"]


def test_ties_go_to_the_player_closest_to_mano() -> None:
    # seats 0 and 1 hold the same grande (K 11 7 A)
    hands = ["12o 11c 7e 1b", "3o 11o 7c 2b", "10c 6o 5e 4o", "10e 6c 5c 4c"]
    for mano, winner in ((0, 0), (1, 1), (2, 0), (3, 0)):
        s = start(deal(hands, mano))
        end = _hand_end_after_passes(play(s, f"{mano} no_mus"), s)
        assert end["lances"][0]["seat"] == winner, mano


def test_pares_and_juego_holders_are_announced_publicly() -> None:
    s = d1()
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    ann = of_type(events, "announce")
    assert ann == [{"type": "announce", "lance": "pares", "holders": [0, 1, 2, 3]}]
    for seat in (None, 0, 1, 2, 3):
        assert s.view(seat)["announced"] == {"pares": [0, 1, 2, 3], "juego": None}
    events = play(s, *PARES_PASS)
    assert of_type(events, "announce")[0] == {
        "type": "announce",
        "lance": "juego",
        "holders": [1, 3],
    }


# D3, mano 0: seat 3 has no pares (7 10 5 K), the others have.
#   seat 0: 12o 12c 5b 4b  par K, 29; seat 1: 11o 11c 6b 7b par 11, 33 (juego)
#   seat 2: 1o 2c 4c 6c    par A, 12; seat 3: 7o 10o 5o 3b no pares, 32 (juego)
D3 = ["12o 12c 5b 4b", "11o 11c 6b 7b", "1o 2c 4c 6c", "7o 10o 5o 3b"]


def test_only_players_holding_pares_take_part() -> None:
    s = start(deal(D3))
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    assert of_type(events, "lance")[-1] == {
        "type": "lance",
        "lance": "pares",
        "speakers": [0, 1, 2],
    }
    play(s, "0 pass", "1 pass")
    with pytest.raises(IllegalAction, match="it is seat 2's turn"):
        play(s, "3 pass")
    events = play(s, "2 pass")  # in pass: seat 3 is never asked
    assert of_type(events, "lance")[-1]["lance"] == "juego"


def test_a_rejection_passes_the_answer_only_to_a_partner_taking_part() -> None:
    # pares: seat 0 bets; seat 1 answers; its partner seat 3 holds no pares,
    # so seat 1's rejection refuses the bet at once: 1 stone to pair 0.
    s = start(deal(D3))
    play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    events = play(s, "0 bet 2")
    assert s.to_act == (1,)
    events = play(s, "1 reject")
    assert credits(events)[0] == ("pares", 0, 1)
    # count: grande 1 (seat 0), chica 1 (seat 2), pares refused: bonuses of the
    # bettors, par 1 + par 1 = 2; juego pair 1 alone: 33 -> 2, 32 -> 2.
    assert credits(events)[1:] == [
        ("grande", 0, 1),
        ("chica", 0, 1),
        ("pares", 0, 2),
        ("juego", 1, 4),
    ]
    assert s.stones == [5, 4]


def test_pares_are_skipped_when_nobody_holds_and_punto_when_nobody_has_juego() -> None:
    # no hand has pares; points 28 30 26 27: nobody has juego -> punto, seat 1 (30)
    s = start(deal(["12o 11o 7o 1o", "3c 10c 6c 4c", "12e 11e 5e 2e", "3b 10b 6b 2b"]))
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    assert of_type(events, "announce")[0]["holders"] == []
    lances = of_type(events, "lance")
    assert lances[2] == {"type": "lance", "lance": "pares", "skipped": True}
    assert lances[3] == {"type": "lance", "lance": "punto", "speakers": [0, 1, 2, 3]}
    assert s.view(0)["lance"] == "punto"
    events = play(s, *GRANDE_PASS)
    # grande seat 0 (K 11 7 A > K 11 5 A), chica seat 2 (A 5 ..), punto seat 1: 1 each
    assert credits(events) == [("grande", 0, 1), ("chica", 0, 1), ("punto", 1, 1)]


def test_a_lance_is_won_without_betting_when_only_one_pair_holds() -> None:
    # pares: only seats 1 (5 5) and 3 (4 4) -> pair 1 wins with par 1 + par 1.
    # nobody has juego (28 20 27 28) -> punto, tie 28 between seats 0 and 3 -> seat 0.
    s = start(deal(["12o 11o 7o 1o", "5c 5e 6c 4c", "12e 11e 6e 2e", "4b 4o 10b 3b"]))
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    lances = of_type(events, "lance")
    assert lances[2] == {"type": "lance", "lance": "pares", "speakers": [], "team": 1}
    assert lances[3]["lance"] == "punto"
    events = play(s, *GRANDE_PASS)
    assert credits(events) == [
        ("grande", 0, 1),
        ("chica", 0, 1),
        ("pares", 1, 2),
        ("punto", 0, 1),
    ]


def test_only_players_holding_juego_take_part() -> None:
    # juego: seat 0 has 31, seat 1 has 34; seats 2 (12) and 3 (25) do not
    s = start(deal(["12o 12c 10c 1b", "11o 11c 10e 4b", "1o 2c 4c 6b", "7o 7c 5o 6o"]))
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS, *PARES_PASS)
    assert of_type(events, "lance")[-1] == {"type": "lance", "lance": "juego", "speakers": [0, 1]}
    events = play(s, "0 pass", "1 pass")
    # juego in pass: seat 0's 31 beats 34 -> pair 0 gets 3 (seat 2 has no juego)
    assert ("juego", 0, 3) in credits(events)


# D6: seat 1 holds the real 31 (7 7 7 sota), seat 0 (mano) a plain 31.
D6 = ["10o 11o 12o 1o", "7o 7c 7e 10c", "4o 5o 6o 1c", "4c 5c 6c 2o"]


@pytest.mark.parametrize(("real", "team"), [(False, 0), (True, 1)])
def test_real_31_beats_a_31_closer_to_mano_only_with_the_setting(real: bool, team: int) -> None:
    s = start(deal(D6), settings={"real_31": real})
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    # pares: only seat 1 (medias of sevens) -> pair 1 alone; juego holders 0 and 1
    events += play(s, "0 pass", "1 pass")
    assert ("juego", team, 3) in credits(events)


def test_juego_order_40_beats_37_and_loses_to_32() -> None:
    # seat 0: 37, seat 1: 40, seat 2: 32 -> seat 2 wins; without seat 2's 32, seat 1.
    hands = ["10o 11o 10c 7o", "12o 12c 11c 3o", "10e 11e 6e 6c", "4o 5o 4c 1o"]
    s = start(deal(hands))
    end = _hand_end_after_passes(play(s, "0 no_mus"), s)
    assert end["points"] == [37, 40, 32, 14]
    assert end["lances"][3]["seat"] == 2
    hands[2] = "10e 11e 7e 6c"  # 33: loses to 37 and 40
    s = start(deal(hands))
    end = _hand_end_after_passes(play(s, "0 no_mus"), s)
    assert end["points"][2] == 33
    assert end["lances"][3]["seat"] == 1


# ------------------------------------------------------------- betting


def test_bet_is_at_least_two_stones() -> None:
    with pytest.raises(InvalidAction, match="whole number of stones"):
        Mus.parse_action({"seat": 0, "type": "raise", "amount": True}, 4)
    s = d1()
    play(s, "0 no_mus")
    before = s.view(0)
    # docs/rules.md §4.5: a bet of 1 or -2 stones is well-formed and illegal
    for n in (1, 0, -2):
        with pytest.raises(IllegalAction, match=f"seat 0 cannot bet {n}: a bet is at least 2"):
            play(s, f"0 bet {n}")
        assert s.view(0) == before
    play(s, "0 bet 17")  # any N >= 2 is legal, not just the menu
    assert s.stake == 17
    with pytest.raises(IllegalAction, match="seat 1 cannot raise by 1: a raise is at least 2"):
        play(s, "1 raise 1")


def test_a_bet_is_answered_by_the_other_pair_starting_after_the_bettor() -> None:
    s = d1()
    play(s, "0 no_mus", "0 pass", "1 bet 2")
    assert s.to_act == (2,)  # the seat after the bettor, of the other pair
    with pytest.raises(IllegalAction, match="seat 3 cannot accept: it is seat 2's turn"):
        play(s, "3 accept")
    play(s, "2 reject")
    assert s.to_act == (0,)  # seat 0 passed before the bet and may still answer


def test_the_bettors_partner_never_answers() -> None:
    s = d1()
    play(s, "0 no_mus", "0 bet 2")
    with pytest.raises(IllegalAction, match="it is seat 1's turn to speak in Grande"):
        play(s, "2 accept")


def test_a_refused_first_bet_credits_one_stone_at_once() -> None:
    s = d1()
    events = play(s, "0 no_mus", "0 bet 4", "1 reject")
    assert credits(events) == [] and s.to_act == (3,)  # the partner answers
    events = play(s, "3 reject")
    assert credits(events) == [("grande", 0, 1)]
    assert s.stones == [1, 0]
    assert of_type(events, "lance")[0]["lance"] == "chica"


def test_a_refused_raise_credits_the_stake_before_it() -> None:
    # bet 2, raise by 3 (stake 5): refused, the raisers get 2 at once
    s = d1()
    events = play(s, "0 no_mus", "0 bet 2", "1 raise 3")
    assert events[-1]["stake"] == 5
    assert s.to_act == (2,)  # the first pair answers, starting after the raiser
    events = play(s, "2 reject", "0 reject")
    assert credits(events) == [("grande", 1, 2)]


def test_a_raise_can_be_raised_again() -> None:
    s = d1()
    play(s, "0 no_mus", "0 bet 2", "1 raise 2", "2 raise 5")
    assert s.stake == 9 and s.to_act == (3,)
    events = play(s, "3 reject", "1 reject")
    assert credits(events) == [("grande", 0, 4)]


def test_an_accepted_bet_goes_to_the_showdown_winner() -> None:
    # grande accepted at 3 (won by seat 0), the rest in pass: pair 0 gets
    # 3 + chica 1 + pares 2 = 6, pair 1 juego 5.
    s = d1()
    events = play(s, "0 no_mus", "0 pass", "1 bet 3", "2 accept")
    assert credits(events) == []
    events += play(s, *CHICA_PASS, *PARES_PASS)
    assert credits(events) == [("grande", 0, 3), ("chica", 0, 1), ("pares", 0, 2), ("juego", 1, 5)]


def test_an_accepted_pares_bet_adds_the_stake_to_the_bonuses() -> None:
    s = d1()
    play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    events = play(s, "0 pass", "1 bet 2", "2 raise 2", "3 accept")
    assert ("pares", 0, 4 + 2) in credits(events)


def test_an_ordago_cannot_be_raised() -> None:
    s = d1()
    play(s, "0 no_mus", "0 ordago")
    before = snapshot(s)
    with pytest.raises(IllegalAction, match="accept or reject the órdago"):
        play(s, "1 raise 2")
    with pytest.raises(IllegalAction, match="accept or reject the órdago"):
        play(s, "1 ordago")
    assert snapshot(s) == before
    assert [a.type for a in s.legal_actions()] == ["accept", "reject"]


def test_a_refused_ordago_is_worth_one_when_it_opens_the_lance() -> None:
    s = d1()
    events = play(s, "0 no_mus", "0 ordago", "1 reject", "3 reject")
    assert credits(events) == [("grande", 0, 1)]


def test_a_refused_ordago_is_worth_the_stake_before_it() -> None:
    s = d1()
    events = play(s, "0 no_mus", "0 bet 3", "1 ordago", "2 reject", "0 reject")
    assert credits(events) == [("grande", 1, 3)]


def test_an_accepted_ordago_wins_the_game_for_the_lance_winner_at_once() -> None:
    # chica: seat 1 calls órdago, seat 2 accepts; seat 2 holds the best chica.
    s = d1()
    events = play(s, "0 no_mus", "0 bet 2", "1 reject", "3 reject")  # pair 0: 1 stone
    events = play(s, "0 pass", "1 ordago", "2 accept")
    end = of_type(events, "hand_end")[0]
    assert end["reason"] == "ordago"
    assert end["hands"] == [h.split() for h in D1]  # all cards are shown
    assert end["ordago"] == {"lance": "chica", "seat": 2, "team": 0}
    assert credits(events) == []  # no other stone of the hand counts
    game_end = of_type(events, "game_end")[0]
    assert game_end == {
        "type": "game_end",
        "game": 0,
        "team": 0,
        "reason": "ordago",
        "stones": [1, 0],
        "games": [1, 0],
    }
    assert s.games == [1, 0] and s.stones == [0, 0] and s.awaiting_deal


def test_credits_reaching_40_end_the_game_at_once() -> None:
    s = d1()
    s.stones = [39, 12]
    events = play(s, "0 no_mus", "0 bet 2", "1 reject", "3 reject")
    assert credits(events) == [("grande", 0, 1)]
    assert [e["type"] for e in events][-3:] == ["credit", "hand_end", "game_end"]
    assert of_type(events, "game_end")[0]["stones"] == [40, 12]
    assert of_type(events, "hand_end")[0]["hands"] is None  # not shown
    assert s.games == [1, 0] and s.stones == [0, 0]


# ----------------------------------------------------------- the count


def test_count_grande_chica_in_pass_one_accepted_stake_refused_nothing_more() -> None:
    s = d1()
    events = play(s, "0 no_mus", "0 bet 2", "1 reject", "3 reject")  # grande refused: 1 now
    events += play(s, "0 bet 5", "1 accept", *PARES_PASS)  # chica accepted at 5
    assert credits(events) == [
        ("grande", 0, 1),  # at once
        ("chica", 0, 5),  # grande counts nothing more
        ("pares", 0, 2),
        ("juego", 1, 5),
    ]


def test_pares_bonus_for_each_player_of_the_winning_pair() -> None:
    # seat 0 duples (K K 11 11) -> 3, seat 2 medias (7 7 7) -> 2; seat 1's par does not count
    s = start(deal(["12o 12c 11o 11c", "5o 5c 4o 6o", "7o 7c 7e 1b", "10o 6c 4c 1o"]))
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    events += play(s, "0 pass", "1 pass", "2 pass")
    # grande seat 0; chica seat 3 (A 4 ..); pares 3 + 2; juego: seat 0 alone (40) -> 2
    assert credits(events) == [("grande", 0, 1), ("chica", 1, 1), ("pares", 0, 5), ("juego", 0, 2)]


def test_juego_bonus_three_for_31_two_for_other_juego_for_each_player() -> None:
    # seat 0: 31, seat 1: 32, seat 2: 33 -> seat 0 wins: 3 + 2 (seat 2's 33)
    s = start(deal(["10o 11o 12o 1o", "10c 11c 6c 6e", "10e 11e 7c 6o", "4o 5o 4c 5c"]))
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    # pares: only pair 1 (seat 1 par, seat 3 duples) -> alone, 1 + 3
    events += play(s, "0 pass", "1 pass", "2 pass")
    assert credits(events) == [("grande", 0, 1), ("chica", 0, 1), ("pares", 1, 4), ("juego", 0, 5)]


def test_punto_adds_one_stone_in_pass_accepted_and_refused() -> None:
    hands = ["12o 11o 7o 1o", "3c 10c 6c 4c", "12e 11e 5e 2e", "3b 10b 6b 2b"]
    s = start(deal(hands))
    play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    events = play(s, "0 bet 2", "1 raise 2", "2 accept")
    assert credits(events)[-1] == ("punto", 1, 4 + 1)
    s = start(deal(hands))
    play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS)
    events = play(s, "0 bet 2", "1 reject", "3 reject")
    assert credits(events) == [("punto", 0, 1), ("grande", 0, 1), ("chica", 0, 1), ("punto", 0, 1)]


def test_the_count_stops_as_soon_as_a_pair_reaches_40() -> None:
    s = d1()
    s.stones = [38, 30]
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS, *PARES_PASS)
    # grande 39, chica 40: pares and juego (pair 1's 5) are not counted
    assert credits(events) == [("grande", 0, 1), ("chica", 0, 1)]
    end = of_type(events, "hand_end")[0]
    assert [x.get("counted", True) for x in end["lances"]] == [True, True, False, False]
    assert of_type(events, "game_end")[0]["stones"] == [40, 30]


def test_a_pair_reaching_40_in_the_last_lance_counted_wins_the_game() -> None:
    """docs/rules.md §3.7: the count that takes a pair to 40 wins it the game — in Juego, the
    last lance counted, too (nothing is left uncounted then). By apply and by step."""
    moves = ["0 no_mus", *GRANDE_PASS, *CHICA_PASS, *PARES_PASS]
    s = d1()
    s.stones = [30, 35]
    events = play(s, *moves)
    # grande, chica and pares to pair 0 (34), juego's 5 to pair 1: 40
    assert credits(events) == [("grande", 0, 1), ("chica", 0, 1), ("pares", 0, 2), ("juego", 1, 5)]
    end = of_type(events, "hand_end")[0]
    assert [x.get("counted", True) for x in end["lances"]] == [True] * 4
    assert of_type(events, "game_end")[0]["team"] == 1
    assert of_type(events, "game_end")[0]["stones"] == [34, 40]
    assert s.games == [0, 1] and s.stones == [0, 0]
    stepped = d1()
    stepped.stones = [30, 35]
    for text in moves:
        stepped.step(Mus.parse_action(action(text), 4))
    assert stepped.games == [0, 1] and stepped.stones == [0, 0]
    assert stepped.last_hand == end


def test_stones_are_not_capped() -> None:
    s = d1()
    s.stones = [35, 0]
    events = play(s, "0 no_mus", *GRANDE_PASS, "0 bet 7", "1 raise 2", "2 accept", *PARES_PASS)
    # grande 36, chica accepted at 9 -> 45: the game ends on 45
    assert of_type(events, "game_end")[0]["stones"] == [45, 0]


# -------------------------------------------------- games, cows, match


def _ordago_hand(s: Mus, winner: int) -> list[dict]:
    """Mano calls órdago in Grande, the next seat accepts; ``winner`` holds 4 kings."""
    mano = s.mano
    return play(s, f"{mano} no_mus", f"{mano} ordago", f"{(mano + 1) % 4} accept")


def _kings_for(winner: int, mano: int | None) -> dict:
    hands = ["1o 4o 5o 6o", "1c 4c 5c 6c", "1e 4e 5e 6e", "1b 4b 5b 6b"]
    hands[winner] = "12o 12c 3e 3b"  # its own cards go to the deck
    return deal(hands, mano)


def test_games_make_cows_and_cows_make_the_match() -> None:
    winners = [0, 1, 0, 1, 1, 0, 0]
    deals = [_kings_for(w, 2 if i == 0 else None) for i, w in enumerate(winners)]
    s = start(*deals, settings={"cows": 2, "games_per_cow": 2})
    seen = []
    manos = []
    for w in winners:
        manos.append(s.mano)
        events = _ordago_hand(s, w)
        assert of_type(events, "game_end")[0]["team"] == w & 1
        seen.append((list(s.games), list(s.cows), s.over))
    assert manos == [2, 3, 0, 1, 2, 3, 0]  # mano moves on every hand, across games
    assert seen == [
        ([1, 0], [0, 0], False),
        ([1, 1], [0, 0], False),
        ([0, 0], [1, 0], False),  # pair 0's second game: a cow, games restart
        ([0, 1], [1, 0], False),
        ([0, 0], [1, 1], False),
        ([1, 0], [1, 1], False),
        ([2, 0], [2, 1], True),  # the match: two cows
    ]
    assert s.winner == 0
    assert s.result() == {
        "scores": [0, 0],
        "games": [2, 0],
        "cows": [2, 1],
        "over": True,
        "winner": 0,
        "to_act": [],
    }
    with pytest.raises(IllegalAction, match="the match is over"):
        play(s, "0 no_mus")


def test_stones_restart_at_zero_each_game() -> None:
    s = start(deal(D1), deal(D1, None))
    s.stones = [39, 20]
    events = play(s, "0 no_mus", "0 bet 2", "1 reject", "3 reject")
    assert of_type(events, "deal")[0]["stones"] == [0, 0]
    assert s.stones == [0, 0] and s.games == [1, 0] and s.game_no == 1 and s.mano == 1


# -------------------------------------------------- illegal actions, views


def test_illegal_actions_say_why_and_change_nothing() -> None:
    s = d1(mano=1)
    play(s, "1 no_mus")
    before = snapshot(s)
    views = [s.view(x) for x in (None, 0, 1, 2, 3)]
    with pytest.raises(IllegalAction) as e:
        play(s, "2 bet 2")
    assert str(e.value) == "seat 2 cannot bet: it is seat 1's turn to speak in Grande"
    with pytest.raises(IllegalAction, match="seat 1 cannot accept in Grande; it may pass"):
        play(s, "1 accept")
    with pytest.raises(IllegalAction, match="seat 1 cannot discard in Grande"):
        play(s, "1 discard 11o")
    assert snapshot(s) == before
    assert [s.view(x) for x in (None, 0, 1, 2, 3)] == views
    s = d1()
    with pytest.raises(IllegalAction, match="seat 0 cannot bet in the mus phase"):
        play(s, "0 bet 2")
    play(s, "0 no_mus", "0 bet 2")
    with pytest.raises(IllegalAction) as e:
        play(s, "1 pass")
    assert str(e.value) == (
        "seat 1 cannot pass in Grande: seat 0 has made the stake 2; "
        "it may accept, raise, call órdago or reject"
    )


def test_views_show_only_the_seats_own_cards() -> None:
    s = d1(top=["5o", "5c"])
    play(s, "0 mus", "1 mus", "2 mus", "3 mus", "0 discard 4e 5b")
    for seat in range(4):
        v = s.view(seat)
        own = set(v["hand"]) | set(v["discarded"])
        assert cards_in(v) <= own
        assert set(v["hand"]) == set(s.hand_cards(seat))
    assert s.view(0)["discarded"] == ["4e", "5b"]
    assert s.view(1)["discarded"] == []
    assert s.view(1)["discards"] == [[2, 0, 0, 0]]  # counts are public
    assert cards_in(s.view(None)) == set()
    assert [a["type"] for a in s.view(1)["legal"]] == ["discard"] * 15
    assert s.view(2)["legal"] == []


def test_the_showdown_reveals_every_hand() -> None:
    s = d1()
    events = play(s, "0 no_mus", *GRANDE_PASS, *CHICA_PASS, *PARES_PASS)
    end = of_type(events, "hand_end")[0]
    assert end["hands"] == [h.split() for h in D1]
    assert s.view(3)["last_hand"]["hands"] == end["hands"]
    assert end["pares"] == [1, 1, 1, 1] and end["points"] == [29, 31, 12, 34]


def test_live_games_reach_the_end_and_replay() -> None:
    rng = random.Random(5)
    for seed in range(20):
        s = Mus.new(4, {"cows": 1, "games_per_cow": 1}, seed=seed)
        while not s.over:
            s.apply(rng.choice(s.legal_actions()))
        result, status = replay_text(json.dumps(s.record()))
        assert status == 0
        assert {k: result[k] for k in ("scores", "games", "cows", "over", "winner")} == {
            "scores": s.stones,
            "games": s.games,
            "cows": s.cows,
            "over": True,
            "winner": s.winner,
        }


# --------------------------------------------------- protocol plumbing


def test_live_games_are_reproducible_from_their_seed() -> None:
    a, b = Mus.new(4, seed=99), Mus.new(4, seed=99)
    rng_a, rng_b = random.Random(1), random.Random(1)
    for _ in range(200):
        if a.over:
            break
        acts_a, acts_b = a.legal_actions(), b.legal_actions()
        assert acts_a == acts_b
        assert a.apply(rng_a.choice(acts_a)) == b.apply(rng_b.choice(acts_b))
    assert a.record() == b.record()


def test_clone_is_independent_and_keeps_no_record() -> None:
    s = d1()
    play(s, "0 no_mus", "0 bet 2")
    c = s.clone()
    assert [c.view(x) for x in (None, 0, 1, 2, 3)] == [s.view(x) for x in (None, 0, 1, 2, 3)]
    before = snapshot(s)
    play(c, "1 raise 2", "2 accept", *CHICA_PASS)
    assert snapshot(s) == before
    assert c.actions_played == [] and c.deals_used == []
    assert s.record()["actions"] == [
        {"seat": 0, "type": "no_mus"},
        {"seat": 0, "type": "bet", "amount": 2},
    ]


def test_only_the_seat_to_act_has_legal_actions() -> None:
    s = d1(mano=3)
    assert [a.to_json() for a in s.legal_actions()] == [
        {"seat": 3, "type": "mus"},
        {"seat": 3, "type": "no_mus"},
    ]
    assert s.legal_actions(0) == []
    play(s, "3 no_mus")
    assert [str(a) for a in s.legal_actions(3)] == [
        "pass",
        "bet 2",
        "bet 3",
        "bet 4",
        "bet 5",
        "ordago",
    ]
    play(s, "3 bet 2")
    assert [str(a) for a in s.legal_actions()] == [
        "accept",
        "raise 2",
        "raise 3",
        "raise 4",
        "raise 5",
        "ordago",
        "reject",
    ]
