"""Glicko-2 (taverna.glicko2) against Glickman's worked example and cases worked out by
hand, step by step with a calculator, from the paper's formulas."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taverna import glicko2
from taverna.glicko2 import Rating, composite, idle, outcomes, rate_game, update


def test_the_papers_worked_example() -> None:
    # Glickman, "Example of the Glicko-2 system", §"Example calculation": a player of
    # 1500 (RD 200, σ 0.06) beats 1400 (RD 30), loses to 1550 (RD 100) and to 1700
    # (RD 300); τ = 0.5: r' = 1464.06, RD' = 151.52, σ' = 0.05999. The paper rounds its
    # steps (μ' = −0.2069); unrounded, r' is 1464.0507: within a hundredth of it
    new = update(
        Rating(1500, 200, 0.06),
        [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)],
    )
    assert abs(new.r - 1464.06) < 0.01
    assert round(new.rd, 2) == 151.52
    assert abs(new.vol - 0.05999) < 0.00001


def test_a_period_without_games_only_widens_the_deviation() -> None:
    # step 6 alone: φ* = √(φ² + σ²); 200/173.7178 = 1.151288, √(1.325464 + 0.0036) =
    # 1.152851, × 173.7178 = 200.27
    new = update(Rating(1500, 200, 0.06), [])
    assert new.r == 1500 and new.vol == 0.06
    assert round(new.rd, 2) == 200.27


def test_a_mus_pair_is_one_opponent_of_the_mean_rating() -> None:
    # Carla (1600, RD 200) and Dani (1400, RD 100): r = 1500, RD = √((200² + 100²)/2)
    # = √25000 = 158.11
    pair = composite([Rating(1600, 200), Rating(1400, 100)])
    assert pair.r == 1500
    assert round(pair.rd, 2) == 158.11


def test_a_newcomer_who_beats_a_pair_of_equal_mean_rating() -> None:
    # Ana (1500, 350, 0.06) with Bea beats Carla and Dani (the pair above). By hand:
    # μ = 0, φ = 350/173.7178 = 2.014762; the pair: μⱼ = 0, φⱼ = 0.910177;
    # g = 1/√(1 + 3·0.828422/π²) = 0.893780; E = 1/(1 + e⁰) = 0.5;
    # v = 1/(g²·E·(1−E)) = 5.007240; Δ = v·g·(1 − E) = 2.237686; Δ² = 5.0072 < φ² + v
    # = 9.0665, so σ' stays ≈ 0.06 (the iteration gives 0.0599993);
    # φ* = √(4.059265 + 0.0036) = 2.015655; φ' = 1/√(1/φ*² + 1/v) = 1.497646;
    # μ' = φ'²·g·0.5 = 1.002350: r' = 1500 + 173.7178 × 1.002350 = 1674.13,
    # RD' = 173.7178 × 1.497646 = 260.17
    sides = [[Rating(), Rating(1700, 300)], [Rating(1600, 200), Rating(1400, 100)]]
    after = rate_game(sides, scores=[40, 31], winner=0)
    ana = after[0][0]
    assert round(ana.r, 2) == 1674.13
    assert round(ana.rd, 2) == 260.17
    assert round(ana.vol, 4) == 0.06
    # each player is rated against the other pair as one opponent
    assert after[1][1] == update(Rating(1400, 100), [(composite(sides[0]), 0.0)])


def test_three_players_count_as_the_outcomes_between_each_two() -> None:
    # dominoes for three, scores 10, 25, 10 and seat 1 wins: 1 beats both; 0 and 2 tie
    assert outcomes([10, 25, 10], winner=1) == [
        [0.0, 0.0, 0.5],
        [1.0, 0.0, 1.0],
        [0.5, 0.0, 0.0],
    ]
    # the winner scored less than another (a game won by going out): still beats all
    assert outcomes([30, 20, 25], winner=1)[1] == [1.0, 0.0, 1.0]
    assert outcomes([30, 20, 25], winner=1)[0] == [0.0, 0.0, 1.0]
    # three newcomers. The winner by hand: two opponents of μⱼ = 0, φⱼ = 2.014762:
    # g = 1/√(1 + 3·4.059265/π²) = 0.669069; E = 0.5 each; v = 1/(2·g²·0.25) = 4.467737;
    # Σ g(s − E) = 2·0.669069·0.5 = 0.669069; σ' = 0.0600001 (the iteration);
    # φ* = √(4.059265 + 0.0036) = 2.015655; φ' = 1/√(1/φ*² + 1/v) = 1.458714;
    # μ' = φ'²·0.669069 = 1.423677: r' = 1500 + 173.7178 × 1.423677 = 1747.32,
    # RD' = 173.7178 × 1.458714 = 253.40.
    # Seat 0 (a loss and a draw): Σ g(s − E) = 0.669069·(−0.5 + 0) = −0.334535:
    # μ' = −0.711839, r' = 1376.34, RD' = 253.40
    after = rate_game([[Rating()], [Rating()], [Rating()]], scores=[10, 25, 10], winner=1)
    assert round(after[1][0].r, 2) == 1747.32
    assert round(after[1][0].rd, 2) == 253.40
    assert round(after[0][0].r, 2) == 1376.34
    assert after[0][0] == after[2][0]  # the two who tied, alike


def test_the_deviation_grows_with_the_days_away() -> None:
    me = Rating(1620, 60, 0.06)
    assert idle(me, 0) == me
    # 30 days, one empty period a day: √((60/173.7178)² + 30·0.06²) × 173.7178; by hand
    # φ = 0.345388, φ² = 0.119293, + 0.108 = 0.227293, √ = 0.476753, × 173.7178 = 82.82
    assert round(idle(me, 30).rd, 2) == 82.82
    assert idle(me, 365 * 50).rd == glicko2.MAX_RD  # never above a newcomer's
    assert idle(me, 30).r == me.r


@given(
    st.lists(
        st.tuples(st.floats(1000, 2200), st.floats(30, 350), st.sampled_from([0.0, 0.5, 1.0])),
        min_size=1,
        max_size=4,
    ),
    st.floats(1000, 2200),
    st.floats(30, 350),
)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(
    games: list[tuple[float, float, float]], r: float, rd: float
) -> None:
    me = Rating(r, rd, 0.06)
    results = [(Rating(rj, rdj), s) for rj, rdj, s in games]
    new = update(me, results)
    assert math.isfinite(new.r) and 0 < new.rd <= glicko2.MAX_RD
    if all(s == 1.0 for _, s in results):
        assert new.r >= me.r
    if all(s == 0.0 for _, s in results):
        assert new.r <= me.r


@pytest.mark.parametrize("rd", [350.0, 111.0, 110.0, 45.0])
def test_provisional_until_the_deviation_is_small(rd: float) -> None:
    assert Rating(1500, rd).provisional is (rd > glicko2.PROVISIONAL_RD)
