"""Muggins cards (docs/rules.md §2) on the game protocol.

The hot data are small ints: a card is a number 0..51 (``rank * 4 + suit``,
ranks A..K, suits S H D C), a hand is a list of card ids kept in id order.
Because the ids run in rank order, the cards worth at most ``g`` are exactly
the ids below ``4 * g`` (for ``g`` < 10), so the cards that fit under the
limit are the front of the hand. (Lists of small ints, not 52-bit masks:
CPython allocates a new object for every operation on an int that large.)

    >>> s = Cards.start(2, {}, [Cards.parse_deal({
    ...     "hands": [["5S", "10H", "KD", "2C", "3C"], ["10S", "4H", "7H", "8H", "9H"]],
    ...     "stock": [c for c in ALL_CARD_NAMES if c not in
    ...               ("5S", "10H", "KD", "2C", "3C", "10S", "4H", "7H", "8H", "9H")],
    ...     "dealer": 0}, 2, Cards.check_settings(2, {}), 0)])
    >>> s.to_act
    (1,)
    >>> s.apply(Cards.parse_action({"seat": 1, "type": "play", "card": "10S"}, 2))[0]["total"]
    10
    >>> [e["credit"] for e in s.apply(Cards.parse_action(
    ...     {"seat": 0, "type": "play", "card": "5S", "claim": True}, 2)) if e["type"] == "play"]
    [15]

Readings of docs/rules.md §2 that the code relies on (each cited again where used):

* **Who is active.** A player holding no card is skipped. Only a play removes
  a card from a hand and only a go or a draw-back-up adds one, so the seats
  that say go during one run of gos all hold cards and stay active; a pile
  closed by a round of go therefore always leaves somebody to lead. When the
  stock is not empty the player who just played has drawn back up, so an
  unfinished round always has an active player.
* **The round's end** is always a play: the final card leaves every hand
  empty with no card left to draw (with Deal-Seven the undealt cards are never
  drawn, so the round ends when the hands are empty). That card closes the
  pile: 'last' 1 to its player, or only the 2 when it reaches the limit.
* **A go when the stock is empty** (or with Deal-Seven) draws nothing; the
  turn passes on.
* **The muggins window.** Points a play scores are *pending* until the
  scorer claims them (with the play, ``claim: true``, or by a ``claim``
  action) or an opponent calls ``muggins`` and takes them; the next play or
  go closes the window and the points are lost. While a score is pending
  every seat may act (:attr:`Cards.to_act`). A claim with a play claims all
  that play scores, including the 'last' point of the round's final card when
  ``muggins_on_last`` is on. A pending score is one or two credits of one
  seat (a play's points, then its 'last'); a claim or a call credits them one
  at a time, so a win stops at the first credit that reaches the target.
* **Credits apply at once** — also those of a claim or a Muggins! call: the
  first credit that reaches the target ends the game there.
* **A window left open by the round's final card** stays open into the next
  round until its first play or go, also while the next deal is awaited: the
  scorer may claim and the others may call then, so :attr:`to_act` is not
  empty while a deal is awaited with a score pending.
* **A round of go** is every *active* seat saying go one after another since
  the last card. A card drawn on a go does not give its player another turn
  in that round: when the others have all said go too, the pile closes even
  if that card would fit. The player of the last card, if still active, must
  say go too (nobody needs to when the pile closes at the limit).
* **The next pile's leader** is the first active seat after the player of the
  last card, whichever way the pile closed; that is also where the turn
  order leads, since gos run in turn order.
* **No-Muggins** credits every score at once; ``claim`` (alone or with a
  play) and ``muggins`` are then illegal. ``muggins_on_last`` without
  ``muggins`` is refused as a setting.
* **The first dealer** is the seat drawing the highest rank (K high, A low);
  tied seats draw again. Deal 0 of a record names it, and since the deal
  passes to the next seat each round every later dealer is known up front:
  a later deal naming another seat makes the record malformed.
* **Deal-Seven** never draws: the undealt cards stay out of play (the view's
  ``stock`` still counts them) and the round ends when the hands are empty.

Events (plain dicts; ``private`` parts per :func:`~taverna.games.base.event_for`):
``deal`` (round, dealer, leader, stock, hand sizes; each seat's ``cards``
privately), ``play`` (card, total, ``points`` it scored, ``credit`` credited
now, ``pending`` left to claim, ``claim``), ``draw`` (stock left; the
``card`` privately), ``go``, ``claim``, ``muggins`` (caller, ``from``,
credit), ``lost`` (unclaimed points lost when the window closed),
``pile_closed`` (reason ``limit``/``go``/``last-card``, the last card's
player, ``last`` points, credit or pending, next ``leader``), ``round_end``,
``game_end``. Every event with a ``credit`` credits its ``seat``, so the
scores are always the sum of the credits.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from functools import cache
from operator import itemgetter
from typing import Any, ClassVar, Final, NamedTuple, Self

from .base import (
    JSON,
    Action,
    Dealer,
    DealReader,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    NotationError,
    SampleError,
    Setting,
    SettingsError,
    State,
    View,
    action_seat,
    below,
    deal_below,
    deal_shuffle,
    not_an_action,
    only_fields,
    shuffle,
)

# ------------------------------------------------------------------ the deck

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("S", "H", "D", "C")
N_CARDS: Final = 52
#: card id -> notation, ``rank + suit`` (docs/rules.md §2.1)
CARD_STR: Final[tuple[str, ...]] = tuple(r + s for r in RANKS for s in SUITS)
ALL_CARD_NAMES: Final = CARD_STR
_ID: Final = {text: i for i, text in enumerate(CARD_STR)}
#: card id -> value on the pile: A=1, 2–9 face, 10/J/Q/K=10
VALUE: Final[tuple[int, ...]] = tuple(min(i // 4 + 1, 10) for i in range(N_CARDS))
#: CUT[g]: the cards worth at most g (g = limit - total, 0..31) are the ids below CUT[g]
CUT: Final[tuple[int, ...]] = tuple(N_CARDS if g >= 10 else 4 * g for g in range(32))


def _scoring_table(limit: int) -> tuple[tuple[bool, ...], ...]:
    """SCORING[limit][total][card]: does ``card``, played on ``total``, score
    (docs/rules.md §2.6)."""
    out = []
    for total in range(limit + 1):
        row = []
        for c in range(N_CARDS):
            t = total + VALUE[c]
            row.append(t == limit or (t < limit and t % 5 == 0))
        out.append(tuple(row))
    return tuple(out)


SCORING: Final = {limit: _scoring_table(limit) for limit in (21, 31)}
#: POINTS[limit][total]: what a play bringing the pile to ``total`` scores (docs/rules.md §2.6)
POINTS: Final = {
    limit: tuple(2 if t == limit else t if t % 5 == 0 else 0 for t in range(limit + 1))
    for limit in (21, 31)
}
SETTINGS_DEFAULTS: Final[dict[str, Any]] = {
    "target": 61,
    "limit": 31,
    "hand_size": 5,
    "muggins": True,
    "muggins_on_last": False,
}


def card_id(text: object) -> int:
    """The id of a card written ``rank + suit`` (``AS``, ``10H``, ``QD``); raises NotationError."""
    i = _ID.get(text) if isinstance(text, str) else None
    if i is None:
        raise NotationError(
            f"{text!r} is not a card (write rank A 2..10 J Q K then suit S H D C, e.g. 10H)"
        )
    return i


def card_str(card: int) -> str:
    """A card in notation: ``7H``."""
    return CARD_STR[card]


def _bounds_after_play(bounds: tuple[int, ...], value: int, hidden: int) -> tuple[int, ...]:
    """A seat's bounds once it played a card worth ``value`` out of ``hidden`` hidden cards.

    The card came from a hidden card known to be worth at least m <= its value,
    or from one nothing is known of; dropping the tightest such bound (bounds
    run high to low) keeps the others true.
    """
    if bounds[0] <= value:
        return bounds[1:]
    for i, m in enumerate(bounds):
        if m <= value:
            return bounds[:i] + bounds[i + 1 :]
    if len(bounds) < hidden:
        return bounds  # a card nothing was known of
    return bounds[:-1]


#: How a muggins window closed (docs/rules.md §2.7), kept only to tell a claim
#: or call that arrives too late what happened: ``(owner, points, how, by, card)``,
#: ``owner``'s unclaimed ``points`` were lost when seat ``by`` played ``card`` (``how``
#: "play") or said go ("go"), or settled when it claimed them ("claim") or called
#: muggins ("muggins"). A plain tuple: a window closes at one action in five, and
#: building a NamedTuple each time (231 ns, a tuple 26 ns) cost 6 % of apply in the
#: bench's loop.
Closed = tuple[int, int, str, int, str | None]


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


# ------------------------------------------------------------------ actions


class CardAction(Action):
    """``play`` a card (optionally with ``claim``), ``go``, ``claim`` or ``muggins``."""

    __slots__ = ("card", "claim", "seat", "type")

    def __init__(self, seat: int, type: str, card: int = -1, claim: bool = False) -> None:
        self.seat = seat
        self.type = type
        self.card = card
        self.claim = claim

    def to_json(self) -> JSON:
        if self.type != "play":
            return {"seat": self.seat, "type": self.type}
        out: JSON = {"seat": self.seat, "type": "play", "card": CARD_STR[self.card]}
        if self.claim:
            out["claim"] = True
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardAction):
            return NotImplemented
        return (self.seat, self.type, self.card, self.claim) == (
            other.seat,
            other.type,
            other.card,
            other.claim,
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.type, self.card, self.claim))

    def __str__(self) -> str:
        if self.type == "play":
            return f"play {CARD_STR[self.card]}{' claim' if self.claim else ''}"
        return self.type


#: _PLAY[s][c]: seat s playing card c, without and with its claim; _GO, _CLAIM and
#: _MUGGINS per seat: every action made once, so legal_actions allocates nothing
#: but its list (and Cards.play_action gives the very object it lists)
_PLAY: Final = [
    [(CardAction(s, "play", c, False), CardAction(s, "play", c, True)) for c in range(N_CARDS)]
    for s in range(4)
]
_GO: Final = [CardAction(s, "go") for s in range(4)]
_CLAIM: Final = [CardAction(s, "claim") for s in range(4)]
_MUGGINS: Final = [CardAction(s, "muggins") for s in range(4)]

#: per card id, the ways a seat may play it: the play alone, or the play and the play
#: with its claim
_Menu = tuple[tuple[CardAction, ...], ...]


def _menu(seat: int, scores: Sequence[bool]) -> _Menu:
    """The ways ``seat`` may play each card when ``scores[card]`` says whether it
    scores: the play alone, or the play followed by its claiming form."""
    return tuple(_PLAY[seat][c] if scores[c] else _PLAY[seat][c][:1] for c in range(N_CARDS))


def _menus(limit: int) -> tuple[tuple[_Menu, ...], ...]:
    """_MENUS[limit][seat][total]: the :func:`_menu` of ``seat`` on a pile at ``total``
    (docs/rules.md §2.6).

    legal_actions takes a hand's plays from it with one lookup per card, allocating
    nothing but its list. Measured: working out the plays card by card from
    ``SCORING`` instead costs 2 % of an action (valgrind, the bench's loop).
    """
    return tuple(tuple(_menu(s, row) for row in SCORING[limit]) for s in range(4))


_MENUS: Final = {limit: _menus(limit) for limit in SCORING}
#: the menus when no card may be claimed (No-Muggins) and when every card is claimed
#: with its play (the round's final card under muggins_on_last: it scores 'last')
_UNCLAIMED: Final[tuple[_Menu, ...]] = tuple(_menu(s, (False,) * N_CARDS) for s in range(4))
_CLAIMED: Final[tuple[_Menu, ...]] = tuple(_menu(s, (True,) * N_CARDS) for s in range(4))
#: _ORDER[n][first]: every seat of an n-seat table in turn order, starting at first;
#: _NEXT[n][s]: the seat after s (tables: they cost less than the arithmetic)
_ORDER: Final = tuple(
    tuple(tuple((f + i) % n for i in range(n)) for f in range(n)) for n in range(5)
)
_NEXT: Final = tuple(tuple((s + 1) % n for s in range(n)) for n in range(5))


def _windows(seats: int) -> tuple[tuple[tuple[CardAction, ...], ...], ...]:
    """_WINDOWS[seats][first][owner]: while seat ``owner``'s score waits, what each
    seat may do about it, in turn order from ``first``: its owner claims it, every
    other seat calls Muggins! (docs/rules.md §2.7).

    Every legal_actions asks it while a score waits, and a window is open after
    most scoring plays in random play: built at each ask instead, it costs some 2 %
    of an action (the bench's loop, CPU time).
    """
    return tuple(
        tuple(
            tuple(_CLAIM[j] if j == owner else _MUGGINS[j] for j in order) for owner in range(seats)
        )
        for order in _ORDER[seats]
    )


_WINDOWS: Final = tuple(_windows(n) for n in range(5))
#: a new deck in id order, copied for each shuffle
_DECK: Final = list(range(N_CARDS))


@cache
def _dealing(seats: int, hand_size: int, dealer: int) -> itemgetter[Any]:
    """What gives the hands of a shuffled deck (a tuple of card ids), dealt one card at
    a time from the dealer's left (docs/rules.md §2.3): seat s gets every ``seats``-th
    card from the ``(s - dealer - 1) % seats``-th on. One slice per seat, taken in
    one call (measured: slicing in a comprehension at every deal costs 0.8 % of an
    action, the bench's loop)."""
    return itemgetter(
        *[slice((s - dealer - 1) % seats, seats * hand_size, seats) for s in range(seats)]
    )


#: whether this module runs compiled (taverna/native.py). A play's search of the hand
#: and a draw's insertion are written for each build, the same results either way (the
#: tests run on both): compiled, a loop over the hand compares machine integers where
#: ``in``, ``list.index`` and ``bisect.insort`` compare Python objects through calls;
#: interpreted, those builtins are the faster. Measured: compiled, the loops (with
#: legal_actions' appends) took `taverna bench cards` from 0.52 to 0.47 of the
#: minimal loop's cost; interpreted, they would add some 15 %.
_COMPILED: Final = not __file__.endswith(".py")


def _insort(hand: list[int], card: int) -> None:
    """Put ``card`` into the sorted ``hand`` in its place, as ``bisect.insort`` does (by a
    loop over five or seven cards: the compiled build's, see :data:`_COMPILED`)."""
    for i, x in enumerate(hand):
        if x > card:
            hand.insert(i, card)
            return
    hand.append(card)


# ------------------------------------------------------------------ deals


class CardDeal(NamedTuple):
    """One round's deal: ``hands`` (card ids), ``stock`` (top first), ``dealer``."""

    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    dealer: int | None


# ------------------------------------------------------------------ state


class Cards(State[CardAction]):
    """Muggins cards: 52 cards, 2–4 seats each for themselves (docs/rules.md §2.1).

    Table settings: ``target`` (61), ``limit`` 31 or 21, ``hand_size`` 5 or 7,
    ``muggins`` (on), ``muggins_on_last`` (off). Several seats may act at once
    while a score is unclaimed: see :attr:`to_act`.
    """

    game: ClassVar[str] = "muggins-cards"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    deal_unit: ClassVar[str] = "round"
    title: ClassVar[str] = "Muggins cards"
    aliases: ClassVar[tuple[str, ...]] = ("cards",)
    order = 2
    optional_actions: ClassVar[tuple[str, ...]] = ("claim", "muggins")
    settings_declared: ClassVar[tuple[Setting, ...]] = (
        # docs/rules.md §2.2
        Setting("target", "int", SETTINGS_DEFAULTS["target"], minimum=1),
        Setting("limit", "choice", 31, choices=(31, 21), hints={21: "Strict 21"}),
        Setting("hand_size", "choice", 5, choices=(5, 7), hints={7: "Deal-Seven"}),
        Setting("muggins", "bool", True),
        Setting("muggins_on_last", "bool", False),
    )
    #: a player's page counts (:meth:`count_figures`) Muggins! calls made and suffered
    figure_names: ClassVar[tuple[str, ...]] = ("muggins_made", "muggins_suffered")

    #: each seat's score
    scores: list[int]

    __slots__ = (
        "bounds",
        "closed",
        "dealer",
        "discards",
        "draws",
        "gone",
        "hands",
        "held",
        "hs",
        "last",
        "leader",
        "limit",
        "menus",
        "mol",
        "muggins",
        "pend",
        "pend_seat",
        "pile",
        "points",
        "scores",
        "stock",
        "target",
        "total",
    )

    # ---------------------------------------------------------- settings

    @classmethod
    def check_together(cls, settings: dict[str, Any]) -> None:
        if settings["muggins_on_last"] and not settings["muggins"]:
            raise SettingsError(
                "muggins_on_last needs muggins on: at a No-Muggins table every score, "
                "'last' included, is credited automatically"
            )

    @classmethod
    def count_figures(cls, events: Sequence[Event], seat: int) -> dict[str, int]:
        """The Muggins! calls ``seat`` made (it took an opponent's unclaimed points) and
        those it suffered (an opponent took its own), docs/rules.md §2.7: one
        ``muggins`` event each, its ``seat`` the caller and ``from`` the scorer."""
        made = suffered = 0
        for e in events:
            if e["type"] == "muggins":
                made += e["seat"] == seat
                suffered += e["from"] == seat
        return {"muggins_made": made, "muggins_suffered": suffered}

    # ------------------------------------------------------ construction

    def __init__(
        self,
        seats: int,
        settings: Mapping[str, Any] | None = None,
        deals: Sequence[Any] = (),
        dealer: Dealer | None = None,
        *,
        log: bool = True,
    ) -> None:
        super().__init__(seats, settings, deals, dealer, log=log)
        self.target: int = self.settings["target"]
        self.limit: int = self.settings["limit"]
        # the tables of this limit: how each card may be played, what a total scores
        self.menus = _MENUS[self.limit]
        self.points = POINTS[self.limit]
        self.hs: int = self.settings["hand_size"]
        # the hand size a play draws back up to; docs/rules.md §2.2: Deal-Seven
        # never draws, not even on a go (0)
        self.draws: int = self.hs if self.hs == 5 else 0
        self.muggins: bool = self.settings["muggins"]
        self.mol: bool = self.settings["muggins_on_last"]
        self.scores = [0] * seats
        self.dealer = -1
        # the unclaimed score: its seat (-1: none) and its credits, in order
        self.pend_seat = -1
        self.pend: list[int] = []
        # how the last window closed, to say why a late claim or call finds nothing
        self.closed: Closed | None = None
        # the round's fields are set by each deal (_begin); a table with no deal to
        # start from (neither queued nor a dealer) shows an empty round until deal()
        if not deals and dealer is None:
            self._reset_round()

    def _reset_round(self) -> None:
        n = self.seats
        # per seat, the card ids held, in id order (that is, by rank)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.held = 0  # cards in all hands together
        # per seat, the least values some of its hidden cards are known to have,
        # highest first, learned from gos (public); its other cards are unknown
        self.bounds: list[tuple[int, ...]] = [()] * n
        self.stock: list[int] = []  # top at the end
        self.pile: list[int] = []
        self.discards: list[int] = []  # cards of this round's closed piles
        self.total = 0
        self.last = -1  # the player of the pile's last card
        self.gone = 0  # mask of seats that said go since the last card
        self.turn = -1
        self.leader = -1

    @classmethod
    def check_deals(cls, seats: int, deals: Sequence[Any]) -> None:
        """Deal 0 names the first dealer and the deal passes to the next seat each
        round (docs/rules.md §2.3), so every later dealer is known from the start:
        a wrong one makes the whole record malformed before anything is played.
        """
        if deals:
            first = deals[0].dealer
            if first is None:
                raise MalformedRecord("deal 0 must name the dealer (the first high-card draw)")
            for i, d in enumerate(deals):
                expected = (first + i) % seats
                if d.dealer is not None and d.dealer != expected:
                    raise MalformedRecord(
                        f"deal {i} names dealer {d.dealer}, but the deal passes to the next "
                        f"seat each round: seat {expected} deals round {i}"
                    )

    # ------------------------------------------------------------ notation

    @classmethod
    def parse_action(cls, obj: Any, seats: int) -> CardAction:
        seat = action_seat(obj, seats)
        kind = obj.get("type")
        if kind in ("go", "claim", "muggins"):
            only_fields(obj, kind)
            table = _GO if kind == "go" else _CLAIM if kind == "claim" else _MUGGINS
            return table[seat]
        if kind != "play":
            raise InvalidAction(
                f"unknown cards action type {kind!r} (expected play, go, claim or muggins)"
            )
        only_fields(obj, "play", "card", "claim")
        try:
            card = card_id(obj.get("card"))
        except ValueError as e:
            raise InvalidAction(str(e)) from None
        claim = obj.get("claim", False)
        if not isinstance(claim, bool):
            raise InvalidAction(f"claim must be true or false, not {claim!r}")
        return _PLAY[seat][card][claim]

    @staticmethod
    def play_action(seat: int, card: int, claim: bool = False) -> CardAction:
        """The action of ``seat`` playing card id ``card`` (with its claim or not), as
        ``legal_actions`` gives it (one object per action: ``in`` tests are cheap)."""
        return _PLAY[seat][card][claim]

    @classmethod
    def parse_deal(cls, obj: Any, seats: int, settings: Mapping[str, Any], index: int) -> CardDeal:
        where = f"deal {index}"
        if not isinstance(obj, dict):
            raise MalformedRecord(f"{where} must be an object with hands, stock and dealer")
        extra = set(obj) - {"hands", "stock", "dealer"}
        if extra:
            raise MalformedRecord(f"{where} has an unknown field {sorted(extra)[0]!r}")
        size = settings.get("hand_size", SETTINGS_DEFAULTS["hand_size"])
        read = DealReader(where, "card", "52-card deck", N_CARDS, card_id, card_str)
        hands = read.hands(obj.get("hands"), seats, size, " (hand_size)")
        stock = read.items(obj.get("stock"), "stock")
        read.check_whole()
        first = "the first high-card draw" if index == 0 else None
        dealer = read.seat(obj, "dealer", seats, first)
        return CardDeal(hands, stock, dealer)

    @classmethod
    def deal_json(cls, deal: Any) -> JSON:
        out: JSON = {
            "hands": [[CARD_STR[c] for c in h] for h in deal.hands],
            "stock": [CARD_STR[c] for c in deal.stock],
        }
        if deal.dealer is not None:
            out["dealer"] = deal.dealer
        return out

    # ----------------------------------------------------------- dealing

    def _high_card_draw(self, rng: random.Random) -> int:
        """docs/rules.md §2.3: the first dealer draws the highest rank (K high, A low).

        Tied seats draw again among themselves; suits never matter.
        """
        candidates: Sequence[int] = range(self.seats)
        while True:
            drawn: list[int] = []  # distinct cards from one deck, one per candidate
            top = -1
            tied: list[int] = []
            for s in candidates:
                c = deal_below(rng, N_CARDS)
                while c in drawn:
                    c = deal_below(rng, N_CARDS)
                drawn.append(c)
                rank = c >> 2
                if rank > top:
                    top = rank
                    tied = [s]
                elif rank == top:
                    tied.append(s)
            if len(tied) == 1:
                return tied[0]
            candidates = tied

    def _random_deal(self, rng: random.Random) -> CardDeal:
        # docs/rules.md §2.3: the first dealer by a high-card draw, then the next seat
        first = self.dealer < 0
        dealer = self._high_card_draw(rng) if first else (self.dealer + 1) % self.seats
        # docs/rules.md §2.3: one card at a time, starting at the dealer's left, so
        # the i-th card goes to seat dealer + 1 + i. The cut of a shuffled deck
        # leaves it uniformly shuffled, so it is not drawn.
        deck = _DECK[:]
        deal_shuffle(rng, deck)
        cards = tuple(deck)
        n = self.seats
        k = self.hs
        return CardDeal(_dealing(n, k, dealer)(cards), cards[n * k :], dealer)

    def _check_deal(self, deal: CardDeal) -> None:
        if not isinstance(deal, CardDeal):
            raise IllegalAction(f"{deal!r} is not a cards deal")
        if self.dealer < 0:
            if deal.dealer is None:
                raise IllegalAction(
                    f"deal {self.hand_no + 1} must name the dealer (the first high-card draw)"
                )
        elif deal.dealer is not None and deal.dealer != (self.dealer + 1) % self.seats:
            raise IllegalAction(
                f"deal {self.hand_no + 1} names dealer {deal.dealer}, but the deal passes to "
                f"the next seat: seat {(self.dealer + 1) % self.seats} deals"
            )
        if len(deal.hands) != self.seats or any(len(h) != self.hs for h in deal.hands):
            raise IllegalAction(
                f"deal {self.hand_no + 1} must give {self.hs} cards to each of {self.seats} seats"
            )

    def _begin(self, deal: CardDeal, given: bool) -> list[Event]:
        # docs/rules.md §2.3: the deal passes to the next seat each round
        if self.dealer < 0 and deal.dealer is not None:
            dealer = deal.dealer % self.seats
        else:
            dealer = (self.dealer + 1) % self.seats
        n = self.seats
        k = self.hs
        self.dealer = dealer
        self.hands = [sorted(h) for h in deal.hands]
        self.bounds = [()] * n
        self.held = k * n
        stock = list(deal.stock)
        stock.reverse()  # top at the end
        self.stock = stock
        self.pile = []
        self.discards = []
        self.total = 0
        self.last = -1
        self.gone = 0
        # docs/rules.md §2.3: the player after the dealer leads
        leader = dealer + 1 if dealer + 1 < n else 0
        self.leader = self.turn = leader
        if self._quiet:
            return []
        return [
            {
                "type": "deal",
                "round": self.hand_no,
                "dealer": dealer,
                "leader": leader,
                "stock": len(stock),
                "hand_sizes": [k] * n,
                # a hand has five or seven cards (checked): itemgetter gives their tuple
                "private": {
                    s: {"cards": list(itemgetter(*h)(CARD_STR))} for s, h in enumerate(deal.hands)
                },
            }
        ]

    # ------------------------------------------------------------ queries

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seat whose turn it is; while a score is unclaimed, every seat.

        docs/rules.md §2.7: the scorer may claim and every opponent may
        call, besides the player whose turn it is (listed first).
        """
        if self.over:
            return ()
        if self.pend_seat < 0:
            return (self.turn,) if self.turn >= 0 else ()
        return _ORDER[self.seats][self.turn if self.turn >= 0 else 0]

    @property
    def turn_seat(self) -> int | None:
        """The seat whose turn it is (it must play or go); a claim or call is optional."""
        return self.turn if self.turn >= 0 and not self.over else None

    def legal_actions(self, seat: int | None = None) -> list[CardAction]:
        # a game that is over has no turn and no pending score (see _win): nothing is legal
        turn = self.turn
        ps = self.pend_seat
        if seat is not None and seat != turn:
            if ps < 0:
                return []
            return [_CLAIM[seat] if seat == ps else _MUGGINS[seat]]
        out: list[CardAction] = []
        if turn >= 0:
            hand = self.hands[turn]
            total = self.total
            room = self.limit - total
            # the cards worth at most room (< 10) are the hand's ids below 4 * room
            if hand and (room >= 10 or hand[0] < 4 * room):
                ways: _Menu
                if not self.muggins:
                    ways = _UNCLAIMED[turn]
                elif self.mol and self.held == 1 and (not self.draws or not self.stock):
                    ways = _CLAIMED[turn]  # the round's final card scores 'last'
                else:
                    ways = self.menus[turn][total]
                # by rank, each play followed by its claiming form when it scores (an
                # append or two: compiled, `out += ways[c]` costs more than both)
                cut = N_CARDS if room >= 10 else 4 * room
                for c in hand:
                    if c >= cut:
                        break
                    w = ways[c]
                    out.append(w[0])
                    if len(w) > 1:
                        out.append(w[1])
            else:
                out.append(_GO[turn])
        if ps >= 0:
            # docs/rules.md §2.7: the scorer may claim, the others call
            if seat is None:
                out += _WINDOWS[self.seats][turn if turn >= 0 else 0][ps]
            else:
                out.append(_CLAIM[seat] if seat == ps else _MUGGINS[seat])
        return out

    def hand_cards(self, seat: int) -> list[str]:
        """A seat's cards in notation, by rank."""
        return [CARD_STR[c] for c in self.hands[seat]]

    def _next_active(self, s: int) -> int:
        """The first seat after ``s`` holding cards (``s`` itself last); -1 if none."""
        hands = self.hands
        n = self.seats
        for i in range(1, n + 1):
            j = (s + i) % n
            if hands[j]:
                return j
        return -1

    # ------------------------------------------------------------ playing

    def _close_window(self, by: int, events: list[Event], card: int = -1) -> None:
        """docs/rules.md §2.7: the next play or go closes the window."""
        points = sum(self.pend)
        if not self._quiet:
            events.append({"type": "lost", "seat": self.pend_seat, "points": points})
        how = "play" if card >= 0 else "go"
        self.closed = (self.pend_seat, points, how, by, CARD_STR[card] if card >= 0 else None)
        self.pend_seat = -1
        self.pend = []

    def _win(self, s: int, events: list[Event]) -> None:
        # docs/rules.md §2.8: the first credit that reaches the target wins at once
        self.over = True
        self.winner = s
        self.turn = -1
        self.pend_seat = -1
        self.pend = []
        if not self._quiet:
            events.append({"type": "game_end", "winner": s, "scores": self.scores[:]})

    def _refuse_play(self, s: int, c: int) -> None:
        if s != self.turn:
            self._refuse_turn(s, f"play {CARD_STR[c]}")
        if c not in self.hands[s]:
            raise IllegalAction(
                f"seat {s} cannot play {CARD_STR[c]}: it does not hold that card",
                "not_held",
                card=CARD_STR[c],
            )
        raise IllegalAction(
            f"seat {s} cannot play {CARD_STR[c]}: its {VALUE[c]} would take the total "
            f"{self.total} over {self.limit}",
            "over_limit",
            card=CARD_STR[c],
            total=self.total,
            limit=self.limit,
        )

    def _refuse_claim(self, s: int, c: int, t: int) -> None:
        if not self.muggins:
            raise IllegalAction(
                f"seat {s} cannot claim with {CARD_STR[c]}: this table plays No-Muggins, "
                "scores are credited automatically",
                "no_muggins",
            )
        raise IllegalAction(
            f"seat {s} cannot claim with {CARD_STR[c]}: the total {t} scores nothing",
            "scores_nothing",
            card=CARD_STR[c],
            total=t,
        )

    # ``object``: compiled, a narrower type would refuse a dict with a bare TypeError
    # before the body's own refusal says what to do instead (not_an_action)
    def apply(self, action: object) -> list[Event]:
        if not isinstance(action, CardAction):
            raise not_an_action(self, action)
        kind = action.type
        events: list[Event]
        if kind != "play":
            if kind == "go":
                events = self._go(action.seat)
            elif kind == "claim":
                events = self._claim(action.seat)
            else:
                events = self._call(action.seat)
            if self._log is not None:
                self._log.append(action)
            return events
        # A play (most actions) is worked out here, not in a method of its own: one
        # call less per action is a share of `taverna bench cards` worth having.
        s = action.seat
        c = action.card
        hand = self.hands[s]
        total = self.total + VALUE[c]
        if _COMPILED:
            at = -1
            for i, x in enumerate(hand):
                if x == c:
                    at = i
                    break
        else:
            at = hand.index(c) if c in hand else -1
        if s != self.turn or total > self.limit or at < 0:
            self._refuse_play(s, c)
        # docs/rules.md §2.6: multiples of five score their total, the limit 2
        points = self.points[total]
        claim = action.claim
        if claim and not (points and self.muggins):
            self._check_claim(s, c, total, points)
        events = []
        if self.pend_seat >= 0:
            self._close_window(s, events, c)
        # docs/rules.md §2.7: a score is credited when claimed with its play (or
        # at a No-Muggins table); else it waits for its claim, or a Muggins! call
        credit = points if claim or not self.muggins else 0
        if not self._quiet:
            event: Event = {
                "type": "play",
                "seat": s,
                "card": CARD_STR[c],
                "total": total,
                "points": points,
                "credit": credit,
            }
            if claim:
                event["claim"] = True
            if points and not credit:
                event["pending"] = points
            events.append(event)
        bounds = self.bounds[s]
        if bounds:
            # usually the card meets the tightest bound, the first (see _bounds_after_play)
            v = VALUE[c]
            self.bounds[s] = (
                bounds[1:] if bounds[0] <= v else _bounds_after_play(bounds, v, len(hand))
            )
        del hand[at]
        self.pile.append(c)
        self.total = total
        self.last = s
        self.gone = 0
        if credit:
            scores = self.scores
            scores[s] += credit
            if scores[s] >= self.target:
                self.held -= 1
                self._win(s, events)
                if self._log is not None:
                    self._log.append(action)
                return events
        elif points:
            self.pend_seat = s
            self.pend = [points]
        stock = self.stock
        if stock and len(hand) < self.draws:
            # docs/rules.md §2.4: draw back up to hand_size while the stock lasts. That
            # is one card: while there is stock every hand holds hand_size or more
            # (a go adds one), so a play leaves at most one to draw, the cards held
            # stay as many, and the next seat holds cards.
            d = stock.pop()
            if _COMPILED:
                _insort(hand, d)
            else:
                insort(hand, d)
            if not self._quiet:
                events.append(
                    {
                        "type": "draw",
                        "seat": s,
                        "stock": len(stock),
                        "private": {s: {"card": CARD_STR[d]}},
                    }
                )
            if total == self.limit:
                self._close_at_limit(s, total, events)
            else:
                self.turn = _NEXT[self.seats][s]
        else:
            held = self.held - 1
            self.held = held
            if not held:
                # docs/rules.md §2.5: the round's final card (nothing left to
                # hold or draw)
                self._close_final(s, total, claim, events)
            elif total == self.limit:
                self._close_at_limit(s, total, events)
            else:
                j = _NEXT[self.seats][s]
                self.turn = j if self.hands[j] else self._next_active(s)
        log = self._log
        if log is not None:
            log.append(action)
        return events

    def _close_at_limit(self, s: int, total: int, events: list[Event]) -> None:
        # docs/rules.md §2.5: exactly the limit closes it at once
        leader = self._new_pile(s)
        if not self._quiet:
            events.append(
                {
                    "type": "pile_closed",
                    "reason": "limit",
                    "seat": s,
                    "total": total,
                    "last": 0,
                    "credit": 0,
                    "leader": leader,
                }
            )

    def _check_claim(self, s: int, c: int, total: int, points: int) -> None:
        """A play with ``claim`` claims what it scores: refuse it when that is nothing.

        That is its points, or the 'last' point of the round's final card when
        ``muggins_on_last`` is on (docs/rules.md §2.7).
        """
        if not self.muggins:
            self._refuse_claim(s, c, total)
        if points:
            return
        final = self.held == 1 and (not self.stock or not self.draws)
        if not (final and total != self.limit and self.mol):
            self._refuse_claim(s, c, total)

    def _close_final(self, s: int, total: int, claim: bool, events: list[Event]) -> None:
        # docs/rules.md §2.5: the round's final card, 'last' 1 or only the limit's 2
        last = 0 if total == self.limit else 1
        # muggins_on_last: 'last' waits for its claim unless the card claimed it
        waits = last and self.mol and not claim
        if not self._quiet:
            close: Event = {
                "type": "pile_closed",
                "reason": "last-card",
                "seat": s,
                "total": total,
                "last": last,
                "credit": 0 if waits else last,
            }
            if waits:
                close["pending"] = last
            events.append(close)
        if last:
            if waits:
                if self.pend_seat != s:
                    self.pend_seat = s
                    self.pend = []
                self.pend.append(last)
            else:
                self.scores[s] += last
                if self.scores[s] >= self.target:
                    self._win(s, events)
                    return
        self._end_round(events)

    def _new_pile(self, last: int) -> int:
        # docs/rules.md §2.5: led by the first active player after the last card's
        self.discards.extend(self.pile)
        self.pile = []
        self.total = 0
        self.last = -1
        self.gone = 0
        turn = _NEXT[self.seats][last]
        if not self.hands[turn]:
            turn = self._next_active(last)
        self.turn = turn
        return turn

    def _go(self, s: int) -> list[Event]:
        if s != self.turn:
            self._refuse_turn(s, "go")
        limit = self.limit
        total = self.total
        hand = self.hands[s]
        if hand and hand[0] < CUT[limit - total]:
            c = hand[0]
            raise IllegalAction(
                f"seat {s} cannot go: {CARD_STR[c]} fits under {limit} (total {total})",
                "must_play",
                card=CARD_STR[c],
            )
        events: list[Event] = []
        if self.pend_seat >= 0:
            self._close_window(s, events)
        # public now: every card seat s holds is worth more than limit - total
        least = limit - total + 1
        bounds = self.bounds[s]
        if not bounds:
            self.bounds[s] = (least,) * len(hand)
        elif len(bounds) < len(hand) or bounds[-1] < least:
            # bounds run high to low: those above least stay, the rest become least
            keep = 0
            for m in bounds:
                if m <= least:
                    break
                keep += 1
            self.bounds[s] = bounds[:keep] + (least,) * (max(len(hand), len(bounds)) - keep)
        quiet = self._quiet
        if not quiet:
            events.append({"type": "go", "seat": s, "total": total})
        stock = self.stock
        if stock and self.draws:
            # docs/rules.md §2.4: a go draws one card while any is left
            d = stock.pop()
            if _COMPILED:
                _insort(hand, d)
            else:
                insort(hand, d)
            self.held += 1
            if not quiet:
                events.append(
                    {
                        "type": "draw",
                        "seat": s,
                        "stock": len(stock),
                        "private": {s: {"card": CARD_STR[d]}},
                    }
                )
        gone = self.gone | 1 << s
        self.gone = gone
        # The gos since the last card run round the active seats in turn order, and
        # nobody becomes active or inactive during such a run (only plays empty a
        # hand), so every active seat has said go exactly when the next one has.
        nxt = _NEXT[self.seats][s]
        if not self.hands[nxt]:
            nxt = self._next_active(s)
        if not gone >> nxt & 1:
            self.turn = nxt
            return events
        # docs/rules.md §2.5: every active player said go: 'last' 1
        last = self.last
        # muggins_on_last: the 'last' point waits for its claim
        waits = self.mol
        if waits:
            self.pend_seat = last
            self.pend = [1]
        else:
            self.scores[last] += 1
        won = not waits and self.scores[last] >= self.target
        leader = -1 if won else self._new_pile(last)
        if not quiet:
            close: Event = {
                "type": "pile_closed",
                "reason": "go",
                "seat": last,
                "total": total,
                "last": 1,
                "credit": 0 if waits else 1,
            }
            if waits:
                close["pending"] = 1
            if not won:
                close["leader"] = leader
            events.append(close)
        if won:
            self._win(last, events)
        return events

    def _check_window(self, s: int, verb: str) -> int:
        if not self.muggins:
            raise IllegalAction(
                f"seat {s} cannot {verb}: this table plays No-Muggins, "
                "scores are credited automatically",
                "no_muggins",
            )
        if self.over:
            raise IllegalAction(f"seat {s} cannot {verb}: the game is over", "game_over")
        if self.pend_seat < 0:
            if self.closed is not None:
                self._refuse_closed(s, verb, self.closed)
            raise IllegalAction(
                f"seat {s} cannot {verb}: no score is waiting to be claimed", "nothing_to_claim"
            )
        return self.pend_seat

    def _refuse_closed(self, s: int, verb: str, closed: Closed, now: str = "") -> None:
        """A claim or call that came too late: say how the window it meant closed."""
        owner, points, how, by, card = closed
        score = _points(points)
        whose = "its" if owner == s else f"seat {owner}'s"
        if how == "play":
            fate = f"the window on {whose} {score} closed when seat {by} played {card}"
        elif how == "go":
            fate = f"the window on {whose} {score} closed when seat {by} said go"
        elif how == "claim":
            fate = (
                f"it already claimed its {score}"
                if by == s
                else f"seat {by} claimed its {score} first"
            )
        elif by == s:
            fate = f"it already called muggins on seat {owner}'s {score}"
        else:
            fate = f"seat {by} called muggins first and took {whose} {score}"
        params: dict[str, Any] = {"owner": owner, "points": points, "how": how, "by": by}
        if card is not None:
            params["card"] = card
        raise IllegalAction(
            f"seat {s} cannot {verb}: nothing to claim, {fate}{now}", "window_closed", **params
        )

    def _settle(self, s: int) -> list[Event]:
        """Credit the pending score to ``s`` one credit at a time (docs/rules.md §2.8):
        its owner's claim, or another seat's Muggins! call."""
        owner = self.pend_seat
        points = sum(self.pend)
        how = "claim" if s == owner else "muggins"
        self.closed = (owner, points, how, s, None)
        scores = self.scores
        target = self.target
        credited = 0
        for p in self.pend:
            scores[s] += p
            credited += p
            if scores[s] >= target:
                break
        self.pend_seat = -1
        self.pend = []
        events: list[Event] = []
        if not self._quiet:
            if how == "claim":
                events.append({"type": "claim", "seat": s, "points": points, "credit": credited})
            else:
                events.append(
                    {
                        "type": "muggins",
                        "seat": s,
                        "from": owner,
                        "points": points,
                        "credit": credited,
                    }
                )
        if scores[s] >= target:
            self._win(s, events)
        return events

    def _claim(self, s: int) -> list[Event]:
        # a pending score is only ever set at a Muggins table whose game goes on
        if self.pend_seat != s:
            owner = self._check_window(s, "claim")
            closed = self.closed
            if closed is not None and closed[0] == s:  # the owner
                # its own window closed while the claim was on its way; this one is another's
                now = f" (the unclaimed {_points(sum(self.pend))} now are seat {owner}'s)"
                self._refuse_closed(s, "claim", closed, now)
            raise IllegalAction(
                f"seat {s} cannot claim: the unclaimed {sum(self.pend)} points are seat "
                f"{owner}'s (an opponent calls muggins to take them)",
                "not_your_score",
                owner=owner,
                points=sum(self.pend),
            )
        return self._settle(s)

    def _call(self, s: int) -> list[Event]:
        owner = self.pend_seat
        if owner < 0 or owner == s:
            self._check_window(s, "call muggins")
            closed = self.closed
            if closed is not None and closed[0] != s:  # the owner
                # the score it called on is gone; the one waiting now is its own
                self._refuse_closed(s, "call muggins", closed)
            raise IllegalAction(
                f"seat {s} cannot call muggins on its own {sum(self.pend)} points: it claims them",
                "own_score",
                points=sum(self.pend),
            )
        return self._settle(s)

    def _end_round(self, events: list[Event]) -> None:
        # docs/rules.md §2.8: no winner yet, so a new round; scores carry over
        if not self._quiet:
            events.append({"type": "round_end", "round": self.hand_no, "scores": self.scores[:]})
        self.turn = -1
        events.extend(self._next_deal())

    # ---------------------------------------------------------------- views

    def view(self, seat: int | None) -> View:
        """What ``seat`` sees: the public table, its own cards, its legal actions."""
        to_act = self.to_act
        v: View = {
            "game": self.game,
            "seat": seat,
            "seats": self.seats,
            "settings": dict(self.settings),
            "round": self.hand_no,
            "dealer": self.dealer,
            "leader": self.leader,
            "scores": self.scores[:],
            "target": self.target,
            "limit": self.limit,
            "turn": self.turn if self.turn >= 0 else None,
            "to_act": list(to_act),
            "pile": [CARD_STR[c] for c in self.pile],
            "total": self.total,
            "last": self.last if self.last >= 0 else None,
            "gone": [j for j in range(self.seats) if self.gone >> j & 1],
            "discards": [CARD_STR[c] for c in self.discards],
            "stock": len(self.stock),
            "hand_sizes": [len(h) for h in self.hands],
            # public knowledge from gos: per hidden card, the least value it can have
            "min_values": [
                [*b, *[0] * (len(h) - len(b))] for h, b in zip(self.hands, self.bounds, strict=True)
            ],
            "pending": (
                {"seat": self.pend_seat, "points": sum(self.pend), "credits": self.pend[:]}
                if self.pend_seat >= 0
                else None
            ),
            "awaiting_deal": self.awaiting,
            "over": self.over,
            "winner": self.winner,
        }
        if seat is not None:
            v["hand"] = self.hand_cards(seat)
            v["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        return v

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> Self:
        """A full state consistent with ``view``: the unseen cards dealt at random.

        Each other seat's hidden cards respect what its gos showed (every card
        then held was worth more than the limit minus the total); the rest
        form the stock in random order.
        """
        seat = view["seat"]
        if seat is None:
            raise SampleError("a spectator's view has no seat to sample for")
        seats = view["seats"]
        state = cls(seats, view["settings"], (), Dealer(rng=rng), log=False)
        state.scores = list(view["scores"])
        state.hand_no = view["round"]
        state.dealer = view["dealer"]
        state.leader = view["leader"]
        state.over = view["over"]
        state.winner = view["winner"]
        state.awaiting = view["awaiting_deal"]
        state.turn = view["turn"] if view["turn"] is not None else -1
        state.total = view["total"]
        state.last = view["last"] if view["last"] is not None else -1
        gone = 0
        for j in view["gone"]:
            gone |= 1 << j
        state.gone = gone
        state.pile = [card_id(x) for x in view["pile"]]
        state.discards = [card_id(x) for x in view["discards"]]
        pending = view["pending"]
        if pending is not None:
            state.pend_seat = pending["seat"]
            state.pend = list(pending["credits"])
        own = sorted(card_id(text) for text in view["hand"])
        known = {*own, *state.pile, *state.discards}
        unknown = [c for c in range(N_CARDS) if c not in known]
        min_values = view["min_values"]
        state.bounds = [tuple(m for m in x if m) for x in min_values]
        hands: list[list[int]] = [[] for _ in range(seats)]
        hands[seat] = own
        # most constrained hidden cards first: with bounds of the form "worth at
        # least m", a card fitting a tight bound fits every looser one, so this
        # greedy choice never strands a later slot
        wanted = sorted(
            ((m, s) for s in range(seats) if s != seat for m in min_values[s]), reverse=True
        )
        pool = unknown
        for m, s in wanted:
            fits = [i for i, c in enumerate(pool) if VALUE[c] >= m] if m else None
            if fits is not None and not fits:
                raise SampleError("no deal of the unseen cards fits what the view shows")
            i = below(rng, len(pool)) if fits is None else fits[below(rng, len(fits))]
            hands[s].append(pool[i])
            pool[i] = pool[-1]
            pool.pop()
        shuffle(rng, pool)
        for h in hands:
            h.sort()
        state.hands = hands
        state.held = sum(view["hand_sizes"])
        state.stock = pool
        if len(pool) != view["stock"]:
            raise SampleError("the view's card counts do not add up to 52")
        return state
