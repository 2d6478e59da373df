"""Eleven: the rules engine (README.md, "The rules").

Cards are ids 0..19: ``id = (value - 1) * 2 + colour`` (amber 0, blue 1), written
``"7a"``/``"7b"``. A hand is a sorted list of ids; the stock a list, its next card
first.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from taverna.games.base import (
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

CARDS = 20
HAND = 3
ELEVEN = 11
CLAIM_POINTS = 2
LAST_CARD_POINTS = 1


def card_str(card: int) -> str:
    return f"{card // 2 + 1}{'ab'[card % 2]}"


def card_id(text: object) -> int:
    """``"7b"`` -> 13; raises ValueError for anything else."""
    if isinstance(text, str) and len(text) in (2, 3) and text[-1] in "ab":
        value = text[:-1]
        if value.isdigit() and 1 <= int(value) <= 10 and value == str(int(value)):
            return (int(value) - 1) * 2 + "ab".index(text[-1])
    raise ValueError(f"{text!r} is not a card (1a … 10a, 1b … 10b)")


def value_of(card: int) -> int:
    return card // 2 + 1


class ElevenAction(Action):
    """A play of one card, or a claim of the eleven just made."""

    __slots__ = ("card", "seat", "type")

    def __init__(self, seat: int, type: str, card: int | None = None) -> None:
        self.seat = seat
        self.type = type
        self.card = card

    def to_json(self) -> JSON:
        out: JSON = {"seat": self.seat, "type": self.type}
        if self.card is not None:
            out["card"] = card_str(self.card)
        return out


class ElevenDeal(NamedTuple):
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]


class Eleven(State[ElevenAction]):
    """Eleven for 2 or 3 seats (README.md)."""

    game: ClassVar[str] = "eleven"
    title: ClassVar[str] = "Eleven"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 3
    default_seats: ClassVar[int] = 2
    piece: ClassVar[str] = "card"
    optional_actions: ClassVar[tuple[str, ...]] = ("claim",)
    settings_declared: ClassVar[tuple[Setting, ...]] = (
        Setting("target", "int", 5, minimum=1, maximum=50),
    )

    __slots__ = ("claimant", "dealer", "hands", "played", "scores", "stock", "total")

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
        self.scores = [0] * seats
        self.hands: list[list[int]] = [[] for _ in range(seats)]
        self.stock: list[int] = []
        self.played: list[int] = []  # this deal's cards on the pile, in order
        self.total = 0
        self.dealer = -1
        self.claimant = -1  # the seat that may claim an eleven now

    # ------------------------------------------------------------ notation

    @classmethod
    def parse_action(cls, obj: Any, seats: int) -> ElevenAction:
        seat = action_seat(obj, seats)
        kind = obj.get("type")
        if kind == "claim":
            only_fields(obj, "claim")
            return ElevenAction(seat, "claim")
        if kind != "play":
            raise InvalidAction(f"unknown eleven action type {kind!r} (expected play or claim)")
        only_fields(obj, "play", "card")
        try:
            return ElevenAction(seat, "play", card_id(obj.get("card")))
        except ValueError as e:
            raise InvalidAction(str(e)) from None

    @classmethod
    def parse_deal(cls, obj: Any, seats: int, settings: Mapping[str, Any], index: int) -> Any:
        where = f"deal {index}"
        if not isinstance(obj, dict) or set(obj) != {"dealer", "hands", "stock"}:
            raise MalformedRecord(f"{where} must be an object with dealer, hands and stock")
        read = DealReader(where, "card", "twenty-card deck", CARDS, card_id, card_str)
        hands = read.hands(obj["hands"], seats, HAND, "")
        stock = read.items(obj["stock"], "stock")
        read.check_whole()
        dealer = read.seat(obj, "dealer", seats, "every deal names its dealer")
        assert dealer is not None
        if dealer != index % seats:
            raise MalformedRecord(f"{where}: the dealer is seat {index % seats}, not {dealer}")
        return ElevenDeal(dealer, hands, stock)

    @classmethod
    def deal_json(cls, deal: Any) -> JSON:
        return {
            "dealer": deal.dealer,
            "hands": [[card_str(c) for c in h] for h in deal.hands],
            "stock": [card_str(c) for c in deal.stock],
        }

    # ------------------------------------------------------------- dealing

    def _random_deal(self, rng: random.Random) -> ElevenDeal:
        cards = list(range(CARDS))
        rng.shuffle(cards)
        n = self.seats
        hands = tuple(tuple(cards[i * HAND : (i + 1) * HAND]) for i in range(n))
        # deal k (from 0) is dealt by seat k
        return ElevenDeal((self.hand_no + 1) % n, hands, tuple(cards[n * HAND :]))

    def _check_deal(self, deal: ElevenDeal) -> None:
        k = self.hand_no + 1
        if deal.dealer != k % self.seats:
            raise IllegalAction(f"deal {k} is dealt by seat {k % self.seats}, not {deal.dealer}")

    def _begin(self, deal: ElevenDeal, given: bool) -> list[Event]:
        self.dealer = deal.dealer
        self.hands = [sorted(h) for h in deal.hands]
        self.stock = list(deal.stock)
        self.played = []
        self.total = 0
        self.turn = (deal.dealer + 1) % self.seats
        return [
            {
                "type": "deal",
                "hand": self.hand_no,
                "dealer": deal.dealer,
                "stock": len(self.stock),
                "private": {
                    s: {"cards": [card_str(c) for c in h]} for s, h in enumerate(deal.hands)
                },
            }
        ]

    # ------------------------------------------------------------- playing

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.over or self.turn < 0:  # over, or the next deal is awaited
            return ()
        if self.claimant >= 0 and self.claimant != self.turn:
            return (self.turn, self.claimant)
        return (self.turn,)

    def legal_actions(self, seat: int | None = None) -> list[ElevenAction]:
        out: list[ElevenAction] = []
        if self.over or self.turn < 0:
            return out
        if self.turn >= 0 and seat in (None, self.turn):
            out += [ElevenAction(self.turn, "play", c) for c in self.hands[self.turn]]
        if self.claimant >= 0 and seat in (None, self.claimant):
            out.append(ElevenAction(self.claimant, "claim"))
        return out

    def apply(self, action: ElevenAction) -> list[Event]:
        if not isinstance(action, ElevenAction):
            raise not_an_action(self, action)
        s = action.seat
        if action.type == "claim":
            if self.over or self.turn < 0:
                self._refuse_turn(s, "claim")
            if s != self.claimant:
                raise IllegalAction(
                    f"seat {s} cannot claim: it has made no eleven since the last play",
                    "nothing_to_claim",
                )
            self.claimant = -1
            self.scores[s] += CLAIM_POINTS
            events: list[Event] = [{"type": "claim", "seat": s, "points": CLAIM_POINTS}]
            self._log_action(action)
            return events + self._check_end(s)
        if s != self.turn:
            self._refuse_turn(s, "play")
        card = action.card
        assert card is not None
        if card not in self.hands[s]:
            raise IllegalAction(
                f"seat {s} cannot play {card_str(card)}: it is not in its hand",
                "not_in_hand",
                card=card_str(card),
            )
        events = []
        if self.claimant >= 0:  # the right ends with the next play
            events.append({"type": "lapse", "seat": self.claimant})
            self.claimant = -1
        self.hands[s].remove(card)
        self.played.append(card)
        total = self.total + value_of(card)
        eleven = total == ELEVEN
        if eleven:
            total = 0
            self.claimant = s
        elif total > ELEVEN:
            total = value_of(card)
        self.total = total
        events.append(
            {"type": "play", "seat": s, "card": card_str(card), "total": total, "eleven": eleven}
        )
        if self.stock:
            drawn = self.stock.pop(0)
            self.hands[s].append(drawn)
            self.hands[s].sort()
            events.append(
                {
                    "type": "draw",
                    "seat": s,
                    "stock": len(self.stock),
                    "private": {s: {"card": card_str(drawn)}},
                }
            )
        self._log_action(action)
        nxt = next(
            (
                (s + k) % self.seats
                for k in range(1, self.seats + 1)
                if self.hands[(s + k) % self.seats]
            ),
            -1,
        )
        if nxt >= 0:
            self.turn = nxt
            return events
        # the end of the deal: the last card scores
        self.turn = -1
        self.scores[s] += LAST_CARD_POINTS
        events.append(
            {
                "type": "hand_end",
                "hand": self.hand_no,
                "last": s,
                "points": LAST_CARD_POINTS,
                "scores": list(self.scores),
            }
        )
        end = self._check_end(s)
        if end:
            return events + end
        return events + self._next_deal()

    def _log_action(self, action: ElevenAction) -> None:
        if self._log is not None:
            self._log.append(action)

    def _check_end(self, s: int) -> list[Event]:
        if self.scores[s] < self.settings["target"]:
            return []
        self.over = True
        self.winner = s
        self.turn = -1
        self.claimant = -1
        return [{"type": "game_end", "winner": s, "scores": list(self.scores)}]

    # --------------------------------------------------------------- views

    def view(self, seat: int | None) -> View:
        v: View = {
            "game": self.game,
            "seats": self.seats,
            "seat": seat,
            "settings": dict(self.settings),
            "hand_no": self.hand_no,
            "dealer": self.dealer,
            "turn": self.turn if self.turn >= 0 else None,
            "to_act": list(self.to_act),
            "total": self.total,
            "played": [card_str(c) for c in self.played],
            "stock": len(self.stock),
            "hand_sizes": [len(h) for h in self.hands],
            "scores": list(self.scores),
            "claimant": self.claimant if self.claimant >= 0 else None,
            "over": self.over,
            "winner": self.winner,
        }
        if seat is not None:  # a spectator has no hand, and nothing to do
            v["hand"] = [card_str(c) for c in self.hands[seat]]
            v["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        return v

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> Eleven:
        seat = view.get("seat")
        if seat is None:
            raise SampleError("a spectator's view has no hand to sample around")
        seats = view["seats"]
        state = cls(seats, view["settings"], (), Dealer(rng=rng), log=False)
        mine = [card_id(c) for c in view["hand"]]
        played = [card_id(c) for c in view["played"]]
        unseen = [c for c in range(CARDS) if c not in mine and c not in played]
        rng.shuffle(unseen)
        sizes = view["hand_sizes"]
        if len(unseen) != sum(sizes) - len(mine) + view["stock"]:
            raise SampleError("the view's counts of cards do not add up to the deck")
        hands: list[list[int]] = []
        for s in range(seats):
            if s == seat:
                hands.append(sorted(mine))
            else:
                hands.append(sorted(unseen[: sizes[s]]))
                del unseen[: sizes[s]]
        state.hands = hands
        state.stock = unseen
        state.played = played
        state.total = view["total"]
        state.scores = list(view["scores"])
        state.dealer = view["dealer"]
        state.hand_no = view["hand_no"]
        state.turn = view["turn"] if view["turn"] is not None else -1
        state.claimant = view["claimant"] if view["claimant"] is not None else -1
        state.over = view["over"]
        state.winner = view["winner"]
        return state
