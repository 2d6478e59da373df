"""Bots: players that see only their seat's view.

Levels 1 to 8 for every game (:mod:`.levels`; the names ``random``, ``greedy`` and
``expert`` are aliases of levels 1, 4 and 7). A bot is made by level
(:func:`make_bot`); the opponent styles kept to measure the levels against are named
``style:<name>`` (:mod:`taverna.bots.styles`); your own bot class plugs in by import path
(``package.module:ClassName``) or by the entry point group
``taverna.bots``. What the bots know of each game is its :class:`Strategy`,
found through the entry point group ``taverna.strategies`` (:mod:`taverna.registry`).
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from ..games.base import State
from .base import Bot, BotOptionError, UnknownBot
from .expert import ExpertBot
from .heuristics import Strategy, register
from .levels import ALIASES, TOP, find_level, level_of
from .levels import LEVELS as _LEVELS
from .simple import BeginnerBot, GreedyBot, RandomBot

#: the levels by name, weakest first: "1" to "8"
LEVELS: tuple[str, ...] = tuple(str(n) for n in sorted(_LEVELS))


def bot_class(name: str) -> type[Bot]:
    """A bot class by level (its number or alias), opponent style (``style:<name>``),
    entry point name, or ``module:Class`` import path."""
    level = find_level(name)
    if level is not None:
        return level.bot
    if name.startswith("style:"):
        from .styles import style_class  # opponents to measure against

        return style_class(name)
    for ep in entry_points(group="taverna.bots"):
        if ep.name == name:
            cls = ep.load()
            break
    else:
        if ":" not in name:
            known = f"levels 1 to {TOP}, or {', '.join(ALIASES)}"
            raise UnknownBot(f"unknown bot {name!r} ({known}; or give module:Class)")
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise UnknownBot(f"cannot load bot {name!r}: {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise UnknownBot(f"{name!r} is not a taverna.bots.Bot subclass")
    return cls


def make_bot(
    name: str | int, game: type[State], seat: int, seed: int | None = None, **options: Any
) -> Bot:
    """A bot of the named level (``5``, ``"5"``, ``"expert"``) or plugged-in class for one
    seat of one game; ``options`` on top of the level's own."""
    level = find_level(name)
    if level is not None:
        return level.make(game, seat, seed, **options)
    return bot_class(str(name))(game, seat, seed, **options)


__all__ = [
    "ALIASES",
    "LEVELS",
    "TOP",
    "BeginnerBot",
    "Bot",
    "BotOptionError",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "Strategy",
    "UnknownBot",
    "bot_class",
    "level_of",
    "make_bot",
    "register",
]
