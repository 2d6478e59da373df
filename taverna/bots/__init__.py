"""Bots: players that see only their seat's view.

Levels for every game: ``random``, ``greedy`` and ``expert``. A bot is made
by name (:func:`make_bot`); the opponent styles kept to measure the levels against
are named ``style:<name>`` (:mod:`taverna.bots.styles`); your own bot class plugs in by import path
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
from .simple import GreedyBot, RandomBot

BOTS: dict[str, type[Bot]] = {b.name: b for b in (RandomBot, GreedyBot, ExpertBot)}
LEVELS = ("random", "greedy", "expert")


def bot_class(name: str) -> type[Bot]:
    """A bot class by level name, entry point name, or ``module:Class`` import path."""
    if name in BOTS:
        return BOTS[name]
    if name.startswith("style:"):
        from .styles import style_class  # opponents to measure against (issue 30)

        return style_class(name)
    for ep in entry_points(group="taverna.bots"):
        if ep.name == name:
            cls = ep.load()
            break
    else:
        if ":" not in name:
            known = ", ".join(sorted(BOTS))
            raise UnknownBot(f"unknown bot {name!r} (known: {known}; or give module:Class)")
        module, _, attr = name.partition(":")
        try:
            cls = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError) as e:
            raise UnknownBot(f"cannot load bot {name!r}: {e}") from None
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise UnknownBot(f"{name!r} is not a taverna.bots.Bot subclass")
    return cls


def make_bot(
    name: str, game: type[State], seat: int, seed: int | None = None, **options: Any
) -> Bot:
    """A bot of the named level (or plugged-in class) for one seat of one game."""
    return bot_class(name)(game, seat, seed, **options)


__all__ = [
    "BOTS",
    "LEVELS",
    "Bot",
    "BotOptionError",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "Strategy",
    "UnknownBot",
    "bot_class",
    "make_bot",
    "register",
]
