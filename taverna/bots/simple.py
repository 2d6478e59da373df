"""The two simple levels: ``random`` and ``greedy``."""

from __future__ import annotations

from typing import Any

from ..games.base import Action, State, View
from . import heuristics
from .base import Bot


class RandomBot(Bot):
    """Plays a uniformly random legal action; never makes an optional call."""

    name = "random"

    def choose(self, view: View) -> Action | None:
        legal = self.legal(view)
        optional = heuristics.optional_action(self, view, legal)
        if optional is not None or not legal or not self.must_act(view):
            return optional
        return self.rng.choice(heuristics.turn_actions(self, legal))


class GreedyBot(Bot):
    """Best immediate score, with each game's sensible tie-breaks (see :mod:`.heuristics`)."""

    name = "greedy"

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        super().__init__(game, seat, seed, **options)

    def choose(self, view: View) -> Action | None:
        legal = self.legal(view)
        optional = heuristics.optional_action(self, view, legal)
        if optional is not None or not legal or not self.must_act(view):
            return optional
        turn = heuristics.turn_actions(self, legal)
        if len(turn) == 1:
            return turn[0]
        return heuristics.slip(self, view, legal, heuristics.greedy(self, view, turn))

    def signals(self, view: View) -> list[str]:
        return heuristics.signals(self, view)
