"""Bots: players that see only their seat's view.

Levels 1 to 8 for every game (:mod:`.levels`; the names ``random``, ``greedy`` and
``expert`` are aliases of levels 1, 4 and 7). A bot is made by name (:func:`make_bot`,
:mod:`.catalog`): by level; the opponent styles kept to measure the levels against are
named ``style:<name>`` (:mod:`taverna.bots.styles`); your own bot class plugs in by
import path (``package.module:ClassName``) or by the entry point group
``taverna.bots``. What the bots know of each game is its :class:`Strategy`,
found through the entry point group ``taverna.strategies`` (:mod:`taverna.registry`).
"""

from __future__ import annotations

from .base import Bot, BotOptionError, UnknownBot
from .catalog import bot_class, make_bot
from .expert import ExpertBot
from .heuristics import Strategy, register
from .levels import ALIASES, TOP, level_of
from .levels import LEVELS as _LEVELS
from .simple import BeginnerBot, GreedyBot, RandomBot

#: the levels by name, weakest first: "1" to "8"
LEVELS: tuple[str, ...] = tuple(str(n) for n in sorted(_LEVELS))


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
