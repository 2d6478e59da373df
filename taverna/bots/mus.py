"""What the bots know about Mus (RULES.md §3): a pair's standing for search."""

from __future__ import annotations

from ..games.base import State
from . import heuristics


def standing(state: State) -> list[float]:
    """Each seat's pair progress: cows, games and stones on one scale of stones."""
    games = state.games  # type: ignore[attr-defined]
    cows = state.cows  # type: ignore[attr-defined]
    per_cow = state.settings["games_per_cow"]
    team = [(cows[t] * per_cow + games[t]) * 40 + state.scores[t] for t in (0, 1)]
    return [float(team[s % 2]) for s in range(state.seats)]


heuristics.register("mus", standing=standing)
heuristics.SCALE["mus"] = 6.0
