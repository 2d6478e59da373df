"""Compute the Mus hand-strength tables the bots use (taverna/bots/data/mus_strength.json).

Run from the repository root (about two minutes on one core)::

    .venv/bin/python scripts/mus_strength.py            # writes the data file
    .venv/bin/python scripts/mus_strength.py --deals 500 --out /tmp/quick.json

Everything depends only on the *classes* of a hand's cards (docs/rules.md §3.1:
threes are kings, twos are aces; suits never matter), so a hand is one of the
330 multisets of the eight classes, written as four class digits in
ascending order (``"0077"``: two aces and two kings; classes 0 ace, 1 four,
2 five, 3 six, 4 seven, 5 sota, 6 caballo, 7 king).

For every hand the script deals the 36 other cards at random to the three
other seats, ``--deals`` times (seeded), and reads each deal from the four
positions our seat can have (its distance from mano, 0 = mano .. 3 = postre;
the partner sits two seats away). It records, per hand and position:

- ``grande``, ``chica``: the probability that *our pair* wins the lance;
- ``pares``: when our hand has pares, the probability that our pair wins the
  contested lance, per announcement pattern (``patterns``: does the partner
  hold pares, do one or two opponents hold them), smoothed towards the
  hand's overall figure when a pattern is rare; ``null`` without pares;
- ``juego``: likewise when our hand has juego; ``punto``: without juego, the
  probability of winning Punto given that nobody has juego;
- ``pares_win``, ``juego_win``: the unconditional chance our pair wins the
  lance (skipped lances count as not won; Punto counts under juego), which
  folds in the chance of holding and of being alone;
- ``ev``: the expected net stones of the hand for our pair when every lance
  goes in pass (Grande and Chica 1, Pares and Juego the holders' bonuses,
  Punto 1).

``keep`` gives, for every multiset of 0 to 3 kept cards and position, the
expected ``ev`` after drawing the rest from the deck (exact enumeration over
the classes left in a 40-card deck without the kept cards): the discard with
the best ``keep`` is the greedy discard.

``game_win[a][b]`` is the chance that a pair on ``a`` stones beats a pair on
``b`` stones to 40, when every hand is played in pass (random deals, the
mano alternating): used for órdagos and to value stones near the end of a
game. Lances are counted in order and counting stops at 40, as in the rules.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations_with_replacement
from math import comb
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from taverna.games.mus.hands import (  # noqa: E402
    CARD_CLASS,
    N_CARDS,
    VALUES,
    juego_bonus,
)

FORMAT = "taverna-mus-strength/1"
CLASSES = 8
#: cards of each class in the 40-card deck (eight aces with the twos, eight kings with the threes)
CLASS_COUNT = [CARD_CLASS.count(c) for c in range(CLASSES)]
PATTERNS = ("alone-1", "alone-2", "partner-1", "partner-2")  # partner holds? opponents holding
SMOOTH = 8.0  # pseudo-deals pulling a rare pattern towards the hand's overall figure
SIGW = tuple(1 << (3 * c) for c in CARD_CLASS)
ORDERS = tuple(tuple((m + i) % 4 for i in range(4)) for m in range(4))
TEAM = (0, 1, 0, 1)


def hand_keys() -> list[tuple[int, ...]]:
    """The 330 class multisets, in the order of the data file."""
    return list(combinations_with_replacement(range(CLASSES), 4))


def key_str(classes: tuple[int, ...]) -> str:
    return "".join(str(c) for c in classes)


def value_of_classes(classes: tuple[int, ...]):  # type: ignore[no-untyped-def]
    return VALUES[sum(1 << (3 * c) for c in classes)]


def _best(keys: list[int], order: tuple[int, ...], among: int = 15) -> int:
    """The winning seat (ties to the one closest to mano) among the seats in bitmask ``among``."""
    best = -1
    top = -1
    for s in order:
        if among >> s & 1 and keys[s] > top:
            best, top = s, keys[s]
    return best


def simulate_hand(
    classes: tuple[int, ...], deals: int, rng: random.Random
) -> dict[str, list]:  # type: ignore[type-arg]
    """Our seat is 0 (partner 2) holding ``classes``; deal the others ``deals`` times."""
    own: list[int] = []
    pool = list(range(N_CARDS))
    for c in classes:
        card = next(x for x in pool if CARD_CLASS[x] == c and x not in own)
        own.append(card)
    rest = [x for x in pool if x not in own]
    v0 = value_of_classes(classes)
    zeros = lambda: [0.0] * 4  # noqa: E731
    g_w, c_w, ev = zeros(), zeros(), zeros()
    pw, jw = zeros(), zeros()
    p_pat = [[0, 0] for _ in range(16)]  # pos*4 + pattern -> [wins, deals]
    j_pat = [[0, 0] for _ in range(16)]
    pt = [[0, 0] for _ in range(4)]
    for _ in range(deals):
        rng.shuffle(rest)
        vals = [
            v0,
            VALUES[SIGW[rest[0]] + SIGW[rest[1]] + SIGW[rest[2]] + SIGW[rest[3]]],
            VALUES[SIGW[rest[4]] + SIGW[rest[5]] + SIGW[rest[6]] + SIGW[rest[7]]],
            VALUES[SIGW[rest[8]] + SIGW[rest[9]] + SIGW[rest[10]] + SIGW[rest[11]]],
        ]
        gk = [v.grande for v in vals]
        ck = [v.chica for v in vals]
        pk = [v.pares for v in vals]
        jk = [v.juego for v in vals]
        ptk = [v.punto for v in vals]
        pares_mask = sum(1 << s for s in range(4) if pk[s])
        juego_mask = sum(1 << s for s in range(4) if jk[s])
        for m in range(4):
            order = ORDERS[m]
            pos = (0 - m) % 4
            net = 0
            if TEAM[_best(gk, order)] == 0:
                g_w[pos] += 1
                net += 1
            else:
                net -= 1
            if TEAM[_best(ck, order)] == 0:
                c_w[pos] += 1
                net += 1
            else:
                net -= 1
            if pares_mask:
                w = _best(pk, order, pares_mask)
                team = TEAM[w]
                stones = vals[team].pares_kind + vals[team + 2].pares_kind
                if team == 0:
                    pw[pos] += 1
                    net += stones
                else:
                    net -= stones
                if pk[0] and pares_mask & 0b1010:
                    pat = (2 if pk[2] else 0) + (1 if pk[1] and pk[3] else 0)
                    cell = p_pat[pos * 4 + pat]
                    cell[1] += 1
                    cell[0] += team == 0
            if juego_mask:
                w = _best(jk, order, juego_mask)
                team = TEAM[w]
                stones = sum(juego_bonus(vals[x].points) for x in (team, team + 2) if jk[x])
                if team == 0:
                    jw[pos] += 1
                    net += stones
                else:
                    net -= stones
                if jk[0] and juego_mask & 0b1010:
                    pat = (2 if jk[2] else 0) + (1 if jk[1] and jk[3] else 0)
                    cell = j_pat[pos * 4 + pat]
                    cell[1] += 1
                    cell[0] += team == 0
            else:
                team = TEAM[_best(ptk, order)]
                pt[pos][1] += 1
                if team == 0:
                    jw[pos] += 1
                    pt[pos][0] += 1
                    net += 1
                else:
                    net -= 1
            ev[pos] += net

    def patterns(cells: list[list[int]], pos: int) -> list[float]:
        mine = cells[pos * 4 : pos * 4 + 4]
        wins = sum(c[0] for c in mine)
        n = sum(c[1] for c in mine)
        overall = wins / n if n else 0.5
        return [round((w + SMOOTH * overall) / (k + SMOOTH), 3) for w, k in mine]

    r = lambda xs: [round(x / deals, 3) for x in xs]  # noqa: E731
    out: dict[str, list] = {  # type: ignore[type-arg]
        "grande": r(g_w),
        "chica": r(c_w),
        "pares_win": r(pw),
        "juego_win": r(jw),
        "ev": [round(x / deals, 3) for x in ev],
        "pares": [patterns(p_pat, pos) for pos in range(4)] if v0.pares else [],
        "juego": [patterns(j_pat, pos) for pos in range(4)] if v0.juego else [],
        "punto": [round(w / n, 3) if n else 0.5 for w, n in pt] if not v0.juego else [],
    }
    return out


def keep_table(hands: list[tuple[int, ...]], ev: list[list[float]]) -> dict[str, list[float]]:
    """Expected ``ev`` after keeping a multiset of 0..3 cards and drawing the rest."""
    index = {h: i for i, h in enumerate(hands)}
    out: dict[str, list[float]] = {}
    for k in range(4):
        for kept in combinations_with_replacement(range(CLASSES), k):
            left = CLASS_COUNT[:]
            for c in kept:
                left[c] -= 1
            total = sum(left)
            m = 4 - k
            acc = [0.0] * 4
            norm = comb(total, m)
            for drawn in combinations_with_replacement(range(CLASSES), m):
                ways = 1
                for c in set(drawn):
                    ways *= comb(left[c], drawn.count(c))
                if not ways:
                    continue
                p = ways / norm
                row = ev[index[tuple(sorted(kept + drawn))]]
                for pos in range(4):
                    acc[pos] += p * row[pos]
            out[key_str(kept)] = [round(x, 3) for x in acc]
    return out


def hand_outcomes(n: int, rng: random.Random) -> list[list[tuple[int, int]]]:
    """Credits of ``n`` random hands played in pass, in counting order, for pair A (0) or B (1)."""
    cards = list(range(N_CARDS))
    out = []
    for _ in range(n):
        rng.shuffle(cards)
        vals = [
            VALUES[SIGW[cards[i]] + SIGW[cards[i + 1]] + SIGW[cards[i + 2]] + SIGW[cards[i + 3]]]
            for i in (0, 4, 8, 12)
        ]
        order = ORDERS[rng.randrange(4)]
        credits = [
            (TEAM[_best([v.grande for v in vals], order)], 1),
            (TEAM[_best([v.chica for v in vals], order)], 1),
        ]
        pk = [v.pares for v in vals]
        mask = sum(1 << s for s in range(4) if pk[s])
        if mask:
            t = TEAM[_best(pk, order, mask)]
            credits.append((t, vals[t].pares_kind + vals[t + 2].pares_kind))
        jk = [v.juego for v in vals]
        mask = sum(1 << s for s in range(4) if jk[s])
        if mask:
            t = TEAM[_best(jk, order, mask)]
            credits.append(
                (t, sum(juego_bonus(vals[x].points) for x in (t, t + 2) if jk[x]))
            )
        else:
            credits.append((TEAM[_best([v.punto for v in vals], order)], 1))
        out.append(credits)
    return out


def game_win_table(outcomes: list[list[tuple[int, int]]], target: int = 40) -> list[list[float]]:
    """W[a][b]: the chance pair A on ``a`` stones reaches ``target`` before pair B on ``b``."""
    w = [[0.0] * target for _ in range(target)]
    n = len(outcomes)
    # every hand credits at least two stones, so fill by decreasing a + b
    for total in range(2 * target - 2, -1, -1):
        for a in range(max(0, total - target + 1), min(target - 1, total) + 1):
            b = total - a
            acc = 0.0
            for credits in outcomes:
                x, y = a, b
                result = -1.0
                for team, k in credits:
                    if team == 0:
                        x += k
                        if x >= target:
                            result = 1.0
                            break
                    else:
                        y += k
                        if y >= target:
                            result = 0.0
                            break
                acc += w[x][y] if result < 0 else result
            w[a][b] = acc / n
    return [[round(x, 4) for x in row] for row in w]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=8000, help="random deals per hand (8000)")
    ap.add_argument("--outcomes", type=int, default=3000, help="hands for game_win (3000)")
    ap.add_argument("--seed", type=int, default=2024, help="random seed (2024)")
    ap.add_argument(
        "--out",
        type=Path,
        default=ROOT / "taverna" / "bots" / "data" / "mus_strength.json",
        help="output file (the package data file)",
    )
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    t0 = time.perf_counter()
    hands = hand_keys()
    per_hand = []
    for i, h in enumerate(hands):
        per_hand.append(simulate_hand(h, args.deals, rng))
        if i % 33 == 32:
            print(f"  {i + 1}/{len(hands)} hands, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    data: dict[str, object] = {
        "format": FORMAT,
        "made_by": "scripts/mus_strength.py",
        "seed": args.seed,
        "deals_per_hand": args.deals,
        "hand_outcomes": args.outcomes,
        "classes": ["ace", "4", "5", "6", "7", "sota", "caballo", "king"],
        "patterns": list(PATTERNS),
        "hands": [key_str(h) for h in hands],
    }
    for field in ("grande", "chica", "pares", "juego", "punto", "pares_win", "juego_win", "ev"):
        data[field] = [ph[field] for ph in per_hand]
    data["keep"] = keep_table(hands, [ph["ev"] for ph in per_hand])
    data["game_win"] = game_win_table(hand_outcomes(args.outcomes, rng))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    size = args.out.stat().st_size
    print(f"wrote {args.out} ({size // 1024} KiB) in {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
