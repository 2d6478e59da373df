"""Opponent styles: players that are not copies of our bots, kept to measure them.

A style is a :class:`~taverna.bots.Bot` like any level — it sees its seat's view only
and is deterministic given its seed — but it is never offered at a table: it stands
for a kind of player our bots must hold up against. Each is made by the
name ``style:<name>`` wherever a bot is named (``make_bot("style:careful", Mus, 0)``,
``taverna simulate mus --bots expert --vs careful``).

- Mus (:mod:`.mus`): ``careful``, ``bluffer``, ``passive``, ``reader``, ``ignorer``;
- Muggins dominoes and Muggins cards (:mod:`.dominoes`, :mod:`.cards`): ``defensive``,
  ``aggressive``.

The Mus styles weigh a lance by its exact odds at the showdown (:mod:`.odds`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from ...games.base import Action, State, View
from ..base import Bot, BotOptionError, UnknownBot
from ..heuristics import choose_with
from . import cards, dominoes
from .mus import STYLES as MUS_STYLES
from .mus import MusStyle

#: the prefix of a style's name wherever a bot is named
PREFIX = "style:"


class MugginsStyle(Bot):
    """A Muggins player (dominoes or cards) with a style of its own in choosing its
    play; claims and Muggins! calls as every level makes them, never forgotten."""

    #: the style's choice of play, by the game's record name
    plays: ClassVar[dict[str, Callable[[View, list[Any]], Action]]] = {}

    @classmethod
    def games(cls) -> tuple[str, ...]:
        """The record names of the games the style plays."""
        return tuple(cls.plays)

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        if game.game not in self.plays:
            games = " and ".join(sorted(self.plays))
            raise BotOptionError(f"{self.name} is a style of {games}, not of {game.game}")
        super().__init__(game, seat, seed, **options)

    def choose(self, view: View) -> Action | None:
        return choose_with(self, view, lambda _legal, turn: self._pick(view, turn))

    def _pick(self, view: View, turn: list[Action]) -> Action:
        if not any(a.type == "play" for a in turn):
            return turn[0]
        return self.plays[self.game.game](view, turn)


class Defensive(MugginsStyle):
    """Leaves the next player as little as it can (:func:`.dominoes.defensive`,
    :func:`.cards.defensive`)."""

    name = "style:defensive"
    plays: ClassVar[dict[str, Callable[[View, list[Any]], Action]]] = {
        dominoes.GAME: dominoes.defensive,
        cards.GAME: cards.defensive,
    }


class Aggressive(MugginsStyle):
    """Takes the most points now and sets up its own next score, whatever the risk
    (:func:`.dominoes.aggressive`, :func:`.cards.aggressive`)."""

    name = "style:aggressive"
    plays: ClassVar[dict[str, Callable[[View, list[Any]], Action]]] = {
        dominoes.GAME: dominoes.aggressive,
        cards.GAME: cards.aggressive,
    }


#: every style by its name without the prefix
STYLES: dict[str, type[MusStyle] | type[MugginsStyle]] = {
    cls.name.removeprefix(PREFIX): cls for cls in MUS_STYLES
}
STYLES |= {cls.name.removeprefix(PREFIX): cls for cls in (Defensive, Aggressive)}


def style_class(name: str) -> type[MusStyle] | type[MugginsStyle]:
    """The style named ``style:<name>`` (or ``<name>``); raises UnknownBot."""
    short = name.removeprefix(PREFIX)
    if short not in STYLES:
        raise UnknownBot(f"unknown style {short!r} (known: {', '.join(STYLES)})")
    return STYLES[short]


def styles_of(game: type[State]) -> list[str]:
    """The names (without the prefix) of the styles that play ``game``."""
    return [short for short, cls in STYLES.items() if game.game in cls.games()]
