"""Mus by hand, for `taverna bench` to compare the engine with (the entry point
group ``taverna.bench``): the same rules and random choices, no protocol, no events,
no checks."""

from __future__ import annotations

import random
import time
from typing import Any


def minimal(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Mus by hand: the same rules and the same random menus, no protocol, no events."""
    from ..games.mus.hands import CARD_CLASS, VALUES, juego_bonus

    del seats  # always four
    rng = random.Random(seed)
    rand = rng.random
    sig = [1 << (3 * c) for c in CARD_CLASS]
    menu = (2, 3, 4, 5)
    hands_done = actions = 0
    stones = [0, 0]
    games = [0, 0]
    mano = rng.randrange(4)
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        for _ in range(20):
            cards = list(range(40))
            rng.shuffle(cards)
            hands = [cards[i * 4 : i * 4 + 4] for i in range(4)]
            deck = cards[16:]
            pile: list[int] = []
            order = [(mano + i) % 4 for i in range(4)]
            while True:  # mus rounds
                all_mus = True
                for _s in order:
                    actions += 1
                    if rand() < 0.5:
                        all_mus = False
                        break
                if not all_mus:
                    break
                for s in order:
                    h = hands[s]
                    m = rng.randrange(1, 16)
                    out = [h[j] for j in range(4) if m >> j & 1]
                    keep = [h[j] for j in range(4) if not m >> j & 1]
                    while len(keep) < 4:
                        if not deck:
                            deck = pile
                            rng.shuffle(deck)
                            pile = []
                        keep.append(deck.pop())
                    pile.extend(out)
                    hands[s] = keep
                    actions += 1
            vals = [VALUES[sig[a] + sig[b] + sig[c] + sig[d]] for a, b, c, d in hands]
            pares_h = [s for s in order if vals[s].pares_kind]
            juego_h = [s for s in order if vals[s].juego]
            punto = not juego_h
            won = -1
            status = [0, 0, 0, 0]  # 0 pass, 1 accepted, 2 refused, 3 skipped/alone
            stake = [0, 0, 0, 0]
            team_of = [-1, -1, -1, -1]
            for lance in range(4):
                if lance == 2:
                    speakers = pares_h
                elif lance == 3 and not punto:
                    speakers = juego_h
                else:
                    speakers = order
                teams = {s & 1 for s in speakers}
                if len(teams) < 2:
                    status[lance] = 3
                    team_of[lance] = teams.pop() if teams else -1
                    continue
                pos = 0
                bets = 0
                cur = prev = 0
                ordago = False
                while True:
                    if bets == 0:
                        s = speakers[pos]
                        actions += 1
                        r = rng.randrange(6)
                        if r == 0:
                            pos += 1
                            if pos == len(speakers):
                                break
                            continue
                        bettor = s
                        bets = 1
                        prev = 1
                        if r == 5:
                            ordago = True
                        else:
                            cur = menu[r - 1]
                    answerers = [x for x in ((bettor + 1) % 4, (bettor + 3) % 4) if x in speakers]
                    settled = False
                    for a in answerers:
                        actions += 1
                        r = rng.randrange(2 if ordago else 7)
                        if r == 0:  # accept
                            status[lance] = 1
                            stake[lance] = cur
                            settled = True
                            break
                        if r == (1 if ordago else 6):  # reject
                            continue
                        prev = cur if bets else 1
                        bets += 1
                        bettor = a
                        if r == 5:
                            ordago = True
                        else:
                            cur += menu[r - 1]
                        break
                    else:
                        status[lance] = 2
                        team_of[lance] = bettor & 1
                        stones[bettor & 1] += prev
                        if stones[bettor & 1] >= 40:
                            won = bettor & 1
                        settled = True
                    if settled:
                        break
                if won >= 0:
                    break
                if status[lance] == 1 and ordago:
                    keys = [
                        v[lance] if lance < 3 else (v.punto if punto else v.juego) for v in vals
                    ]
                    best = speakers[0]
                    for x in speakers:
                        if keys[x] > keys[best]:
                            best = x
                    won = best & 1
                    break
            if won < 0:
                for lance in range(4):
                    if status[lance] == 3 and team_of[lance] < 0:
                        continue
                    if status[lance] == 2 or status[lance] == 3:
                        team = team_of[lance]
                    else:
                        among = (
                            pares_h
                            if lance == 2
                            else (juego_h if lance == 3 and not punto else order)
                        )
                        keys = [
                            v[lance] if lance < 3 else (v.punto if punto else v.juego) for v in vals
                        ]
                        best = among[0]
                        for x in among:
                            if keys[x] > keys[best]:
                                best = x
                        team = best & 1
                    n = stake[lance] if status[lance] == 1 else 0
                    if lance < 2:
                        n = 1 if status[lance] == 0 else n
                    elif lance == 2:
                        n += vals[team].pares_kind + vals[team + 2].pares_kind
                    elif not punto:
                        n += sum(
                            juego_bonus(vals[x].points) for x in (team, team + 2) if vals[x].juego
                        )
                    else:
                        n += 1
                    stones[team] += n
                    if stones[team] >= 40:
                        won = team
                        break
            if won >= 0:
                games[won] += 1
                stones = [0, 0]
            mano = (mano + 1) % 4
            hands_done += 1
    elapsed = time.perf_counter() - start
    return {
        "hands_per_second": round(hands_done / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
    }
