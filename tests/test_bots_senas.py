"""Bots and Mus señas (docs/rules.md §3.8): bots make only true ones, read what they
see (the greedy policy's estimates, the expert's samples), never peek, and
``taverna simulate`` plays, catches and records them."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taverna.bots import BotOptionError, make_bot
from taverna.bots import mus as mus_bots
from taverna.bots.match import decide, make_signals, play_game
from taverna.games.mus import GRANDE, Mus
from taverna.games.mus.senas import holds
from taverna.games.record import load_record, replay, replay_text
from taverna.series import Plan, parse_entry
from taverna.simulate import run

from .mus_helpers import deal, play, start

#: an expert that thinks the same on any machine: no wall clock, a fixed sample pool
STEADY = {"iterations": 60, "seconds": 1000, "pool": 12}


def _bots(levels: list[str], seed: int = 5, **options: Any) -> list[Any]:
    return [
        make_bot(level, Mus, seat, seed=seed + seat, **(STEADY if level == "expert" else {}))
        for seat, level in enumerate(levels)
    ]


def test_the_view_tells_a_seat_its_own_señas_only() -> None:
    s = start(deal(["12o 12c 3e 5b", "4o 4c 5o 6o", "11o 10c 7e 6b", "1o 2c 4e 5e"]))
    play(s, "0 no_mus")
    assert s.view(0)["may_signal"] == ["medias_reyes", "juego"]
    assert s.view(2)["may_signal"] == ["juego"]  # 11 10 7 6: 33
    assert "may_signal" not in s.view(None)
    bot = make_bot("greedy", Mus, 0, seed=1)
    assert bot.signals(s.view(0)) == ["medias_reyes", "juego"]
    assert make_bot("random", Mus, 0, seed=1).signals(s.view(0)) == []


@pytest.mark.parametrize("level", ["greedy", "expert"])
def test_bots_never_make_a_false_seña(level: str) -> None:
    for seed in range(3 if level == "greedy" else 1):
        state = Mus.new(4, {"games_per_cow": 1, "catch": 0.5}, seed=seed)
        bots = _bots([level] * 4, seed=seed)
        out = play_game(state, bots, seed, max_hands=30 if level == "greedy" else 2)
        assert out.hands >= 1
        rec = state.record()
        assert rec["signals"], "bots make the señas their hands allow"
        result, status = replay_text(json.dumps(rec))  # the replay checks every seña
        assert status == 0 and result["ok"], result.get("error")


def test_make_signals_asks_only_while_señas_may_be_made() -> None:
    s = start(deal(["12o 12c 3e 5b", "4o 4c 5o 6o", "11o 10c 7e 6b", "1o 2c 4e 5e"]))
    bots = _bots(["greedy"] * 4)
    assert make_signals(s, bots, seed=1) == 0  # the mus is not cut yet
    play(s, "0 no_mus")
    # seat 0: medias de reyes and juego (35); seat 1: a pair of fours and 19 points are
    # worth no seña: ciego; seat 2: juego (33); seat 3: dos ases
    assert make_signals(s, bots, seed=1) == 5
    assert make_signals(s, bots, seed=1) == 0  # each once a hand
    off = start(
        deal(["12o 12c 3e 5b", "4o 4c 5o 6o", "11o 10c 7e 6b", "1o 2c 4e 5e"]),
        settings={"senas": False},
    )
    play(off, "0 no_mus")
    assert make_signals(off, bots, seed=1) == 0


# A: seat 0 a middling Grande hand, its partner (seat 2) three kings.
A = ["11o 10c 7e 6b", "4o 4c 5o 6o", "12o 12c 3e 5b", "1o 2c 4e 5e"]
# B: seat 0 a good Grande hand, seat 1 (an opponent) three kings.
B = ["12o 11o 11c 10o", "12c 3o 3c 4b", "4o 5o 6o 7o", "4c 5c 6c 7c"]


def _grande_choices(hands: list[str], maker: int, sign: str, caught: list[int], senas: str) -> str:
    s = start(deal(hands))
    play(s, "0 no_mus")
    s.make_signal(maker, sign, caught)
    picks = [
        make_bot("greedy", Mus, 0, seed=k, senas=senas).choose(s.view(0)).type  # type: ignore[union-attr]
        for k in range(20)
    ]
    return max(set(picks), key=picks.count)


def test_greedy_reads_its_partners_seña() -> None:
    # alone, 11 10 7 6 is a weak Grande: pass; with a partner of three kings it is won
    assert _grande_choices(A, 2, "medias_reyes", [], "ignore") == "pass"
    assert _grande_choices(A, 2, "medias_reyes", [], "read") in ("bet", "ordago")


def test_greedy_reads_a_caught_opponents_seña() -> None:
    assert _grande_choices(B, 1, "medias_reyes", [0], "ignore") == "bet"
    # three kings across the table: K 11 11 10 is beaten
    assert _grande_choices(B, 1, "medias_reyes", [0], "read") == "pass"
    # not caught: seat 0 never saw it
    assert _grande_choices(B, 1, "medias_reyes", [2], "read") == "bet"


def test_a_bot_with_senas_off_neither_makes_nor_reads_them() -> None:
    s = start(deal(["12o 12c 3e 5b", "4o 4c 5o 6o", "11o 10c 7e 6b", "1o 2c 4e 5e"]))
    play(s, "0 no_mus")
    for level in ("greedy", "expert"):
        options = STEADY if level == "expert" else {}
        assert make_bot(level, Mus, 0, seed=1, **options).signals(s.view(0)) != []
        assert make_bot(level, Mus, 0, seed=1, senas="off", **options).signals(s.view(0)) == []
    # the partner's three kings make 11 10 7 6 a won Grande only for a bot that reads them
    assert _grande_choices(A, 2, "medias_reyes", [], "off") == "pass"


def test_told_p_moves_the_estimate_the_right_way() -> None:
    base = 0.5
    told = {2: frozenset({"medias_reyes"})}
    assert mus_bots.told_p(base, 0, 0, GRANDE, False, [], told) > 0.9
    assert mus_bots.told_p(base, 0, 0, GRANDE, False, [], {1: frozenset({"ciego"})}) > base
    assert mus_bots.told_p(base, 0, 0, GRANDE, False, [], {3: frozenset({"dos_reyes"})}) < base
    assert mus_bots.told_p(base, 0, 0, GRANDE, False, [], {}) == base


def test_a_bad_senas_option_is_refused() -> None:
    with pytest.raises(BotOptionError, match="senas must be read or ignore or off, not 'maybe'"):
        make_bot("greedy", Mus, 0, seed=1, senas="maybe")


def _signed_game(seed: int, catch: float, steps: int) -> Mus:
    """A game of random play in which every seat makes every seña it may."""
    rng = random.Random(seed)
    bots = _bots(["greedy"] * 4)
    state = Mus.new(4, {"catch": catch}, seed=seed)
    for _ in range(steps):
        if state.over:
            break
        state.apply(rng.choice(state.legal_actions()))
        make_signals(state, bots, seed)
    return state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), catch=st.sampled_from([0, 0.5, 1]), steps=st.integers(2, 60))
def test_the_experts_samples_agree_with_the_señas_seen(seed: int, catch: float, steps: int) -> None:
    state = _signed_game(seed, catch, steps)
    if state.over or not state.to_act:
        return
    seat = state.to_act[0]
    view = state.view(seat)
    bot = make_bot("expert", Mus, seat, seed=seed, **STEADY)
    draw = mus_bots.sampler(bot, view)
    for _ in range(10):
        s = draw()
        assert s.view(seat) == view
        for e in view["signals"]:
            assert holds(e["sign"], s.hands[e["seat"]]), (e, s.hand_cards(e["seat"]))


def test_samples_deal_a_rare_seña_rightly() -> None:
    # the partner's medias de ases: three of the eight aces in a hand of four
    hands = ["12o 11o 10o 7o", "4o 4c 5o 6o", "1o 2c 1e 5b", "12c 11c 10c 7c"]
    s = start(deal(hands))
    play(s, "0 no_mus", "0 pass", "1 pass", "2 pass")
    s.make_signal(2, "medias_ases", [])
    view = s.view(0)
    rng = random.Random(4)
    for _ in range(200):
        x = Mus.sample(view, rng)
        assert holds("medias_ases", x.hands[2])
        assert x.view(0) == view


@pytest.mark.parametrize("level", ["greedy", "expert"])
def test_no_bot_peeks_with_señas(level: str) -> None:
    """Two hidden states consistent with one view and its señas: the same decision."""
    hands = ["12o 11o 10o 7o", "12c 3o 3c 4b", "1o 2c 1e 5b", "4c 5c 6c 7c"]
    s = start(deal(hands))
    play(s, "0 no_mus")
    s.make_signal(2, "medias_ases", [])  # seen by seat 0, its partner
    s.make_signal(1, "medias_reyes", [0])  # caught by seat 0
    seat = s.turn
    assert seat == 0
    view = s.view(seat)
    other = Mus.sample(view, random.Random(3))
    assert other.view(seat) == view
    assert [other.hand_cards(x) for x in (1, 2, 3)] != [s.hand_cards(x) for x in (1, 2, 3)]
    decisions = [decide(x, _bots([level] * 4, seed=11)) for x in (s, other)]
    assert decisions[0] == decisions[1]


def test_parse_entry() -> None:
    assert parse_entry("greedy") == ("greedy", {})
    assert parse_entry("greedy:senas=ignore") == ("greedy", {"senas": "ignore"})
    assert parse_entry("expert:iterations=50:senas=read") == (
        "expert",
        {"iterations": 50, "senas": "read"},
    )
    assert parse_entry("taverna.bots.simple:GreedyBot:senas=read") == (
        "taverna.bots.simple:GreedyBot",
        {"senas": "read"},
    )


def test_simulate_plays_reading_against_ignoring_and_records_the_señas(tmp_path: Path) -> None:
    plan = Plan(
        "mus",
        4,
        Mus.check_settings(4, {"games_per_cow": 1}),
        ("greedy:senas=read", "greedy:senas=ignore"),
        {},
        seed=5,
        max_hands=100,
        records=str(tmp_path),
    )
    report = run(plan, 4, jobs=1, progress=False)
    assert [b["bot"] for b in report["bots"]] == ["greedy:senas=read", "greedy:senas=ignore"]
    assert sum(b["wins"] for b in report["bots"]) == 4
    files = sorted(tmp_path.glob("game-*.json"))
    assert len(files) == 4
    for f in files:
        rec = load_record(f.read_text())
        assert rec.signals
        out = replay(rec)
        assert out.ok and out.state.over
    # the same seed, the same games and catches
    again = tmp_path / "again"
    again.mkdir()
    run(replace(plan, records=str(again)), 4, jobs=1, progress=False)
    assert [f.read_text() for f in files] == [(again / f.name).read_text() for f in files]
