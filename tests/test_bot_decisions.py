"""A bot decision as a value (taverna/bots/decision.py): made by a bot made again for
each decision, from its level, options, memory (as JSON) and a seed, it is the decision
the same bot object would have made, kept between decisions and given the same seed.
That is what lets a decision be made in a worker on another machine (docs/scaling.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from taverna.bots import make_bot
from taverna.bots.decision import BadRequest, ask, decide
from taverna.games import get_game

Decider = Callable[[int, dict[str, Any], int], dict[str, Any] | None]


def _kept(game: str, levels: list[str], options: dict[str, Any]) -> Decider:
    """One bot object per seat for the whole game, seeded again for each decision."""
    cls = get_game(game)
    bots = [make_bot(level, cls, seat, **options) for seat, level in enumerate(levels)]

    def choose(seat: int, view: dict[str, Any], seed: int) -> dict[str, Any] | None:
        bot = bots[seat]
        bot.rng.seed(seed)
        action = bot.choose(view)
        return None if action is None else action.to_json()

    return choose


def _remote(game: str, levels: list[str], options: dict[str, Any]) -> Decider:
    """Each decision by a bot made from a request that went through JSON."""
    cls = get_game(game)
    holders = [make_bot(level, cls, seat, **options) for seat, level in enumerate(levels)]

    def choose(seat: int, view: dict[str, Any], seed: int) -> dict[str, Any] | None:
        request = json.loads(json.dumps(ask(holders[seat], view, seed)))
        answer = json.loads(json.dumps(decide(request)))
        holders[seat].recall(answer["memory"])
        action: dict[str, Any] | None = answer["action"]
        return action

    return choose


def _play(
    game: str, settings: dict[str, Any], seats: int, choose: Decider, steps: int
) -> list[Any]:
    """A game as the server plays it with bots: every seat that may act is asked, the
    optional rights first, and asked twice (the server asks again at every pause)."""
    state = get_game(game).new(seats, settings, seed=5)
    seeds = random.Random(11)
    played: list[Any] = []
    for _ in range(steps):
        if state.over:
            break
        turn = state.turn_seat
        for seat in sorted(state.to_act, key=lambda s: s == turn):
            answers = [choose(seat, state.view(seat), seeds.randrange(1 << 30)) for _ in range(2)]
            played.append(answers)
            action = answers[-1]
            if action is not None:
                state.apply(state.parse_action(action, seats))
                break
    return played


@pytest.mark.parametrize(
    ("game", "settings", "levels", "options", "steps"),
    [
        # the greedy pair reads the random pair's loose betting over the match (its memory)
        ("mus", {"cows": 3, "games_per_cow": 3}, ["greedy", "random"] * 2, {}, 400),
        # every score unclaimed half the time, decided once per score however often asked
        ("muggins-cards", {"target": 200}, ["greedy", "greedy"], {"forget": 0.5}, 300),
        # a budget in work, never the clock: the same search wherever it runs
        ("mus", {}, ["expert", "random"] * 2, {"iterations": 40, "pool": 24}, 40),
    ],
)
def test_a_bot_made_again_for_each_decision_decides_as_the_kept_one(
    game: str, settings: dict[str, Any], levels: list[str], options: dict[str, Any], steps: int
) -> None:
    seats = len(levels)
    kept = _play(game, settings, seats, _kept(game, levels, options), steps)
    remote = _play(game, settings, seats, _remote(game, levels, options), steps)
    assert len(kept) >= 40
    assert remote == kept


def test_the_memory_matters() -> None:
    """Without its memory a bot made again decides otherwise: the test above can fail."""
    game, levels = "muggins-cards", ["greedy", "greedy"]
    options = {"forget": 0.5}
    cls = get_game(game)
    holders = [make_bot(level, cls, seat, **options) for seat, level in enumerate(levels)]

    def forgetful(seat: int, view: dict[str, Any], seed: int) -> dict[str, Any] | None:
        answer = decide(ask(holders[seat], view, seed))  # its memory never given back
        action: dict[str, Any] | None = answer["action"]
        return action

    kept = _play(game, {"target": 200}, 2, _kept(game, levels, options), 300)
    assert _play(game, {"target": 200}, 2, forgetful, 300) != kept


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"level": "taverna.bots.simple:GreedyBot"}, "level must be a bot level: no bot level"),
        ({"level": "os:system"}, "level must be a bot level"),
        ({"level": "9"}, "the levels are 1 to 8"),
        ({"seat": "1"}, "seat must be int"),
        ({"seed": True}, "seed must be int"),
        ({"memory": []}, "memory must be dict"),
        ({"view": None}, "view must be dict"),
    ],
)
def test_a_request_names_a_level_never_code(change: dict[str, Any], why: str) -> None:
    cls = get_game("mus")
    state = cls.new(4, seed=1)
    seat = state.to_act[0]
    request = {**ask(make_bot("greedy", cls, seat), state.view(seat), seed=1), **change}
    with pytest.raises(BadRequest, match=why):
        decide(request)
