"""Mus opponents of five kinds, to measure the bots against (docs/rules.md §3).

Every style cuts the mus and discards as the table policy does (:func:`taverna.bots.mus.greedy`);
they differ where players differ, in the lances: when to bet, what to answer. An
órdago is answered on the exact odds of the showdown from what the seat knows
(:func:`.odds.lance_odds`: its cards, the announcements, and the señas it reads); an
envite on the strength tables' estimate for its hand and place (the señas it reads
counted). None of them reads the other pair's betting as a signal the way greedy and
the expert do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from ...games.base import Action, State, View
from ...games.mus import ACCEPT, BET, JUEGO, ORDAGO, PARES, PASS, RAISE, REJECT, Mus, MusAction
from ...games.mus.hands import card_id
from ..base import Bot, BotOptionError
from ..mus import greedy, lance_p, strength, told_p
from .odds import lance_odds


@dataclass(frozen=True)
class Spot:
    """What a lance decision weighs besides the odds: the stones of each pair, the stake
    (accepted if the answer is yes), the stake before the last bet (what a refusal
    gives away), whether that bet is an órdago, and the bets made in the lance."""

    us: int
    them: int
    stake: int
    prev: int
    ordago: bool
    bets: int

    @property
    def late(self) -> bool:
        """A pair is near the 40 stones: a lance may be worth the game."""
        return max(self.us, self.them) >= 30

    def win(self, us: int, them: int) -> float:
        """The chance of winning the game from these stones (the strength tables)."""
        return strength().win(us, them)

    def refuse(self) -> float:
        """The game chance after refusing the bet."""
        return self.win(self.us, self.them + self.prev)

    def accept(self, p: float) -> float:
        """The game chance after accepting, winning the lance with chance ``p``."""
        return p * self.win(self.us + self.stake, self.them) + (1 - p) * self.win(
            self.us, self.them + self.stake
        )


def spot(view: View) -> Spot:
    """The :class:`Spot` of a lance decision, from the view's betting."""
    stake = prev = bets = 0
    for b in view["betting"]:
        kind = b["type"]
        if kind == "bet":
            prev, stake, bets = 1, b["amount"], 1
        elif kind == "raise":
            prev, stake, bets = stake, stake + b["amount"], bets + 1
        elif kind == "ordago":
            prev, bets = (stake if bets else 1), bets + 1
    team = view["seat"] & 1
    stones = view["stones"]
    return Spot(stones[team], stones[1 - team], stake, prev, bool(view["ordago"]), bets)


def _told(view: View) -> dict[int, frozenset[str]]:
    """The señas the seat saw made by the other seats this hand, by seat."""
    seen: dict[int, set[str]] = {}
    for e in view.get("signals", ()):
        if e["seat"] != view["seat"]:
            seen.setdefault(e["seat"], set()).add(e["sign"])
    return {x: frozenset(s) for x, s in seen.items()}


def showdown(view: View, senas: bool) -> float:
    """The exact chance that the seat's pair wins the lance being played at the
    showdown (:func:`.odds.lance_odds`): its cards and discards, the announcements,
    and (``senas``) the señas it saw."""
    lance = view["lance_slot"]
    announced = view["announced"]
    try:
        p = lance_odds(
            [card_id(c) for c in view["hand"]],
            [card_id(c) for c in view["discarded"]],
            seat=view["seat"],
            mano=view["mano"],
            lance=lance,
            punto=view["punto"],
            real_31=bool(view["settings"].get("real_31", False)),
            pares=announced["pares"] if lance >= PARES else None,
            juego=announced["juego"] if lance >= JUEGO else None,
            told=_told(view) if senas else {},
        )
    except ValueError:  # nothing fits: cannot happen with true señas and announcements
        return 0.5
    return float(p)


