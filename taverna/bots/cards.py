"""What the bots know about Muggins cards (docs/rules.md §2).

Every level claims its own scores and calls Muggins! on a missed one — unless
it forgets: the bot option ``forget`` is the chance of letting a claim or a
call slip (by level: 0.5 at level 1 down to 0.1 at level 4 and none above;
docs/bots.md, Levels).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from ..games.base import Event, View
from ..games.cards import CARD_STR, VALUE, CardAction, Cards, card_id
from .heuristics import Strategy, pick

if TYPE_CHECKING:
    from .base import Bot

#: the chance of forgetting a claim or a call by bot (a level sets its own: taverna.bots.levels)
FORGET: Final = {"random": 0.5, "beginner": 0.5, "greedy": 0.1, "expert": 0.0}
ALL_VALUES: Final = [VALUE[c] for c in range(52)]


def _forgets(bot: Bot) -> bool:
    p = float(bot.options.get("forget", FORGET.get(bot.name, 0.0)))
    return p > 0 and bot.rng.random() < p


def _window(view: View) -> list[object]:
    """What identifies one unclaimed score: the round, the pile so far, the scores (as
    JSON values: it is kept in the bot's memory, which may travel as JSON)."""
    pending = view.get("pending") or {}
    return [
        view["round"],
        len(view["discards"]),
        list(view["pile"]),
        list(view["scores"]),
        pending.get("seat"),
        list(pending.get("credits", ())),
    ]


def optional(bot: Bot, view: View, legal: list[CardAction]) -> CardAction | None:
    """Claim our own score, call Muggins! on a missed one (unless we forget).

    A bot makes up its mind once per unclaimed score: asked again about the
    same window (the server asks at every pause), it gives the same answer, so
    ``forget`` is the chance of missing a score, not of missing one poll.
    """
    for a in legal:
        if a.type in ("claim", "muggins"):
            key = _window(view)
            memo = bot.memory.get("forgot")
            if memo is None or memo[0] != key:
                memo = [key, _forgets(bot)]
                bot.memory["forgot"] = memo
            return None if memo[1] else a
    return None


def slip(bot: Bot, view: View, legal: list[CardAction], action: CardAction) -> CardAction:
    """A scoring play made without its claim, as often as the bot forgets claims.

    The score is then pending: the bot may still claim it (if it does not
    forget that too) and every opponent may call Muggins! (docs/rules.md §2.7).
    """
    if action.type == "play" and action.claim:
        bare = Cards.play_action(action.seat, action.card, claim=False)
        if bare in legal and _forgets(bot):
            return bare
    return action


def points_of(total: int, value: int, limit: int) -> int:
    """What a play scores at once: a multiple of five its total, the limit 2
    (docs/rules.md §2.6)."""
    new = total + value
    if new == limit:
        return 2 + (new if new % 5 == 0 else 0)
    return new if new % 5 == 0 else 0


#: weights of the greedy choice (tuned against random and greedy play)
RISK: Final = 1.2  # the points the next player can expect to score on the new total
FOLLOW: Final = 1.0  # the points we can expect to score on our next turn
KEEP: Final = 1.5  # holding a five or a ten for a multiple of five


def greedy(bot: Bot, view: View, legal: list[CardAction]) -> CardAction:
    """Score now; keep fives and tens; avoid totals the next player can score on,
    prefer those we can score on after a reply."""
    plays = [a for a in legal if a.type in ("play", "go")]
    total, limit = view["total"], view["limit"]
    hand = [VALUE[card_id(c)] for c in view["hand"]]
    seen = {card_id(c) for c in view["hand"]} | {card_id(c) for c in view["pile"]}
    seen |= {card_id(c) for c in view["discards"]}
    unknown = [VALUE[c] for c in range(52) if c not in seen]
    best: tuple[float, CardAction] | None = None
    for a in plays:
        if a.type == "go":
            return a
        if not a.claim and any(b.claim and b.card == a.card for b in plays):
            continue  # always claim with the play: a free point is never left
        v = VALUE[a.card]
        new = total + v
        score = points_of(total, v, limit)
        risk = follow = 0.0
        if new < limit and unknown:
            rest = hand[:]
            rest.remove(v)
            for u in unknown:
                after = new + u
                if after > limit:
                    continue
                risk += points_of(new, u, limit)
                follow += max(
                    (points_of(after, w, limit) for w in rest if after + w <= limit), default=0
                )
            risk /= len(unknown)
            follow /= len(unknown)
        keep = KEEP if v in (5, 10) and not score else 0.0  # fives and tens hit multiples
        value = score - RISK * risk + FOLLOW * follow - keep + 0.05 * v + 0.01 * bot.rng.random()
        if best is None or value > best[0]:
            best = (value, a)
    assert best is not None, "no play or go in the legal actions"
    return best[1]


def beginner(bot: Bot, view: View, legal: list[CardAction]) -> CardAction:
    """A beginner's play: it counts by tens, so it sees a score only when the total
    makes a multiple of ten or reaches the limit (and claims it); a 15 or a 25 it
    makes without seeing it, unclaimed. Otherwise it sheds its highest card, never
    thinking of what the next player can score on the new total."""
    plays = [a for a in legal if a.type == "play"]
    if not plays:
        return next((a for a in legal if a.type == "go"), legal[0])
    total, limit = int(view["total"]), int(view["limit"])

    def seen(card: int) -> bool:
        new = total + VALUE[card]
        return new == limit or new % 10 == 0

    cards = sorted({a.card for a in plays}, key=lambda c: (VALUE[c], c))
    spotted = [c for c in cards if seen(c)]
    card = spotted[-1] if spotted else cards[-1]
    claim = seen(card)
    return next(
        (a for a in plays if a.card == card and a.claim == claim),
        next(a for a in plays if a.card == card),
    )


def rollout(state: Cards, rng: random.Random) -> None:
    """Mostly the best immediate score, sometimes random; always claims."""
    turn = state.turn_seat
    if turn is None:
        acts = state.legal_actions()
        state.step(pick(rng, acts))
        return
    acts = state.legal_actions(turn)
    if rng.random() < 0.75:
        total = state.total
        limit = state.limit
        best = -1.0
        choice = None
        for b in acts:
            if b.type == "play":
                p = points_of(total, VALUE[b.card], limit) * 4 + rng.random()
                if p > best:
                    best, choice = p, b
        a = choice if choice is not None else pick(rng, acts)
    else:
        a = pick(rng, acts)
    if a.type == "play" and not a.claim:
        twin = Cards.play_action(turn, a.card, claim=True)
        if twin in acts:
            a = twin
    elif a.type == "muggins":
        a = next((b for b in acts if b.type in ("play", "go")), a)
    state.step(a)


def search_actions(state: Cards, seat: int) -> list[CardAction]:
    """The turn player's real choices: each card once (claimed when it scores), or go."""
    acts = state.legal_actions(seat)
    out: list[CardAction] = []
    for a in acts:
        claimed = a.type == "play" and Cards.play_action(seat, a.card, claim=True)
        if a.type == "go" or (a.type == "play" and (a.claim or claimed not in acts)):
            out.append(a)
    return out or acts


def explain(view: View, action: CardAction, events: list[Event] | None) -> dict[str, Any] | None:
    """What the move scores now, as the engine says it (docs/rules.md §2.6, §2.7): a
    play's points, a claim's or a Muggins! call's credit."""
    seat = view["seat"]
    points = 0
    for e in events or ():
        if e["type"] in ("play", "claim", "muggins") and e["seat"] == seat:
            points += e["points"]
    if points > 0:
        return {"key": "scores", "points": points}
    return None


def describe(card: int) -> str:
    return CARD_STR[card]


class CardsStrategy(Strategy[Cards, CardAction]):
    """Muggins cards: claim and call (unless forgetting), score now, short rollouts."""

    game = "muggins-cards"
    scale = 10.0
    depth = 12

    def greedy(self, bot: Bot, view: View, legal: list[CardAction]) -> CardAction:
        return greedy(bot, view, legal)

    def beginner(self, bot: Bot, view: View, legal: list[CardAction]) -> CardAction:
        return beginner(bot, view, legal)

    def optional(self, bot: Bot, view: View, legal: list[CardAction]) -> CardAction | None:
        return optional(bot, view, legal)

    def slip(self, bot: Bot, view: View, legal: list[CardAction], action: CardAction) -> CardAction:
        return slip(bot, view, legal, action)

    def rollout(self, state: Cards, rng: random.Random) -> None:
        rollout(state, rng)

    def actor(self, state: Cards) -> int | None:
        return state.turn_seat

    def search_actions(self, state: Cards, seat: int) -> list[CardAction]:
        return search_actions(state, seat)

    def explain(
        self, bot: Bot, view: View, action: CardAction, events: list[Event] | None
    ) -> dict[str, Any] | None:
        return explain(view, action, events)
