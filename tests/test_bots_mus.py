"""Mus bots: the strength tables, the greedy policy's obvious choices, the search hooks."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import pytest

from taverna.bots import make_bot
from taverna.bots import mus as mus_bots
from taverna.bots.match import play_game
from taverna.games.mus import Mus
from taverna.games.mus.hands import VALUES, parse_hand

from .mus_helpers import deal, play, start

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "mus_strength.py"
DATA = ROOT / "taverna" / "bots" / "data" / "mus_strength.json"
#: cards for the other seats, middling ones first
FILLER = [f"{r}{s}" for s in "oceb" for r in (11, 10, 7, 6, 5, 4)] + [
    f"{r}{s}" for s in "oceb" for r in (1, 2, 3, 12)
]


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("mus_strength", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _choice(state: Mus, level: str = "greedy", **options: Any) -> dict[str, Any]:
    seat = state.turn
    bot = make_bot(level, Mus, seat, seed=3, **options)
    view = state.view(seat)
    action = bot.choose(view)
    assert action is not None
    assert action.to_json() in view["legal"]
    return action.to_json()


def _table(hand: str, mano: int = 1, seat: int = 0) -> Mus:
    """A hand where ``seat`` holds ``hand`` and the others middling cards."""
    mine = hand.split()
    rest = [c for c in FILLER if c not in mine]
    hands = [" ".join(rest[i * 4 : i * 4 + 4]) for i in range(3)]
    hands.insert(seat, hand)
    return start(deal(hands, mano=mano))


# ------------------------------------------------------------------ the data file


def test_data_file_loads_and_covers_every_hand() -> None:
    t = mus_bots.strength()
    assert t.data["format"] == mus_bots.DATA_FORMAT
    assert len(t.hands) == 330 and len(set(t.hands)) == 330
    assert set(t.index) == set(VALUES)  # one entry per class multiset, as the engine knows them
    for h, key in enumerate(t.hands):
        v = VALUES[sum(1 << (3 * int(ch)) for ch in key)]
        for field in ("grande", "chica", "ev", "pares_win", "juego_win"):
            assert len(t.data[field][h]) == 4
        assert all(0 <= p <= 1 for p in t.grande[h] + t.chica[h])
        assert bool(t.pares[h]) == bool(v.pares_kind)
        assert bool(t.juego[h]) == bool(v.juego)
        assert bool(t.punto[h]) == (not v.juego)
        for row in t.pares[h] + t.juego[h]:
            assert len(row) == len(t.data["patterns"]) and all(0 <= p <= 1 for p in row)
    assert len(t.keep) == 1 + 8 + 36 + 120  # every keep of 0 to 3 cards
    w = t.game_win
    assert len(w) == 40 and all(len(row) == 40 for row in w)
    assert w[0][0] == pytest.approx(0.5, abs=0.03)
    assert w[39][0] > 0.95 > 0.05 > w[0][39]
    assert all(
        w[a][b] + w[b][a] == pytest.approx(1, abs=0.05) for a in range(40) for b in range(40)
    )


def test_data_file_matches_the_script(tmp_path: Path) -> None:
    """The shipped file has exactly the layout the script writes (a quick run of it)."""
    out = tmp_path / "quick.json"
    assert _script().main(["--deals", "30", "--outcomes", "40", "--out", str(out)]) == 0
    quick = json.loads(out.read_text())
    shipped = json.loads(DATA.read_text())
    assert set(quick) == set(shipped)
    assert quick["hands"] == shipped["hands"] and quick["patterns"] == shipped["patterns"]
    assert set(quick["keep"]) == set(shipped["keep"])
    assert shipped["made_by"] == "scripts/mus_strength.py" and shipped["deals_per_hand"] >= 1000
    for field in ("grande", "chica", "pares", "juego", "punto", "ev"):
        for a, b in zip(quick[field], shipped[field], strict=True):
            assert len(a) == len(b)


def test_table_figures_make_sense() -> None:
    t = mus_bots.strength()
    kings = t.hand(parse_hand("12o 12c 3e 3b"))
    aces = t.hand(parse_hand("1o 1c 2e 2b"))
    poor = t.hand(parse_hand("4o 5c 6e 10b"))
    assert t.grande[kings][0] > 0.99 and t.chica[aces][0] > 0.99
    assert t.grande[poor][0] < 0.36  # the partner alone wins about a third
    assert t.ev[kings][0] > t.ev[poor][0]
    real31 = t.hand(parse_hand("7o 7c 7e 10b"))
    assert min(t.juego[real31][0]) > 0.9  # mano with 31 beats every other juego
    # keeping two kings is worth more than keeping a four and a five
    assert t.keep_value(parse_hand("12o 3c"), 0) > t.keep_value(parse_hand("4o 5c"), 0)


# ------------------------------------------------------------------ greedy


@pytest.mark.parametrize("hand", ["7o 7c 7e 10b", "12o 12c 3e 3b", "12o 12c 11e 11b"])
def test_greedy_cuts_the_mus_with_a_great_hand(hand: str) -> None:
    assert _choice(_table(hand, mano=0))["type"] == "no_mus"


def test_greedy_asks_for_mus_with_a_poor_hand() -> None:
    assert _choice(_table("4o 5c 6e 10b", mano=0))["type"] == "mus"


def test_greedy_discards_to_keep_its_kings() -> None:
    state = _table("12o 3c 4e 5b", mano=0)
    play(state, "0 mus", "1 mus", "2 mus", "3 mus")
    assert sorted(_choice(state)["cards"]) == ["4e", "5b"]


def test_greedy_bets_on_a_near_certain_grande() -> None:
    state = _table("12o 12c 3e 3b", mano=0)
    play(state, "0 no_mus")
    assert _choice(state)["type"] in ("bet", "ordago")


def test_greedy_passes_a_hopeless_grande() -> None:
    state = _table("1o 2c 4e 5b", mano=0)
    play(state, "0 no_mus")
    # with a rare bluff the bot may still bet: over several seeds it mostly passes
    choices = [
        make_bot("greedy", Mus, 0, seed=s).choose(state.view(0)).type  # type: ignore[union-attr]
        for s in range(20)
    ]
    assert choices.count("pass") >= 16


def test_greedy_rejects_a_big_bet_with_a_weak_hand() -> None:
    state = _table("1o 2c 4e 5b", mano=1, seat=0)  # seat 0 is postre, the last to answer
    play(state, "1 no_mus", "1 bet 5")
    assert state.turn == 2
    play(state, "2 reject")
    assert _choice(state)["type"] == "reject"


def test_greedy_accepts_or_raises_with_a_strong_hand() -> None:
    state = _table("12o 12c 3e 11b", mano=1, seat=0)
    play(state, "1 no_mus", "1 bet 2", "2 reject")
    assert _choice(state)["type"] in ("accept", "raise", "ordago")


def test_greedy_goes_for_the_game_when_it_is_nearly_lost() -> None:
    state = _table("12o 12c 3e 7b", mano=0)
    state.stones = [20, 38]  # the other pair is two stones from the game
    play(state, "0 no_mus")
    assert _choice(state)["type"] == "ordago"


def test_greedy_accepts_an_ordago_when_refusing_loses_the_game() -> None:
    state = _table("4o 5c 6e 10b", mano=1, seat=0)
    state.stones = [10, 39]
    play(state, "1 no_mus", "1 ordago", "2 reject")
    # refusing gives them the stone they need: any chance is better than none
    assert _choice(state)["type"] == "accept"


def test_greedy_plays_legal_moves_through_whole_games() -> None:
    for seed in range(3):
        state = Mus.new(4, seed=seed)
        bots = [make_bot("greedy", Mus, s, seed=seed * 4 + s) for s in range(4)]
        out = play_game(state, bots, max_hands=60)
        assert out.hands >= 1


# ------------------------------------------------------------------ search hooks


def test_policy_action_is_legal_in_random_states() -> None:
    rng = random.Random(4)
    for seed in range(40):
        state = Mus.new(4, seed=seed)
        for _ in range(rng.randrange(40)):
            if state.over:
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.over:
            continue
        action = mus_bots.policy_action(state, rng)
        assert action in state.legal_actions() or action.type in ("bet", "raise", "discard")
        state.clone().apply(action)  # the engine takes it


def test_weighted_samples_fit_the_view_and_favour_the_bettors() -> None:
    state = _table("1o 2c 4e 5b", mano=1, seat=0)
    play(state, "1 no_mus", "1 bet 4", "2 reject")
    view = state.view(0)
    draw = mus_bots.sampler(make_bot("expert", Mus, 0, seed=2), view)
    t = mus_bots.strength()
    weighted, plain = [], []
    for _ in range(300):
        s = draw()
        assert s.view(0) == view
        weighted.append(t.grande[t.hand(s.hands[1])][0])
        plain.append(t.grande[t.hand(Mus.sample(view, random.Random(len(plain))).hands[1])][0])
    # seat 1 bet 4 in Grande: the weighted samples give it stronger Grande hands
    assert sum(weighted) / len(weighted) > sum(plain) / len(plain) + 0.1


def test_standing_counts_games_and_the_chance_of_the_current_one() -> None:
    state = Mus.new(4, seed=1)
    even = mus_bots.standing(state)
    assert even[0] == even[2] == pytest.approx(0.5, abs=0.03)
    state.stones = [36, 10]
    ahead = mus_bots.standing(state)
    assert ahead[0] > 0.9 and ahead[1] < 0.1
    state.games = [1, 0]
    assert mus_bots.standing(state)[0] > 1.9


def test_standing_counts_a_won_match_once_and_rewards_are_linear() -> None:
    state = Mus.new(4, seed=1, settings={"games_per_cow": 1})
    before = mus_bots.standing(state)
    state.stones = [41, 30]
    state.games, state.cows, state.over, state.winner = [1, 0], [1, 0], True, 0
    assert mus_bots.standing(state)[:2] == [1.0, 0.0]  # the last cow's games count once
    gain = 1.0 - before[0]
    assert mus_bots.reward(state, before)[0] == pytest.approx(2 * gain)
    assert mus_bots.reward(state, before)[1] == pytest.approx(-2 * gain)


def test_expert_keeps_the_greedy_choice_unless_the_search_clearly_beats_it() -> None:
    states = [_table("12o 12c 3e 3b", mano=1, seat=0), _table("4o 5c 6e 7b", mano=1, seat=0)]
    play(states[0], "1 no_mus")
    play(states[1], "1 no_mus")
    for state in states:
        greedy = _choice(state, "greedy")
        assert _choice(state, "expert", iterations=200, margin=1e9) == greedy


def test_expert_search_offers_an_ordago_only_late() -> None:
    state = _table("12o 12c 3e 3b", mano=1, seat=0)
    play(state, "1 no_mus")
    early = {a.to_json()["type"] for a in mus_bots.search_actions(state, state.turn)}
    state.stones = [31, 12]
    late = {a.to_json()["type"] for a in mus_bots.search_actions(state, state.turn)}
    assert "ordago" not in early and "ordago" in late


def test_expert_answers_sensibly_with_a_small_budget() -> None:
    # a near-certain Grande facing a bet: the search does not refuse it
    state = _table("12o 12c 3e 3b", mano=1, seat=0)
    play(state, "1 no_mus", "1 bet 2", "2 reject")
    assert _choice(state, "expert", iterations=300)["type"] != "reject"


def test_greedy_trusts_the_bets_of_a_loose_pair_less() -> None:
    reading = mus_bots.Reading(seat=0)
    assert reading.trust(0.85) == 0.85  # no evidence: bets are signals
    for hand in range(40):
        betting = [{"seat": 3, "type": "ordago"}, {"seat": 0, "type": "reject"}]
        reading.watch({"hand_no": hand, "lance_slot": 0, "betting": betting})
        reading.watch({"hand_no": hand, "lance_slot": 0, "betting": betting})  # seen twice
    assert reading.openings == 40
    assert reading.trust(0.85) < 0.4


def test_a_paired_search_stops_once_its_anchor_is_clearly_kept() -> None:
    """Issue 19 (a budget that stops when the choice is already clear): the expert's
    paired search keeps the greedy choice unless another action beats it by ``margin``
    standard errors; once every other action trails it by ``settle`` standard errors
    (default 3) it stops — the same choice for fewer playouts — and ``settle=0`` plays
    the whole budget."""
    # three aces and a four, every seat asked for mus: keeping the aces is the discard
    state = _table("1o 1c 1e 4b", mano=0, seat=0)
    for line in ("0 mus", "1 mus", "2 mus", "3 mus"):
        play(state, line)
    view = state.view(0)
    # 300 samples of five discards (the default budget): a clear choice stops well before
    # the playouts counted, never the clock (0.8 s by default: a loaded machine runs out)
    whole = make_bot("expert", Mus, 0, seed=3, settle=0, iterations=1500, seconds=600)
    early = make_bot("expert", Mus, 0, seed=3, iterations=1500, seconds=600)
    assert (
        whole.choose(view)
        == early.choose(view)
        == Mus.parse_action({"seat": 0, "type": "discard", "cards": ["4b"]}, 4)
    )
    assert whole.samples * len(whole.estimates) >= 1500
    assert early.samples < whole.samples


def test_settled_needs_every_other_action_clearly_behind_the_anchor() -> None:
    from taverna.bots.expert import _settled

    n = 64
    # gains over the anchor (index 0): a steady -1 (sd 0) and a noisy mean -0.1, sd 1
    steady = (-1.0 * n, 1.0 * n)
    noisy = (-0.1 * n, (1.0 + 0.01) * n)  # E[x²] = sd² + mean²
    assert _settled([0.0, steady[0]], [0.0, steady[1]], n, 0, 3.0)
    assert not _settled([0.0, steady[0], noisy[0]], [0.0, steady[1], noisy[1]], n, 0, 3.0)
    # the anchor's own (zero) gain is never held against it, wherever it is listed
    assert _settled([steady[0], 0.0], [steady[1], 0.0], n, 1, 3.0)
