"""The bots that do not search: a uniformly random player, the beginner (levels 1 to
3) and greedy (level 4)."""

from __future__ import annotations

from typing import Any

from ..games.base import Action, State, View
from .base import Bot
from .heuristics import (
    beginner,
    choose_with,
    greedy,
    optional_action,
    slip,
    turn_actions,
)
from .heuristics import signals as strategy_signals


class RandomBot(Bot):
    """Plays a uniformly random legal action; never makes an optional call (no level:
    made by its import path, ``taverna.bots.simple:RandomBot``; the name ``random``
    is level 1's)."""

    name = "random"

    def choose(self, view: View) -> Action | None:
        legal = self.legal(view)
        optional = optional_action(self, view, legal)
        if optional is not None or not legal or not self.must_act(view):
            return optional
        return self.rng.choice(turn_actions(self, legal))


class BeginnerBot(Bot):
    """A beginner: the mistakes people make when they start (each game's
    :meth:`Strategy.beginner`), at a rate (option ``mistakes``, default 1: always);
    its other decisions are greedy's. Makes no signals (Mus señas)."""

    name = "beginner"

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        super().__init__(game, seat, seed, **options)
        self.mistakes = self.number_option("mistakes", 1.0, minimum=0.0, maximum=1.0)

    def choose(self, view: View) -> Action | None:
        return choose_with(self, view, lambda legal, turn: self._pick(view, legal, turn))

    def _pick(self, view: View, legal: list[Action], turn: list[Action]) -> Action:
        # one draw a decision, whichever way it goes: the same seed, the same game
        if self.rng.random() < self.mistakes:
            action = beginner(self, view, legal)
        else:
            action = greedy(self, view, turn)
        return slip(self, view, legal, action)


class GreedyBot(Bot):
    """Best immediate score, with each game's sensible tie-breaks (see :mod:`.heuristics`)."""

    name = "greedy"

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        super().__init__(game, seat, seed, **options)

    def choose(self, view: View) -> Action | None:
        return choose_with(
            self,
            view,
            lambda legal, turn: slip(self, view, legal, greedy(self, view, turn)),
        )

    def signals(self, view: View) -> list[str]:
        return strategy_signals(self, view)
