"""Opponent styles (issue 30): legal play, no peeking, the behaviours that define each
one, the exact odds of a Mus showdown, and `taverna simulate --vs`."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from taverna.bots import make_bot
from taverna.bots.match import decide, play_game
from taverna.bots.styles import styles_of
from taverna.bots.styles.odds import lance_odds
from taverna.cli import main
from taverna.games import GAMES, get_game
from taverna.games.mus import CHICA, GRANDE, JUEGO, Mus
from taverna.games.mus.hands import parse_hand
from taverna.series import Plan, play_one

from .mus_helpers import deal, play, start

CASES = [(game, style) for game in sorted(GAMES) for style in styles_of(GAMES[game])]


def test_every_game_has_its_styles() -> None:
    assert styles_of(Mus) == ["careful", "bluffer", "passive", "reader", "ignorer"]
    for game in ("dominoes", "cards"):
        assert styles_of(get_game(game)) == ["defensive", "aggressive"]


def test_a_style_of_another_game_is_refused() -> None:
    with pytest.raises(ValueError, match="Mus style"):
        make_bot("style:careful", get_game("dominoes"), 0)
    with pytest.raises(ValueError, match="not of mus"):
        make_bot("style:defensive", Mus, 0)
    with pytest.raises(KeyError, match="unknown style"):
        make_bot("style:reckless", Mus, 0)


# ------------------------------------------------------------------ every style


@pytest.mark.parametrize(("game", "style"), CASES)
def test_every_style_plays_legal_moves_through_whole_games(game: str, style: str) -> None:
    cls = GAMES[game]
    settings = {"games_per_cow": 1} if game == "mus" else {}
    for seed in range(2):
        state = cls.new(cls.min_seats, settings, seed=seed)
        names = [f"style:{style}", "greedy"] * (cls.min_seats // 2)
        bots = [make_bot(n, cls, s, seed=seed + s) for s, n in enumerate(names)]
        out = play_game(state, bots, seed, max_hands=60)
        # play_game applies through the protocol: an illegal choice would have raised
        assert state.over and out.winner is not None


def _into_the_play(cls, seed: int):
    """A state some way into a hand, with a real choice for the seat to act (Mus: in
    a lance, where the styles differ)."""
    rng = random.Random(seed)
    state = cls.new(cls.min_seats, seed=seed)
    for _ in range(200):
        acting = state.to_act
        if acting and len(state.legal_actions(acting[0])) > 1 and state.hand_no == 0:
            in_lance = cls.game != "mus" or state.view(acting[0])["phase"] in ("speak", "answer")
            if in_lance and (cls.game != "mus" or rng.random() < 0.5):
                return state
        # no órdago on the way: an accepted one would end the game
        state.apply(rng.choice([a for a in state.legal_actions() if a.type != "ordago"]))
    raise AssertionError("no choice found")


@pytest.mark.parametrize(("game", "style"), CASES)
def test_no_style_peeks(game: str, style: str) -> None:
    """For one view, two hidden states consistent with it give the same decision."""
    cls = GAMES[game]
    for seed in (3, 4, 5):
        state = _into_the_play(cls, seed)
        seat = state.to_act[0]
        view = state.view(seat)
        other = cls.sample(view, random.Random(1))
        assert other.view(seat) == view
        hidden = [json.dumps(state.view(x)) for x in range(state.seats) if x != seat]
        assert hidden != [json.dumps(other.view(x)) for x in range(state.seats) if x != seat]
        decisions = []
        for s in (state, other):
            bots = [make_bot(f"style:{style}", cls, x, seed=77) for x in range(cls.min_seats)]
            decisions.append(decide(s, bots))
        assert decisions[0] == decisions[1]


# ------------------------------------------------------------------ the exact odds

FOUR_ACES = parse_hand("1o 1c 2e 2b")


def test_thirty_one_as_mano_wins_juego_for_sure() -> None:
    hand = parse_hand("12o 11o 10o 1o")  # 31
    odds = lance_odds(hand, (), seat=0, mano=0, lance=JUEGO, pares=[], juego=[0, 1, 3])
    assert odds == 1


def test_the_worst_juego_last_loses_to_an_opponent_with_juego_closer_to_mano() -> None:
    # 33 is the last juego in the order and seat 0, mano, holds juego: it wins every
    # tie; the partner (seat 1) has none
    hand = parse_hand("12e 11e 7e 6e")
    odds = lance_odds(hand, (), seat=3, mano=0, lance=JUEGO, pares=[], juego=[0, 3])
    assert odds == 0


@pytest.mark.parametrize(("lance", "hand"), [(CHICA, "1o 1c 2e 2b"), (GRANDE, "12o 12c 3e 3b")])
def test_four_of_the_best_lose_only_to_the_other_four_in_mano(lance: int, hand: str) -> None:
    # seat 1 holds four of the eight aces (kings); only mano holding the other four
    # ties and wins: one hand of the C(36, 4) = 58905 it may hold
    odds = lance_odds(parse_hand(hand), (), seat=1, mano=0, lance=lance)
    assert odds == Fraction(58904, 58905)
    # as mano, nobody can beat them
    assert lance_odds(parse_hand(hand), (), seat=0, mano=0, lance=lance) == 1


def test_cards_seen_in_the_discards_cannot_be_held() -> None:
    # two of the other four aces are in our discards: nobody else can hold four
    odds = lance_odds(FOUR_ACES, parse_hand("1e 1b"), seat=1, mano=0, lance=CHICA)
    assert odds == 1


def test_a_caught_sena_narrows_the_hands_counted() -> None:
    # mano said duples: of the 2009 duples among the 36 unseen cards (77 four of a
    # kind, 756 two pairs of two middle ranks, 1176 of kings and a middle rank) one
    # is the four other aces
    told = {0: frozenset({"duples"})}
    odds = lance_odds(FOUR_ACES, (), seat=1, mano=0, lance=CHICA, told=told)
    assert odds == Fraction(2008, 2009)
    # the seat's own señas tell it nothing
    told = {1: frozenset({"duples"})}
    odds = lance_odds(FOUR_ACES, (), seat=1, mano=0, lance=CHICA, told=told)
    assert odds == Fraction(58904, 58905)


def test_the_odds_are_the_same_from_any_seat_at_the_same_place() -> None:
    hand = parse_hand("12o 7c 5e 4b")
    a = lance_odds(hand, (), seat=1, mano=0, lance=GRANDE)
    b = lance_odds(hand, (), seat=3, mano=2, lance=GRANDE)
    assert a == b and 0 < a < 1


# ------------------------------------------------------------------ Mus styles

#: mano 0 holds 31, seat 3 holds 33; seats 1 and 2 no juego; nobody has pares
JUEGO_DEAL = ["12o 11o 10o 1o", "4c 5c 6c 7c", "4o 5o 6o 7o", "12e 11e 7e 6e"]


def _to_juego(*moves: str) -> Mus:
    state = start(deal(JUEGO_DEAL, mano=0))
    play(state, "0 no_mus", *[f"{s} pass" for s in (0, 1, 2, 3)] * 2)
    assert state.view(0)["lance"] == "juego"
    play(state, *moves)
    return state


def _choice(state: Mus, style: str, seed: int = 3, seat: int | None = None) -> str:
    seat = state.turn if seat is None else seat
    action = make_bot(f"style:{style}", Mus, seat, seed=seed).choose(state.view(seat))
    assert action is not None and action.to_json() in state.view(seat)["legal"]
    return action.type


def test_careful_accepts_an_ordago_it_wins_for_sure() -> None:
    state = _to_juego("0 pass", "3 ordago")
    assert state.turn == 0
    assert _choice(state, "careful") == "accept"


def test_careful_refuses_an_ordago_it_loses_for_sure() -> None:
    state = _to_juego("0 ordago")
    assert state.turn == 3
    assert _choice(state, "careful") == "reject"


#: middling cards for the other seats
FILLER = [f"{r}{s}" for s in "oce" for r in (11, 10, 7, 6)] + ["5o", "5c", "4o", "4c"]


def _grande(hand: str, moves: tuple[str, ...] = (), seat: int = 0, mano: int = 0) -> Mus:
    mine = hand.split()
    rest = [c for c in FILLER if c not in mine]
    hands = [" ".join(rest[i * 4 : i * 4 + 4]) for i in range(3)]
    hands.insert(seat, hand)
    state = start(deal(hands, mano=mano))
    play(state, f"{mano} no_mus", *moves)
    return state


def test_careful_refuses_an_envite_without_the_hand_and_accepts_with_it() -> None:
    # seat 0 is postre: mano 1 bets, seat 2 passes the answer to seat 0
    weak = _grande("1o 2c 4e 5b", ("1 bet 2", "2 reject"), mano=1)
    assert _choice(weak, "careful") == "reject"
    strong = _grande("12o 12c 3e 11b", ("1 bet 2", "2 reject"), mano=1)
    assert _choice(strong, "careful") in ("accept", "raise")


def test_bluffer_bets_hands_greedy_passes_at_its_stated_rate() -> None:
    state = _grande("1o 2c 4e 5b")  # a hopeless Grande, mano to speak
    bluffs = [_choice(state, "bluffer", seed=s) != "pass" for s in range(200)]
    greedy = [make_bot("greedy", Mus, 0, seed=s).choose(state.view(0)) for s in range(200)]
    assert 0.25 <= sum(bluffs) / 200 <= 0.5  # 35 % bets and 4 % órdagos
    assert sum(a is not None and a.type != "pass" for a in greedy) < 20
    for style in ("careful", "passive"):
        assert all(_choice(state, style, seed=s) == "pass" for s in range(20))


def test_bluffer_accepts_ordagos_with_nothing_now_and_then() -> None:
    state = _to_juego("0 ordago")  # seat 3 loses the showdown for sure
    calls = sum(_choice(state, "bluffer", seed=s) == "accept" for s in range(200))
    assert 20 <= calls <= 60  # 20 %


def test_passive_bets_only_when_near_certain_and_refuses_big_envites() -> None:
    good = _grande("12o 12c 7e 6b")  # two kings as mano: a good Grande (88 %), not a sure one
    assert _choice(good, "passive") == "pass"
    assert make_bot("greedy", Mus, 0, seed=3).choose(good.view(0)).type == "bet"  # type: ignore[union-attr]
    small = _grande("12o 11c 10e 5b", ("1 bet 2", "2 reject"), mano=1)
    big = _grande("12o 11c 10e 5b", ("1 bet 5", "2 reject"), mano=1)
    assert _choice(small, "passive") == "accept"
    assert _choice(big, "passive") == "reject"


def test_the_reader_counts_its_partners_sena_and_the_ignorer_does_not() -> None:
    # a poor Grande for seat 0, mano; its partner has three kings and says so
    state = start(deal(["7o 6c 5e 4b", "11o 10o 6o 11c", "12o 12c 3e 7c", "10c 11e 10e 7e"]))
    play(state, "0 no_mus")
    state.make_signal(2, "medias_reyes")
    assert _choice(state, "reader") == "bet"
    assert _choice(state, "ignorer") == "pass"
    assert make_bot("style:ignorer", Mus, 2).signals(state.view(2)) == []
    assert make_bot("style:reader", Mus, 2).signals(state.view(2)) != []


# ------------------------------------------------------------------ Muggins styles


def test_dominoes_defensive_leaves_no_score_and_aggressive_takes_the_five() -> None:
    from .dominoes_helpers import act
    from .dominoes_helpers import deal as dominoes_deal
    from .dominoes_helpers import start as dominoes_start

    mine = ["5-4", "4-0", "4-4", "3-0", "5-2", "2-1", "3-3"]
    state = dominoes_start(
        dominoes_deal([mine, ["5-3", "4-2", "6-6", "6-0", "5-1", "4-3", "1-0"]], opener=1)
    )
    act(state, 1, "play", "1-0")  # ends 1 and 0
    # 4-0 on the 0 makes 1 + 4: 5 points, but then 1-6 on the 1 makes 6 + 4 = 10.
    # 3-0 makes 1 + 3 (nothing); then 1-1 makes 2 + 3 = 5, 3-4 makes 1 + 4 = 5.
    # 2-1 on the 1 makes 2 + 0 (nothing), and nothing unseen scores on 2 and 0: a 2-y
    # would need y = 5 (2-5 is ours), a 0-z needs z = 3 (3-0 is ours).
    view = state.view(0)
    defensive = make_bot("style:defensive", state.__class__, 0).choose(view)
    aggressive = make_bot("style:aggressive", state.__class__, 0).choose(view)
    assert defensive is not None and defensive.to_json()["tile"] == "2-1"
    assert aggressive is not None and aggressive.to_json()["tile"] in ("4-0", "0-4")


def _cards_at_five():
    """Seat 1 led the 5♦ (claimed): the total is 5 and seat 0 holds 10♥ 2♣ 9♠ 8♦ 7♣."""
    from .cards_helpers import deal as cards_deal
    from .cards_helpers import play as cards_play
    from .cards_helpers import start as cards_start

    state = cards_start(
        cards_deal([["10H", "2C", "9S", "8D", "7C"], ["5D", "AS", "AH", "AD", "AC"]], dealer=0)
    )
    cards_play(state, 1, "5D", claim=True)
    return state


def test_cards_aggressive_scores_now_and_defensive_leaves_least() -> None:
    # 46 cards unseen by seat 0. The 10 makes 15 (15 points now), and then any of the
    # 15 ten-cards left makes 25 and any of the three fives 20: 435 points over 46
    # cards, 9.5 on average. The 2 makes 7: a three makes 10, an eight 15 (three
    # left): 85 over 46, 1.8. The 7, 8 and 9 leave 2.6, 2.3 and 3.0.
    state = _cards_at_five()
    view = state.view(0)
    aggressive = make_bot("style:aggressive", state.__class__, 0).choose(view)
    defensive = make_bot("style:defensive", state.__class__, 0).choose(view)
    assert aggressive is not None and aggressive.to_json() == {
        "seat": 0,
        "type": "play",
        "card": "10H",
        "claim": True,
    }
    assert defensive is not None and defensive.to_json()["card"] == "2C"


# ------------------------------------------------------------------ simulate --vs


def test_mirrored_games_share_their_deals() -> None:
    plan = Plan("muggins-dominoes", 2, {}, ("greedy", "style:defensive"), {}, 5, 100, mirrored=True)
    seeds = [play_one((plan, i))[1].seed for i in range(4)]
    assert seeds[0] == seeds[1] != seeds[2] == seeds[3]


def test_simulate_vs_prints_the_figures(capsys) -> None:
    args = ["simulate", "dominoes", "--bots", "greedy", "--vs", "all", "--games", "2"]
    assert main([*args, "--jobs", "1", "--seed", "3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["vs"] for r in report["rows"]] == ["defensive", "aggressive"]
    for row in report["rows"]:
        assert row["games"] == 2 and 0 <= row["wins"] <= 2
        lo, hi = row["ci95"]
        assert lo <= row["win_rate"] <= hi
    assert main(["simulate", "mus", "--bots", "greedy", "--vs", "passive", "--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "games of 40" in out and "stones a hand" in out and "passive" in out


def test_simulate_vs_refuses_what_it_cannot_measure(capsys) -> None:
    assert main(["simulate", "mus", "--bots", "greedy", "--vs", "defensive"]) == 2
    assert "no style 'defensive'" in capsys.readouterr().err
    assert main(["simulate", "mus", "--bots", "greedy,expert", "--vs", "careful"]) == 2
    assert "one bot" in capsys.readouterr().err
