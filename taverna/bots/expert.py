"""The ``expert`` level: information-set Monte Carlo tree search.

Each iteration samples a full state consistent with the bot's view
(``Game.sample``), so the search never sees the real hidden tiles or cards,
then walks one tree shared by all samples (SO-ISMCTS, Cowling et al. 2012):
children are keyed by action, chosen by UCB1 over the samples in which
they were available, expanded one at a time, and evaluated by a quick
rollout to the end of the hand. Rewards are per seat, from the change of
each side's standing over the rollout (see :func:`.heuristics.standing`).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ..games.base import Action, State, View
from .base import Bot, BotOptionError
from .budget import SAFETY_SECONDS, SafetyCap
from .heuristics import (
    AnyStrategy,
    choose_with,
    chosen,
    playout_copy,
    playout_sampler,
    slip,
    strategy,
)
from .heuristics import anchor as anchor_action
from .heuristics import signals as strategy_signals


class _Node:
    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the action leading here
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def _decided(root: _Node, allowed: set[Action], left: int) -> bool:
    """Whether the search's choice (the allowed child of the root with the most visits)
    can no longer change in the ``left`` iterations to come: its lead over every other
    one is larger than the visits they could still get. Stopping then is exact: the
    same choice as the whole budget's, for less."""
    first = second = 0
    for a, child in root.children.items():
        if a in allowed:
            v = child.visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
    return first - second > left


def paired_gain(total: float, square: float, n: int) -> tuple[float, float]:
    """A paired comparison's mean gain of an action over its reference (the anchor, or
    the move a review looks at) after ``n`` samples (the gains' sum ``total`` and sum of
    squares ``square``) and its standard error."""
    mean = total / n
    var = max(0.0, square / n - mean * mean)
    return mean, math.sqrt(var / max(n - 1, 1))


def _settled(totals: list[float], squares: list[float], n: int, anchor: int, k: float) -> bool:
    """Whether a paired search's anchor is clearly kept: every other action's mean gain
    over it plus ``k`` standard errors (:func:`paired_gain`) is below zero."""
    for j in range(len(totals)):
        if j != anchor:
            mean, se = paired_gain(totals[j], squares[j], n)
            if mean + k * se >= 0:
                return False
    return True


def paired_values(
    state: State,
    actions: list[Action],
    seat: int,
    rng: random.Random,
    strat: AnyStrategy,
    roll: random.Random,
) -> list[float]:
    """One sample of a paired comparison: ``state`` played out after each of ``actions``
    (the last on ``state`` itself), and the reward of each for ``seat``. Every playout
    draws from ``roll`` as it stands (common random numbers: its state is put back
    before each), which the last one leaves where it got to, for the next sample.
    Each copy reshuffles (Mus) from ``rng``, as the sample does; none deals another
    hand (the playout ends with this one).

    One generator put back, not one seeded per playout: seeding a Mersenne Twister
    (6.5 µs) took 16 % of the CPU of a Mus game of the expert against greedy (perf);
    putting a state back costs 2.5 µs, taking it once a sample 6.7."""
    hand = state.hand_no
    before = strat.standing(state)
    start = roll.getstate()
    values = []
    for j, a in enumerate(actions):
        s = playout_copy(state, rng) if j + 1 < len(actions) else state
        s.step(a)
        if j:
            roll.setstate(start)
        ExpertBot._rollout(s, roll, hand, strat)
        values.append(strat.reward(s, before)[seat])
    return values


