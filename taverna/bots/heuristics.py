"""Game knowledge the bots share: greedy choices and fast rollout policies.

Each game contributes functions keyed by its record name; a game without an
entry falls back to generic behaviour (random play, no optional calls).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

from ..games.base import Action, State, View

if TYPE_CHECKING:
    from .base import Bot

GreedyFn = Callable[["Bot", View, list[Action]], Action]
OptionalFn = Callable[["Bot", View, list[Action]], Action | None]
RolloutFn = Callable[[State, random.Random], None]

SlipFn = Callable[["Bot", View, list[Action], Action], Action]

#: each game's own number options (Mus: the policy's thresholds), checked when a bot is made
NUMBER_OPTIONS: dict[str, tuple[str, ...]] = {}

GREEDY: dict[str, GreedyFn] = {}
OPTIONAL: dict[str, OptionalFn] = {}
ROLLOUT: dict[str, RolloutFn] = {}
SLIP: dict[str, SlipFn] = {}


def greedy(bot: Bot, view: View, legal: list[Action]) -> Action:
    fn = GREEDY.get(bot.game.game)
    if fn is None:
        return bot.rng.choice(legal)
    return fn(bot, view, legal)


#: action types that are rights, not turns (RULES.md §2: claims and calls)
OPTIONAL_TYPES = frozenset({"claim", "muggins"})


def turn_actions(bot: Bot, legal: list[Action]) -> list[Action]:
    """The legal actions that take the turn (without claims and calls)."""
    return [a for a in legal if a.type not in OPTIONAL_TYPES] or legal


def optional_action(bot: Bot, view: View, legal: list[Action]) -> Action | None:
    """What a bot does with a right to act out of turn (claims, Muggins! calls)."""
    fn = OPTIONAL.get(bot.game.game)
    return None if fn is None or not legal else fn(bot, view, legal)


def slip(bot: Bot, view: View, legal: list[Action], action: Action) -> Action:
    """The action a bot really makes once it has decided: a game may let it slip
    (Muggins cards: a scoring play without its claim, see the ``forget`` option)."""
    fn = SLIP.get(bot.game.game)
    return action if fn is None else fn(bot, view, legal, action)


def rollout_step(state: State, rng: random.Random) -> None:
    """Apply one quick, reasonable action (search rollouts)."""
    fn = ROLLOUT.get(state.game)
    if fn is not None:
        fn(state, rng)
    else:
        state.apply(rng.choice(state.legal_actions()))


def register(game: str, **fns: Any) -> None:
    """Register a game's functions: greedy=, optional=, slip=, rollout=, standing=, actor=,
    search_actions=, sampler=, chosen=, branches=, segment=, reward=, anchor=."""
    tables: dict[str, dict[str, Any]] = {
        "greedy": GREEDY,
        "optional": OPTIONAL,
        "slip": SLIP,
        "rollout": ROLLOUT,
        "standing": STANDING,
        "actor": ACTOR,
        "search_actions": SEARCH_ACTIONS,
        "sampler": SAMPLER,
        "chosen": CHOSEN,
        "branches": BRANCHES,
        "segment": SEGMENT,
        "reward": REWARD,
        "anchor": ANCHOR,
    }
    for kind, fn in fns.items():
        tables[kind][game] = fn


# ------------------------------------------------------------ search hooks

StandingFn = Callable[[State], list[float]]
ActorFn = Callable[[State], int | None]
STANDING: dict[str, StandingFn] = {}
ACTOR: dict[str, ActorFn] = {}


def standing(state: State) -> list[float]:
    """Each seat's standing, whose change over a rollout is that seat's gain."""
    fn = STANDING.get(state.game)
    return fn(state) if fn is not None else [float(x) for x in state.scores]


SearchActionsFn = Callable[[State, int], list[Action]]
SEARCH_ACTIONS: dict[str, SearchActionsFn] = {}


def search_actions(state: State, seat: int) -> list[Action]:
    """The actions a search tree branches on for ``seat`` (default: all legal ones)."""
    fn = SEARCH_ACTIONS.get(state.game)
    return fn(state, seat) if fn is not None else state.legal_actions(seat)


def actor(state: State) -> int | None:
    """The seat whose decision the search tree branches on (the one whose turn it is)."""
    fn = ACTOR.get(state.game)
    if fn is not None:
        return fn(state)
    acting = state.to_act
    return acting[0] if acting else None


SamplerFn = Callable[["Bot", View], Callable[[], State]]
ChosenFn = Callable[["Bot", View, Action], None]
SAMPLER: dict[str, SamplerFn] = {}
CHOSEN: dict[str, ChosenFn] = {}


def sampler(bot: Bot, view: View) -> Callable[[], State]:
    """A source of full states consistent with ``view`` for one decision's search.

    By default each call is ``game.sample(view, bot.rng)``; a game may weight
    its samples by what the other seats' play says about their hidden cards,
    and set up its rollout policy for this search.
    """
    fn = SAMPLER.get(bot.game.game)
    if fn is not None:
        return fn(bot, view)
    game, rng = bot.game, bot.rng
    return lambda: game.sample(view, rng)


def chosen(bot: Bot, view: View, action: Action) -> None:
    """Tell the game what a searching bot decided (a game may remember its own play)."""
    fn = CHOSEN.get(bot.game.game)
    if fn is not None:
        fn(bot, view, action)


SegmentFn = Callable[[State], Hashable]
BranchesFn = Callable[[State, int, int, Hashable], bool]
SEGMENT: dict[str, SegmentFn] = {}
BRANCHES: dict[str, BranchesFn] = {}


def segment(state: State) -> Hashable:
    """The part of the game a decision belongs to (default: one for all)."""
    fn = SEGMENT.get(state.game)
    return fn(state) if fn is not None else None


def branches(state: State, seat: int, root_seat: int, root_segment: Hashable) -> bool:
    """Whether the search tree branches on ``seat``'s decision here (default: always).

    A game may keep the tree to the searching seat's own decisions, the
    other seats then playing the rollout policy with their own sampled cards.
    """
    fn = BRANCHES.get(state.game)
    return fn(state, seat, root_seat, root_segment) if fn is not None else True


#: UCB exploration constant per game (default 0.7); the expert's ``exploration`` overrides it
EXPLORATION: dict[str, float] = {}

#: games whose expert compares its root actions on common random numbers (see ExpertBot)
PAIRED: set[str] = set()

#: standard errors by which a paired search's best action must beat the game's anchor
MARGIN: dict[str, float] = {}

#: search iterations per decision per game (default 1200); the expert's ``iterations`` overrides
ITERATIONS: dict[str, int] = {}

#: how many actions a rollout plays at most, per game (default: to the end of the hand)
DEPTH: dict[str, int] = {}

#: how many points make a clear difference, per game (rewards pass through tanh)
SCALE: dict[str, float] = {"muggins-dominoes": 25.0}


RewardFn = Callable[[State, list[float]], list[float]]
AnchorFn = Callable[["Bot", View, list[Action]], Action | None]
REWARD: dict[str, RewardFn] = {}
ANCHOR: dict[str, AnchorFn] = {}


def anchor(bot: Bot, view: View, legal: list[Action]) -> Action | None:
    """The action a paired search keeps unless another one is clearly better (or None)."""
    fn = ANCHOR.get(bot.game.game)
    return fn(bot, view, legal) if fn is not None else None


def rewards(state: State, before: list[float]) -> list[float]:
    """Per seat in [-1, 1]: own gain against the best opponent's, a won game counts fully.

    A game may define its own (``reward=``), e.g. linear in its standing.
    """
    fn = REWARD.get(state.game)
    if fn is not None:
        return fn(state, before)
    after = standing(state)
    n = len(after)
    if state.over and state.winner is not None:
        return [1.0 if state.side_of(s) == state.winner else -1.0 for s in range(n)]
    gain = [after[s] - before[s] for s in range(n)]
    scale = SCALE.get(state.game, 10.0)
    out = []
    for s in range(n):
        rival = max(gain[o] for o in range(n) if not _same_side(state, o, s))
        out.append(math.tanh((gain[s] - rival) / scale))
    return out


def _same_side(state: State, a: int, b: int) -> bool:
    return state.side_of(a) == state.side_of(b)
