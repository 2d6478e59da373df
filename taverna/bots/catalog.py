"""Bots by name: a level (its number or alias), an opponent style (``style:<name>``), a
class plugged in by the entry point group ``taverna.bots`` or by its import path
(``package.module:ClassName``).

    >>> from taverna.games import get_game
    >>> make_bot("expert", get_game("dominoes"), 0, seed=1).name
    'expert'
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from ..games.base import State
from .base import Bot, UnknownBot
from .levels import ALIASES, TOP, find_level


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
