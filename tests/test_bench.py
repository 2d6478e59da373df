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
        # the same play through apply, every event made (the server's way)
        assert r["events_hands_per_second"] > 0
        # the costs are the minimal loop's hands per second over each of the engine's
        minimal = r["minimal_hands_per_second"]
        assert r["protocol_cost"] == round(minimal / r["hands_per_second"], 2)
        assert r["events_cost"] == round(minimal / r["events_hands_per_second"], 2)
        # a state's own bytes, not the tables every state of the game shares
        assert 0 < r["state_bytes"] < 20_000


@pytest.mark.parametrize("events", [False, True])
def test_the_bench_loop_plays_legal_games_to_their_end(events: bool) -> None:
    """The bench's loop (compiled with the engines) plays whole games, through step or
    apply, and starts new ones: every game it counts ended or reached the hand cap."""
    from taverna.bench.loop import HAND_CAP, protocol_loop

    for name, cls in sorted(GAMES.items()):
        out = protocol_loop(cls, cls.min_seats, 0.3, seed=5, events=events)
        state = out["state"]
        assert out["games"] > 0, name
        assert out["actions_per_second"] > out["hands_per_second"] > 0, name
        assert state.hand_no <= HAND_CAP and state.actions_played, name