def estimate(view: View, senas: bool) -> float:
    """The chance that the seat's pair wins the lance, as the strength tables give it
    for its hand and place (:func:`taverna.bots.mus.lance_p`), the señas it saw counted
    when ``senas`` (:func:`taverna.bots.mus.told_p`): quick, for envites."""
    seat, mano, lance, punto = view["seat"], view["mano"], view["lance_slot"], view["punto"]
    announced = view["announced"]
    holders: list[int] = []
    if lance == PARES:
        holders = list(announced["pares"] or [])
    elif lance == JUEGO and not punto:
        holders = list(announced["juego"] or [])
    t = strength()
    hand = t.hand([card_id(c) for c in view["hand"]])
    p = lance_p(t, hand, (seat - mano) % 4, lance, punto, seat, holders)
    told = _told(view) if senas else {}
    return told_p(p, seat, mano, lance, punto, holders, told) if told else p


class MusStyle(Bot):
    """A Mus player with a style of its own in the lances (subclasses: :meth:`opening`,
    :meth:`answer`); the mus and the discards as the table policy plays them."""

    #: whether the style reads the señas it sees, and makes its own
    reads_senas: ClassVar[bool] = True
    makes_senas: ClassVar[bool] = True

    @classmethod
    def games(cls) -> tuple[str, ...]:
        """The record names of the games the style plays."""
        return (Mus.game,)

    def __init__(
        self, game: type[State], seat: int, seed: int | None = None, **options: Any
    ) -> None:
        if game.game != Mus.game:
            raise BotOptionError(f"{self.name} is a Mus style, not one of {game.game}")
        super().__init__(game, seat, seed, **options)

    def choose(self, view: View) -> Action | None:
        legal = [a for a in self.legal(view) if isinstance(a, MusAction)]
        if not legal or not self.must_act(view):
            return None
        if view["phase"] not in ("speak", "answer"):
            return greedy(self, view, legal)
        here = spot(view)
        # an órdago is answered on the exact odds of the showdown (a game is at stake,
        # and only the lance's comparison counts); envites on the tables' estimate
        senas = self.reads_senas
        p = showdown(view, senas) if here.ordago else estimate(view, senas)
        kind, amount = self.opening(p, here) if view["phase"] == "speak" else self.answer(p, here)
        return pick(legal, kind, amount)

    def signals(self, view: View) -> list[str]:
        return list(view.get("may_signal", ())) if self.makes_senas else []

    def opening(self, p: float, spot: Spot) -> tuple[int, int]:
        """Open the lance: (PASS, BET or ORDAGO, amount)."""
        raise NotImplementedError

    def answer(self, p: float, spot: Spot) -> tuple[int, int]:
        """Answer the other pair's bet: (ACCEPT, RAISE, ORDAGO or REJECT, amount)."""
        raise NotImplementedError

    def chance(self, rate: float) -> bool:
        """True ``rate`` of the time (the bot's own seeded generator)."""
        return self.rng.random() < rate


def pick(legal: Sequence[MusAction], code: int, amount: int) -> MusAction:
    """The legal action of ``code`` nearest ``amount``; a raise that is not on the menu
    (against an órdago) is an acceptance, anything else missing a pass or a refusal."""
    same = [a for a in legal if a.code == code]
    if same:
        return min(same, key=lambda a: abs(a.amount - amount))
    for want in (ACCEPT,) if code in (RAISE, ORDAGO) else (PASS, REJECT):
        for a in legal:
            if a.code == want:
                return a
    return legal[0]


class Careful(MusStyle):
    """Bets and accepts only with the hand to back it. It counts the señas it saw in its
    pair's chance of the lance, never bluffs, opens with a bet only from 70 % (3 stones
    from 85 %), raises from 85 % and calls órdago only when 97 % sure near the end; it
    accepts an envite when the lance is likelier won than lost and the stake is worth
    more to the game than the refusal, and an órdago only when the exact odds of the
    showdown beat by 5 points its chance of the game after refusing."""

    name = "style:careful"

    def opening(self, p: float, spot: Spot) -> tuple[int, int]:
        if p >= 0.97 and spot.late:
            return ORDAGO, 0
        if p >= 0.85:
            return BET, 3
        return (BET, 2) if p >= 0.7 else (PASS, 0)

    def answer(self, p: float, spot: Spot) -> tuple[int, int]:
        if spot.ordago:
            return (ACCEPT, 0) if p >= spot.refuse() + 0.05 else (REJECT, 0)
        if p >= 0.97 and spot.late:
            return ORDAGO, 0
        if p >= 0.85 and spot.bets < 3:
            return RAISE, 2
        if p >= 0.5 and spot.accept(p) >= spot.refuse():
            return ACCEPT, 0
        return REJECT, 0


