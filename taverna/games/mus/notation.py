"""Mus actions and deals as values, and their record notation (docs/rules.md §4.2, §4.3).

An action is a :class:`MusAction`: a seat and an action code (:data:`ACTION_TYPES`),
with an ``amount`` for a bet or a raise and the ``cards`` of a discard. A deal is a
:class:`MusDeal`. Cards are written rank + suit (:mod:`.hands`)::

    >>> parse_action({"seat": 2, "type": "bet", "amount": 3}, 4)
    <MusAction {'seat': 2, 'type': 'bet', 'amount': 3}>
    >>> str(parse_action({"seat": 1, "type": "discard", "cards": ["12o", "1b"]}, 4))
    'discard 12o 1b'
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple, TypeGuard

from ..base import (
    JSON,
    Action,
    DealReader,
    InvalidAction,
    MalformedRecord,
    action_seat,
    only_fields,
)
from .hands import CARD_STR, N_CARDS, card_id, card_str
from .rules import HAND_SIZE, SEATS

# action codes
MUS: Final = 0
NO_MUS: Final = 1
DISCARD_CARDS: Final = 2
PASS: Final = 3
BET: Final = 4
RAISE: Final = 5
ORDAGO: Final = 6
ACCEPT: Final = 7
REJECT: Final = 8
ACTION_TYPES: Final = (
    "mus",
    "no_mus",
    "discard",
    "pass",
    "bet",
    "raise",
    "ordago",
    "accept",
    "reject",
)
#: VERBS[code]: what a refusal says the seat cannot do
VERBS: Final = (
    "say mus",
    "say no mus",
    "discard",
    "pass",
    "bet",
    "raise",
    "call órdago",
    "accept",
    "reject",
)
CODES: Final = {name: i for i, name in enumerate(ACTION_TYPES)}

#: the bet and raise amounts that legal_actions lists (any N >= 2 is legal)
BET_MENU: Final = (2, 3, 4, 5)


def cards_str(cards: Sequence[int]) -> list[str]:
    """Cards in notation."""
    return [CARD_STR[c] for c in cards]


def hands_str(hands: Sequence[Sequence[int]]) -> list[list[str]]:
    """The four hands of four cards in notation.

    Written out (no comprehension, no call per hand): every deal and every
    showdown makes them.
    """
    (a0, b0, c0, d0), (a1, b1, c1, d1), (a2, b2, c2, d2), (a3, b3, c3, d3) = hands
    s = CARD_STR
    return [
        [s[a0], s[b0], s[c0], s[d0]],
        [s[a1], s[b1], s[c1], s[d1]],
        [s[a2], s[b2], s[c2], s[d2]],
        [s[a3], s[b3], s[c3], s[d3]],
    ]


# --------------------------------------------------------------- actions


class MusAction(Action):
    """One Mus action: ``mus``, ``no_mus``, ``discard`` {cards}, ``pass``,
    ``bet`` {amount}, ``raise`` {amount}, ``ordago``, ``accept``, ``reject``."""

    __slots__ = ("amount", "cards", "code", "mask", "seat", "type")

    def __init__(self, seat: int, code: int, amount: int = 0, cards: tuple[int, ...] = ()) -> None:
        self.seat = seat
        self.code = code
        self.type = ACTION_TYPES[code]
        self.amount = amount
        self.cards = cards
        mask = 0
        for c in cards:
            mask |= 1 << c
        self.mask = mask

    def to_json(self) -> JSON:
        code = self.code
        if code in (BET, RAISE):
            return {"seat": self.seat, "type": self.type, "amount": self.amount}
        if code == DISCARD_CARDS:
            return {"seat": self.seat, "type": "discard", "cards": cards_str(self.cards)}
        return {"seat": self.seat, "type": self.type}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, MusAction):
            return NotImplemented
        return (self.seat, self.code, self.amount, self.mask) == (
            other.seat,
            other.code,
            other.amount,
            other.mask,
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.code, self.amount, self.mask))

    def __str__(self) -> str:
        if self.code in (BET, RAISE):
            return f"{self.type} {self.amount}"
        if self.code == DISCARD_CARDS:
            return "discard " + " ".join(cards_str(self.cards))
        return self.type


#: SAID[code][s]: seat s saying mus, no mus, pass, órdago, accept or reject; BETS[s]
#: and RAISES[s]: its bets and raises of the menu's amounts. Made once, so that
#: legal_actions only copies a menu
SAID: Final = [[MusAction(s, code) for s in range(SEATS)] for code in range(9)]
BETS: Final = [{n: MusAction(s, BET, n) for n in BET_MENU} for s in range(SEATS)]
RAISES: Final = [{n: MusAction(s, RAISE, n) for n in BET_MENU} for s in range(SEATS)]
#: the menus legal_actions copies, per seat: mus or no mus; speaking in a lance;
#: answering a bet; answering an órdago
MUS_MENU: Final[list[list[MusAction]]] = [[SAID[MUS][s], SAID[NO_MUS][s]] for s in range(SEATS)]
SPEAK_MENU: Final[list[list[MusAction]]] = [
    [SAID[PASS][s], *BETS[s].values(), SAID[ORDAGO][s]] for s in range(SEATS)
]
ANSWER_MENU: Final[list[list[MusAction]]] = [
    [SAID[ACCEPT][s], *RAISES[s].values(), SAID[ORDAGO][s], SAID[REJECT][s]] for s in range(SEATS)
]
ORDAGO_MENU: Final[list[list[MusAction]]] = [
    [SAID[ACCEPT][s], SAID[REJECT][s]] for s in range(SEATS)
]


def discards(seat: int, hand: tuple[int, ...]) -> list[MusAction]:
    """The 15 discards of a four-card hand.

    They come in the order of the subsets of the hand's positions read as the
    numbers 1 to 15 (bit i: position i), the cards of each in hand order.
    """
    a, b, c, d = hand
    return [
        MusAction(seat, DISCARD_CARDS, 0, cards)
        for cards in (
            (a,),
            (b,),
            (a, b),
            (c,),
            (a, c),
            (b, c),
            (a, b, c),
            (d,),
            (a, d),
            (b, d),
            (a, b, d),
            (c, d),
            (a, c, d),
            (b, c, d),
            (a, b, c, d),
        )
    ]


def _whole(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def parse_action(obj: Any, seats: int) -> MusAction:
    """An action from its record form; raises InvalidAction."""
    seat = action_seat(obj, seats)
    kind = obj.get("type")
    code = CODES.get(kind) if isinstance(kind, str) else None
    if code is None:
        raise InvalidAction(
            f"unknown mus action type {kind!r} (expected {', '.join(ACTION_TYPES)})"
        )
    takes = ("amount",) if code in (BET, RAISE) else ("cards",) if code == DISCARD_CARDS else ()
    only_fields(obj, kind, *takes)
    if code in (BET, RAISE):
        n = obj.get("amount")
        # docs/rules.md §4.5: a whole number is well-formed; below 2 stones is refused
        # by the rules (apply), not by the notation
        if not _whole(n):
            raise InvalidAction(f"a {kind} needs a whole number of stones, not {n!r}")
        menu = (BETS if code == BET else RAISES)[seat]
        return menu.get(n) or MusAction(seat, code, n)
    if code == DISCARD_CARDS:
        raw = obj.get("cards")
        if not isinstance(raw, list):
            raise InvalidAction(f"a discard lists its cards, not {raw!r}")
        try:
            cards = tuple(card_id(t) for t in raw)
        except ValueError as e:
            raise InvalidAction(str(e)) from None
        # how many, and whether twice: the rules' to refuse (apply), docs/rules.md §4.5
        return MusAction(seat, DISCARD_CARDS, 0, cards)
    return SAID[code][seat]


# ------------------------------------------------------------------ deals


class MusDeal(NamedTuple):
    """One hand's deal: ``hands``, ``deck`` (top first), ``mano`` and the
    ``reshuffles`` (each new deck formed from discards, top first, in order)."""

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    mano: int | None
    reshuffles: tuple[tuple[int, ...], ...] = ()


def parse_deal(obj: Any, index: int) -> MusDeal:
    """Deal ``index`` from its record form, checked as data; raises MalformedRecord."""
    where = f"deal {index}"
    if not isinstance(obj, dict):
        raise MalformedRecord(f"{where} must be an object with hands, deck and mano")
    extra = set(obj) - {"hands", "deck", "mano", "reshuffles"}
    if extra:
        raise MalformedRecord(f"{where} has an unknown field {sorted(extra)[0]!r}")
    read = DealReader(where, "card", "40-card deck", N_CARDS, card_id, card_str)
    hands = read.hands(obj.get("hands"), SEATS, HAND_SIZE, "")
    deck = read.items(obj.get("deck"), "deck")
    read.check_whole()
    mano = read.seat(obj, "mano", SEATS, "the first hand's draw" if index == 0 else None)
    raw_shuffles = obj.get("reshuffles", [])
    if not isinstance(raw_shuffles, list):
        raise MalformedRecord(f"{where}: reshuffles must be a list of card lists")
    reshuffles = []
    for i, r in enumerate(raw_shuffles):
        if not isinstance(r, list) or not r:
            raise MalformedRecord(f"{where}: reshuffle {i} must be a non-empty list of cards")
        reshuffles.append(read.items(r, f"reshuffle {i}", own_set=True))
    return MusDeal(hands, deck, mano, tuple(reshuffles))


def deal_json(deal: MusDeal) -> JSON:
    """A deal back in record form."""
    out: JSON = {
        "hands": [cards_str(h) for h in deal.hands],
        "deck": cards_str(deal.deck),
    }
    if deal.mano is not None:
        out["mano"] = deal.mano
    if deal.reshuffles:
        out["reshuffles"] = [cards_str(r) for r in deal.reshuffles]
    return out
