"""What the bots know about Muggins dominoes (docs/rules.md §1)."""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ..games.base import Event, View
from ..games.dominoes import IS_DOUBLE, LEFT, TILES, DominoAction, Dominoes, tile_id, tile_str
from .heuristics import Strategy

if TYPE_CHECKING:
    from .base import Bot

ALL: Final = frozenset(range(len(TILES)))


def _end_value(pip: int, double: bool) -> int:
    return pip * 2 if double else pip


def count_after(view: View, action: DominoAction) -> tuple[int, tuple[int, int, bool, bool]]:
    """The count after ``action`` and the new ends (left, right, left double, right double)."""
    a, b = action.a, action.b
    dbl = a == b
    if view["ends"] is None:
        return a + b, (a, b, dbl, dbl)
    left, right = view["ends"]
    ldbl, rdbl = view["doubles_at_ends"]
    if action.end == LEFT:
        left, ldbl = a, dbl  # written as it lies: the outer half is the new left end
    else:
        right, rdbl = b, dbl
    return _end_value(left, ldbl) + _end_value(right, rdbl), (left, right, ldbl, rdbl)


def best_reply(ends: tuple[int, int, bool, bool], tile: int) -> int:
    """The most a reply with ``tile`` could score on these ends."""
    left, right, ldbl, rdbl = ends
    p, q = TILES[tile]
    best = 0
    for pip, outer_is_other in ((left, True), (right, False)):
        for x, y in ((p, q), (q, p)):
            if x != pip:
                continue
            dbl = x == y
            if outer_is_other:
                count = _end_value(y, dbl) + _end_value(right, rdbl)
            else:
                count = _end_value(left, ldbl) + _end_value(y, dbl)
            if count % 5 == 0 and count > best:
                best = count
    return best


def greedy(bot: Bot, view: View, legal: list[DominoAction]) -> DominoAction:
    """Score now; then avoid setting up the next player, shed heavy tiles, keep variety."""
    hand = {tile_id(t) for t in view["hand"]}
    line = {tile_id(t) for t in view["line"]}
    unknown = ALL - hand - line
    nxt = (view["seat"] + 1) % view["seats"]
    p_hold = view["hand_sizes"][nxt] / len(unknown) if unknown else 0.0
    best: tuple[float, DominoAction] | None = None
    for action in legal:
        if action.type != "play":
            return action  # a draw or a pass is then the only move
        count, ends = count_after(view, action)
        credit = count if count % 5 == 0 else 0
        risk = p_hold * sum(best_reply(ends, u) for u in unknown)
        rest = hand - {action.tile}
        variety = len({pip for t in rest for pip in TILES[t]})
        value = (
            credit
            - 0.5 * risk
            + 0.4 * sum(TILES[action.tile])
            + 0.5 * variety
            + 0.01 * bot.rng.random()
        )
        if best is None or value > best[0]:
            best = (value, action)
    assert best is not None
    return best[1]


#: the chance that a beginner sees that a play scores (else it plays its heaviest tile)
BEGINNER_SEES: Final = 0.3


def beginner(bot: Bot, view: View, legal: list[DominoAction]) -> DominoAction:
    """A beginner's play: the heaviest tile in hand, to be rid of its pips, without
    counting the ends — it sees a score now and then (:data:`BEGINNER_SEES`), and then
    takes the biggest one; it never thinks of what the next player could score."""
    plays = [a for a in legal if a.type == "play"]
    if not plays:
        return legal[0]  # a draw or a pass is then the only move
    rng = bot.rng
    if rng.random() < BEGINNER_SEES:
        counts = [(count_after(view, a)[0], a) for a in plays]
        scoring = [(c, a) for c, a in counts if c > 0 and c % 5 == 0]
        if scoring:
            best = max(c for c, _ in scoring)
            return rng.choice([a for c, a in scoring if c == best])
    heaviest = max(sum(TILES[a.tile]) for a in plays)
    return rng.choice([a for a in plays if sum(TILES[a.tile]) == heaviest])


def explain(
    view: View, action: DominoAction, legal: list[DominoAction], events: list[Event] | None
) -> dict[str, Any] | None:
    """What the play scores now (the engine's credit, docs/rules.md §1.5: the ends a multiple of
    five); else the double it keeps for later when one could have been played."""
    if action.type != "play":
        return None
    seat = view["seat"]
    points = sum(e["credit"] for e in events or () if e["type"] == "play" and e["seat"] == seat)
    if points > 0:
        return {"key": "scores", "points": points}
    doubles = {a.tile for a in legal if a.type == "play" and IS_DOUBLE[a.tile]}
    doubles.discard(action.tile)
    if doubles:
        kept = max(doubles, key=lambda t: TILES[t][0])
        return {"key": "keeps_double", "tile": tile_str(kept)}
    return None


class DominoesStrategy(Strategy[Dominoes, DominoAction]):
    """Muggins dominoes: the greedy choice weighs the count, the reply and variety."""

    game = "muggins-dominoes"
    scale = 25.0

    def greedy(self, bot: Bot, view: View, legal: list[DominoAction]) -> DominoAction:
        return greedy(bot, view, legal)

    def beginner(self, bot: Bot, view: View, legal: list[DominoAction]) -> DominoAction:
        return beginner(bot, view, legal)

    def explain(
        self, bot: Bot, view: View, action: DominoAction, events: list[Event] | None
    ) -> dict[str, Any] | None:
        legal = [a for a in bot.legal(view) if isinstance(a, DominoAction)]
        return explain(view, action, legal, events)
