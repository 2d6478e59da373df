"""The rules engines: one protocol (:mod:`.base`), one module per game, records.

Games are found by their record name::

    >>> get_game("muggins-dominoes").__name__
    'Dominoes'
"""

from __future__ import annotations

from .base import (
    Action,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
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

GAMES: dict[str, type[State]] = {cls.game: cls for cls in (Dominoes, Cards, Mus)}

#: short names accepted on the command line
ALIASES = {"dominoes": "muggins-dominoes", "cards": "muggins-cards", "mus": "mus"}


def get_game(name: str) -> type[State]:
    """The State class of a game by record name or short alias; raises KeyError."""
    key = ALIASES.get(name, name)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise KeyError(f"unknown game {name!r} (known: {known})") from None


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
    "SettingsError",
    "State",
    "TavernaError",
    "View",
    "event_for",
    "event_json",
    "get_game",
]
