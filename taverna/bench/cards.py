"""Muggins cards by hand, for `taverna bench` to compare the engine with (the entry point
group ``taverna.bench``): the same rules and random choices, no protocol, no events,
no checks."""

from __future__ import annotations

import random
import time
from typing import Any


def minimal(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Muggins cards by hand: same rules, random moves, no protocol, no events.

    Default table (limit 31, five cards, target 61, muggins). Moves are drawn
    like random play through the protocol draws them: a scoring card may be
    played with or without its claim, and while a score is unclaimed every
    seat's claim or Muggins! call is one more choice.
    """
    rng = random.Random(seed)
    limit, k, target = 31, 5, 61
    values = [min(i // 4 + 1, 10) for i in range(52)]
    randrange = rng.randrange
    rounds = actions = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    scores = [0] * seats
    dealer = randrange(seats)
    pending = 0  # unclaimed points: any seat may claim or call them
    while time.perf_counter() < deadline:
        for _ in range(20):
            deck = values[:]
            rng.shuffle(deck)
            hands = [deck[i * k : (i + 1) * k] for i in range(seats)]
            stock = deck[seats * k :]
            rounds += 1
            held = seats * k
            turn = (dealer + 1) % seats
            total = gos = 0
            last = winner = -1
            while winner < 0:
                hand = hands[turn]
                room = limit - total
                moves = []  # (card index, claim)
                for i, v in enumerate(hand):
                    if v <= room:
                        moves.append((i, False))
                        t = total + v
                        if t % 5 == 0 or t == limit:
                            moves.append((i, True))
                n_moves = len(moves) or 1
                r = randrange(n_moves + seats) if pending else randrange(n_moves)
                actions += 1
                if r >= n_moves:  # a claim or a Muggins! call
                    who = r - n_moves
                    scores[who] += pending
                    pending = 0
                    if scores[who] >= target:
                        winner = who
                    continue
                pending = 0  # the window closes
                if moves:
                    i, claim = moves[r]
                    total += hand.pop(i)
                    held -= 1
                    last = turn
                    gos = 0
                    pts = 2 if total == limit else total if total % 5 == 0 else 0
                    if pts:
                        if claim:
                            scores[turn] += pts
                            if scores[turn] >= target:
                                winner = turn
                                break
                        else:
                            pending = pts
                    if stock and len(hand) < k:
                        hand.append(stock.pop())
                        held += 1
                    if not held:
                        if total != limit:
                            scores[turn] += 1
                            if scores[turn] >= target:
                                winner = turn
                        break
                    if total == limit:
                        total = 0
                else:
                    if stock:
                        hand.append(stock.pop())
                        held += 1
                    gos += 1
                    if gos >= sum(1 for h in hands if h):
                        scores[last] += 1
                        if scores[last] >= target:
                            winner = last
                            break
                        total = gos = 0
                        turn = last
                turn = (turn + 1) % seats
                while not hands[turn]:
                    turn = (turn + 1) % seats
            if winner >= 0:
                scores = [0] * seats
                pending = 0
                dealer = randrange(seats)
            else:
                dealer = (dealer + 1) % seats
    elapsed = time.perf_counter() - start
    return {
        "hands_per_second": round(rounds / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
    }
