"""The deal and the mus phase (docs/rules.md §3.3, §3.4): dealing a hand,
mus or no mus, the discards and the reshuffles of the deck they run out.

Functions of a :class:`~.state.Mus` state (``state``): the handlers of its actions
in these phases and the dealing the base protocol asks for.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..base import Event, IllegalAction, deal_below, deal_shuffle
from .betting import open_lance
from .hands import CARD_STR, N_CARDS, PAIR_OF, VALUE_OF_PAIRS, HandValue
from .notation import MusAction, MusDeal, cards_str, hands_str
from .rules import DISCARD, GRANDE, HAND_SIZE, MUS_PHASE, SEATS

if TYPE_CHECKING:
    from .state import Mus

#: the 40 cards in id order, copied and shuffled for a random deal
_DECK: Final = list(range(N_CARDS))


def random_deal(state: Mus, rng: random.Random) -> MusDeal:
    """The next hand dealt from ``rng``: a shuffled deck, four cards to each seat."""
    # docs/rules.md §3.3: drawn at random, then the next seat every hand
    mano = deal_below(rng, SEATS) if state.mano < 0 else (state.mano + 1) % SEATS
    cards = _DECK[:]
    deal_shuffle(rng, cards)
    t = tuple(cards)
    return MusDeal((t[0:4], t[4:8], t[8:12], t[12:16]), t[16:], mano)


def check_deal(state: Mus, deal: MusDeal) -> None:
    """Refuse a given deal whose mano is not the next one (IllegalAction)."""
    want = None if state.mano < 0 else (state.mano + 1) % SEATS
    if want is None and deal.mano is None:
        raise IllegalAction("the first deal must name the mano")
    if want is not None and deal.mano is not None and deal.mano != want:
        raise IllegalAction(
            f"deal {state.hand_no + 1} names mano {deal.mano}, but mano passes to seat {want}"
        )


def begin(state: Mus, deal: MusDeal, given: bool) -> list[Event]:
    """Set up the hand of ``deal``: mano speaks first in the mus phase."""
    hands, deck, first_mano, _ = deal
    if state.mano < 0:
        assert first_mano is not None
        mano = first_mano
    else:
        mano = (state.mano + 1) % SEATS  # docs/rules.md §3.3: the next seat every hand
    state.reset_hand()
    state.mano = mano
    state.dealt = deal
    state.given = given
    state.hands = list(hands)
    state.deck = list(deck[::-1])
    state.phase = MUS_PHASE
    state.turn = mano
    if state._quiet:
        return []
    h0, h1, h2, h3 = hands_str(hands)
    return [
        {
            "type": "deal",
            "hand": state.hand_no,
            "game": state.game_no,
            "mano": mano,
            "deck": len(deck),
            "stones": state.stones[:],
            "private": {
                0: {"cards": h0},
                1: {"cards": h1},
                2: {"cards": h2},
                3: {"cards": h3},
            },
        }
    ]


def say_mus(state: Mus, s: int, action: MusAction) -> list[Event]:
    state.mus_count += 1
    events: list[Event] = [] if state._quiet else [{"type": "mus", "seat": s}]
    if state.mus_count == SEATS:
        # all four want to discard: each in turn order from mano
        state.phase = DISCARD
        state.mus_count = 0
        state.discards.append([0] * SEATS)
        state.turn = state.mano
    else:
        state.turn = (s + 1) % SEATS
    return events


def say_no_mus(state: Mus, s: int, action: MusAction) -> list[Event]:
    deal = state.dealt
    if state.given and deal is not None and state.reshuffled < len(deal.reshuffles):
        n = len(deal.reshuffles)
        raise IllegalAction(
            f"seat {s} cannot say no mus: deal {state.hand_no} lists {n} "
            f"reshuffle{'' if n == 1 else 's'}, but only {state.reshuffled} happened"
        )
    events: list[Event] = [] if state._quiet else [{"type": "no_mus", "seat": s}]
    # hand_value(h) for each hand, written out: this is hot
    vals: list[HandValue] = []
    pair_of = PAIR_OF
    for a, b, c, d in state.hands:
        vals.append(VALUE_OF_PAIRS[pair_of[a][b]][pair_of[c][d]])
    state.vals = vals
    state.lance = GRANDE
    open_lance(state, events)
    return events


def discard(state: Mus, s: int, action: MusAction) -> list[Event]:
    k = len(action.cards)
    if not 1 <= k <= HAND_SIZE:
        raise IllegalAction(
            f"seat {s} cannot discard {k} cards: a discard is 1 to 4 cards",
            "discard_count",
            count=k,
        )
    if action.mask.bit_count() != k:
        twice = next(CARD_STR[c] for c in action.cards if action.cards.count(c) > 1)
        raise IllegalAction(f"seat {s} cannot discard {twice} twice", "discard_twice", card=twice)
    hand = state.hands[s]
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
    if len(state.deck) < k:
        order = reshuffle_order(state, s)
    # all checks passed: serve the old deck first, then the new one
    deck = state.deck
    drawn: list[int] = []
    while deck and len(drawn) < k:
        drawn.append(deck.pop())
    events: list[Event] = []
    if order is not None:
        state.deck = deck = list(reversed(order))
        for p in state.piles:
            p.clear()
        state.reshuffled += 1
        if not state._quiet:
            events.append({"type": "reshuffle", "seat": s, "deck": len(deck)})
        while len(drawn) < k:
            drawn.append(deck.pop())
    gone = action.mask
    state.hands[s] = tuple(c for c in hand if not gone >> c & 1) + tuple(drawn)
    state.piles[s].extend(action.cards)
    state.discards[-1][s] = k
    if not state._quiet:
        events.insert(
            0,
            {
                "type": "discard",
                "seat": s,
                "count": k,
                "deck": len(deck),
                "private": {s: {"cards": cards_str(action.cards), "drawn": cards_str(drawn)}},
            },
        )
    state.mus_count += 1
    if state.mus_count == SEATS:
        # docs/rules.md §3.4: then a new mus round starts at mano
        state.phase = MUS_PHASE
        state.mus_count = 0
        state.mus_round += 1
        state.turn = state.mano
    else:
        state.turn = (s + 1) % SEATS
    return events


def reshuffle_order(state: Mus, s: int) -> Sequence[int]:
    """The new deck (top first) when serving seat ``s`` runs the deck out."""
    pile = sorted(c for p in state.piles for c in p)
    deal = state.dealt
    i = state.reshuffled
    # a given deal's reshuffles come from its record; past the last one a game with
    # a dealer (one resumed from its record) goes on as it would have
    dealer = state._dealer
    if state.given and deal is not None and (i < len(deal.reshuffles) or dealer is None):
        if i >= len(deal.reshuffles):
            raise IllegalAction(
                f"seat {s} cannot be served: the deck runs out and deal {state.hand_no} "
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
                f"seat {s} cannot be served: reshuffle {i} of deal {state.hand_no} must be "
                f"the {len(pile)} discarded cards, but it {' and '.join(why)}"
            )
        return order
    # a live game: shuffle and keep the order for the record (docs/rules.md §4.2); a copy
    # without a generator of its own shuffles from system randomness
    rng = dealer.for_deal(state.hand_no, i) if dealer is not None else random.Random()
    deal_shuffle(rng, pile)
    if deal is not None:
        state.dealt = deal._replace(reshuffles=(*deal.reshuffles, tuple(pile)))
        state._amend_deal(state.dealt)
    return pile
