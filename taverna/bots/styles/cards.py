"""Muggins cards opponents: a defensive and an aggressive player (docs/rules.md §2).

Both claim every score of their own and call Muggins! on every missed one (they never
forget). The unknown cards are those not in the seat's hand, the pile or the discards.
"""

from __future__ import annotations

from collections.abc import Callable

from ...games.base import View
from ...games.cards import VALUE, CardAction, Cards, card_id
from ..cards import points_of

GAME = Cards.game


def _unknown(view: View) -> list[int]:
    seen = {card_id(c) for c in (*view["hand"], *view["pile"], *view["discards"])}
    return [VALUE[c] for c in range(52) if c not in seen]


def _scoring_plays(plays: list[CardAction]) -> list[CardAction]:
    """The plays as made: a card that scores goes with its claim (a free point is
    never left to a Muggins! call)."""
    claimed = {a.card for a in plays if a.type == "play" and a.claim}
    return [a for a in plays if a.type != "play" or a.claim or a.card not in claimed]


def defensive(view: View, plays: list[CardAction]) -> CardAction:
    """Leave the next player nothing to score. For each card it counts the points an
    unseen card would score on the new total, on average and at worst, and the share
    of unseen cards that would not fit under the limit (the next player says go); half
    of its own points weigh against that."""
    total, limit = view["total"], view["limit"]
    unknown = _unknown(view)

    def value(a: CardAction) -> float:
        new = total + VALUE[a.card]
        replies = [points_of(new, u, limit) for u in unknown if new + u <= limit]
        mean = sum(replies) / len(unknown) if unknown else 0.0
        worst = max(replies, default=0)
        blocked = 1 - len(replies) / len(unknown) if unknown else 1.0
        own = points_of(total, VALUE[a.card], limit)
        return 0.5 * own - 2 * mean - 0.2 * worst + 3 * blocked + 0.02 * VALUE[a.card]

    return _best(plays, value)


def aggressive(view: View, plays: list[CardAction]) -> CardAction:
    """Score now and set up its own next score: the points of the card, and the most
    one of its remaining cards would score after an average reply; the next player's
    chances never enter its reckoning."""
    total, limit = view["total"], view["limit"]
    hand = [VALUE[card_id(c)] for c in view["hand"]]
    unknown = _unknown(view)

    def value(a: CardAction) -> float:
        v = VALUE[a.card]
        new = total + v
        rest = hand[:]
        rest.remove(v)
        follow = 0.0
        fits = [u for u in unknown if new + u <= limit]
        for u in fits:
            after = new + u
            follow += max(
                (points_of(after, w, limit) for w in rest if after + w <= limit), default=0
            )
        follow = follow / len(fits) if fits else 0.0
        return points_of(total, v, limit) + 0.8 * follow + 0.05 * v

    return _best(plays, value)


def _best(plays: list[CardAction], value: Callable[[CardAction], float]) -> CardAction:
    """The best play by ``value``; a go when it is the only move."""
    made = _scoring_plays(plays)
    cards = [a for a in made if a.type == "play"]
    return max(cards, key=value) if cards else made[0]
