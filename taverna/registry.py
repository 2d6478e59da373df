"""Where each layer finds the games' parts: Python entry points, one group per layer.

A game is a set of parts, each found by the layer that uses it, so that no layer
names a game (STYLE.md) and a fourth game is a package of its own:

=====================  =========================================  ======================
group                  the part                                   read by
=====================  =========================================  ======================
``taverna.games``      the rules engine: a ``State`` subclass     ``taverna.games``
``taverna.strategies`` what bots know of it: a ``Strategy``       ``taverna.bots``
``taverna.terminal``   how ``taverna play`` draws it              ``taverna.play``
``taverna.bench``      a minimal hand-written loop to compare     ``taverna bench``
``taverna.web``        its board module and language keys         the server, the client
=====================  =========================================  ======================

Every part but the engine is optional: a game without a strategy is played at
random by every bot level, one without a terminal is drawn from its view's fields,
one without a minimal loop is benched alone. Taverna's own three games register
themselves in the same groups (``pyproject.toml``); entry points are the
installed package's, so ``make install`` (or ``pip install``) must have run.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any


class PluginError(Exception):
    """An entry point that names something of the wrong kind."""


def parts(group: str) -> dict[str, Any]:
    """Every entry point of ``group`` loaded, by name (the first of a name wins)."""
    found: dict[str, Any] = {}
    for ep in entry_points(group=group):
        if ep.name not in found:
            found[ep.name] = ep.load()
    return found
