"""What a seat sees of a Mus game, and full games drawn from what it sees.

:func:`view` is a seat's (or a spectator's) view, JSON-ready: the public table,
its own cards and discards, its legal actions. :func:`sample` draws a whole
state that shows a seat exactly its view, for search bots (docs/rules.md §3.5: the
pares and juego announcements are public, so the other hands must fit them).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING, TypeVar

from ..base import Dealer, SampleError, View, shuffle
from .betting import replay_betting
from .count import lance_summary
from .hands import N_CARDS, card_id, hand_value
from .notation import ACTION_TYPES, CODES, MusDeal, cards_str
from .rules import (
    ANSWER,
    DISCARD,
    IDLE,
    JUEGO,
    LANCE_NAMES,
    MUS_PHASE,
    PHASE_NAMES,
    SEATS,
    SPEAK,
    STATUS_NAMES,
)
from .senas import SIGN_BIT, holds

if TYPE_CHECKING:
    from .state import Mus

M = TypeVar("M", bound="Mus")


def view(state: Mus, seat: int | None) -> View:
    """What ``seat`` sees: the public table, its own cards and discards, its legal moves."""
    in_lance = state.phase in (SPEAK, ANSWER)
    v: View = {
        "game": state.game,
        "seat": seat,
        "seats": state.seats,
        "settings": dict(state.settings),
        "hand_no": state.hand_no,
        "game_no": state.game_no,
        "mano": state.mano,
        "phase": PHASE_NAMES[state.phase],
        "turn": state.turn if state.turn >= 0 else None,
        "to_act": list(state.to_act),
        "stones": state.stones[:],
        "games": state.games[:],
        "cows": state.cows[:],
        "deck": len(state.deck),
        "pile": [len(p) for p in state.piles],
        "reshuffled": state.reshuffled,
        "mus_round": state.mus_round,
        "mus_said": state.mus_count if state.phase == MUS_PHASE else 0,
        "discards": [d[:] for d in state.discards],
        "announced": {
            "pares": None if state.holders[0] is None else list(state.holders[0]),
            "juego": None if state.holders[1] is None else list(state.holders[1]),
        },
        "lance": state.lance_name,
        "lance_slot": state.lance,
        "punto": state.punto,
        "speakers": list(state.speakers) if in_lance else [],
        "betting": [
            {"seat": b[0], "type": ACTION_TYPES[b[1]], **({"amount": b[2]} if b[2] else {})}
            for b in state.betting
        ]
        if in_lance
        else [],
        "answerers": list(state.answerers) if state.phase == ANSWER else [],
        "stake": state.stake if state.phase == ANSWER else None,
        "ordago": state.ordago if state.phase == ANSWER else False,
        "lances": lance_summary(state),
        "over": state.over,
        "winner": state.winner,
        "last_hand": state.last_hand,
        # docs/rules.md §3.8.3: this hand's, as this seat may see them (Mus.signal_for)
        "signals": [
            x for x in (state.signal_for(e, seat) for e in state.hand_signals) if x is not None
        ],
    }
    if seat is not None:
        v["may_signal"] = state.may_signal(seat)
        v["hand"] = state.hand_cards(seat)
        v["discarded"] = cards_str(state.piles[seat])
        v["legal"] = [a.to_json() for a in state.legal_actions(seat)]
    return v


def _deal_told(
    rng: random.Random,
    unseen: list[int],
    others: list[int],
    told: dict[int, list[str]],
    fits: Callable[[int, Sequence[int]], bool],
    hands: list[tuple[int, ...]],
) -> list[int]:
    """Deal the other seats' hands (into ``hands``) when some of them made señas the
    seat saw (``told``: seat -> signs); returns the cards left.

    The three hands are drawn together and kept when all fit (rejection, a bounded
    number of tries); else seat by seat, the seats with señas first, each by rejection
    and, failing that, among every hand of the cards left that fits (a rare seña on a
    small pool), started again in another order when a seat is left nothing that fits,
    and last by a search of the ways of dealing: slightly biased, never wrong.
    """

    def fits_all(x: int, h: Sequence[int]) -> bool:
        return fits(x, h) and all(holds(sign, h) for sign in told.get(x, ()))

    pool = unseen[:]
    for _ in range(500):
        shuffle(rng, pool)
        cand = [tuple(pool[i * 4 : i * 4 + 4]) for i in range(3)]
        if all(fits_all(x, h) for x, h in zip(others, cand, strict=True)):
            for x, h in zip(others, cand, strict=True):
                hands[x] = h
            return pool[12:]
    order = sorted(others, key=lambda x: x not in told)
    for attempt in range(8):
        # a seat's hand may leave the next one nothing that fits: start again, in
        # another order, and last look at every way of dealing (never stuck)
        dealt = _one_by_one(
            rng, unseen, order, fits_all, 2000 if attempt == 0 else 500, attempt == 0
        )
        if dealt is not None:
            break
        shuffle(rng, order)
    else:
        dealt = _every_way(rng, unseen, order, fits_all)
        if dealt is None:
            raise SampleError("no deal of the unseen cards fits the announcements and señas")
    for x, h in dealt[0].items():
        hands[x] = h
    return dealt[1]


_Dealt = tuple[dict[int, tuple[int, ...]], list[int]]


def _one_by_one(
    rng: random.Random,
    rest: list[int],
    order: list[int],
    fits_all: Callable[[int, Sequence[int]], bool],
    tries: int,
    search: bool,
) -> _Dealt | None:
    """The seats' hands one after another, each by rejection and, failing that (with
    ``search``), among every hand of the cards left that fits; None when a seat is
    left none."""
    out: dict[int, tuple[int, ...]] = {}
    for x in order:
        for _ in range(tries):
            h = tuple(rng.sample(rest, 4))
            if fits_all(x, h):
                break
        else:
            if not search:
                return None
            every = [h for h in combinations(rest, 4) if fits_all(x, h)]
            if not every:
                return None
            h = every[rng.randrange(len(every))]
        out[x] = h
        rest = [c for c in rest if c not in h]
    return out, rest


def _every_way(
    rng: random.Random,
    rest: list[int],
    order: list[int],
    fits_all: Callable[[int, Sequence[int]], bool],
    width: int = 6,
) -> _Dealt | None:
    """A deal of the seats in ``order`` by search: each seat's fitting hands in random
    order (``width`` of them at most), the next seats dealt from what each leaves."""
    if not order:
        return {}, rest
    x = order[0]
    every = [h for h in combinations(rest, 4) if fits_all(x, h)]
    shuffle(rng, every)
    for h in every[:width]:
        sub = _every_way(rng, [c for c in rest if c not in h], order[1:], fits_all, width)
        if sub is not None:
            sub[0][x] = h
            return sub
    return None


def sample(cls: type[M], view: View, rng: random.Random) -> M:
    """A full state consistent with ``view``: the unseen cards placed at random.

    Other hands are drawn from the cards the seat has not seen (not its
    hand, not its discards still in the pile) and must match the public
    pares and juego announcements (rejection sampling) and the señas the seat
    saw (:func:`_deal_told`); the rest fill the other seats' discard piles and
    the deck.
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
        v = hand_value(hand)
        if pares_h is not None and bool(v.pares_kind) != (x in pares_h):
            return False
        return juego_h is None or bool(v.juego) == (x in juego_h)

    # docs/rules.md §3.8.2: a seña is always true, so a seña the seat saw says what its
    # maker holds (its own are in its hand already)
    told: dict[int, list[str]] = {}
    for e in view.get("signals", ()):
        if e["seat"] != seat:
            told.setdefault(e["seat"], []).append(e["sign"])

    hands: list[tuple[int, ...]] = [()] * SEATS
    hands[seat] = own
    if told:
        rest = _deal_told(rng, unseen, others, told, fits, hands)
    else:
        pool = unseen[:]
        for _ in range(2000):
            shuffle(rng, pool)
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
    state.dealt = MusDeal(tuple(hands), tuple(reversed(state.deck)), state.mano, ())
    state.given = False
    state.holders = [
        None if pares_h is None else tuple(pares_h),
        None if juego_h is None else tuple(juego_h),
    ]
    state.punto = view["punto"]
    state.lance = view["lance_slot"]
    if state.lance >= 0:
        state.vals = [hand_value(h) for h in hands]
    if phase in (SPEAK, ANSWER):
        state.speakers = tuple(view["speakers"])
        state.betting = [(b["seat"], CODES[b["type"]], b.get("amount", 0)) for b in view["betting"]]
        replay_betting(state)
    for item in view["lances"]:
        name = item["lance"]
        L = JUEGO if name == "punto" else LANCE_NAMES.index(name)
        state.res_status[L] = STATUS_NAMES.index(item["status"])
        state.res_stake[L] = item.get("stake", 0)
        state.res_team[L] = item.get("team", -1)
    # the señas the seat saw, as the sample's own: its view shows them as the real game's
    # (an opponent's that the seat saw, it caught; the rest it cannot know)
    for e in view.get("signals", ()):
        x = e["seat"]
        caught = e["caught_by"] if x == seat else [seat] if (x ^ seat) & 1 else []
        state.signals.append(
            {"seat": x, "sign": e["sign"], "after": e["after"], "caught_by": caught}
        )
        state.signs_made[x] |= SIGN_BIT[e["sign"]]
    if phase == IDLE and not state.over:
        # awaiting a deal: the sampled game goes on with one from rng
        state.initial_events = state._next_deal()
    return state
