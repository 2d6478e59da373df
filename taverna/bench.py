"""`taverna bench`: random self-play through the real protocol, with figures.

For each seat count it plays random games for a fixed time through
``legal_actions``/``apply`` and prints hands (card rounds) per second and
actions per second, next to a minimal hand-written loop of the same game
(no protocol, no events, no checks) so the protocol's cost is visible.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from .games import get_game
from .games.base import SettingsError, State


def deep_sizeof(obj: Any, seen: set[int] | None = None) -> int:
    """Bytes held by ``obj`` and what only it refers to (not classes, rngs or shared constants)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, type | random.Random):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_sizeof(k, seen) + deep_sizeof(v, seen) for k, v in obj.items())
    elif isinstance(obj, list | tuple | set | frozenset):
        size += sum(deep_sizeof(x, seen) for x in obj)
    elif hasattr(obj, "__slots__") and not isinstance(obj, int | str | float | bool):
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(obj, name):
                    size += deep_sizeof(getattr(obj, name), seen)
    return size


#: random play may never reach the target (dominoes subtracts); start afresh after this
HAND_CAP = 100


def protocol_loop(cls: type[State], seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Random self-play through the protocol for ``seconds``; counts hands and actions."""
    rng = random.Random(seed)
    hands = actions = games = 0
    choice = rng.choice
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    # one seeded rng deals every game, as the minimal loop's does (no reseeding per game)
    deals = random.Random(seed + 1)
    state = cls.new(seats, rng=deals)
    while True:
        for _ in range(200):
            if state.over or state.hand_no >= HAND_CAP:
                hands += state.hand_no + (1 if state.over else 0)
                games += 1
                state = cls.new(seats, rng=deals)
            state.apply(choice(state.legal_actions()))
            actions += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    hands += state.hand_no
    return {
        "seats": seats,
        "hands_per_second": round(hands / elapsed, 1),
        "actions_per_second": round(actions / elapsed, 1),
        "games": games,
        "state_bytes": deep_sizeof(state.clone()),
    }


# ----------------------------------------------------- minimal loops


def minimal_dominoes(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
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


def minimal_cards(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
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


def minimal_mus(seats: int, seconds: float, seed: int = 1) -> dict[str, Any]:
    """Mus by hand: the same rules and the same random menus, no protocol, no events."""
    from .games.mus.hands import CARD_CLASS, VALUES, juego_bonus

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


MINIMAL: dict[str, Callable[[int, float, int], dict[str, Any]]] = {
    "muggins-dominoes": minimal_dominoes,
    "muggins-cards": minimal_cards,
    "mus": minimal_mus,
}


def parse_seat_counts(cls: type[State], text: str) -> list[int]:
    """``--seats 2,3``: seat counts the game allows; raises ValueError saying which is not."""
    counts = []
    for part in text.split(","):
        part = part.strip()
        try:
            n = int(part)
        except ValueError:
            raise ValueError(
                f"give seat counts separated by commas, e.g. 2,3; {part!r} is not a number"
            ) from None
        try:
            counts.append(cls.check_seats(n))
        except SettingsError as e:
            raise ValueError(str(e)) from None
    return counts


def run_bench(
    game: str, seconds: float = 3.0, as_json: bool = False, seats: str | None = None
) -> int:
    try:
        cls = get_game(game)
    except KeyError as e:
        print(f"taverna bench: {e.args[0]}", file=sys.stderr)
        return 2
    if seats is not None:
        try:
            counts = parse_seat_counts(cls, seats)
        except ValueError as e:
            print(f"taverna bench: --seats: {e}", file=sys.stderr)
            return 2
    else:
        counts = list(range(cls.min_seats, cls.max_seats + 1))
    minimal = MINIMAL.get(cls.game)
    results = []
    # Alternate short slices of the two loops and keep each one's best slice, so
    # that another process stealing the CPU for a while does not skew the ratio.
    slices = max(1, round(seconds / 0.5))
    part = seconds / slices
    for n in counts:
        row: dict[str, Any] | None = None
        best_base = 0.0
        for k in range(slices):
            r = protocol_loop(cls, n, part, seed=1 + k)
            if row is None or r["hands_per_second"] > row["hands_per_second"]:
                row = r
            if minimal is not None:
                best_base = max(best_base, minimal(n, part, 1 + k)["hands_per_second"])
        assert row is not None
        if minimal is not None:
            row["minimal_hands_per_second"] = best_base
            row["protocol_cost"] = round(best_base / row["hands_per_second"], 2)
        results.append(row)
    if as_json:
        print(json.dumps({"game": cls.game, "results": results}))
        return 0
    from rich.table import Table

    from .console import stdout_console

    table = Table(
        title=f"{cls.game}: random self-play, {seconds:g} s per loop and seat count "
        f"(best of {slices} alternating slices)"
    )
    unit = cls.deal_unit
    table.add_column("seats", justify="right")
    table.add_column(f"{unit}s/s", justify="right")
    table.add_column("actions/s", justify="right")
    table.add_column(f"minimal loop {unit}s/s", justify="right")
    table.add_column("protocol cost", justify="right")
    table.add_column("state bytes", justify="right")
    for r in results:
        table.add_row(
            str(r["seats"]),
            f"{r['hands_per_second']:,.0f}",
            f"{r['actions_per_second']:,.0f}",
            f"{r['minimal_hands_per_second']:,.0f}" if "minimal_hands_per_second" in r else "-",
            f"{r['protocol_cost']:.2f}×" if "protocol_cost" in r else "-",
            f"{r['state_bytes']:,}",
        )
    stdout_console().print(table)
    return 0
