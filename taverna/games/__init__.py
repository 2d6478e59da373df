"""The rules engines: one protocol (:mod:`.base`), one module per game, records.

Games are found by their record name::

    >>> get_game("muggins-dominoes").__name__
    'Dominoes'
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from .base import (
    Action,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    NotationError,
    SampleError,
    SettingsError,
    State,
    TavernaError,
    View,
    event_for,
    event_json,
)
from .cards import Cards
from .dominoes import Dominoes
from .mus import Mus


class UnknownGame(TavernaError, KeyError):
    """No game by that name or alias (a KeyError too, for callers that catch one)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


def _registered() -> list[type[State[Any]]]:
    """The games of this package, then those of installed plug-ins (the entry point
    group ``taverna.games``: ``name = "package.module:StateClass"``)."""
    found: list[type[State[Any]]] = [Dominoes, Cards, Mus]
    for ep in entry_points(group="taverna.games"):
        cls = ep.load()
        if not (isinstance(cls, type) and issubclass(cls, State)):
            raise TypeError(f"entry point {ep.name!r} is not a taverna.games.State subclass")
        if all(cls.game != known.game for known in found):
            found.append(cls)
    return found


GAMES: dict[str, type[State[Any]]] = {cls.game: cls for cls in _registered()}

#: short names accepted on the command line (each game's own ``aliases``), and the
#: record names themselves
ALIASES: dict[str, str] = {
    **{name: name for name in GAMES},
    **{alias: cls.game for cls in GAMES.values() for alias in cls.aliases},
}


def get_game(name: str) -> type[State]:
    """The State class of a game by record name or short alias; raises UnknownGame."""
    key = ALIASES.get(name, name)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGame(f"unknown game {name!r} (known: {known})") from None


__all__ = [
    "ALIASES",
    "GAMES",
    "Action",
    "Cards",
    "Dominoes",
    "Event",
    "IllegalAction",
    "InvalidAction",
    "MalformedRecord",
    "Mus",
    "NotationError",
    "SampleError",
    "SettingsError",
    "State",
    "TavernaError",
    "UnknownGame",
    "View",
    "event_for",
    "event_json",
    "get_game",
]
