"""Mus (RULES.md §3) on the game protocol.

Four seats in two pairs (seats 0 and 2 against 1 and 3). A hand is the mus
phase (mus / no mus, discards), then the four lances — Grande, Chica, Pares,
Juego or Punto — each with its betting, then the showdown and the count.
Stones make games, games make cows, cows make the match.

The hot data are plain ints: a card is 0..39 (:mod:`.mus_hands`), a hand a
tuple of four of them, a pair (team) is ``seat & 1``.

    >>> deal = Mus.parse_deal({
    ...     "hands": [["12o", "12c", "3e", "1b"], ["11o", "11c", "5e", "4b"],
    ...               ["2o", "1c", "4e", "5b"], ["10o", "7c", "7e", "7o"]],
    ...     "deck": [c for c in CARD_STR if c not in {
    ...         "12o", "12c", "3e", "1b", "11o", "11c", "5e", "4b",
    ...         "2o", "1c", "4e", "5b", "10o", "7c", "7e", "7o"}],
    ...     "mano": 0}, 4, {}, 0)
    >>> s = Mus.start(4, {}, [deal])
    >>> [e["type"] for e in s.apply(Mus.parse_action({"seat": 0, "type": "no_mus"}, 4))]
    ['no_mus', 'lance']
    >>> s.apply(Mus.parse_action({"seat": 2, "type": "bet", "amount": 2}, 4))
    Traceback (most recent call last):
    ...
    taverna.games.base.IllegalAction: seat 2 cannot bet: it is seat 0's turn to speak in Grande

Readings of the betting rules (RULES.md §3 Betting in a lance), where the
text leaves the turn order implicit:

- Before any bet, the players taking part speak once each in turn order from
  mano; passing then does not stop a player from answering a later bet.
- A bet (envite, raise or órdago) is answered by the other pair's players
  taking part, in seat order starting after the player who made it: the
  seat right after the bettor first, then its partner. Only the player
  holding the answer may speak; the bettor's partner never answers its own
  pair's bet.
- Whoever holds the answer may accept, raise, call órdago or reject. A raise
  or an órdago makes that player the new bettor: the first pair answers it
  "in the same way", again starting after the player who made it. There is
  no limit to the number of raises; an órdago can only be accepted or
  rejected.
- A rejection passes the answer to the rejecting player's partner if it
  takes part and has not yet answered *this* bet; each bet (the first one,
  every raise, an órdago) has its own answer.
- A refused bet credits its makers at once with the stake before it (1 if it
  opened the lance). A raise of N on a stake S makes the stake S + N, so a
  refused raise is worth S.
- Bet and raise amounts may be any whole number N ≥ 2; :meth:`Mus.legal_actions`
  lists 2 to 5 (``BET_MENU``) so that bots and random play have a finite menu.
- An accepted órdago ends the game for the lance's winner without changing
  the stones (the game_end event says ``"reason": "ordago"``).
- A game ended at once by a refused bet ends the hand without a showdown;
  the cards are not shown.
- The deck "runs out" when a card must be served and none is left: the
  reshuffle happens then, with every discard of the hand still in the pile
  except the cards the player being served has just discarded.
- ``real_31`` is exactly 7-7-7-sota (a card of rank 10), as the seed writes it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Self, TypeGuard

from .base import (
    JSON,
    Action,
    Dealer,
    DealReader,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    SampleError,
    Setting,
    State,
    View,
    action_seat,
    not_an_action,
    only_fields,
)
from .mus_hands import (
    CARD_STR,
    CLASS_NAMES,
    CLASS_ORDER,
    N_CARDS,
    PAIR_OF,
    PARES_NAMES,
    VALUE_OF_PAIRS,
    HandValue,
    card_id,
    card_str,
    juego_bonus,
)

SEATS = 4
HAND_SIZE = 4

# lance slots; the fourth slot is Juego, or Punto when nobody has juego
GRANDE, CHICA, PARES, JUEGO = range(4)
LANCE_NAMES = ("grande", "chica", "pares", "juego", "punto")
LANCE_TITLES = ("Grande", "Chica", "Pares", "Juego", "Punto")

# phases
MUS_PHASE, DISCARD, SPEAK, ANSWER, IDLE = range(5)
PHASE_NAMES = ("mus", "discard", "speak", "answer", "idle")

# outcome of a lance slot
PENDING, IN_PASS, ACCEPTED, REFUSED, SKIPPED, ALONE, ORDAGO_ACCEPTED = range(7)
STATUS_NAMES = ("pending", "pass", "accepted", "refused", "skipped", "alone", "ordago")

# action codes
MUS, NO_MUS, DISCARD_CARDS, PASS, BET, RAISE, ORDAGO, ACCEPT, REJECT = range(9)
ACTION_TYPES = ("mus", "no_mus", "discard", "pass", "bet", "raise", "ordago", "accept", "reject")
_VERBS = (
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
_CODE = {name: i for i, name in enumerate(ACTION_TYPES)}

#: the bet and raise amounts that legal_actions lists (any N >= 2 is legal)
BET_MENU = (2, 3, 4, 5)
#: stones that win a game
GAME_STONES = 40


def _value(hand: Sequence[int]) -> HandValue:
    a, b, c, d = hand
    return VALUE_OF_PAIRS[PAIR_OF[a][b]][PAIR_OF[c][d]]


def _cards(cards: Sequence[int]) -> list[str]:
    return [CARD_STR[c] for c in cards]


def _hands_str(hands: Sequence[Sequence[int]]) -> list[list[str]]:
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


#: _RANK_NAME[order value]: a rank's name by its order for Grande, Chica and Pares
_RANK_NAME: tuple[str, ...] = tuple(
    CLASS_NAMES[CLASS_ORDER.index(v)] if v in CLASS_ORDER else "" for v in range(16)
)


_JUEGO_FIELD = HandValue._fields.index("juego")
_REAL_FIELD = HandValue._fields.index("juego_real")
_PUNTO_FIELD = HandValue._fields.index("punto")


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
            return {"seat": self.seat, "type": "discard", "cards": _cards(self.cards)}
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
            return "discard " + " ".join(_cards(self.cards))
        return self.type


_SIMPLE = [[MusAction(s, code) for s in range(SEATS)] for code in range(9)]
_BETS = [{n: MusAction(s, BET, n) for n in BET_MENU} for s in range(SEATS)]
_RAISES = [{n: MusAction(s, RAISE, n) for n in BET_MENU} for s in range(SEATS)]
# the menus legal_actions copies, per seat
_MUS_CHOICES: list[list[MusAction]] = [[_SIMPLE[MUS][s], _SIMPLE[NO_MUS][s]] for s in range(SEATS)]
_SPEAK_MENU: list[list[MusAction]] = [
    [_SIMPLE[PASS][s], *_BETS[s].values(), _SIMPLE[ORDAGO][s]] for s in range(SEATS)
]
_ANSWER_MENU: list[list[MusAction]] = [
    [_SIMPLE[ACCEPT][s], *_RAISES[s].values(), _SIMPLE[ORDAGO][s], _SIMPLE[REJECT][s]]
    for s in range(SEATS)
]
_ORDAGO_MENU: list[list[MusAction]] = [
    [_SIMPLE[ACCEPT][s], _SIMPLE[REJECT][s]] for s in range(SEATS)
]
#: ORDERS[mano]: the seats in turn order from mano
ORDERS = tuple(tuple((m + i) % SEATS for i in range(SEATS)) for m in range(SEATS))
#: ANSWER_ORDER[s]: the other pair after seat s made a bet, in seat order after it
ANSWER_ORDER = tuple(((s + 1) % SEATS, (s + 3) % SEATS) for s in range(SEATS))


def _answerers_table() -> dict[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    table = {}
    for order in ORDERS:
        for m in range(1, 1 << SEATS):
            sp = tuple(x for i, x in enumerate(order) if m >> i & 1)
            table[sp] = tuple(tuple(x for x in ANSWER_ORDER[s] if x in sp) for s in range(SEATS))
    return table


#: ANSWERERS[speakers][s]: who answers seat s's bet when ``speakers`` (in turn
#: order from mano) take part: ANSWER_ORDER[s] less those not taking part
ANSWERERS = _answerers_table()


def _discards(seat: int, hand: tuple[int, ...]) -> list[MusAction]:
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


# ------------------------------------------------------------------ deals


class MusDeal(NamedTuple):
    """One hand's deal: ``hands``, ``deck`` (top first), ``mano`` and the
    ``reshuffles`` (each new deck formed from discards, top first, in order)."""

    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    mano: int | None
    reshuffles: tuple[tuple[int, ...], ...] = ()


#: the 40 cards in id order, copied and shuffled for a random deal
_DECK = list(range(N_CARDS))


def _int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


# ------------------------------------------------------------------ state


class Mus(State[MusAction]):
    """Mus: four seats in two pairs, stones, games and cows (RULES.md §3).

    Events (plain dicts; ``private`` parts only for the seat they name):

    - ``deal`` {hand, game, mano, deck, stones; private: cards}
    - ``mus``, ``no_mus`` {seat}; ``discard`` {seat, count, deck; private:
      cards, drawn}; ``reshuffle`` {seat, deck} when the deck is rebuilt
    - ``announce`` {lance: pares|juego, holders} before those lances;
      ``lance`` {lance, speakers} (or ``skipped``, or ``team`` when one pair
      wins it without betting)
    - ``pass``, ``bet``/``raise`` {amount, stake}, ``ordago``, ``accept``,
      ``reject`` {seat}
    - ``credit`` {team, stones, lance, reason, total}: every stone credited
    - ``hand_end`` {reason: showdown|ordago|game won, hands (all four, or
      None when not shown), lances (status, team, seat, stones), stones,
      stones_before, tally, verdicts}: ``tally`` lists every stone of the hand
      where it came from, in the order credited — {lance, team, stones, for:
      refused (credited during the hand) | pass | stake | pares | juego |
      punto, and for a bonus the ``seat`` with its ``kind`` or ``points``;
      ``counted`` false once a pair had reached 40} — so ``stones_before``
      plus the counted rows is ``stones``; ``verdicts`` say why each lance
      compared at the showdown was won: {lance, seat, over (the best seat of
      the other pair), by: card {at, ranks} | kind {kinds} | rank {kind,
      ranks} | juego {points} | real_31 | punto {points} | tie (closer to
      mano)}
    - ``game_end`` {game, team, reason: stones|ordago, stones, games},
      ``cow_end`` {team, cows}, ``match_end`` {winner, games, cows}
    """

    game: ClassVar[str] = "mus"
    min_seats: ClassVar[int] = SEATS
    max_seats: ClassVar[int] = SEATS
    #: RULES.md §3: seats 0 and 2 are team 0, seats 1 and 3 team 1
    team_count: ClassVar[int | None] = 2
    title: ClassVar[str] = "Mus"
    match_unit: ClassVar[str] = "match"
    aliases: ClassVar[tuple[str, ...]] = ()
    default_seats: ClassVar[int] = 4
    private_fields: ClassVar[tuple[str, ...]] = ("hand", "discarded")
    settings_declared: ClassVar[tuple[Setting, ...]] = (
        # RULES.md §3: cows per match and games per cow, 1 to 3
        Setting("cows", "choice", 1, choices=(1, 2, 3)),
        Setting("games_per_cow", "choice", 3, choices=(1, 2, 3)),
        Setting("real_31", "bool", False),
    )

    __slots__ = (
        "_deal",
        "_given",
        "answerers",
        "apos",
        "bet_team",
        "betting",
        "cows",
        "cows_to_win",
        "deck",
        "discards",
        "game_no",
        "games",
        "games_per_cow",
        "hands",
        "holders",
        "lance",
        "last_hand",
        "mano",
        "mus_count",
        "mus_round",
        "n_bets",
        "ordago",
        "phase",
        "piles",
        "pos",
        "prev_stake",
        "punto",
        "real31",
        "res_stake",
        "res_status",
        "res_team",
        "reshuffled",
        "speakers",
        "stake",
        "stones",
        "tally",
        "vals",
    )

    # ---------------------------------------------------------- settings

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
        self.cows_to_win: int = self.settings["cows"]
        self.games_per_cow: int = self.settings["games_per_cow"]
        self.real31: bool = self.settings["real_31"]
        self._deal: MusDeal | None = None
        self._given = False
        self.stones = [0, 0]
        self.games = [0, 0]
        self.cows = [0, 0]
        self.game_no = 0
        self.mano = -1
        self.last_hand: JSON | None = None
        # no hand yet (each deal sets these four)
        self.phase = IDLE
        self.hands: list[tuple[int, ...]] = [(), (), (), ()]
        self.deck: list[int] = []  # top at the end
        self.piles: list[list[int]] = [[], [], [], []]  # each seat's discards in the pile
        self.discards: list[list[int]] = []  # cards discarded per round, per seat (public counts)
        self._reset_hand()

    def _reset_hand(self) -> None:
        """The hand's other fields, as before its deal."""
        if self.discards:  # else the piles are empty too (only a discard fills them)
            self.piles = [[], [], [], []]
            self.discards = []
        self.reshuffled = 0
        self.mus_round = 0
        self.mus_count = 0  # mus said (mus phase) or discards made (discard phase) this round
        self.vals: list[HandValue] | None = None
        # who announced pares, who juego (None: not announced yet)
        self.holders: list[tuple[int, ...] | None] = [None, None]
        self.lance = -1
        self.punto = False
        self.speakers: tuple[int, ...] = ()
        self.pos = 0
        self.answerers: tuple[int, ...] = ()
        self.apos = 0
        self.stake = 0
        self.prev_stake = 0
        self.bet_team = -1
        self.ordago = False
        self.n_bets = 0
        self.betting: list[tuple[int, int, int]] = []  # (seat, action code, amount)
        self.res_status = [PENDING] * 4
        self.res_stake = [0] * 4
        self.res_team = [-1] * 4
        # every stone of the hand, where it came from (hand_end's tally); a sampled
        # state starts it at the view, which does not say what a refused bet was worth
        self.tally: list[JSON] = []

    @property
    def scores(self) -> list[int]:  # type: ignore[override]
        """The stones of the current game per pair (RULES.md §4)."""
        return self.stones

    @classmethod
    def check_deals(cls, seats: int, deals: Sequence[Any]) -> None:
        # RULES.md §3 Mano: it passes to the next seat every hand, across
        # games, so every queued deal's mano is known from the first one.
        if deals:
            first = deals[0].mano
            if first is None:
                raise MalformedRecord("deal 0 must name the mano (the first hand's draw)")
            for i, d in enumerate(deals):
                want = (first + i) % SEATS
                if d.mano is not None and d.mano != want:
                    raise MalformedRecord(
                        f"deal {i} names mano {d.mano}, but mano passes to the next seat "
                        f"every hand: after deal 0's mano {first} it is seat {want}"
                    )

    # ------------------------------------------------------------ notation

    @classmethod
    def parse_action(cls, obj: Any, seats: int) -> MusAction:
        seat = action_seat(obj, seats)
        kind = obj.get("type")
        code = _CODE.get(kind) if isinstance(kind, str) else None
        if code is None:
            raise InvalidAction(
                f"unknown mus action type {kind!r} (expected {', '.join(ACTION_TYPES)})"
            )
        takes = ("amount",) if code in (BET, RAISE) else ("cards",) if code == DISCARD_CARDS else ()
        only_fields(obj, kind, *takes)
        if code in (BET, RAISE):
            n = obj.get("amount")
            # RULES.md §4 Reading: a whole number is well-formed; below 2 stones is refused
            # by the rules (apply), not by the notation
            if not _int(n):
                raise InvalidAction(f"a {kind} needs a whole number of stones, not {n!r}")
            menu = (_BETS if code == BET else _RAISES)[seat]
            return menu.get(n) or MusAction(seat, code, n)
        if code == DISCARD_CARDS:
            raw = obj.get("cards")
            if not isinstance(raw, list):
                raise InvalidAction(f"a discard lists its cards, not {raw!r}")
            try:
                cards = tuple(card_id(t) for t in raw)
            except ValueError as e:
                raise InvalidAction(str(e)) from None
            # how many, and whether twice: the rules' to refuse (apply), RULES.md §4 Reading
            return MusAction(seat, DISCARD_CARDS, 0, cards)
        return _SIMPLE[code][seat]

    @classmethod
    def parse_deal(cls, obj: Any, seats: int, settings: Mapping[str, Any], index: int) -> MusDeal:
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

    @classmethod
    def deal_json(cls, deal: Any) -> JSON:
        out: JSON = {
            "hands": [_cards(h) for h in deal.hands],
            "deck": _cards(deal.deck),
        }
        if deal.mano is not None:
            out["mano"] = deal.mano
        if deal.reshuffles:
            out["reshuffles"] = [_cards(r) for r in deal.reshuffles]
        return out

    # ----------------------------------------------------------- dealing

    def _random_deal(self, rng: random.Random) -> MusDeal:
        # RULES.md §3 Mano: drawn at random, then the next seat every hand
        mano = rng.randrange(SEATS) if self.mano < 0 else (self.mano + 1) % SEATS
        cards = _DECK[:]
        rng.shuffle(cards)
        t = tuple(cards)
        return MusDeal((t[0:4], t[4:8], t[8:12], t[12:16]), t[16:], mano)

    def _check_deal(self, deal: MusDeal) -> None:
        want = None if self.mano < 0 else (self.mano + 1) % SEATS
        if want is None and deal.mano is None:
            raise IllegalAction("the first deal must name the mano")
        if want is not None and deal.mano is not None and deal.mano != want:
            raise IllegalAction(
                f"deal {self.hand_no + 1} names mano {deal.mano}, but mano passes to seat {want}"
            )

    def _begin(self, deal: MusDeal, given: bool) -> list[Event]:
        hands, deck, first_mano, _ = deal
        if self.mano < 0:
            assert first_mano is not None
            mano = first_mano
        else:
            mano = (self.mano + 1) % SEATS  # RULES.md §3 Mano: the next seat every hand
        self._reset_hand()
        self.mano = mano
        self._deal = deal
        self._given = given
        self.hands = list(hands)
        self.deck = list(deck[::-1])
        self.phase = MUS_PHASE
        self.turn = mano
        h0, h1, h2, h3 = _hands_str(hands)
        return [
            {
                "type": "deal",
                "hand": self.hand_no,
                "game": self.game_no,
                "mano": mano,
                "deck": len(deck),
                "stones": self.stones[:],
                "private": {
                    0: {"cards": h0},
                    1: {"cards": h1},
                    2: {"cards": h2},
                    3: {"cards": h3},
                },
            }
        ]

    # ------------------------------------------------------------ queries

    def legal_actions(self, seat: int | None = None) -> list[MusAction]:
        s = self.turn
        if s < 0 or (seat is not None and seat != s):
            return []
        ph = self.phase
        if ph == ANSWER:
            return (_ORDAGO_MENU[s] if self.ordago else _ANSWER_MENU[s]).copy()
        if ph == SPEAK:
            return _SPEAK_MENU[s].copy()
        if ph == MUS_PHASE:
            return _MUS_CHOICES[s].copy()
        return _discards(s, self.hands[s])

    def hand_cards(self, seat: int) -> list[str]:
        """A seat's cards in notation."""
        return _cards(self.hands[seat])

    @property
    def lance_name(self) -> str | None:
        """The lance being played (``grande`` .. ``punto``), if any."""
        if self.lance < 0 or self.phase not in (SPEAK, ANSWER):
            return None
        return LANCE_NAMES[4 if self.punto and self.lance == JUEGO else self.lance]

    def _turn_doing(self) -> str:
        ph = self.phase
        if ph == MUS_PHASE:
            return "say mus or no mus"
        if ph == DISCARD:
            return "discard"
        return f"speak in {LANCE_TITLES[4 if self.punto and self.lance == JUEGO else self.lance]}"

    # ------------------------------------------------------------ playing

    def apply(self, action: MusAction) -> list[Event]:
        if not isinstance(action, MusAction):
            raise not_an_action(self, action)
        s = action.seat
        turn = self.turn
        if s != turn or turn < 0:
            self._refuse_turn(s, _VERBS[action.code])
        events = _HANDLERS[self.phase][action.code](self, s, action)
        log = self._log
        if log is not None:
            log.append(action)
        return events

    def _refuse(self, s: int, action: MusAction) -> list[Event]:
        """The handler of an action the phase does not take."""
        raise self._wrong(s, action.code)

    def _wrong(self, s: int, code: int) -> IllegalAction:
        ph = self.phase
        if ph == SPEAK:
            should = "pass, bet or call órdago"
        elif ph == ANSWER and self.ordago:
            should = "accept or reject the órdago (it cannot be raised)"
        elif ph == ANSWER:
            should = "accept, raise, call órdago or reject"
        elif ph == MUS_PHASE:
            should = "say mus or no mus"
        else:
            should = "discard 1 to 4 cards"
        if ph in (SPEAK, ANSWER):
            where = f"in {LANCE_TITLES[4 if self.punto and self.lance == JUEGO else self.lance]}"
            if ph == ANSWER:
                bettor = next(b[0] for b in reversed(self.betting) if b[1] in (BET, RAISE, ORDAGO))
                what = "called órdago" if self.ordago else f"made the stake {self.stake}"
                where += f": seat {bettor} has {what}"
        elif ph == MUS_PHASE:
            where = "in the mus phase"
        else:
            where = "in the discards"
        return IllegalAction(f"seat {s} cannot {_VERBS[code]} {where}; it may {should}", "not_now")

    # ----- mus and discards (RULES.md §3 Deal and mus)

    def _mus(self, s: int, action: MusAction) -> list[Event]:
        self.mus_count += 1
        events: list[Event] = [{"type": "mus", "seat": s}]
        if self.mus_count == SEATS:
            # all four want to discard: each in turn order from mano
            self.phase = DISCARD
            self.mus_count = 0
            self.discards.append([0] * SEATS)
            self.turn = self.mano
        else:
            self.turn = (s + 1) % SEATS
        return events

    def _no_mus(self, s: int, action: MusAction) -> list[Event]:
        deal = self._deal
        if self._given and deal is not None and self.reshuffled < len(deal.reshuffles):
            n = len(deal.reshuffles)
            raise IllegalAction(
                f"seat {s} cannot say no mus: deal {self.hand_no} lists {n} "
                f"reshuffle{'' if n == 1 else 's'}, but only {self.reshuffled} happened"
            )
        events: list[Event] = [{"type": "no_mus", "seat": s}]
        # _value(h) for each hand, written out: this is hot
        vals: list[HandValue] = []
        pair_of = PAIR_OF
        for a, b, c, d in self.hands:
            vals.append(VALUE_OF_PAIRS[pair_of[a][b]][pair_of[c][d]])
        self.vals = vals
        self.lance = GRANDE
        self._open_lance(events)
        return events

    def _discard(self, s: int, action: MusAction) -> list[Event]:
        k = len(action.cards)
        if not 1 <= k <= HAND_SIZE:
            raise IllegalAction(
                f"seat {s} cannot discard {k} cards: a discard is 1 to 4 cards",
                "discard_count",
                count=k,
            )
        if action.mask.bit_count() != k:
            twice = next(CARD_STR[c] for c in action.cards if action.cards.count(c) > 1)
            raise IllegalAction(
                f"seat {s} cannot discard {twice} twice", "discard_twice", card=twice
            )
        hand = self.hands[s]
        held = 0
        for c in hand:
            held |= 1 << c
        if action.mask & ~held:
            missing = [CARD_STR[c] for c in action.cards if not held >> c & 1]
            raise IllegalAction(
                f"seat {s} cannot discard {', '.join(missing)}: it does not hold "
                f"{'that card' if len(missing) == 1 else 'those cards'}",
                "not_held",
                card=missing[0],
            )
        order: Sequence[int] | None = None
        if len(self.deck) < k:
            order = self._reshuffle_order(s)
        # all checks passed: serve the old deck first, then the new one
        deck = self.deck
        drawn: list[int] = []
        while deck and len(drawn) < k:
            drawn.append(deck.pop())
        events: list[Event] = []
        if order is not None:
            self.deck = deck = list(reversed(order))
            for p in self.piles:
                p.clear()
            self.reshuffled += 1
            events.append({"type": "reshuffle", "seat": s, "deck": len(deck)})
            while len(drawn) < k:
                drawn.append(deck.pop())
        gone = action.mask
        self.hands[s] = tuple(c for c in hand if not gone >> c & 1) + tuple(drawn)
        self.piles[s].extend(action.cards)
        self.discards[-1][s] = k
        events.insert(
            0,
            {
                "type": "discard",
                "seat": s,
                "count": k,
                "deck": len(deck),
                "private": {s: {"cards": _cards(action.cards), "drawn": _cards(drawn)}},
            },
        )
        self.mus_count += 1
        if self.mus_count == SEATS:
            # RULES.md §3: then a new mus round starts at mano
            self.phase = MUS_PHASE
            self.mus_count = 0
            self.mus_round += 1
            self.turn = self.mano
        else:
            self.turn = (s + 1) % SEATS
        return events

    def _reshuffle_order(self, s: int) -> Sequence[int]:
        """The new deck (top first) when serving seat ``s`` runs the deck out."""
        pile = sorted(c for p in self.piles for c in p)
        deal = self._deal
        i = self.reshuffled
        # a given deal's reshuffles come from its record; past the last one a game with
        # a dealer (one resumed from its record) goes on as it would have
        if self._given and deal is not None and (i < len(deal.reshuffles) or self._dealer is None):
            if i >= len(deal.reshuffles):
                raise IllegalAction(
                    f"seat {s} cannot be served: the deck runs out and deal {self.hand_no} "
                    f"lists no reshuffle {i} (a new deck of the {len(pile)} discarded cards)"
                )
            order = deal.reshuffles[i]
            if sorted(order) != pile:
                want = set(pile)
                lacks = [CARD_STR[c] for c in pile if c not in order]
                extra = [CARD_STR[c] for c in order if c not in want]
                why = []
                if lacks:
                    why.append(f"lacks {', '.join(lacks)}")
                if extra:
                    why.append(f"holds {', '.join(extra)}, which are not in the discard pile")
                raise IllegalAction(
                    f"seat {s} cannot be served: reshuffle {i} of deal {self.hand_no} must be "
                    f"the {len(pile)} discarded cards, but it {' and '.join(why)}"
                )
            return order
        # a live game: shuffle and keep the order for the record (RULES.md §4); a copy
        # without a generator of its own shuffles from system randomness
        dealer = self._dealer
        rng = dealer.for_deal(self.hand_no, i) if dealer is not None else random.Random()
        rng.shuffle(pile)
        if deal is not None:
            self._deal = deal._replace(reshuffles=(*deal.reshuffles, tuple(pile)))
            if self._deals:
                self._deals[-1] = self._deal
        return pile

    # ----- the lances (RULES.md §3 The four lances; Betting in a lance)

    def _open_lance(self, events: list[Event]) -> None:
        """Start the lance ``self.lance`` or the next one that needs betting; count at the end."""
        order: tuple[int, ...] = ORDERS[self.mano]
        L = self.lance
        while L < 4:
            if L >= PARES:
                vals = self.vals
                assert vals is not None
                holders: list[int] = []
                pairs = 0  # bit 1 << t set when pair t is among the holders
                for x in order:
                    if vals[x].pares_kind if L == PARES else vals[x].juego:
                        holders.append(x)
                        pairs |= 1 << (x & 1)
                self.holders[L - PARES] = tuple(holders)
                # RULES.md §3: who holds pares or juego is announced before the lance
                events.append({"type": "announce", "lance": LANCE_NAMES[L], "holders": holders})
                if not holders and L == PARES:
                    self.res_status[L] = SKIPPED
                    events.append({"type": "lance", "lance": "pares", "skipped": True})
                    self.lance = L = L + 1
                    continue
                if pairs == 1 or pairs == 2:  # one pair only
                    team = pairs >> 1
                    self.res_status[L] = ALONE
                    self.res_team[L] = team
                    events.append(
                        {"type": "lance", "lance": LANCE_NAMES[L], "speakers": [], "team": team}
                    )
                    self.lance = L = L + 1
                    continue
                if holders:
                    order = tuple(holders)
                else:
                    self.punto = True  # nobody has juego: Punto, everyone takes part
            self.speakers = order
            self.pos = 0
            self.stake = self.prev_stake = self.n_bets = 0
            self.ordago = False
            self.betting = []
            self.phase = SPEAK
            self.turn = order[0]
            name = LANCE_NAMES[4 if self.punto and L == JUEGO else L]
            events.append({"type": "lance", "lance": name, "speakers": list(order)})
            return
        self._count(events)

    def _pass(self, s: int, action: MusAction) -> list[Event]:
        self.betting.append((s, PASS, 0))
        events: list[Event] = [{"type": "pass", "seat": s}]
        self.pos += 1
        if self.pos < len(self.speakers):
            self.turn = self.speakers[self.pos]
        else:
            self.res_status[self.lance] = IN_PASS
            self.lance += 1
            self._open_lance(events)
        return events

    def _bet(self, s: int, action: MusAction) -> list[Event]:
        amount = action.amount
        if amount < 2:
            raise IllegalAction(
                f"seat {s} cannot bet {amount}: a bet is at least 2 stones", "min_bet"
            )
        self.betting.append((s, BET, amount))
        self.prev_stake = 1  # refused, the lance's first bet is worth 1
        self.stake = amount
        self.n_bets = 1
        # the other pair answers, its players taking part in seat order after s
        self.answerers = ans = ANSWERERS[self.speakers][s]
        self.apos = 0
        self.bet_team = s & 1
        self.phase = ANSWER
        self.turn = ans[0]
        return [{"type": "bet", "seat": s, "amount": amount, "stake": amount}]

    def _raise(self, s: int, action: MusAction) -> list[Event]:
        if self.ordago:
            raise self._wrong(s, RAISE)
        amount = action.amount
        if amount < 2:
            raise IllegalAction(
                f"seat {s} cannot raise by {amount}: a raise is at least 2 stones", "min_bet"
            )
        self.betting.append((s, RAISE, amount))
        self.prev_stake = stake = self.stake
        self.stake = stake = stake + amount
        self.n_bets += 1
        # the other pair answers, its players taking part in seat order after s
        self.answerers = ans = ANSWERERS[self.speakers][s]
        self.apos = 0
        self.bet_team = s & 1
        self.phase = ANSWER
        self.turn = ans[0]
        return [{"type": "raise", "seat": s, "amount": amount, "stake": stake}]

    def _ordago(self, s: int, action: MusAction) -> list[Event]:
        if self.ordago:
            raise self._wrong(s, ORDAGO)
        self.betting.append((s, ORDAGO, 0))
        # refused, an órdago is worth the stake before it, or 1 if it opened the lance
        self.prev_stake = self.stake if self.n_bets else 1
        self.n_bets += 1
        self.ordago = True
        # the other pair answers, its players taking part in seat order after s
        self.answerers = ans = ANSWERERS[self.speakers][s]
        self.apos = 0
        self.bet_team = s & 1
        self.phase = ANSWER
        self.turn = ans[0]
        return [{"type": "ordago", "seat": s}]

    def _accept(self, s: int, action: MusAction) -> list[Event]:
        self.betting.append((s, ACCEPT, 0))
        events: list[Event] = [{"type": "accept", "seat": s}]
        L = self.lance
        if self.ordago:
            self._ordago_showdown(events)
            return events
        self.res_status[L] = ACCEPTED
        self.res_stake[L] = self.stake
        self.lance = L + 1
        self._open_lance(events)
        return events

    def _reject(self, s: int, action: MusAction) -> list[Event]:
        self.betting.append((s, REJECT, 0))
        events: list[Event] = [{"type": "reject", "seat": s}]
        self.apos += 1
        if self.apos < len(self.answerers):
            self.turn = self.answerers[self.apos]  # the partner answers
            return events
        # RULES.md §3 Refused: the last bettors win the lance, credited at once
        L = self.lance
        team = self.bet_team
        self.res_status[L] = REFUSED
        self.res_team[L] = team
        name = LANCE_NAMES[4 if self.punto and L == JUEGO else L]
        self.tally.append(
            {"lance": name, "team": team, "stones": self.prev_stake, "for": "refused"}
        )
        if self._credit(team, self.prev_stake, name, "refused", events):
            return events
        self.lance = L + 1
        self._open_lance(events)
        return events

    def _credit(self, team: int, n: int, lance: str, reason: str, events: list[Event]) -> bool:
        """Credit stones; True when that wins the game (the hand stops at once)."""
        self.stones[team] += n
        events.append(
            {
                "type": "credit",
                "team": team,
                "stones": n,
                "lance": lance,
                "reason": reason,
                "total": self.stones[:],
            }
        )
        if self.stones[team] >= GAME_STONES:
            # RULES.md §3: credits that bring a pair to 40 end the game at once
            summary: JSON = {
                "type": "hand_end",
                "hand": self.hand_no,
                "reason": "game won",
                "hands": None,
                "lances": self._lance_summary(),
                "stones": self.stones[:],
                **self._tally_facts([]),
            }
            self.last_hand = summary
            events.append(summary)
            self._win_game(team, "stones", events)
            return True
        return False

    def _lance_summary(self) -> list[JSON]:
        out = []
        for L, st in enumerate(self.res_status):
            if st == PENDING:
                continue
            item: JSON = {
                "lance": LANCE_NAMES[4 if self.punto and L == JUEGO else L],
                "status": STATUS_NAMES[st],
            }
            if st == ACCEPTED:
                item["stake"] = self.res_stake[L]
            if st in (REFUSED, ALONE, ORDAGO_ACCEPTED):
                item["team"] = self.res_team[L]
            out.append(item)
        return out

    def _tally_facts(self, verdicts: list[JSON]) -> JSON:
        """hand_end's accounting: the stones before the hand, the tally, the verdicts."""
        before = self.stones[:]
        for row in self.tally:
            if row.get("counted", True):
                before[row["team"]] -= row["stones"]
        return {"stones_before": before, "tally": self.tally[:], "verdicts": verdicts}

    def _verdict(self, L: int, seat: int, among: Sequence[int]) -> JSON:
        """Why ``seat`` won lance ``L``: against whom (the other pair's best among
        ``among``, in turn order from mano) and by what, in the words of RULES.md §3
        The four lances."""
        vals = self.vals
        assert vals is not None
        name = LANCE_NAMES[4 if self.punto and L == JUEGO else L]
        if L < JUEGO:
            f = L  # HandValue fields 0..2: grande, chica, pares
        else:
            f = _PUNTO_FIELD if self.punto else _REAL_FIELD if self.real31 else _JUEGO_FIELD
        team = seat & 1
        over = ko = -1
        for x in among:  # the other pair's best, as _best finds it
            if x & 1 != team and vals[x][f] > ko:
                over, ko = x, vals[x][f]
        w, o = vals[seat], vals[over]
        kw = w[f]
        if kw == ko:
            return {"lance": name, "seat": seat, "over": over, "by": "tie"}  # closer to mano
        if L <= CHICA:
            # the keys hold the cards' order values, four bits each: the highest card
            # first (Grande), or 15 less the lowest card first (Chica), then the next
            shift = 12
            while (kw >> shift & 15) == (ko >> shift & 15):
                shift -= 4
            rw, ro = kw >> shift & 15, ko >> shift & 15
            if L == CHICA:
                rw, ro = 15 - rw, 15 - ro
            return {
                "lance": name,
                "seat": seat,
                "over": over,
                "by": "card",
                "at": 3 - shift // 4,
                "ranks": [_RANK_NAME[rw], _RANK_NAME[ro]],
            }
        if L == PARES:
            if w.pares_kind != o.pares_kind:
                kinds = [PARES_NAMES[w.pares_kind], PARES_NAMES[o.pares_kind]]
                return {"lance": name, "seat": seat, "over": over, "by": "kind", "kinds": kinds}
            # the key is the kind, then the (higher) pair's rank, then the lower pair's
            hw, ho = kw >> 4 & 15, ko >> 4 & 15
            rw, ro = (hw, ho) if hw != ho else (kw & 15, ko & 15)
            return {
                "lance": name,
                "seat": seat,
                "over": over,
                "by": "rank",
                "kind": PARES_NAMES[w.pares_kind],
                "ranks": [_RANK_NAME[rw], _RANK_NAME[ro]],
            }
        if self.punto:
            points = [w.points, o.points]
            return {"lance": name, "seat": seat, "over": over, "by": "punto", "points": points}
        if w.points == o.points:  # two 31s, and only one is 7-7-7-sota
            return {"lance": name, "seat": seat, "over": over, "by": "real_31"}
        points = [w.points, o.points]
        return {"lance": name, "seat": seat, "over": over, "by": "juego", "points": points}

    def _best(self, L: int, among: Sequence[int]) -> int:
        """The seat winning lance ``L`` among ``among`` (in turn order from mano).

        RULES.md §3: ties go to the player closest to mano, so only a strictly
        better key displaces the best so far.
        """
        vals = self.vals
        assert vals is not None
        if L < JUEGO:
            f = L  # HandValue fields 0..2: grande, chica, pares
        else:
            f = _PUNTO_FIELD if self.punto else _REAL_FIELD if self.real31 else _JUEGO_FIELD
        best = top = -1  # every key is 0 or more: the first seat takes the lead
        for x in among:
            k = vals[x][f]
            if k > top:
                best, top = x, k
        return best

    def _ordago_showdown(self, events: list[Event]) -> None:
        # RULES.md §3 Órdago accepted: cards shown, the lance's winner wins the game
        L = self.lance
        seat = self._best(L, self.speakers)
        team = seat & 1
        name = LANCE_NAMES[4 if self.punto and L == JUEGO else L]
        self.res_status[L] = ORDAGO_ACCEPTED
        self.res_team[L] = team
        summary: JSON = {
            "type": "hand_end",
            "hand": self.hand_no,
            "reason": "ordago",
            "hands": _hands_str(self.hands),
            "ordago": {"lance": name, "seat": seat, "team": team},
            "lances": self._lance_summary(),
            "stones": self.stones[:],
            **self._tally_facts([self._verdict(L, seat, self.speakers)]),
        }
        self.last_hand = summary
        events.append(summary)
        self._win_game(team, "ordago", events)

    def _count(self, events: list[Event]) -> None:
        """RULES.md §3 Showdown: count lance by lance, stop when a pair reaches 40."""
        vals = self.vals
        assert vals is not None
        order = ORDERS[self.mano]
        self.phase = IDLE  # the hand is over: credits no longer stop it
        self.turn = -1
        status, stakes, teams = self.res_status, self.res_stake, self.res_team
        stones = self.stones
        punto = self.punto
        lances: list[JSON] = []
        verdicts: list[JSON] = []
        tally = self.tally
        won = -1
        for L in range(4):
            st = status[L]
            name = LANCE_NAMES[4 if punto and L == JUEGO else L]
            if st == SKIPPED:
                lances.append({"lance": name, "status": "skipped", "team": None, "stones": 0})
                continue
            seat = None
            if st in (REFUSED, ALONE):
                team = teams[L]
            else:
                among: Sequence[int] = order
                if L == PARES or (L == JUEGO and not punto):
                    held = self.holders[L - PARES]
                    assert held is not None
                    among = held
                seat = self._best(L, among)
                team = seat & 1
                verdicts.append(self._verdict(L, seat, among))
            # the lance's stones, each where it came from (hand_end's tally)
            first = len(tally)
            n = 0
            if st == ACCEPTED:
                n = stakes[L]
                tally.append({"lance": name, "team": team, "stones": n, "for": "stake"})
            if L <= CHICA:
                if st == IN_PASS:
                    n = 1
                    tally.append({"lance": name, "team": team, "stones": 1, "for": "pass"})
            elif L == PARES:
                for x in (team, team + 2):
                    k = vals[x].pares_kind
                    if k:
                        n += k
                        tally.append(
                            {
                                "lance": name,
                                "team": team,
                                "stones": k,
                                "for": "pares",
                                "seat": x,
                                "kind": PARES_NAMES[k],
                            }
                        )
            elif punto:
                n += 1  # RULES.md §3: Punto's extra stone
                tally.append({"lance": name, "team": team, "stones": 1, "for": "punto"})
            else:
                for x in (team, team + 2):
                    if vals[x].juego:
                        pts = vals[x].points
                        bonus = juego_bonus(pts)
                        n += bonus
                        tally.append(
                            {
                                "lance": name,
                                "team": team,
                                "stones": bonus,
                                "for": "juego",
                                "seat": x,
                                "points": pts,
                            }
                        )
            item: JSON = {
                "lance": name,
                "status": STATUS_NAMES[st],
                "team": team,
                "seat": seat,
                "stones": n,
            }
            if st == ACCEPTED:
                item["stake"] = stakes[L]
            lances.append(item)
            if won >= 0:
                item["counted"] = False
                for row in tally[first:]:
                    row["counted"] = False
            elif n:
                stones[team] += n
                events.append(
                    {
                        "type": "credit",
                        "team": team,
                        "stones": n,
                        "lance": name,
                        "reason": STATUS_NAMES[st],
                        "total": stones[:],
                    }
                )
                if stones[team] >= GAME_STONES:
                    won = team  # the rest of the hand is not counted
        v0, v1, v2, v3 = vals
        summary: JSON = {
            "type": "hand_end",
            "hand": self.hand_no,
            "reason": "showdown",
            "hands": _hands_str(self.hands),
            "pares": [v0.pares_kind, v1.pares_kind, v2.pares_kind, v3.pares_kind],
            "points": [v0.points, v1.points, v2.points, v3.points],
            "lances": lances,
            "stones": stones[:],
            **self._tally_facts(verdicts),
        }
        self.last_hand = summary
        events.append(summary)
        if won >= 0:
            self._win_game(won, "stones", events)
        else:
            events.extend(self._next_deal())

    def _win_game(self, team: int, reason: str, events: list[Event]) -> None:
        """RULES.md §3 Match structure: games make cows, cows make the match."""
        self.phase = IDLE
        self.turn = -1
        self.games[team] += 1
        events.append(
            {
                "type": "game_end",
                "game": self.game_no,
                "team": team,
                "reason": reason,
                "stones": self.stones[:],
                "games": self.games[:],
            }
        )
        new_cow = self.games[team] >= self.games_per_cow
        if new_cow:
            self.cows[team] += 1
            events.append({"type": "cow_end", "team": team, "cows": self.cows[:]})
            if self.cows[team] >= self.cows_to_win:
                self.over = True
                self.winner = team
                events.append(
                    {
                        "type": "match_end",
                        "winner": team,
                        "games": self.games[:],
                        "cows": self.cows[:],
                    }
                )
                return
        # RULES.md §3 Match structure: stones restart at 0 for each game, games for each cow
        self.stones = [0, 0]
        self.game_no += 1
        if new_cow:
            self.games = [0, 0]
        events.extend(self._next_deal())

    # ---------------------------------------------------------------- views

    def result(self) -> JSON:
        """RULES.md §4: stones of the current game, games and cows per pair."""
        return {
            "scores": self.stones[:],
            "games": self.games[:],
            "cows": self.cows[:],
            "over": self.over,
            "winner": self.winner,
            "to_act": list(self.to_act),
        }

    def view(self, seat: int | None) -> View:
        """What ``seat`` sees: the public table, its own cards and discards, its legal moves."""
        in_lance = self.phase in (SPEAK, ANSWER)
        v: View = {
            "game": self.game,
            "seat": seat,
            "seats": self.seats,
            "settings": dict(self.settings),
            "hand_no": self.hand_no,
            "game_no": self.game_no,
            "mano": self.mano,
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn if self.turn >= 0 else None,
            "to_act": list(self.to_act),
            "stones": self.stones[:],
            "games": self.games[:],
            "cows": self.cows[:],
            "deck": len(self.deck),
            "pile": [len(p) for p in self.piles],
            "reshuffled": self.reshuffled,
            "mus_round": self.mus_round,
            "mus_said": self.mus_count if self.phase == MUS_PHASE else 0,
            "discards": [d[:] for d in self.discards],
            "announced": {
                "pares": None if self.holders[0] is None else list(self.holders[0]),
                "juego": None if self.holders[1] is None else list(self.holders[1]),
            },
            "lance": self.lance_name,
            "lance_slot": self.lance,
            "punto": self.punto,
            "speakers": list(self.speakers) if in_lance else [],
            "betting": [
                {"seat": b[0], "type": ACTION_TYPES[b[1]], **({"amount": b[2]} if b[2] else {})}
                for b in self.betting
            ]
            if in_lance
            else [],
            "answerers": list(self.answerers) if self.phase == ANSWER else [],
            "stake": self.stake if self.phase == ANSWER else None,
            "ordago": self.ordago if self.phase == ANSWER else False,
            "lances": self._lance_summary(),
            "over": self.over,
            "winner": self.winner,
            "last_hand": self.last_hand,
        }
        if seat is not None:
            v["hand"] = self.hand_cards(seat)
            v["discarded"] = _cards(self.piles[seat])
            v["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        return v

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> Self:
        """A full state consistent with ``view``: the unseen cards placed at random.

        Other hands are drawn from the cards the seat has not seen (not its
        hand, not its discards still in the pile) and must match the public
        pares and juego announcements (rejection sampling); the rest fill the
        other seats' discard piles and the deck.
        """
        seat = view["seat"]
        if seat is None:
            raise SampleError("a spectator's view has no seat to sample for")
        state = cls(view["seats"], view["settings"], (), Dealer(rng=rng), log=False)
        state.stones = list(view["stones"])
        state.games = list(view["games"])
        state.cows = list(view["cows"])
        state.over = view["over"]
        state.winner = view["winner"]
        state.hand_no = view["hand_no"]
        state.game_no = view["game_no"]
        state.mano = view["mano"]
        state.last_hand = view["last_hand"]
        phase = PHASE_NAMES.index(view["phase"])
        state.phase = phase
        state.turn = -1 if view["turn"] is None else view["turn"]
        state.reshuffled = view["reshuffled"]
        state.mus_round = view["mus_round"]
        state.discards = [d[:] for d in view["discards"]]
        state.mus_count = (
            (view["mus_said"] if phase == MUS_PHASE else sum(1 for x in view["discards"][-1] if x))
            if phase in (MUS_PHASE, DISCARD)
            else 0
        )
        own = tuple(card_id(t) for t in view["hand"])
        own_pile = [card_id(t) for t in view["discarded"]]
        known = set(own) | set(own_pile)
        unseen = [c for c in range(N_CARDS) if c not in known]
        announced = view["announced"]
        pares_h = announced["pares"]
        juego_h = announced["juego"]
        others = [x for x in range(SEATS) if x != seat]

        def fits(x: int, hand: Sequence[int]) -> bool:
            v = _value(hand)
            if pares_h is not None and bool(v.pares_kind) != (x in pares_h):
                return False
            return juego_h is None or bool(v.juego) == (x in juego_h)

        hands: list[tuple[int, ...]] = [()] * SEATS
        hands[seat] = own
        pool = unseen[:]
        for _ in range(2000):
            rng.shuffle(pool)
            cand = [tuple(pool[i * 4 : i * 4 + 4]) for i in range(3)]
            if all(fits(x, h) for x, h in zip(others, cand, strict=True)):
                for x, h in zip(others, cand, strict=True):
                    hands[x] = h
                rest = pool[12:]
                break
        else:
            # seat by seat: slightly biased, but always finds the true-like hands
            rest = unseen[:]
            for x in others:
                for _ in range(100_000):
                    h = tuple(rng.sample(rest, 4))
                    if fits(x, h):
                        break
                else:
                    raise SampleError("no deal of the unseen cards fits the announcements")
                hands[x] = h
                rest = [c for c in rest if c not in h]
        state.hands = hands
        piles: list[list[int]] = [[], [], [], []]
        piles[seat] = own_pile
        i = 0
        for x in others:
            n = view["pile"][x]
            piles[x] = rest[i : i + n]
            i += n
        state.piles = piles
        state.deck = rest[i:]
        if len(state.deck) != view["deck"]:
            raise SampleError("the view's card counts do not add up to 40")
        state._deal = MusDeal(tuple(hands), tuple(reversed(state.deck)), state.mano, ())
        state._given = False
        state.holders = [
            None if pares_h is None else tuple(pares_h),
            None if juego_h is None else tuple(juego_h),
        ]
        state.punto = view["punto"]
        state.lance = view["lance_slot"]
        if state.lance >= 0:
            state.vals = [_value(h) for h in hands]
        if phase in (SPEAK, ANSWER):
            state.speakers = tuple(view["speakers"])
            state.betting = [
                (b["seat"], _CODE[b["type"]], b.get("amount", 0)) for b in view["betting"]
            ]
            state._replay_betting()
        for item in view["lances"]:
            name = item["lance"]
            L = JUEGO if name == "punto" else LANCE_NAMES.index(name)
            state.res_status[L] = STATUS_NAMES.index(item["status"])
            state.res_stake[L] = item.get("stake", 0)
            state.res_team[L] = item.get("team", -1)
        if phase == IDLE and not state.over:
            # awaiting a deal: the sampled game goes on with one from rng
            state.initial_events = state._next_deal()
        return state

    def _replay_betting(self) -> None:
        """Recompute the betting counters of the current lance from its actions."""
        self.pos = 0
        self.stake = self.prev_stake = self.n_bets = 0
        self.bet_team = -1
        self.ordago = False
        self.answerers = ()
        self.apos = 0
        for s, code, amount in self.betting:
            if code == PASS:
                self.pos += 1
            elif code == BET:
                self.prev_stake, self.stake, self.n_bets = 1, amount, 1
            elif code == RAISE:
                self.prev_stake, self.stake = self.stake, self.stake + amount
                self.n_bets += 1
            elif code == ORDAGO:
                self.prev_stake = self.stake if self.n_bets else 1
                self.n_bets += 1
                self.ordago = True
            if code in (BET, RAISE, ORDAGO):
                sp = self.speakers
                self.answerers = tuple(x for x in ANSWER_ORDER[s] if x in sp)
                self.apos = 0
                self.bet_team = s & 1
            elif code == REJECT:
                self.apos += 1


_Handler = Callable[[Mus, int, MusAction], list[Event]]


def _handlers() -> tuple[tuple[_Handler, ...], ...]:
    """_HANDLERS[phase][action code]: the method that plays it, or Mus._refuse."""
    table: list[list[_Handler]] = [[Mus._refuse] * len(ACTION_TYPES) for _ in PHASE_NAMES]
    table[MUS_PHASE][MUS] = Mus._mus
    table[MUS_PHASE][NO_MUS] = Mus._no_mus
    table[DISCARD][DISCARD_CARDS] = Mus._discard
    table[SPEAK][PASS] = Mus._pass
    table[SPEAK][BET] = Mus._bet
    table[SPEAK][ORDAGO] = Mus._ordago
    table[ANSWER][ACCEPT] = Mus._accept
    table[ANSWER][RAISE] = Mus._raise
    table[ANSWER][ORDAGO] = Mus._ordago
    table[ANSWER][REJECT] = Mus._reject
    return tuple(tuple(row) for row in table)


_HANDLERS = _handlers()
