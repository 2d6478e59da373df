"""Muggins dominoes opponents: a defensive and an aggressive player (docs/rules.md §1).

Both see only their view: their tiles, the line, the ends and how many tiles each
player holds. The unknown tiles (neither in hand nor on the line) are those the next
player may hold.
"""

from __future__ import annotations

from typing import Final

from ...games.base import View
from ...games.dominoes import TILES, DominoAction, Dominoes, tile_id
from ..dominoes import ALL, best_reply, count_after

GAME: Final = Dominoes.game

#: what a tile the defensive player leaves playable costs it, in points: a blocked
#: player draws, and from an empty boneyard passes
OPEN_TILE: Final = 0.8
#: what the aggressive player counts of the points its own tiles could score next
FOLLOW: Final = 0.6


def _known(view: View) -> tuple[set[int], set[int]]:
    """(the seat's own tiles, the tiles the next player may hold: not seen, and not
    carrying pips that each of its tiles is known to lack — it drew or passed on them)."""
    hand = {tile_id(t) for t in view["hand"]}
    line = {tile_id(t) for t in view["line"]}
    slots = [set(x) for x in view["excluded"][(view["seat"] + 1) % view["seats"]]]
    unseen = ALL - hand - line
    return hand, {u for u in unseen if any(not s.intersection(TILES[u]) for s in slots)}


def defensive(view: View, turn: list[DominoAction]) -> DominoAction:
    """Leave the next player as little as possible. It counts, for each play, the most
    any unseen tile could score in reply (the worst case, not the likely one) and how
    many unseen tiles could be laid at all on the ends it leaves (fewer: the next player
    draws or passes); half of the points it scores now weigh against that."""
    _, unknown = _known(view)

    def value(action: DominoAction) -> float:
        count, ends = count_after(view, action)
        credit = count if count % 5 == 0 else 0
        threat = max((best_reply(ends, u) for u in unknown), default=0)
        left, right = ends[0], ends[1]
        playable = sum(1 for u in unknown if left in TILES[u] or right in TILES[u])
        return 0.5 * credit - threat - OPEN_TILE * playable + 0.1 * sum(TILES[action.tile])

    return max(turn, key=value)  # a play is due: no draw or pass is legal


def aggressive(view: View, turn: list[DominoAction]) -> DominoAction:
    """Score as much as possible now and set up its own next score, whatever the next
    player may do: the points of the play, and part of the most one of its remaining
    tiles would score on the ends it leaves; it never asks what the ends offer the
    next player."""
    hand, _ = _known(view)

    def value(action: DominoAction) -> float:
        count, ends = count_after(view, action)
        credit = count if count % 5 == 0 else 0
        rest = hand - {action.tile}
        follow = max((best_reply(ends, t) for t in rest), default=0)
        return credit + FOLLOW * follow + 0.1 * sum(TILES[action.tile])

    return max(turn, key=value)  # a play is due: no draw or pass is legal
