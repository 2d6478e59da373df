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

import json
import math
import random
from abc import ABC, abstractmethod
from typing import Any, ClassVar

from ..games.base import Action, State, TavernaError, View
from .heuristics import strategy


class UnknownBot(TavernaError, KeyError):
    """No bot by that name, or an import path that names no bot class (a KeyError too,
    for callers that catch one)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown bot"


class BotOptionError(TavernaError, ValueError):
    """A bot option with a value the bot cannot use; the message says which and why.

    >>> from taverna.games import get_game
    >>> from taverna.bots import make_bot
    >>> try:
    ...     make_bot("expert", get_game("dominoes"), 0, iterations="abc")
    ... except BotOptionError as e:
    ...     print(e)
    expert bot: iterations must be a whole number of at least 1, not 'abc'
    """


class Bot(ABC):
    """Base of every bot. Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str] = "bot"
    #: whether a decision is a search that may take up to a second of CPU (the server
    #: makes those away from its event loop)
    searches: ClassVar[bool] = False

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        self.game = game
        self.seat = seat
        self.rng = random.Random(seed)
        self.options = options
        #: the club's level this bot plays at (1 to 8, :mod:`.levels`), None for a bot
        #: made by its class or import path; :func:`~taverna.bots.make_bot` sets it
        self.level: int | None = None
        #: what a bot keeps between decisions (e.g. a choice made once per Muggins window):
        #: JSON values, or objects with a ``to_json()`` that their owner rebuilds from it,
        #: so that a decision can be made by a bot made again elsewhere (:meth:`remember`)
        self.memory: dict[str, Any] = {}
        # the options every level reads are checked here, so a bad value is refused
        # when the bot is made, not in the middle of a game
        if "forget" in options:
            self.number_option("forget", 0.0, minimum=0.0, maximum=1.0)
        known = strategy(game)
        for key in known.number_options:
            if key in options:
                self.number_option(key, 0.0)
        for key, why in known.retired_options.items():
            if key in options:
                raise BotOptionError(f"{self.name} bot: {key} is no longer an option: {why}")
        for key, words in known.choice_options.items():
            if key in options and options[key] not in words:
                raise BotOptionError(
                    f"{self.name} bot: {key} must be {' or '.join(words)}, not {options[key]!r}"
                )

    def number_option(
        self,
        key: str,
        default: float,
        *,
        whole: bool = False,
        minimum: float | None = None,
        above: float | None = None,
        maximum: float | None = None,
    ) -> float:
        """The option ``key`` as a number (``default`` when absent); raises BotOptionError
        for a value that is not one, or outside ``minimum``/``above``/``maximum``.

        Numbers written as text ("500", as a command line gives them) are accepted.
        """
        value = self.options.get(key, default)
        kind = "a whole number" if whole else "a number"
        if minimum is not None and maximum is not None:
            kind += f" from {minimum:g} to {maximum:g}"
        elif minimum is not None:
            kind += f" of at least {minimum:g}"
        elif above is not None:
            kind += f" greater than {above:g}"
        refusal = BotOptionError(f"{self.name} bot: {key} must be {kind}, not {value!r}")
        if isinstance(value, bool):
            raise refusal
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise refusal from None
        if not math.isfinite(number) or (whole and not number.is_integer()):
            raise refusal
        if (
            (minimum is not None and number < minimum)
            or (above is not None and number <= above)
            or (maximum is not None and number > maximum)
        ):
            raise refusal
        return int(number) if whole else number

    @property
    def label(self) -> str:
        """The bot's name where a bot is named again (a decision request, a log): its
        level's number (``"5"``) for a level, else its name."""
        return str(self.level) if self.level is not None else self.name

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

    def signals(self, view: View) -> list[str]:
        """The signals the bot makes now (Mus señas: among ``view["may_signal"]``, the ones
        its seat may make); asked after every action. A bot makes none unless its level
        says otherwise."""
        return []

    def remember(self) -> dict[str, Any]:
        """What this bot keeps between decisions, as JSON: a bot of the same level, seat
        and options given it by :meth:`recall` decides as this one would, given the same
        seed (a bot worker on another machine makes each decision so)::

            >>> from taverna.games import get_game
            >>> from taverna.bots import make_bot
            >>> Cards = get_game("cards")
            >>> bot = make_bot("greedy", Cards, 1, seed=3)
            >>> again = make_bot("greedy", Cards, 1, seed=3)
            >>> again.recall(bot.remember())
            >>> again.remember() == bot.remember()
            True
        """
        data: dict[str, Any] = json.loads(json.dumps(self.memory, default=_to_json))
        return data

    def recall(self, memory: dict[str, Any]) -> None:
        """Take up what :meth:`remember` gave (a copy: nothing is shared with the caller)."""
        self.memory = json.loads(json.dumps(memory))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seat {self.seat}>"


def _to_json(value: Any) -> Any:
    """A value of a bot's memory that is not JSON itself: what its ``to_json()`` says."""
    to_json = getattr(value, "to_json", None)
    if to_json is None:
        raise TypeError(f"a bot's memory holds {type(value).__name__}, which has no to_json()")
    return to_json()
