"""What Taverna's bots know of Eleven: make eleven when a card does, claim it, and
otherwise keep the high cards (a greedy player that the search builds on)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from taverna.bots import Strategy
from taverna.games.base import Action, View

from .game import ELEVEN, card_id, value_of

if TYPE_CHECKING:
    from taverna.bots.base import Bot


class ElevenStrategy(Strategy):
    game = "eleven"
    scale = 2.0

    def greedy(self, bot: Bot, view: View, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.type == "play"]
        if not plays:
            return legal[0]
        total = view["total"]

        def worth(a: Action) -> tuple[bool, bool, int]:
            after = total + value_of(card_id(a.to_json()["card"]))
            # eleven first; then leave the next seat no small card to make it with
            return after == ELEVEN, after < ELEVEN - 10 or after > ELEVEN, -after

        return max(plays, key=worth)

    def optional(self, bot: Bot, view: View, legal: list[Action]) -> Action | None:
        claims = [a for a in legal if a.type == "claim"]
        return claims[0] if claims else None
