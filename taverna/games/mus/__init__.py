"""Mus (docs/rules.md §3) on the game protocol.

Four seats in two pairs (seats 0 and 2 against 1 and 3). A hand is the mus
phase (mus / no mus, discards), then the four lances — Grande, Chica, Pares,
Juego or Punto — each with its betting, then the showdown and the count.
Stones make games, games make cows, cows make the match.

The hot data are plain ints: a card is 0..39 (:mod:`.hands`), a hand a
tuple of four of them, a pair (team) is ``seat & 1``.

    >>> deal = Mus.parse_deal({
    ...     "hands": [["12o", "12c", "3e", "1b"], ["11o", "11c", "5e", "4b"],
    ...               ["2o", "1c", "4e", "5b"], ["10o", "7c", "7e", "7o"]],
    ...     "deck": [c for c in CARD_STR if c not in {
    ...         "12o", "12c", "3e", "1b", "11o", "11c", "5e", "4b",
    ...         "2o", "1c", "4e", "5b", "10o", "7c", "7e", "7o"}],
    ...     "mano": 0}, 4, {}, 0)
    >>> s = Mus.start(4, {}, [deal])
    >>> [e["type"] for e in s.apply(Mus.parse_action({"seat": 0, "type": "no_mus"}, 4))]
    ['no_mus', 'lance']
    >>> s.apply(Mus.parse_action({"seat": 2, "type": "bet", "amount": 2}, 4))
    Traceback (most recent call last):
    ...
    taverna.games.base.IllegalAction: seat 2 cannot bet: it is seat 0's turn to speak in Grande

The package, one module per concept:

- :mod:`.state` — :class:`Mus`: the game's facts, its fields, legal actions and
  apply, which hands each action to the module of its phase;
- :mod:`.dealing` — dealing, mus or no mus, the discards and reshuffles;
- :mod:`.betting` — the lances: who speaks, bets, raises, órdagos, answers;
- :mod:`.count` — the end of a hand: who wins each lance and why, the count,
  games, cows and the match;
- :mod:`.figures` — a player's own figures of a match (lances won, órdagos);
- :mod:`.views` — a seat's view, and full states sampled from one;
- :mod:`.notation` — actions and deals as values, and their record notation;
- :mod:`.hands` — the cards and what a hand is worth in each lance;
- :mod:`.rules` — the numbers: seats, phases, lances, how a lance ended.

Readings of the betting rules (docs/rules.md §3.6), where the
text leaves the turn order implicit:

- Before any bet, the players taking part speak once each in turn order from
  mano; passing then does not stop a player from answering a later bet.
- A bet (envite, raise or órdago) is answered by the other pair's players
  taking part, in seat order starting after the player who made it: the
  seat right after the bettor first, then its partner. Only the player
  holding the answer may speak; the bettor's partner never answers its own
  pair's bet.
- Whoever holds the answer may accept, raise, call órdago or reject. A raise
  or an órdago makes that player the new bettor: the first pair answers it
  "in the same way", again starting after the player who made it. There is
  no limit to the number of raises; an órdago can only be accepted or
  rejected.
- A rejection passes the answer to the rejecting player's partner if it
  takes part and has not yet answered *this* bet; each bet (the first one,
  every raise, an órdago) has its own answer.
- A refused bet credits its makers at once with the stake before it (1 if it
  opened the lance). A raise of N on a stake S makes the stake S + N, so a
  refused raise is worth S.
- Bet and raise amounts may be any whole number N ≥ 2; :meth:`Mus.legal_actions`
  lists 2 to 5 (``BET_MENU``) so that bots and random play have a finite menu.
- An accepted órdago ends the game for the lance's winner without changing
  the stones (the game_end event says ``"reason": "ordago"``).
- A game ended at once by a refused bet ends the hand without a showdown;
  the cards are not shown.
- The deck "runs out" when a card must be served and none is left: the
  reshuffle happens then, with every discard of the hand still in the pile
  except the cards the player being served has just discarded.
- ``real_31`` is exactly 7-7-7-sota (a card of rank 10), as the seed writes it.
"""

from __future__ import annotations

from .hands import (
    CARD_STR,
    CLASS_NAMES,
    CLASS_ORDER,
    N_CARDS,
    PAIR_OF,
    PARES_NAMES,
    VALUE_OF_PAIRS,
    HandValue,
    card_id,
    card_str,
    juego_bonus,
)
from .notation import (
    ACCEPT,
    ACTION_TYPES,
    BET,
    BET_MENU,
    DISCARD_CARDS,
    MUS,
    NO_MUS,
    ORDAGO,
    PASS,
    RAISE,
    REJECT,
    MusAction,
    MusDeal,
)
from .rules import (
    ACCEPTED,
    ALONE,
    ANSWER,
    ANSWER_ORDER,
    ANSWERERS,
    CHICA,
    DISCARD,
    GAME_STONES,
    GRANDE,
    HAND_SIZE,
    IDLE,
    IN_PASS,
    JUEGO,
    LANCE_NAMES,
    LANCE_TITLES,
    MUS_PHASE,
    ORDAGO_ACCEPTED,
    ORDERS,
    PARES,
    PENDING,
    PHASE_NAMES,
    REFUSED,
    SEATS,
    SKIPPED,
    SPEAK,
    STATUS_NAMES,
)
from .state import Mus

__all__ = [
    "ACCEPT",
    "ACCEPTED",
    "ACTION_TYPES",
    "ALONE",
    "ANSWER",
    "ANSWERERS",
    "ANSWER_ORDER",
    "BET",
    "BET_MENU",
    "CARD_STR",
    "CHICA",
    "CLASS_NAMES",
    "CLASS_ORDER",
    "DISCARD",
    "DISCARD_CARDS",
    "GAME_STONES",
    "GRANDE",
    "HAND_SIZE",
    "IDLE",
    "IN_PASS",
    "JUEGO",
    "LANCE_NAMES",
    "LANCE_TITLES",
    "MUS",
    "MUS_PHASE",
    "NO_MUS",
    "N_CARDS",
    "ORDAGO",
    "ORDAGO_ACCEPTED",
    "ORDERS",
    "PAIR_OF",
    "PARES",
    "PARES_NAMES",
    "PASS",
    "PENDING",
    "PHASE_NAMES",
    "RAISE",
    "REFUSED",
    "REJECT",
    "SEATS",
    "SKIPPED",
    "SPEAK",
    "STATUS_NAMES",
    "VALUE_OF_PAIRS",
    "HandValue",
    "Mus",
    "MusAction",
    "MusDeal",
    "card_id",
    "card_str",
    "juego_bonus",
]
