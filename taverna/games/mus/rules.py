"""The shape of a Mus hand, in the numbers the engine speaks (docs/rules.md §3).

Four seats in two pairs: seat ``s`` plays for pair ``s & 1`` (seats 0 and 2
against 1 and 3). A hand is the mus phase, then the four lance slots, each with
its betting, then the count; stones make games, games make cows, cows the match.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from typing import Final

SEATS: Final = 4
HAND_SIZE: Final = 4
#: stones that win a game
GAME_STONES: Final = 40

# lance slots; the fourth slot is Juego, or Punto when nobody has juego
GRANDE: Final = 0
CHICA: Final = 1
PARES: Final = 2
JUEGO: Final = 3
#: a lance by its slot, Punto last (the fourth slot when nobody has juego)
LANCE_NAMES: Final = ("grande", "chica", "pares", "juego", "punto")
LANCE_TITLES: Final = ("Grande", "Chica", "Pares", "Juego", "Punto")

# phases
MUS_PHASE: Final = 0
DISCARD: Final = 1
SPEAK: Final = 2
ANSWER: Final = 3
IDLE: Final = 4
PHASE_NAMES: Final = ("mus", "discard", "speak", "answer", "idle")

# how a lance slot ended
PENDING: Final = 0
IN_PASS: Final = 1
ACCEPTED: Final = 2
REFUSED: Final = 3
SKIPPED: Final = 4
ALONE: Final = 5
ORDAGO_ACCEPTED: Final = 6
STATUS_NAMES: Final = ("pending", "pass", "accepted", "refused", "skipped", "alone", "ordago")

#: ORDERS[mano]: the seats in turn order from mano
ORDERS: Final = tuple(tuple((m + i) % SEATS for i in range(SEATS)) for m in range(SEATS))
#: ANSWER_ORDER[s]: the other pair after seat s made a bet, in seat order after it
ANSWER_ORDER: Final = tuple(((s + 1) % SEATS, (s + 3) % SEATS) for s in range(SEATS))


def _answerers_table() -> dict[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """ANSWERERS[speakers][s]: who answers seat s's bet when ``speakers`` (in turn
    order from mano) take part: :data:`ANSWER_ORDER` ``[s]`` less those who do not.

    Every bet asks it, so it is worked out once for every set of speakers.
    """
    table = {}
    for order in ORDERS:
        for m in range(1, 1 << SEATS):
            sp = tuple(x for i, x in enumerate(order) if m >> i & 1)
            table[sp] = tuple(tuple(x for x in ANSWER_ORDER[s] if x in sp) for s in range(SEATS))
    return table


ANSWERERS: Final = _answerers_table()