class ExpertBot(Bot):
    """Determinized search with a budget of iterations (taverna.bots.budget).

    Options: ``iterations`` (default 1200; Mus 1500: the budget), ``seconds`` (the
    wall-clock safety cap of a decision, default 10: a decision that reaches it is
    logged and counted, :mod:`.budget`), ``exploration`` (UCB constant, default 0.7; Mus 0.3),
    ``paired`` (compare the root's actions on common random numbers instead of
    growing a tree; default on for the games in ``Strategy.paired``: Mus), ``margin``
    (how many standard errors a paired search needs to leave its anchor, default 2),
    ``settle`` (a paired search stops early once every other action trails its anchor
    by more than this many standard errors, default 3; 0: never).
    """

    name = "expert"
    searches = True

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        super().__init__(game, seat, seed, **options)
        known = strategy(game)
        default_n = known.iterations
        self.iterations = int(self.number_option("iterations", default_n, whole=True, minimum=1))
        self.seconds = self.number_option("seconds", SAFETY_SECONDS, above=0)
        paired = options.get("paired", known.paired)
        if not isinstance(paired, bool):
            raise BotOptionError(f"expert bot: paired must be true or false, not {paired!r}")
        self.paired = paired
        default_c = known.exploration
        self.exploration = self.number_option("exploration", default_c, minimum=0)
        self.margin = self.number_option("margin", known.margin, minimum=0)
        self.settle = self.number_option("settle", 3.0, minimum=0)
        #: the last search's estimate of each root action: its mean reward for the bot's
        #: seat (the game's ``Strategy.reward``; a hint says it: taverna.bots.hint)
        self.estimates: dict[Action, float] = {}
        #: how many samples the last paired search played out (its budget, or fewer when
        #: the anchor was clearly kept: ``settle``)
        self.samples = 0
        #: the iterations (paired: playouts) the last search made
        self.done = 0
        #: the safety cap of the decision under way (None before the first search)
        self.cap: SafetyCap | None = None

    @property
    def capped(self) -> bool:
        """Whether the safety cap stopped the last search (its choice then depends on
        the machine's speed)."""
        return self.cap is not None and self.cap.hit

    def choose(self, view: View) -> Action | None:
        self.estimates = {}
        self.cap = None
        self.done = 0
        return choose_with(self, view, lambda legal, turn: self._pick(view, legal, turn))

    def _pick(self, view: View, legal: list[Action], turn: list[Action]) -> Action:
        action = self.search(view, turn)
        chosen(self, view, action)
        return slip(self, view, legal, action)

    def signals(self, view: View) -> list[str]:
        return strategy_signals(self, view)

    def search(self, view: View, legal: list[Action]) -> Action:
        root = _Node(-1)
        rng = self.rng
        # the clock only as a safety cap: the budget is the iterations (the Mus sampler's
        # pool of samples stops at it too)
        cap = self.cap = SafetyCap(self.seconds, f"{self.label} bot, seat {self.seat}")
        sample = playout_sampler(self, view)
        if self.paired:
            return self._paired(view, legal, sample, cap)
        allowed = set(legal)
        strat = strategy(self.game)
        total = self.iterations
        for i in range(total):
            self._iterate(root, sample(), strat)
            self.done = i + 1
            if i & 15 == 15:
                if cap.reached():
                    break
                if _decided(root, allowed, total - i - 1):
                    break
        self.estimates = {
            a: child.total / child.visits
            for a, child in root.children.items()
            if a in allowed and child.visits
        }
        ranked = sorted(
            ((child.visits, child.total, a) for a, child in root.children.items() if a in allowed),
            key=lambda x: (x[0], x[1]),
        )
        return ranked[-1][2] if ranked else rng.choice(legal)

    def _paired(
        self, view: View, legal: list[Action], sample: Callable[[], State], cap: SafetyCap
    ) -> Action:
        """The root's actions compared on common random numbers.

        Each sample is played out after every one of the root's actions, each
        time with the same rollout seed: the luck of the deal, which dwarfs
        the difference between two bets in Mus, cancels out of the
        comparison. This is the tree cut to its root, every child expanded
        on every determinization.

        When the game names an *anchor* (Mus: the greedy policy's choice),
        the search keeps it unless another action beats it by more than
        ``margin`` standard errors of the paired difference: picking the best
        of several noisy estimates would otherwise depart from a sound
        choice on noise alone (the winner's curse). Among the actions that
        do, the one with the best lower bound (mean gain less ``margin``
        standard errors) is taken, so a high-variance action needs a
        larger mean gain than a steady one.

        The budget stops early when the anchor is clearly kept (``settle``): once 32
        samples are in, checked every 16, when every other action's mean gain over the
        anchor *plus* ``settle`` standard errors is still below zero — where the whole
        budget would have needed it ``margin`` standard errors above.
        """
        rng = self.rng
        me = self.seat
        allowed = set(legal)
        base = anchor_action(self, view, legal)
        strat = strategy(self.game)
        actions: list[Action] = []
        totals: list[float] = []
        squares: list[float] = []
        sums: list[float] = []  # each action's own rewards, for its estimate
        roll = random.Random(rng.getrandbits(64))  # the playouts' own draws
        anchor = -1  # the anchor's index in ``actions`` (-1: none)
        done = n = 0
        while done < self.iterations:
            state = sample()
            if not actions:
                actions = [a for a in strat.search_actions(state, me) if a in allowed]
                actions = actions or legal
                if base is not None and base not in actions:
                    actions.append(base)
                totals = [0.0] * len(actions)
                squares = [0.0] * len(actions)
                sums = [0.0] * len(actions)
                anchor = actions.index(base) if base is not None else -1
            values = paired_values(state, actions, me, rng, strat, roll)
            ref = values[anchor] if anchor >= 0 else 0.0
            for j, v in enumerate(values):
                totals[j] += v - ref
                squares[j] += (v - ref) ** 2
                sums[j] += v
            n += 1
            done += len(actions)
            if cap.reached():
                break
            if anchor >= 0 and n >= 32 and n & 15 == 0 and self.settle > 0:
                kept = _settled(totals, squares, n, anchor, self.settle)
                if kept:
                    break
        self.estimates = {a: sums[j] / n for j, a in enumerate(actions)}
        self.samples = n
        self.done = done
        if base is None:
            return actions[max(range(len(actions)), key=totals.__getitem__)]
        # each action's paired gain over the anchor, less ``margin`` standard errors: a
        # risky action (an órdago that is rarely but ruinously accepted) needs a clear gain
        k = self.margin
        best, best_bound = anchor, 0.0
        for j in range(len(actions)):
            mean, se = paired_gain(totals[j], squares[j], n)
            bound = mean - k * se
            if bound > best_bound:
                best, best_bound = j, bound
        return actions[best]

    @staticmethod
    def _rollout(
        state: State, rng: random.Random, hand: int, strat: AnyStrategy | None = None
    ) -> None:
        strat = strat or strategy(state)
        depth = strat.depth
        step = strat.rollout
        while not state.over and state.hand_no == hand and state.to_act and depth > 0:
            step(state, rng)
            depth -= 1

    def _iterate(self, root: _Node, state: State, strat: AnyStrategy) -> None:
        rng = self.rng
        hand = state.hand_no
        before = strat.standing(state)
        node = root
        path: list[_Node] = []
        c = self.exploration
        me = self.seat
        root_segment = strat.segment(state)
        while not state.over and state.hand_no == hand:
            seat = strat.actor(state)
            if seat is None:
                break
            if not strat.branches(state, seat, me, root_segment):
                if strat.segment(state) != root_segment:
                    break  # nothing left to branch on: the rollout plays on
                strat.rollout(state, rng)  # another seat plays its policy
                continue
            acts = strat.search_actions(state, seat)
            children = node.children
            untried = []
            best = None
            best_value = -math.inf
            for a in acts:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                    continue
                child.avail += 1
                v = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if v > best_value:
                    best_value, best = v, a
            if untried:
                a = rng.choice(untried)
                child = _Node(seat)
                child.avail = 1
                children[a] = child
                state.step(a)
                path.append(child)
                break
            assert best is not None
            node = children[best]
            state.step(best)
            path.append(node)
        self._rollout(state, rng, hand, strat)
        rewards = strat.reward(state, before)
        for n in path:
            n.visits += 1
            n.total += rewards[n.seat]