class Bluffer(MusStyle):
    """Bets, raises and calls órdago on nothing, often. With a lance it is likely to
    win (50 %) it bets 2, or 4 from 80 %, and accepts when the stake is worth it; with
    a weak hand it still bets 2 in 35 % of the lances it opens, calls órdago in 4 %,
    raises an envite in 25 % of its answers and accepts an órdago in 20 %. It reads
    no seña (its own cards are all it looks at) and makes every one it may."""

    name = "style:bluffer"
    reads_senas = False
    #: the rates of its bluffs, with a hand below even odds
    BET: ClassVar[float] = 0.35
    ORDAGO: ClassVar[float] = 0.04
    RAISE: ClassVar[float] = 0.25
    CALL: ClassVar[float] = 0.2

    def opening(self, p: float, spot: Spot) -> tuple[int, int]:
        if p >= 0.5:
            return BET, 4 if p >= 0.8 else 2
        if self.chance(self.ORDAGO):
            return ORDAGO, 0
        return (BET, 2) if self.chance(self.BET) else (PASS, 0)

    def answer(self, p: float, spot: Spot) -> tuple[int, int]:
        if spot.ordago:
            fair = p >= spot.refuse()
            return (ACCEPT, 0) if fair or self.chance(self.CALL) else (REJECT, 0)
        if p >= 0.8 and spot.bets < 3:
            return RAISE, 2
        if p < 0.5 and spot.bets < 3 and self.chance(self.RAISE):
            return RAISE, 2
        return (ACCEPT, 0) if spot.accept(p) >= spot.refuse() else (REJECT, 0)


class Passive(MusStyle):
    """Rarely bets and never raises: it opens a lance with a bet of 2 only when 90 %
    sure and never calls órdago; it accepts small envites (a stake of 2) with a fair
    hand (35 %), refuses bigger ones unless 80 % sure, and refuses every órdago unless
    90 % sure of the lance."""

    name = "style:passive"

    def opening(self, p: float, spot: Spot) -> tuple[int, int]:
        return (BET, 2) if p >= 0.9 else (PASS, 0)

    def answer(self, p: float, spot: Spot) -> tuple[int, int]:
        if spot.ordago:
            return (ACCEPT, 0) if p >= 0.9 else (REJECT, 0)
        line = 0.35 if spot.stake <= 2 else 0.8
        return (ACCEPT, 0) if p >= line else (REJECT, 0)


class Reader(MusStyle):
    """Plays by the odds, reading señas: its chance of a lance counts the señas of its
    partner and the opponents' it caught (each one is true: at an órdago the deals that
    fit them are the only ones counted), and it makes every seña it may. It bets 2 from 60 %, 4 from
    80 %, raises from 80 %, calls órdago near the end when 95 % sure, accepts an envite
    when the stake is worth more to the game than the refusal, and an órdago when the
    lance is likelier won than the game after refusing."""

    name = "style:reader"

    def opening(self, p: float, spot: Spot) -> tuple[int, int]:
        if p >= 0.95 and spot.late:
            return ORDAGO, 0
        if p >= 0.8:
            return BET, 4
        return (BET, 2) if p >= 0.6 else (PASS, 0)

    def answer(self, p: float, spot: Spot) -> tuple[int, int]:
        if spot.ordago:
            return (ACCEPT, 0) if p > spot.refuse() else (REJECT, 0)
        if p >= 0.95 and spot.late:
            return ORDAGO, 0
        if p >= 0.8 and spot.bets < 3:
            return RAISE, 2
        return (ACCEPT, 0) if spot.accept(p) >= spot.refuse() else (REJECT, 0)


class Ignorer(Reader):
    """The reader's play without señas: it makes none and reads none, so its chance of
    a lance comes from its own cards and the announcements alone (a pair of readers
    against a pair of ignorers measures what señas are worth)."""

    name = "style:ignorer"
    reads_senas = False
    makes_senas = False


STYLES: tuple[type[MusStyle], ...] = (Careful, Bluffer, Passive, Reader, Ignorer)
