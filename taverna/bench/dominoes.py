"""Muggins dominoes by hand, for `taverna bench` to compare the engine with (the entry point
group ``taverna.bench``): the same rules and random choices, no protocol, no events,
no checks."""

from __future__ import annotations

import random
import time
from typing import Any


def minimal(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Muggins dominoes by hand: same rules, random moves, no protocol, no events."""
    rng = random.Random(seed)
    tiles = [(a, b) for a in range(7) for b in range(a, 7)]
    k = 7 if seats == 2 else 5
    target = 250 if seats == 2 else 200
    hands_done = actions = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    scores = [0] * seats
    opener = rng.randrange(seats)
    while time.perf_counter() < deadline:
        for _ in range(20):
            deck = tiles[:]
            rng.shuffle(deck)
            hands = [deck[i * k : (i + 1) * k] for i in range(seats)]
            bone = deck[seats * k :]
            turn = opener
            t = hands[turn].pop(rng.randrange(k))
            left, right = t
            ldbl = rdbl = t[0] == t[1]
            lone = True
            actions += 1
            winner = None
            c = left + right
            if c % 5 == 0:
                scores[turn] += c
            while True:
                turn = (turn + 1) % seats
                hand = hands[turn]
                moves = [
                    (i, e) for i, x in enumerate(hand) for e in (0, 1) if (left, right)[e] in x
                ]
                while not moves and bone:
                    hand.append(bone.pop())
                    actions += 1
                    x = hand[-1]
                    moves = [(len(hand) - 1, e) for e in (0, 1) if (left, right)[e] in x]
                if not moves:
                    actions += 1
                    if not bone and not any(left in x or right in x for h in hands for x in h):
                        break
                    continue
                i, e = rng.choice(moves)
                a, b = hand.pop(i)
                actions += 1
                if e == 0:
                    left = b if a == left else a
                    ldbl = a == b
                else:
                    right = b if a == right else a
                    rdbl = a == b
                lone = False
                c = (left * 2 if ldbl else left) + (right * 2 if rdbl else right)
                if c and c % 5 == 0:
                    scores[turn] += c
                    if scores[turn] >= target:
                        scores = [0] * seats
                        break
                if not hand:
                    winner = turn
                    break
                if not bone and not any(left in x or right in x for h in hands for x in h):
                    break
            del lone
            for s, h in enumerate(hands):
                p = sum(a + b for a, b in h)
                scores[s] -= (p + 2) // 5 * 5
            opener = winner if winner is not None else rng.randrange(seats)
            hands_done += 1
    elapsed = time.perf_counter() - start
    return {
        "hands_per_second": round(hands_done / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
    }
