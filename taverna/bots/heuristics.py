"""Game knowledge the bots share: one :class:`Strategy` per game (greedy choices,
rollout policies, what a search branches on), found through the entry point group
``taverna.strategies`` (:mod:`taverna.registry`) or given by :func:`register`; a game
without one is played by the generic strategy (random play, no optional calls).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from ..games.base import Action, Dealer, Event, State, View, below
from ..registry import PluginError, parts

if TYPE_CHECKING:
    from .base import Bot

#: the state class of the game a strategy knows, and its action class
S = TypeVar("S", bound=State[Any])
A = TypeVar("A", bound=Action)
T = TypeVar("T")

#: the largest mean reward :meth:`Strategy.worth` tells apart from a sure win
SURE = 0.99


class Strategy(Generic[S, A]):
    """What the bots know about one game, in one object: a game's bots module makes a
    subclass, and its package names it in the entry point group ``taverna.strategies``
    (or calls :func:`register`); every method has a generic default (random play, no
    optional calls, scores as standing), so a game that says nothing is still played.
    ``Strategy[Mus, MusAction]`` knows Mus: its methods are given Mus states and Mus
    actions.

    Numbers: ``exploration`` (UCB constant), ``paired`` (the expert compares its root
    actions on common random numbers), ``margin`` (standard errors a paired search's
    choice must beat the anchor by), ``iterations`` (search iterations per decision),
    ``review_samples`` (sampled deals a review of a decision plays its candidates out on),
    ``depth`` (actions a rollout plays at most), ``scale`` (points that make a clear
    difference: rewards pass through tanh), ``number_options`` (the game's own bot
    options, checked when a bot is made), ``unit`` (what :meth:`worth` counts in).
    """

    #: the game's record name
    game: ClassVar[str] = ""
    number_options: ClassVar[tuple[str, ...]] = ()
    #: the game's own bot options that take one of a few words (``{"senas": ("read",
    #: "ignore")}``), the first the default; checked when a bot is made
    choice_options: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: options a bot of this game took once and refuses now, each with why and what
    #: takes its place (the refusal says it)
    retired_options: ClassVar[dict[str, str]] = {}
    exploration: ClassVar[float] = 0.7
    paired: ClassVar[bool] = False
    margin: ClassVar[float] = 2.0
    iterations: ClassVar[int] = 1200
    #: sampled deals a review plays each candidate action out on (taverna.bots.review)
    review_samples: ClassVar[int] = 256
    #: the options the top level (:mod:`.levels`) takes in this game beyond the expert's
    #: and its budget (Mus: its search's other pair answers on its own cards)
    top_options: ClassVar[dict[str, Any]] = {}
    depth: ClassVar[int] = 10_000
    scale: ClassVar[float] = 10.0
    #: what :meth:`worth` counts in, as players count: ``points`` (the hand's points,
    #: one's own less the best other side's) or ``games`` (Mus: games won)
    unit: ClassVar[str] = "points"

    def greedy(self, bot: Bot, view: View, legal: list[A]) -> A:
        """The best immediate choice (greedy bots, rollouts' anchors)."""
        return bot.rng.choice(legal)

    def budget(self, effort: float) -> dict[str, Any]:
        """A searching level's budget, ``effort`` times the game's: the options that
        say it, all counted in work (taverna.bots.budget)."""
        return {"iterations": max(1, round(self.iterations * effort))}

    def beginner(self, bot: Bot, view: View, legal: list[A]) -> A:
        """A beginner's choice among the legal actions (optional rights included): the
        mistakes people make when they start (the lower levels, :mod:`.levels`); by
        default a random move."""
        turn = [a for a in legal if a.type not in bot.game.optional_actions]
        return bot.rng.choice(turn or legal)

    def signals(self, bot: Bot, view: View) -> list[str]:
        """The signals (Mus señas) the bot makes now, from those its view allows."""
        return []

    def optional(self, bot: Bot, view: View, legal: list[A]) -> A | None:
        """What a bot does with a right to act out of turn (claims, Muggins! calls)."""
        return None

    def slip(self, bot: Bot, view: View, legal: list[A], action: A) -> A:
        """The action really made once decided: a game may let it slip (a forgotten claim)."""
        return action

    def rollout(self, state: S, rng: random.Random) -> None:
        """Play one quick, reasonable action (search rollouts: a step, no events)."""
        state.step(pick(rng, state.legal_actions()))

    def standing(self, state: S) -> list[float]:
        """Each seat's standing, whose change over a rollout is that seat's gain."""
        return [float(x) for x in state.scores]

    def actor(self, state: S) -> int | None:
        """The seat whose decision the search tree branches on (the one whose turn it is)."""
        acting = state.to_act
        return acting[0] if acting else None

    def search_actions(self, state: S, seat: int) -> list[A]:
        """The actions a search tree branches on for ``seat``."""
        return state.legal_actions(seat)

    def sampler(self, bot: Bot, view: View) -> Callable[[], State[Any]]:
        """A source of full states consistent with ``view`` for one decision's search."""
        game, rng = bot.game, bot.rng
        return lambda: game.sample(view, rng)

    def chosen(self, bot: Bot, view: View, action: A) -> None:
        """Told what a searching bot decided (a game may remember its own play)."""

    def segment(self, state: S) -> Hashable:
        """The part of the game a decision belongs to (one for all)."""
        return None

    def branches(self, state: S, seat: int, root_seat: int, root_segment: Hashable) -> bool:
        """Whether the search tree branches on ``seat``'s decision here (always)."""
        return True

    def anchor(self, bot: Bot, view: View, legal: list[A]) -> A | None:
        """The action a paired search keeps unless another one is clearly better."""
        return None

    def explain(
        self, bot: Bot, view: View, action: A, events: list[Event] | None
    ) -> dict[str, Any] | None:
        """Why ``action`` is good, in a few words a client translates: ``{"key": "scores",
        "points": 15}``; ``events`` are what it does on a state sampled from ``view``
        (None if none could be). None: nothing to say but the search's estimate."""
        return None

    def reward(self, state: S, before: list[float]) -> list[float]:
        """Per seat in [-1, 1]: own gain against the best opponent's, a won game fully."""
        after = self.standing(state)
        n = len(after)
        if state.over and state.winner is not None:
            return [1.0 if state.side_of(s) == state.winner else -1.0 for s in range(n)]
        gain = [after[s] - before[s] for s in range(n)]
        out = []
        for s in range(n):
            rival = max(gain[o] for o in range(n) if not _same_side(state, o, s))
            out.append(math.tanh((gain[s] - rival) / self.scale))
        return out

    def worth(self, value: float) -> float:
        """A mean :meth:`reward` in :attr:`unit`, for people: the points of the hand
        (one's own less the best other side's) sure to come that the bot holds worth as
        much — the inverse of the reward's tanh, so that a cost in points keeps the
        bot's order of the moves. A game won or lost (a reward of ±1) counts as
        ``scale · atanh(0.99)``: 66 points in dominoes, 26 in cards.

        >>> round(Strategy().worth(math.tanh(1.5)), 6)
        15.0
        """
        clipped = max(-SURE, min(SURE, value))
        return self.scale * math.atanh(clipped)


def pick(rng: random.Random, options: Sequence[T]) -> T:
    """One of ``options`` at random, for the searches' hot loops: ``rng.choice`` draws
    its index bit by bit in Python, this one float (:func:`~taverna.games.base.below`)."""
    return options[below(rng, len(options))]


#: a strategy of any game, as the bots and the search call it
AnyStrategy = Strategy[Any, Any]

_STRATEGIES: dict[str, AnyStrategy] = {}
_GENERIC: AnyStrategy = Strategy()
_LOADED = False


def register(strategy: AnyStrategy) -> AnyStrategy:
    """Make ``strategy`` what the bots know of its game (``strategy.game``)."""
    if not strategy.game:
        raise PluginError(f"{type(strategy).__name__} names no game")
    _STRATEGIES[strategy.game] = strategy
    return strategy


def _load() -> None:
    """The installed strategies, once (not at import: a game's bots module imports this
    one); one given by :func:`register` before stays."""
    global _LOADED
    _LOADED = True
    for name, cls in parts("taverna.strategies").items():
        if not (isinstance(cls, type) and issubclass(cls, Strategy)):
            raise PluginError(f"entry point {name!r} is not a taverna.bots Strategy subclass")
        if cls.game != name:
            raise PluginError(f"entry point {name!r} is the strategy of {cls.game!r}")
        _STRATEGIES.setdefault(name, cls())


def strategy(game: str | type[State[Any]] | State[Any]) -> AnyStrategy:
    """The strategy of a game (by record name, class or state); the generic one if none."""
    if not _LOADED:
        _load()
    name = game if isinstance(game, str) else game.game
    return _STRATEGIES.get(name, _GENERIC)


# --------------------------------------------- what bots and searches call


def greedy(bot: Bot, view: View, legal: list[Action]) -> Action:
    choice: Action = strategy(bot.game).greedy(bot, view, legal)
    return choice


def beginner(bot: Bot, view: View, legal: list[Action]) -> Action:
    choice: Action = strategy(bot.game).beginner(bot, view, legal)
    return choice


def signals(bot: Bot, view: View) -> list[str]:
    made: list[str] = strategy(bot.game).signals(bot, view)
    return made


def turn_actions(bot: Bot, legal: list[Action]) -> list[Action]:
    """The legal actions that take the turn (without the game's optional rights, such as
    claims and calls)."""
    optional = bot.game.optional_actions
    return [a for a in legal if a.type not in optional] or legal


def choose_with(
    bot: Bot, view: View, pick: Callable[[list[Action], list[Action]], Action]
) -> Action | None:
    """What every bot does first: an optional right taken or let go, nothing when it need
    not act, the one move of a turn that has one; else ``pick(legal, turn)`` decides."""
    legal = bot.legal(view)
    optional = optional_action(bot, view, legal)
    if optional is not None or not legal or not bot.must_act(view):
        return optional
    turn = turn_actions(bot, legal)
    if len(turn) == 1:
        return turn[0]
    return pick(legal, turn)


def optional_action(bot: Bot, view: View, legal: list[Action]) -> Action | None:
    """What a bot does with a right to act out of turn (claims, Muggins! calls)."""
    return None if not legal else strategy(bot.game).optional(bot, view, legal)


def slip(bot: Bot, view: View, legal: list[Action], action: Action) -> Action:
    made: Action = strategy(bot.game).slip(bot, view, legal, action)
    return made


def standing(state: State) -> list[float]:
    return strategy(state).standing(state)


def search_actions(state: State, seat: int) -> list[Action]:
    return strategy(state).search_actions(state, seat)


def actor(state: State) -> int | None:
    return strategy(state).actor(state)


def sampler(bot: Bot, view: View) -> Callable[[], State[Any]]:
    return strategy(bot.game).sampler(bot, view)


def playout_sampler(bot: Bot, view: View) -> Callable[[], State[Any]]:
    """The game's sampler for a search whose playouts end with the hand: each sample
    deals no new hand (:meth:`State.deal_no_more_hands`: the shuffle nobody looks at)."""
    draw = strategy(bot.game).sampler(bot, view)

    def sample() -> State[Any]:
        state = draw()
        state.deal_no_more_hands()
        return state

    return sample


def playout_copy(state: State, rng: random.Random) -> State:
    """A copy of a sample to play out to the end of its hand: its reshuffles (Mus) from
    ``rng``, no new hand dealt."""
    return state.clone(rng=Dealer(rng=rng, hands=False))


def chosen(bot: Bot, view: View, action: Action) -> None:
    strategy(bot.game).chosen(bot, view, action)


def segment(state: State) -> Hashable:
    return strategy(state).segment(state)


def branches(state: State, seat: int, root_seat: int, root_segment: Hashable) -> bool:
    return strategy(state).branches(state, seat, root_seat, root_segment)


def anchor(bot: Bot, view: View, legal: list[Action]) -> Action | None:
    return strategy(bot.game).anchor(bot, view, legal)


def explain(
    bot: Bot, view: View, action: Action, events: list[Event] | None
) -> dict[str, Any] | None:
    why: dict[str, Any] | None = strategy(bot.game).explain(bot, view, action, events)
    return why


def rewards(state: State, before: list[float]) -> list[float]:
    return strategy(state).reward(state, before)


def _same_side(state: State, a: int, b: int) -> bool:
    return state.side_of(a) == state.side_of(b)
