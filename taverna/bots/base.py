"""The bot interface: a bot sees its seat's view, never the hidden state.

A bot is built for one game and one seat and is asked for a decision with
nothing but that seat's view (the same JSON the server sends a player)::

    >>> from taverna.games import get_game
    >>> from taverna.bots import make_bot
    >>> Dominoes = get_game("dominoes")
    >>> state = Dominoes.new(2, seed=1)
    >>> seat = state.to_act[0]
    >>> bot = make_bot("random", Dominoes, seat, seed=1)
    >>> bot.choose(state.view(seat)) in state.legal_actions(seat)
    True

``choose`` returns ``None`` to let an optional right go by (a Muggins! call
the bot does not make); a seat whose turn it is must return an action.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ..games.base import Action, State, View


class Bot(ABC):
    """Base of every bot. Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str] = "bot"

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.options = options
        #: what a bot keeps between decisions (e.g. a choice made once per Muggins window)
        self.memory: dict[str, Any] = {}

    def legal(self, view: View) -> list[Action]:
        """The legal actions listed in the view, as action values."""
        seats = view["seats"]
        return [self.game.parse_action(a, seats) for a in view.get("legal", ())]

    @staticmethod
    def must_act(view: View) -> bool:
        """Whether the seat is obliged to act (its turn), not just allowed to."""
        return bool(view.get("turn") == view["seat"])

    @abstractmethod
    def choose(self, view: View) -> Action | None:
        """An action among the view's legal ones, or ``None`` to let an optional right go."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seat {self.seat}>"
