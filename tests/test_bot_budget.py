"""Issue 30, item 3: a bot's decision depends on its view, its seed and its budget
(counted in work), never on the clock; the wall clock is only a safety cap."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from taverna.bots import budget, make_bot
from taverna.bots.base import BotOptionError
from taverna.bots.decision import ask, decide
from taverna.bots.expert import ExpertBot
from taverna.bots.match import play_game
from taverna.games import get_game
from taverna.games.base import State

MUS_SHORT = {"cows": 1, "games_per_cow": 1}


class Clock:
    """A stand-in for ``time.perf_counter``: ``step`` seconds go by at every look, and
    ``jump`` more at the look number ``jump_at`` (a machine stalled, a host suspended)."""

    def __init__(self, step: float, jump_at: int | None = None, jump: float = 0.0) -> None:
        self.now = 1000.0
        self.step = step
        self.looks = 0
        self.jump_at = jump_at
        self.jump = jump

    def __call__(self) -> float:
        self.looks += 1
        self.now += self.step
        if self.looks == self.jump_at:
            self.now += self.jump
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Clock]:
    def install(step: float, jump_at: int | None = None, jump: float = 0.0) -> Clock:
        fake = Clock(step, jump_at, jump)
        monkeypatch.setattr(time, "perf_counter", fake)
        return fake

    return install


def _position(game: str, settings: dict[str, Any], moves: int, seed: int) -> tuple[State, int]:
    """A position ``moves`` greedy moves into a game, where the seat to play has a choice
    (in Mus: a betting one, where the expert draws its pool of samples)."""
    cls = get_game(game)
    state = cls.new(cls.max_seats if cls.team_count else 2, settings, seed=seed)
    bots = [make_bot("greedy", cls, s, seed=s) for s in range(state.seats)]
    made = 0
    while True:
        seat = state.to_act[0]
        view = state.view(seat)
        turn = [a for a in view["legal"] if a["type"] not in cls.optional_actions]
        betting = game != "mus" or (view["phase"] in ("speak", "answer") and view["lances"])
        rights = len(turn) < len(view["legal"])  # a claim or a call: no search
        if made >= moves and len(turn) > 1 and betting and not rights and view.get("turn") == seat:
            return state, seat
        action = bots[seat].choose(view)
        assert action is not None
        state.apply(action)
        made += 1


def _decision(state: State, seat: int, **options: Any) -> tuple[str, ExpertBot]:
    bot = make_bot("expert", type(state), seat, seed=11, **options)
    assert isinstance(bot, ExpertBot)
    action = bot.choose(state.view(seat))
    assert action is not None
    return json.dumps(action.to_json()), bot


@pytest.mark.parametrize(
    ("game", "settings", "options"),
    [
        ("dominoes", {}, {"iterations": 300}),
        ("cards", {}, {"iterations": 300}),
        ("mus", MUS_SHORT, {"iterations": 300, "pool": 40}),
    ],
)
def test_a_slow_clock_changes_no_decision(
    game: str, settings: dict[str, Any], options: dict[str, Any], clock: Callable[..., Clock]
) -> None:
    """The same view, seed and budget give the same decision, the same estimates and the
    same work done when every look at the clock finds 20 ms gone (a machine a hundred
    times as slow): the clock stops nothing short of the safety cap."""
    state, seat = _position(game, settings, 6, seed=3)
    idle, idle_bot = _decision(state, seat, **options)
    slow = clock(0.02)
    busy, busy_bot = _decision(state, seat, **options)
    assert slow.looks > 0  # the search did look at the clock
    assert busy == idle
    assert busy_bot.estimates == idle_bot.estimates
    assert busy_bot.done == idle_bot.done > 0
    assert not busy_bot.capped


def test_the_old_timed_budget_would_have_differed(clock: Callable[..., Clock]) -> None:
    """The test above can fail: with a cap the slow clock reaches (the old 0.8 s), the
    search stops early and does less work."""
    state, seat = _position("dominoes", {}, 6, seed=3)
    _, idle_bot = _decision(state, seat, iterations=300)
    clock(0.2)
    _, busy_bot = _decision(state, seat, iterations=300, seconds=0.8)
    assert busy_bot.capped and busy_bot.done < idle_bot.done


def test_a_loaded_machine_changes_no_decision() -> None:
    """The same decision while another thread keeps the processor busy."""
    state, seat = _position("mus", MUS_SHORT, 6, seed=8)
    idle, _ = _decision(state, seat, iterations=200, pool=40)
    stop = threading.Event()

    def burn() -> None:
        x = 0
        while not stop.is_set():
            x += 1

    burners = [threading.Thread(target=burn) for _ in range(2)]
    for t in burners:
        t.start()
    try:
        busy, _ = _decision(state, seat, iterations=200, pool=40)
    finally:
        stop.set()
        for t in burners:
            t.join()
    assert busy == idle


@pytest.mark.parametrize("game", ["dominoes", "mus"])
def test_the_safety_cap_stops_a_search_when_the_clock_jumps(
    game: str, clock: Callable[..., Clock], caplog: pytest.LogCaptureFixture
) -> None:
    """A clock that jumps by a minute in the middle of a search (a stalled machine): the
    search stops there, says so (``capped``), logs it and counts it."""
    settings = MUS_SHORT if game == "mus" else {}
    state, seat = _position(game, settings, 6, seed=3)
    options = {"iterations": 2000, "settle": 0} if game == "mus" else {"iterations": 2000}
    _, whole = _decision(state, seat, **options)
    before = budget.hits
    clock(0.0, jump_at=4, jump=60.0)
    with caplog.at_level(logging.WARNING, logger="taverna.bots"):
        _, cut = _decision(state, seat, **options)
    assert cut.capped and not whole.capped
    assert 0 < cut.done < whole.done
    assert budget.hits == before + 1
    assert "safety cap of 10 s" in caplog.text and "seat" in caplog.text


def test_a_capped_decision_says_so_to_the_server(clock: Callable[..., Clock]) -> None:
    state, seat = _position("cards", {}, 4, seed=2)
    bot = make_bot("expert", type(state), seat, seed=1, iterations=500)
    request = ask(bot, state.view(seat), seed=5)
    assert "capped" not in decide(request)
    clock(0.0, jump_at=3, jump=60.0)
    assert decide(request)["capped"] is True


def _record(game: str, settings: dict[str, Any], expert: dict[str, Any]) -> str:
    cls = get_game(game)
    seats = cls.max_seats if cls.team_count else 2
    state = cls.new(seats, settings, seed=42)
    bots = [
        make_bot("expert", cls, s, seed=100 + s, **expert)
        if cls.side_of(s) == 0
        else make_bot("greedy", cls, s, seed=100 + s)
        for s in range(seats)
    ]
    out = play_game(state, bots, seed=42)
    assert not out.capped and sum(out.capped_decisions) == 0
    return json.dumps(state.record(), sort_keys=True)


@pytest.mark.parametrize(
    ("game", "settings", "expert"),
    [
        ("dominoes", {"target": 100}, {"iterations": 200}),
        ("mus", MUS_SHORT, {"iterations": 150, "pool": 24}),
    ],
)
def test_a_whole_game_is_the_same_at_any_clock_speed(
    game: str, settings: dict[str, Any], expert: dict[str, Any], clock: Callable[..., Clock]
) -> None:
    """An expert-against-greedy game with a fixed seed, once with a clock where 1 µs goes
    by at each look and once where 20 ms do: the same record, move for move."""
    clock(1e-6)
    fast = _record(game, settings, expert)
    clock(0.02)
    slow = _record(game, settings, expert)
    assert slow == fast


def test_the_pool_is_a_count_and_pool_seconds_is_refused() -> None:
    Mus = get_game("mus")
    with pytest.raises(BotOptionError, match="pool_seconds is no longer an option: the pool"):
        make_bot("expert", Mus, 0, pool_seconds=0.15)
    bot = make_bot("expert", Mus, 0)
    assert bot.seconds == budget.SAFETY_SECONDS == 10.0
