"""The levels' ratings as measured, on the club's scale (Glicko-2, a newcomer at 1500).

``taverna ladder`` (:mod:`taverna.ladder`) plays the levels against each other and
against the opponent styles, fits their ratings and writes them here, per game
(package data ``data/ratings.json``); the club shows a level as "Level 5 · about 1650"
and "play now" gives a player the level whose rating is nearest their own
(docs/bots.md, Ratings of the levels). The file, per game's record name::

    {"games": {"mus": {"measured": "2026-12-07T22:10:00Z", "command": "taverna ladder mus …",
                       "seconds": 1180.2, "anchor": "4",
                       "levels": {"1": {"rating": 1012.4, "rd": 61.0}, …},
                       "styles": {"careful": {"rating": 1620.0, "rd": 70.2}, …},
                       "results": [{"a": "4", "b": "5", "games": 20, "score": 7.5}, …]}}}

A game the file does not hold has no measured ratings: its levels are shown by their
number alone, and "play now" gives its default level.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

#: where the club reads the ratings, and where ``taverna ladder`` writes them by default
PATH = Path(__file__).parent / "data" / "ratings.json"


def load(path: Path = PATH) -> dict[str, dict[str, Any]]:
    """Every game's measurement in the file at ``path`` (by record name); none when the
    file is not there."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        return {}
    games = data.get("games", {})
    if not isinstance(games, dict):
        raise ValueError(f"{path}: 'games' must be an object of games")
    return games


def save(game: str, measured: dict[str, Any], path: Path = PATH) -> None:
    """Write ``game``'s measurement to the file at ``path``, keeping the other games'."""
    games = load(path)
    games[game] = measured
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"games": dict(sorted(games.items()))}, indent=1, ensure_ascii=False)
    path.write_text(text + "\n", "utf-8")
    club_ratings.cache_clear()


@cache
def club_ratings() -> dict[str, dict[int, tuple[float, float]]]:
    """The club's file read once: per game, each level's (rating, deviation)."""
    return {
        game: {int(level): (float(v["rating"]), float(v["rd"])) for level, v in m["levels"].items()}
        for game, m in load(PATH).items()
    }


def level_ratings(game: str) -> dict[int, tuple[float, float]]:
    """Each level's measured (rating, deviation) in ``game`` (by record name); empty
    when it was not measured."""
    return dict(club_ratings().get(game, {}))


def nearest_level(game: str, rating: float) -> int | None:
    """The level of ``game`` whose measured rating is nearest ``rating`` (the lower
    level of two as near); None when ``game``'s levels were not measured.

    >>> nearest_level("no-such-game", 1500) is None
    True
    """
    rated = level_ratings(game)
    if not rated:
        return None
    return min(rated, key=lambda level: (abs(rated[level][0] - rating), level))
