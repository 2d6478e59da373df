"""Mus señas in the engine and the record (docs/rules.md §3.8), on deals built by hand.

Every expected answer is worked out in the comments from the rule text: which
señas a hand holds, when each may be made, who sees it.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taverna.games.base import IllegalAction, SettingsError
from taverna.games.mus import Mus
from taverna.games.mus.senas import REASONS, SIGNS, draw_catches, true_signs
from taverna.games.record import load_record, replay, replay_steps, replay_text

from .mus_helpers import deal, play, start

PASS4 = ["0 pass", "1 pass", "2 pass", "3 pass"]

# A, mano 0.
#   seat 0: 12o 3c 1e 2b   kings 12o 3c, aces 1e 2b: duples (kings and aces); 22 points
#   seat 1: 12c 12e 12b 5o three kings: medias de reyes; 35 points: juego
#   seat 2: 1o 1c 7o 10o   a pair of aces: dos ases; 19 points
#   seat 3: 7c 7e 7b 4c    three sevens: (plain) medias; 25 points
# Pares: all four hold -> betting among 0 1 2 3. Juego: only seat 1 -> pair 1 alone,
# so the hand ends after Pares.
A = ["12o 3c 1e 2b", "12c 12e 12b 5o", "1o 1c 7o 10o", "7c 7e 7b 4c"]

# B, mano 0: nobody has juego, Punto is played.
#   seat 0: 7o 7c 6o 10o   a pair of sevens (no seña); 30 points: treinta
#   seat 1: 11o 10c 5o 4o  no pares; 29 points: veintinueve
#   seat 2: 1o 4c 5c 6e    no pares; 16 points: ciego
#   seat 3: 2o 4e 5e 6b    no pares (2o is an ace); 16 points: ciego
# Pares: only seat 0 -> pair 0 alone. Juego: nobody -> "juego no" from all, Punto.
B = ["7o 7c 6o 10o", "11o 10c 5o 4o", "1o 4c 5c 6e", "2o 4e 5e 6b"]

# D, mano 0: juego held by both pairs, so there is no Punto.
#   seat 0: 7o 7c 6o 10o   30 points (treinta, were Punto played)
#   seat 1: 12c 12e 12b 5o 35: juego; seat 2: 11c 11e 10b 1b  31: treinta y una
#   seat 3: 2o 4e 5e 6b    16
# Pares: 0 (sevens), 1 (medias), 2 (caballos). Juego: 1 and 2 -> betting.
D = ["7o 7c 6o 10o", "12c 12e 12b 5o", "11c 11e 10b 1b", "2o 4e 5e 6b"]


def refused(state: Mus, seat: int, sign: str) -> str:
    with pytest.raises(IllegalAction) as e:
        state.check_signal(seat, sign)
    assert str(e.value)  # a sentence for people
    return e.value.reason


def test_signs_are_the_federations_in_the_rules_order() -> None:
    assert SIGNS == (
        "dos_reyes",
        "dos_ases",
        "medias_reyes",
        "medias_ases",
        "medias",
        "duples",
        "treinta_y_una",
        "juego",
        "treinta",
        "veintinueve",
        "ciego",
    )


def test_settings_declared_served_and_checked() -> None:
    facts = Mus.facts()
    assert facts["settings"]["senas"] == {"type": "bool"}
    assert facts["settings"]["catch"] == {"type": "number", "min": 0, "max": 1}
    assert facts["defaults"][4]["senas"] is True
    assert facts["defaults"][4]["catch"] == 0.25
    assert Mus.check_settings(4, {"catch": 0})["catch"] == 0
    assert Mus.check_settings(4, {"catch": 1})["catch"] == 1
    for bad in ({"catch": 1.5}, {"catch": -0.1}, {"catch": "x"}, {"catch": True}):
        with pytest.raises(SettingsError, match="catch must be a number from 0 to 1"):
            Mus.check_settings(4, bad)
    with pytest.raises(SettingsError, match="catch"):
        Mus.check_settings(4, {"catch": math.nan})
    with pytest.raises(SettingsError, match="senas must be true or false"):
        Mus.check_settings(4, {"senas": 1})


def test_each_hand_of_a_may_make_exactly_its_true_signs_after_grande() -> None:
    s = start(deal(A))
    play(s, "0 no_mus", *PASS4)  # the mus is cut, Grande played in pass: Chica now
    assert s.lance_name == "chica"
    assert true_signs(s, 0) == ["duples"]
    assert true_signs(s, 1) == ["medias_reyes", "juego"]
    assert true_signs(s, 2) == ["dos_ases"]
    assert true_signs(s, 3) == ["medias"]
    # the view tells each seat its own, and no other seat's
    assert s.view(1)["may_signal"] == ["medias_reyes", "juego"]
    assert "may_signal" not in s.view(None)


def test_false_and_partial_signs() -> None:
    s = start(deal(A))
    play(s, "0 no_mus", *PASS4)
    # duples of kings and aces are duples: two kings or two aces would tell part of it
    assert refused(s, 0, "dos_reyes") == "partial_sign"
    assert refused(s, 0, "dos_ases") == "partial_sign"
    assert refused(s, 0, "medias") == "false_sign"
    assert refused(s, 0, "juego") == "false_sign"  # 22 points
    # three kings: medias de reyes, not two kings and not plain medias
    assert refused(s, 1, "dos_reyes") == "partial_sign"
    assert refused(s, 1, "medias") == "partial_sign"
    assert refused(s, 1, "duples") == "false_sign"
    assert refused(s, 1, "treinta_y_una") == "false_sign"  # 35, not 31
    assert refused(s, 2, "dos_reyes") == "false_sign"
    assert refused(s, 2, "medias_ases") == "false_sign"
    assert refused(s, 3, "medias_reyes") == "false_sign"


def test_juego_said_of_31_is_partial() -> None:
    s = start(deal(D))
    play(s, "0 no_mus", *PASS4)
    assert true_signs(s, 2) == ["treinta_y_una"]  # a pair of caballos has no seña
    assert refused(s, 2, "juego") == "partial_sign"


def test_ciego_only_when_no_other_sign_fits() -> None:
    s = start(deal(A))
    play(s, "0 no_mus")  # Grande: plain medias may not be made yet
    # seat 3's medias is not allowed before Grande, but it fits: no ciego either
    assert true_signs(s, 3) == []
    assert refused(s, 3, "ciego") == "ciego_not_allowed"
    assert refused(s, 0, "ciego") == "ciego_not_allowed"
    b = start(deal(B))
    play(b, "0 no_mus")
    assert true_signs(b, 2) == ["ciego"]
    assert true_signs(b, 3) == ["ciego"]
    # 30 points: treinta fits (later), so never ciego
    assert refused(b, 0, "ciego") == "ciego_not_allowed"
    assert true_signs(b, 0) == []


def test_plain_medias_only_after_grande() -> None:
    s = start(deal(A))
    play(s, "0 no_mus", "0 pass", "1 pass")
    assert s.lance_name == "grande"
    assert refused(s, 3, "medias") == "medias_before_grande"
    # medias de reyes may be made in Grande
    assert "medias_reyes" in true_signs(s, 1)
    play(s, "2 pass", "3 pass")
    s.make_signal(3, "medias")


def test_punto_signs_once_everyone_said_juego_no() -> None:
    b = start(deal(B))
    play(b, "0 no_mus", *PASS4)  # Chica: juego not announced yet
    assert refused(b, 0, "treinta") == "punto_sign_too_early"
    assert refused(b, 1, "veintinueve") == "punto_sign_too_early"
    play(b, *PASS4)  # Chica in pass; Pares: seat 0 alone; juego: nobody -> Punto
    assert b.lance_name == "punto"
    assert true_signs(b, 0) == ["treinta"]
    assert true_signs(b, 1) == ["veintinueve"]
    assert refused(b, 0, "veintinueve") == "false_sign"
    assert refused(b, 2, "treinta") == "false_sign"
    d = start(deal(D))
    play(d, "0 no_mus", *PASS4, *PASS4, "0 pass", "1 pass", "2 pass")
    assert d.lance_name == "juego"  # seats 1 and 2 hold juego: no Punto this hand
    assert refused(d, 0, "treinta") == "punto_not_played"


def test_no_sign_before_the_mus_is_cut_nor_in_the_discards() -> None:
    s = start(deal(A, top=["4o", "4b", "5e", "5b"]))
    assert refused(s, 0, "duples") == "sign_before_mus_cut"
    play(s, "0 mus")
    assert refused(s, 1, "medias_reyes") == "sign_before_mus_cut"
    play(s, "1 mus", "2 mus", "3 mus")
    assert refused(s, 2, "dos_ases") == "sign_during_discard"
    play(s, "0 discard 12o")  # seat 0 gets 4o: kings gone, a pair of aces
    assert refused(s, 0, "dos_ases") == "sign_during_discard"
    play(s, "1 discard 5o", "2 discard 10o", "3 discard 4c")
    assert refused(s, 0, "dos_ases") == "sign_before_mus_cut"  # a new mus round
    play(s, "0 no_mus")
    assert true_signs(s, 0) == ["dos_ases"]  # the hand as it is now


def test_no_sign_while_a_deal_is_due_nor_once_the_game_is_over() -> None:
    s = start(deal(A))
    play(s, "0 no_mus", *PASS4, *PASS4, *PASS4)  # Pares in pass, Juego alone: hand over
    assert s.awaiting_deal
    assert refused(s, 0, "duples") == "sign_during_deal"
    over = start(deal(A), settings={"games_per_cow": 1})
    play(over, "0 no_mus", "0 ordago", "1 accept")
    assert over.over
    assert refused(over, 0, "duples") == "game_over"
    assert true_signs(over, 0) == []


def test_each_sign_once_a_hand_and_unknown_ones() -> None:
    s = start(deal(A))
    play(s, "0 no_mus")
    s.make_signal(0, "duples")
    assert refused(s, 0, "duples") == "sign_repeated"
    assert true_signs(s, 0) == []
    s.make_signal(2, "dos_ases")  # another seat may make its own
    assert refused(s, 0, "cuatro_reyes") == "unknown_sign"
    assert refused(s, 4, "duples") == "not_a_seat"
    # every reason used here is one the module documents
    assert {"sign_repeated", "unknown_sign", "not_a_seat"} <= set(REASONS)


def test_senas_off() -> None:
    s = start(deal(A), settings={"senas": False})
    play(s, "0 no_mus", *PASS4)
    assert refused(s, 0, "duples") == "senas_off"
    assert true_signs(s, 0) == []
    assert s.view(0)["may_signal"] == []


def test_a_sign_changes_no_stone_and_no_turn() -> None:
    s = start(deal(A))
    play(s, "0 no_mus")
    before = (s.view(None), s.legal_actions(), s.to_act)
    entry = s.make_signal(1, "medias_reyes", [2])
    assert entry == {"seat": 1, "sign": "medias_reyes", "after": 1, "caught_by": [2]}
    after = s.view(None)
    assert (after, s.legal_actions(), s.to_act) == before


def test_who_sees_a_sign() -> None:
    s = start(deal(A))
    play(s, "0 no_mus", *PASS4)
    e1 = s.make_signal(1, "medias_reyes", [2])  # caught by seat 2, not by seat 0
    e0 = s.make_signal(0, "duples", [])
    assert s.signal_for(e1, 1) == {"seat": 1, "sign": "medias_reyes", "after": 5, "caught_by": [2]}
    assert s.signal_for(e1, 3) == {"seat": 1, "sign": "medias_reyes", "after": 5}  # partner
    assert s.signal_for(e1, 2) == {"seat": 1, "sign": "medias_reyes", "after": 5}  # caught it
    assert s.signal_for(e1, 0) is None
    assert s.signal_for(e1, None) is None  # a spectator, while the hand is played
    assert s.signal_for(e0, 2) == {"seat": 0, "sign": "duples", "after": 5}
    assert s.signal_for(e0, 1) is None and s.signal_for(e0, 3) is None
    assert [x["sign"] for x in s.view(0)["signals"]] == ["duples"]
    assert [x["sign"] for x in s.view(2)["signals"]] == ["medias_reyes", "duples"]
    assert [x["sign"] for x in s.view(3)["signals"]] == ["medias_reyes"]
    assert s.view(1)["signals"] == [s.signal_for(e1, 1)]
    assert s.view(None)["signals"] == []
    # nothing of a seña a seat may not see anywhere in its view
    assert "duples" not in json.dumps(s.view(1)) and "duples" not in json.dumps(s.view(3))
    assert "medias_reyes" not in json.dumps(s.view(0))
    assert "caught_by" not in json.dumps(s.view(2)) + json.dumps(s.view(3))
    play(s, *PASS4, *PASS4)  # the hand is over: the spectator sees them all
    assert s.view(None)["signals"] == [e1, e0]


def test_catch_0_and_1() -> None:
    for index in range(50):
        for maker in range(4):
            assert draw_catches(11, index, maker, 0) == []
            assert draw_catches(11, index, maker, 0.0) == []
            # the opponents, in seat order after the maker
            assert draw_catches(11, index, maker, 1) == [(maker + 1) % 4, (maker + 3) % 4]


def test_draw_catches_is_a_function_of_seed_and_index() -> None:
    random.seed(1)
    a = [draw_catches(5, i, i % 4, 0.5) for i in range(200)]
    random.seed(2)
    b = [draw_catches(5, i, i % 4, 0.5) for i in range(200)]
    assert a == b
    assert a != [draw_catches(6, i, i % 4, 0.5) for i in range(200)]
    # about half the opponents catch at 0.5 (400 draws: 200 +- 45 is 4.5 sigma)
    assert 155 < sum(len(x) for x in a) < 245
    # the same draw for each opponent whoever makes it (the maker only sets who they are)
    assert [len(draw_catches(5, i, 0, 0.3)) for i in range(50)] == [
        len(draw_catches(5, i, 1, 0.3)) for i in range(50)
    ]


def test_senas_never_change_the_deals() -> None:
    plain = Mus.new(4, {"games_per_cow": 1}, seed=9)
    signed = Mus.new(4, {"games_per_cow": 1}, seed=9)
    rng = random.Random(3)
    n = 0
    while not plain.over and n < 2000:
        for seat in range(4):
            for sign in signed.may_signal(seat):
                idx = len(signed.signals)
                signed.make_signal(seat, sign, draw_catches(9, idx, seat, 0.5))
        a = rng.choice(plain.legal_actions())
        plain.apply(a)
        signed.apply(a)
        n += 1
    assert signed.signals
    assert [Mus.deal_json(d) for d in plain.deals_used] == [
        Mus.deal_json(d) for d in signed.deals_used
    ]
    assert plain.result() == signed.result()


def test_bad_catches_refused() -> None:
    s = start(deal(A))
    play(s, "0 no_mus")
    for bad in ([2], [0], [1, 1], [5], "1"):
        with pytest.raises(IllegalAction) as e:
            s.make_signal(0, "duples", bad)  # type: ignore[arg-type]
        assert e.value.reason == "bad_catch"
    assert s.signals == []
    s.make_signal(0, "duples", [3, 1])  # written in seat order after the maker
    assert s.signals[0]["caught_by"] == [1, 3]


def test_clone_copies_signals_on_its_own() -> None:
    s = start(deal(A))
    play(s, "0 no_mus")
    s.make_signal(0, "duples")
    c = s.clone()
    c.make_signal(2, "dos_ases")
    assert [x["sign"] for x in s.signals] == ["duples"]
    assert refused(s, 2, "medias") == "false_sign"
    s.make_signal(2, "dos_ases")  # the clone's seña is not the game's
    assert len(c.signals) == 2 and len(s.signals) == 2


def record_with_signals() -> dict[str, Any]:
    s = start(deal(A), deal(B, mano=None))
    play(s, "0 no_mus", *PASS4)
    s.make_signal(3, "medias", [0])
    play(s, *PASS4)
    s.make_signal(1, "medias_reyes")
    play(s, *PASS4)  # hand over; the second deal comes from the record (B, mano 1)
    play(s, "1 no_mus")
    s.make_signal(2, "ciego", [1, 3])
    return s.record()


def test_record_lists_signals_only_when_there_are_some() -> None:
    plain = start(deal(A))
    play(plain, "0 no_mus")
    rec = plain.record()
    assert "signals" not in rec
    assert rec["settings"] == {"cows": 1, "games_per_cow": 3, "real_31": False}
    assert start(deal(A), settings={"catch": 0}).record()["settings"]["catch"] == 0
    rec = record_with_signals()
    assert rec["signals"] == [
        {"seat": 3, "sign": "medias", "after": 5, "caught_by": [0]},
        {"seat": 1, "sign": "medias_reyes", "after": 9, "caught_by": []},
        {"seat": 2, "sign": "ciego", "after": 14, "caught_by": [3, 1]},
    ]


def test_record_round_trip() -> None:
    rec = record_with_signals()
    result, status = replay_text(json.dumps(rec))
    assert status == 0 and result["ok"]
    parsed = load_record(json.dumps(rec))
    assert parsed.to_json() == rec
    again = replay(parsed).state
    assert again.record() == rec
    assert [again.view(x) for x in (None, 0, 1, 2, 3)] == [
        json.loads(json.dumps(again.view(x))) for x in (None, 0, 1, 2, 3)
    ]
    steps = replay_steps(rec)
    assert [x for st_ in steps for x in st_.get("signals", [])] == rec["signals"]


@pytest.mark.parametrize(
    ("entry", "index", "words"),
    [
        # seat 0 holds duples of kings and aces: two kings is partial
        ({"seat": 0, "sign": "dos_reyes", "after": 5, "caught_by": []}, 5, "part of the hand"),
        # seat 3's medias before Grande has been played (after the no mus only)
        ({"seat": 3, "sign": "medias", "after": 1, "caught_by": []}, 1, "after Grande"),
        # before the first no mus
        ({"seat": 0, "sign": "duples", "after": 0, "caught_by": []}, 0, "mus has not been cut"),
        # seat 2 holds no three of a kind
        ({"seat": 2, "sign": "medias_ases", "after": 5, "caught_by": []}, 5, "does not hold"),
        # caught by seat 0's own partner
        ({"seat": 0, "sign": "duples", "after": 5, "caught_by": [2]}, 5, "opponents"),
    ],
)
def test_a_false_or_misplaced_sign_in_a_record(
    entry: dict[str, Any], index: int, words: str
) -> None:
    rec = record_with_signals()
    rec["signals"] = sorted([*rec["signals"], entry], key=lambda x: x["after"])
    at = rec["signals"].index(entry)
    result, status = replay_text(json.dumps(rec))
    assert status == 1 and result["ok"] is False
    assert result["error"]["signal"] == at
    assert result["error"]["index"] == index
    assert words in result["error"]["message"]
    assert result["error"]["message"].startswith(f"signal {at}: ")


def test_a_repeated_sign_in_a_record() -> None:
    rec = record_with_signals()
    rec["signals"].insert(1, {"seat": 3, "sign": "medias", "after": 6, "caught_by": []})
    result, status = replay_text(json.dumps(rec))
    assert status == 1 and result["error"]["signal"] == 1
    assert "already" in result["error"]["message"]


@pytest.mark.parametrize(
    ("signals", "words"),
    [
        ([{"seat": 0, "sign": "tres_reyes", "after": 1, "caught_by": []}], "not a signal"),
        ([{"seat": 0, "sign": "duples", "after": 99, "caught_by": []}], "after must be"),
        ([{"seat": 0, "sign": "duples", "caught_by": []}], "has no 'after'"),
        ([{"seat": 9, "sign": "duples", "after": 1, "caught_by": []}], "seat must be"),
        ([{"seat": 0, "sign": "duples", "after": 1, "caught_by": "all"}], "caught_by"),
        (
            [
                {"seat": 0, "sign": "duples", "after": 5, "caught_by": []},
                {"seat": 2, "sign": "dos_ases", "after": 3, "caught_by": []},
            ],
            "in the order made",
        ),
        ({"seat": 0}, "signals must be a list"),
    ],
)
def test_malformed_signals(signals: object, words: str) -> None:
    rec = record_with_signals()
    rec["signals"] = signals
    result, status = replay_text(json.dumps(rec))
    assert status == 2
    assert words in result["malformed"]


def test_a_game_without_signals_refuses_them_in_a_record() -> None:
    rec = json.loads(Path("taverna/examples/dominoes-2p.json").read_text())
    rec["signals"] = [{"seat": 0, "sign": "duples", "after": 0, "caught_by": []}]
    result, status = replay_text(json.dumps(rec))
    assert status == 2 and "has no signals" in result["malformed"]


# ------------------------------------------------------------------ property

_CLASS = {1: 0, 2: 0, 4: 1, 5: 2, 6: 3, 7: 4, 10: 5, 11: 6, 12: 7, 3: 7}
_POINTS = {1: 1, 2: 1, 3: 10, 4: 4, 5: 5, 6: 6, 7: 7, 10: 10, 11: 10, 12: 10}


def oracle(sign: str, cards: list[str]) -> bool:
    """Whether ``sign`` is true of ``cards``, written again from docs/rules.md §3.8 alone."""
    ranks = [int(c[:-1]) for c in cards]
    groups = sorted(Counter(_CLASS[r] for r in ranks).values(), reverse=True)
    top = Counter(_CLASS[r] for r in ranks).most_common(1)[0][0]
    pts = sum(_POINTS[r] for r in ranks)
    duples = groups[0] == 4 or groups[:2] == [2, 2]
    medias = groups[0] == 3
    par = groups[0] == 2 and not duples
    held = {
        "dos_reyes": par and top == 7,
        "dos_ases": par and top == 0,
        "medias_reyes": medias and top == 7,
        "medias_ases": medias and top == 0,
        "medias": medias and top not in (0, 7),
        "duples": duples,
        "treinta_y_una": pts == 31,
        "juego": pts >= 32,
        "treinta": pts == 30,
        "veintinueve": pts == 29,
    }
    held["ciego"] = not any(held.values())
    return held[sign]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), catch=st.sampled_from([0, 0.25, 1]))
def test_random_games_with_random_true_signs(seed: int, catch: float) -> None:
    rng = random.Random(seed)
    game = Mus.new(4, {"games_per_cow": 1, "catch": catch}, seed=seed)
    moments = []
    n = 0
    while not game.over and n < 400:
        for seat in rng.sample(range(4), 4):
            may = game.may_signal(seat)
            if may and rng.random() < 0.5:
                sign = rng.choice(may)
                game.make_signal(seat, sign, draw_catches(seed, len(game.signals), seat, catch))
                moments.append((sign, game.hand_cards(seat), game.lance_name, game.holders[1]))
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    for sign, cards, lance, juego in moments:
        assert oracle(sign, cards), (sign, cards)
        if sign == "medias":
            assert lance != "grande"
        if sign in ("treinta", "veintinueve"):
            assert lance == "punto" and juego == ()
    rec = game.record()
    assert len(rec.get("signals", [])) == len(moments)
    out = replay(load_record(json.dumps(rec)))
    assert out.ok
    assert isinstance(out.state, Mus)
    assert out.state.signals == game.signals
    assert out.state.record() == rec
    assert [out.state.view(x) for x in (None, 0, 1, 2, 3)] == [
        game.view(x) for x in (None, 0, 1, 2, 3)
    ]


def test_the_tables_catch_chance_decides_who_catches() -> None:
    never = start(deal(A), settings={"catch": 0})
    always = start(deal(A), settings={"catch": 1})
    play(never, "0 no_mus")
    play(always, "0 no_mus")
    for seat in range(4):
        assert never.catches(5, seat) == []
        assert always.catches(5, seat) == [(seat + 1) % 4, (seat + 3) % 4]
    # the draw of the next seña: its index is the number of señas made so far
    s = start(deal(A), settings={"catch": 0.5})
    play(s, "0 no_mus")
    assert s.catches(8, 0) == draw_catches(8, 0, 0, 0.5)
    s.make_signal(0, "duples", s.catches(8, 0))
    assert s.catches(8, 2) == draw_catches(8, 1, 2, 0.5)


def test_samples_fit_when_every_seña_is_caught() -> None:
    """catch 1: every other seat's señas bind the sample; dealing seat by seat must not
    get stuck when one seat's hand leaves the next nothing that fits (it once did)."""
    for g in range(8):
        game = Mus.new(4, {"catch": 1, "games_per_cow": 1}, seed=g)
        rng = random.Random(g)
        for step in range(120):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
            for seat in range(4):
                for sign in game.may_signal(seat):
                    game.make_signal(seat, sign, game.catches(g, seat))
            if not game.signals_open():
                continue
            seat = game.turn
            view = game.view(seat)
            x = Mus.sample(view, random.Random(step))
            assert x.view(seat) == view
            for e in view["signals"]:
                assert oracle(e["sign"], x.hand_cards(e["seat"]))
