"""The rules engines: one protocol (:mod:`.base`), one module per game, records.

Games are found by their record name or an alias (:mod:`.catalog`), through the entry
point group ``taverna.games`` (:mod:`taverna.registry`) — Taverna's own three as any
other::

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
    NotationError,
    SampleError,
    SettingsError,
    State,
    TavernaError,
    View,
    event_for,
    event_json,
)
from .catalog import ALIASES, GAMES, UnknownGame, get_game, short_names, titles

__all__ = [
    "ALIASES",
    "GAMES",
    "Action",
    "Event",
    "IllegalAction",
    "InvalidAction",
    "MalformedRecord",
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
    "short_names",
    "titles",
]
