"""Playing whole games between bots, the way the server and `simulate` do.

The driver hands each bot only its seat's view. Seats holding an optional
right (a claim, a Muggins! call) are asked before the seat whose turn it is,
so a call is never pre-empted by the next play.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from ..games.base import Action, IllegalAction, State
from .base import Bot


@dataclass
class Outcome:
    """How one game between bots went."""

    seed: int
    winner: int | None  # a seat (Mus: a pair); None for a capped game
    scores: list[int]
    hands: int
    capped: bool
    decisions: list[int] = field(default_factory=list)  # per seat
    seconds: list[float] = field(default_factory=list)  # per seat
    slowest: list[float] = field(default_factory=list)  # per seat: the longest decision
    cpu: list[float] = field(default_factory=list)  # per seat: processor seconds
    #: per seat: decisions the wall-clock safety cap stopped (taverna.bots.budget)
    capped_decisions: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def decide(
    state: State,
    bots: list[Bot],
    timing: list[float] | None = None,
    asked: list[int] | None = None,
    slowest: list[float] | None = None,
    cpu: list[float] | None = None,
    capped: list[int] | None = None,
) -> Action | None:
    """Ask the acting seats' bots, optional rights first; the first action wins.
    ``timing`` adds each seat's wall-clock seconds, ``cpu`` its processor seconds (this
    process's: the same on a loaded machine), ``capped`` its decisions stopped by the
    safety cap."""
    acting = state.to_act
    if not acting:
        return None
    views = [(s, state.view(s)) for s in acting]
    views.sort(key=lambda sv: sv[1].get("turn") == sv[0])  # the turn seat last
    for seat, view in views:
        t0, c0 = time.perf_counter(), time.process_time()
        action = bots[seat].choose(view)
        spent = time.perf_counter() - t0
        if cpu is not None:
            cpu[seat] += time.process_time() - c0
        if timing is not None:
            timing[seat] += spent
        if slowest is not None and spent > slowest[seat]:
            slowest[seat] = spent
        if asked is not None:
            asked[seat] += 1
        if capped is not None and getattr(bots[seat], "capped", False):
            capped[seat] += 1
        if action is not None:
            if action.seat != seat:
                raise IllegalAction(f"bot of seat {seat} answered for seat {action.seat}")
            return action
        if view.get("turn") == seat:
            raise IllegalAction(f"bot of seat {seat} ({bots[seat].name}) passed its own turn")
    return None


def make_signals(state: State, bots: list[Bot], seed: int) -> int:
    """Ask every seat's bot for the signals it makes now (Mus señas), in seat order, and
    make them, each caught as the game draws it from ``seed`` (:meth:`State.catches`);
    returns how many were made. Nothing is asked while no signal may be made."""
    made = 0
    if not state.signals_open():
        return made
    for seat, bot in enumerate(bots):
        for sign in bot.signals(state.view(seat)):
            state.make_signal(seat, sign, state.catches(seed, seat))
            made += 1
    return made


def play_game(state: State, bots: list[Bot], seed: int = 0, max_hands: int = 200) -> Outcome:
    """Play ``state`` to its end (or ``max_hands`` hands: then a draw) with one bot per seat;
    after each action, the bots make the signals they want (:func:`make_signals`)."""
    n = state.seats
    decisions = [0] * n
    seconds = [0.0] * n
    slowest = [0.0] * n
    cpu = [0.0] * n
    capped = [0] * n
    while not state.over and state.hand_no < max_hands:
        action = decide(state, bots, seconds, decisions, slowest, cpu, capped)
        if action is None:
            break
        state.apply(action)
        make_signals(state, bots, seed)
    result = state.result()
    return Outcome(
        seed=seed,
        winner=state.winner if state.over else None,
        scores=list(result["scores"]),
        hands=state.hand_no + (1 if state.over else 0),
        capped=not state.over,
        decisions=decisions,
        seconds=seconds,
        slowest=slowest,
        cpu=cpu,
        capped_decisions=capped,
        extra={k: v for k, v in result.items() if k in ("games", "cows")},
    )
