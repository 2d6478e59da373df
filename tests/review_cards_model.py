"""A small reference model of Muggins cards written from docs/rules.md §2 alone.

It shares nothing with :mod:`taverna.games.cards` but the card notation: hands
are sets of card names, the stock a list (top first). It answers the
questions the review compares — legal actions, scores, whose turn, the
unclaimed score, who wins — and :func:`play_against_model` plays a random
game on the engine and the model side by side.
"""

from __future__ import annotations

import json
import random
from typing import Any

from taverna.games.cards import Cards


def value(card: str) -> int:
    """A=1, 2–9 face, 10/J/Q/K=10 (docs/rules.md §2.1)."""
    rank = card[:-1]
    return {"A": 1, "J": 10, "Q": 10, "K": 10}.get(rank) or int(rank)


class CardsModel:
    def __init__(self, seats: int, settings: dict[str, Any]) -> None:
        self.n = seats
        self.target = settings["target"]
        self.limit = settings["limit"]
        self.hand_size = settings["hand_size"]
        self.muggins = settings["muggins"]
        self.on_last = settings["muggins_on_last"]
        self.scores = [0] * seats
        self.over = False
        self.winner: int | None = None
        self.dealer: int | None = None
        self.pending: tuple[int, list[int]] | None = None  # scorer, credits in order
        self.turn: int | None = None
        self.awaiting = True

    # ------------------------------------------------------------ dealing

    def begin(self, hands: list[list[str]], stock: list[str], dealer: int | None) -> None:
        # the first dealer is drawn; then the deal passes to the next seat
        self.dealer = dealer if self.dealer is None else (self.dealer + 1) % self.n
        self.hands = [set(h) for h in hands]
        self.stock = list(stock)
        self.total = 0
        self.last: int | None = None
        self.gone: set[int] = set()
        self.turn = (self.dealer + 1) % self.n  # the player after the dealer leads
        self.awaiting = False

    # ------------------------------------------------------------ queries

    def active(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def first_active_after(self, seat: int) -> int | None:
        for i in range(1, self.n + 1):
            j = (seat + i) % self.n
            if self.active(j):
                return j
        return None

    def fitting(self, seat: int) -> list[str]:
        return [c for c in self.hands[seat] if self.total + value(c) <= self.limit]

    def points(self, total: int) -> int:
        if total == self.limit:
            return 2
        return total if total % 5 == 0 else 0

    def no_draw(self) -> bool:
        return self.hand_size == 7  # Deal-Seven: no drawing at all

    def legal(self) -> set[str]:
        out: set[str] = set()
        if self.over:
            return out
        if self.turn is not None:
            s = self.turn
            fits = self.fitting(s)
            if not fits:
                out.add(json.dumps({"seat": s, "type": "go"}))
            final = sum(len(h) for h in self.hands) == 1 and (not self.stock or self.no_draw())
            for c in fits:
                out.add(json.dumps({"seat": s, "type": "play", "card": c}))
                t = self.total + value(c)
                scored = self.points(t) or (final and self.on_last and t != self.limit)
                if self.muggins and scored:
                    out.add(json.dumps({"seat": s, "type": "play", "card": c, "claim": True}))
        if self.pending:
            owner = self.pending[0]
            for j in range(self.n):
                kind = "claim" if j == owner else "muggins"
                out.add(json.dumps({"seat": j, "type": kind}))
        return out

    # ------------------------------------------------------------ actions

    def credit(self, seat: int, points: int) -> bool:
        self.scores[seat] += points
        if self.scores[seat] >= self.target:
            self.over, self.winner, self.turn, self.pending = True, seat, None, None
            return True
        return False

    def new_pile(self, last: int) -> None:
        self.total, self.last, self.gone = 0, None, set()
        self.turn = self.first_active_after(last)

    def apply(self, a: dict[str, Any]) -> None:
        kind, s = a["type"], a["seat"]
        if kind in ("claim", "muggins"):
            assert self.pending is not None
            owner, credits = self.pending
            assert (owner == s) == (kind == "claim")
            self.pending = None
            for p in credits:
                if self.credit(s, p):
                    return
            return
        assert s == self.turn
        self.pending = None  # the next play or go closes the window
        if kind == "go":
            assert not self.fitting(s)
            if self.stock and not self.no_draw():
                self.hands[s].add(self.stock.pop(0))
            self.gone.add(s)
            if all(j in self.gone for j in range(self.n) if self.active(j)):
                last = self.last
                assert last is not None
                if self.on_last:
                    self.pending = (last, [1])
                elif self.credit(last, 1):
                    return
                self.new_pile(last)
            else:
                self.turn = self.first_active_after(s)
            return
        card, claim = a["card"], a.get("claim", False)
        assert card in self.hands[s] and self.total + value(card) <= self.limit
        self.hands[s].remove(card)
        self.total += value(card)
        self.last, self.gone = s, set()
        total = self.total
        points = self.points(total)
        final = all(not h for h in self.hands) and (not self.stock or self.no_draw())
        if points:
            if not self.muggins or claim:
                if self.credit(s, points):
                    return
            else:
                self.pending = (s, [points])
        if not self.no_draw():
            while self.stock and len(self.hands[s]) < self.hand_size:
                self.hands[s].add(self.stock.pop(0))
        if final:
            if total != self.limit:
                if self.on_last and not claim:
                    if self.pending:
                        self.pending[1].append(1)
                    else:
                        self.pending = (s, [1])
                elif self.credit(s, 1):
                    return
            self.turn, self.awaiting = None, True
        elif total == self.limit:
            self.new_pile(s)
        else:
            self.turn = self.first_active_after(s)


def play_against_model(seed: int, seats: int, settings: dict[str, Any]) -> Any:
    """Play a random game on the engine and the model; the first disagreement, or None."""
    rng = random.Random(seed)
    state = Cards.new(seats, settings, seed=seed)
    model = CardsModel(seats, state.settings)
    used = 0
    steps = 0
    while True:
        while len(state.deals_used) > used:
            d = Cards.deal_json(state.deals_used[used])
            model.begin(d["hands"], d["stock"], d.get("dealer") if used == 0 else None)
            used += 1
            if model.dealer != state.dealer or model.turn != state.turn:
                return {"round": used - 1, "dealer": state.dealer, "model dealer": model.dealer}
        if state.over or steps >= 3000:
            return None
        legal = {json.dumps(a.to_json()) for a in state.legal_actions()}
        if legal != model.legal():
            return {"step": steps, "engine only": sorted(legal - model.legal())[:4],
                    "model only": sorted(model.legal() - legal)[:4]}  # fmt: skip
        turn = state.turn if state.turn >= 0 else None
        expected = set() if model.over else {model.turn} - {None}
        if model.pending and not model.over:
            expected = set(range(seats))
        if set(state.to_act) != expected or (turn != model.turn and not model.over):
            return {"step": steps, "to_act": state.to_act, "model turn": model.turn}
        a = json.loads(rng.choice(sorted(legal)))
        state.apply(Cards.parse_action(a, seats))
        model.apply(a)
        steps += 1
        if (state.scores, state.over, state.winner) != (model.scores, model.over, model.winner):
            return {"step": steps, "action": a, "engine": state.scores, "model": model.scores}
