"""The club's levels, 1 to 8: one bot class each, with its options and budget.

A level is named by its number (``"5"``, or 5) wherever a bot is named: the library
(:func:`~taverna.bots.make_bot`), ``taverna simulate --bots 8,expert``, the API
(``"bots": {"1": "5"}``, ``{"level": 5}``). The names the club had before its levels
were numbered stay as aliases (:data:`ALIASES`)::

    >>> level_of("expert"), level_of(5), level_of("8")
    (7, 5, 8)
    >>> try:
    ...     level_of("9")
    ... except KeyError as e:
    ...     print(e)
    no bot level '9': the levels are 1 to 8 (or random, greedy, expert)

How each plays: docs/bots.md, Levels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..games.base import State
from .base import Bot, UnknownBot
from .expert import ExpertBot
from .heuristics import strategy
from .simple import BeginnerBot, GreedyBot


@dataclass(frozen=True)
class Level:
    """One level: its bot class and the options it is made with (a bot's own options
    win over them). A searching level spends ``effort`` times its game's budget
    (:meth:`Strategy.budget`: the expert's iterations, Mus's pool of samples)."""

    number: int
    bot: type[Bot]
    options: Mapping[str, Any] = field(default_factory=dict)
    effort: float = 1.0
    #: the top level: with the options its game's strategy gives the top level
    #: (:attr:`Strategy.top_options`), on top of ``options`` and the budget
    top: bool = False

    def preset(self, game: type[State]) -> dict[str, Any]:
        """The options this level gives a bot of ``game``."""
        out = dict(self.options)
        if self.bot.searches:
            out.update(strategy(game).budget(self.effort))
        if self.top:
            out.update(strategy(game).top_options)
        return out

    def make(self, game: type[State], seat: int, seed: int | None = None, **options: Any) -> Bot:
        """A bot of this level for one seat of one game."""
        bot = self.bot(game, seat, seed, **{**self.preset(game), **options})
        bot.level = self.number
        return bot


LEVELS: dict[int, Level] = {
    level.number: level
    for level in (
        Level(1, BeginnerBot, {"mistakes": 1.0, "forget": 0.5}),
        Level(2, BeginnerBot, {"mistakes": 0.6, "forget": 0.35}),
        Level(3, BeginnerBot, {"mistakes": 0.3, "forget": 0.2}),
        Level(4, GreedyBot, {"forget": 0.1}),
        Level(5, ExpertBot, {"forget": 0.0}, effort=0.1),
        Level(6, ExpertBot, {"forget": 0.0}, effort=1 / 3),
        Level(7, ExpertBot, {"forget": 0.0}, effort=1.0),
        # Mus: the other pair answers our bets on its own cards in the search's playouts
        # (it does not read them as greedy does), docs/bots.md, Level 8 in Mus
        Level(8, ExpertBot, {"forget": 0.0}, effort=2.0, top=True),
    )
}
#: the strongest level
TOP = max(LEVELS)
#: other names of levels, kept so that a bot named by them still plays (``expert``: the
#: level that plays as :class:`~taverna.bots.expert.ExpertBot` at its full budget)
ALIASES: dict[str, int] = {"random": 1, "greedy": 4, "expert": 7}
#: the level of a seat given a bot with no level named (the API's default)
DEFAULT = ALIASES["greedy"]


def find_level(name: str | int) -> Level | None:
    """The level ``name`` names (a number, as text or not, or an alias); None when it
    names no level (a class's import path, say). Raises :class:`UnknownBot` for a number
    that is not a level."""
    if isinstance(name, bool):
        return None
    if isinstance(name, str) and name in ALIASES:
        return LEVELS[ALIASES[name]]
    if isinstance(name, int) or (isinstance(name, str) and name.strip().lstrip("-").isdigit()):
        number = int(name)
        if number not in LEVELS:
            raise UnknownBot(f"no bot level {str(name)!r}: {_choices()}")
        return LEVELS[number]
    return None


def level_of(name: object) -> int:
    """The number of the level ``name`` names; raises :class:`UnknownBot` (a KeyError,
    with a sentence for people) for anything else."""
    level = find_level(name) if isinstance(name, (str, int)) else None
    if level is None:
        raise UnknownBot(f"no bot level {name!r}: {_choices()}")
    return level.number


def options_for(by_level: Mapping[str, Mapping[str, Any]], number: int) -> dict[str, Any]:
    """The options of ``by_level`` (keys: levels or aliases, as ``TAVERNA_BOT_OPTIONS``
    gives them) that apply to level ``number``: every key that names it, a number's
    over an alias's.

    >>> options_for({"expert": {"seconds": 5}, "7": {"iterations": 900}}, 7)
    {'seconds': 5, 'iterations': 900}
    """
    out: dict[str, Any] = {}
    for key in sorted(by_level, key=lambda k: k not in ALIASES):
        if level_of(key) == number:
            out.update(by_level[key])
    return out


def _choices() -> str:
    return f"the levels are {min(LEVELS)} to {TOP} (or {', '.join(ALIASES)})"
