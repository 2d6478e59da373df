"""Benchmarks (figures with `pytest --benchmark-enable`) and the shape of `taverna bench --json`."""

from __future__ import annotations

import json
import random

import pytest

from taverna.cli import main
from taverna.games import GAMES


@pytest.mark.parametrize("game", sorted(GAMES))
def test_benchmark_random_hand(benchmark, game: str) -> None:
    cls = GAMES[game]
    rng = random.Random(1)

    def one_hand() -> int:
        state = cls.new(cls.min_seats, seed=rng.randrange(1 << 30))
        n = 0
        while state.hand_no == 0 and not state.over:
            state.apply(rng.choice(state.legal_actions()))
            n += 1
        return n

    assert benchmark(one_hand) > 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_benchmark_clone(benchmark, game: str) -> None:
    state = GAMES[game].new(GAMES[game].min_seats, seed=3)
    clone = benchmark(state.clone)
    assert clone.view(0) == state.view(0)


def test_bench_json_shape(capsys) -> None:
    assert main(["bench", "dominoes", "--seconds", "0.2", "--seats", "2,4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "muggins-dominoes"
    assert [r["seats"] for r in out["results"]] == [2, 4]
    for r in out["results"]:
        assert r["hands_per_second"] > 0 and r["actions_per_second"] > r["hands_per_second"]
