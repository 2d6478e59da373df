"""Eleven by hand, for `taverna bench eleven`: the same rules, random plays, every
eleven claimed, no protocol and no events."""

from __future__ import annotations

import random
import time
from typing import Any


def minimal(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    deals = random.Random(seed + 1)
    hands_done = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            scores = [0] * seats
            k = 0
            while True:
                cards = list(range(20))
                deals.shuffle(cards)
                hands = [cards[i * 3 : i * 3 + 3] for i in range(seats)]
                stock = cards[seats * 3 :]
                turn, total, won = (k + 1) % seats, 0, False
                last = turn
                while any(hands):
                    while not hands[turn]:
                        turn = (turn + 1) % seats
                    card = hands[turn].pop(rng.randrange(len(hands[turn])))
                    actions += 1
                    total += card // 2 + 1
                    if total == 11:
                        total = 0
                        scores[turn] += 2
                        actions += 1
                        if scores[turn] >= 5:
                            won = True
                            break
                    elif total > 11:
                        total = card // 2 + 1
                    if stock:
                        hands[turn].append(stock.pop(0))
                    last = turn
                    turn = (turn + 1) % seats
                hands_done += 1
                k += 1
                if won:
                    break
                scores[last] += 1
                if scores[last] >= 5:
                    break
    elapsed = time.perf_counter() - start
    return {
        "hands_per_second": round(hands_done / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
    }
