"""The installed games by record name and alias, found through the entry point group
``taverna.games`` (:mod:`taverna.registry`): Taverna's own three as any other.

    >>> get_game("cards").game, titles()
    ('muggins-cards', 'Muggins dominoes, Muggins cards and Mus')
"""

from __future__ import annotations

from typing import Any

from ..registry import PluginError, parts
from .base import State, TavernaError


class UnknownGame(TavernaError, KeyError):
    """No game by that name or alias (a KeyError too, for callers that catch one)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


def _registered() -> list[type[State[Any]]]:
    """Every installed game (the entry point group ``taverna.games``: ``name =
    "package.module:StateClass"``, the name being the record name), in the order the
    games list themselves (:attr:`State.order`, then by name)."""
    found: list[type[State[Any]]] = []
    for name, cls in parts("taverna.games").items():
        if not (isinstance(cls, type) and issubclass(cls, State)):
            raise PluginError(f"entry point {name!r} is not a taverna.games.State subclass")
        if cls.game != name:
            raise PluginError(f"entry point {name!r} names a game of record name {cls.game!r}")
        found.append(cls)
    return sorted(found, key=lambda cls: (cls.order, cls.game))


GAMES: dict[str, type[State[Any]]] = {cls.game: cls for cls in _registered()}

#: short names accepted on the command line (each game's own ``aliases``), and the
#: record names themselves
ALIASES: dict[str, str] = {
    **{name: name for name in GAMES},
    **{alias: cls.game for cls in GAMES.values() for alias in cls.aliases},
}


def _listed(words: list[str], last: str) -> str:
    return ", ".join(words[:-1]) + f" {last} {words[-1]}" if len(words) > 1 else "".join(words)


def short_names(last: str = "or") -> str:
    """The names a person types for the installed games, shortest first alias or record
    name each: ``"dominoes, cards or mus"`` (for help texts)."""
    return _listed([(cls.aliases or (cls.game,))[0] for cls in GAMES.values()], last)


def titles(last: str = "and") -> str:
    """The installed games' titles: ``"Muggins dominoes, Muggins cards and Mus"``."""
    return _listed([cls.title or cls.game for cls in GAMES.values()], last)


def get_game(name: str) -> type[State]:
    """The State class of a game by record name or short alias; raises UnknownGame."""
    key = ALIASES.get(name, name)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game {name!r} (known: {known})") from None
