"""Señas: the signals partners make of what they hold (docs/rules.md §3.8).

A seña is not an action of the game: it changes no stone and no turn. The state
keeps them apart (``Mus.signals``, the record's ``signals``), this module says
which are true and allowed, who catches one, and what each seat may see of it::

    >>> from taverna.games.mus.hands import parse_hand
    >>> holds("duples", parse_hand("12o 3c 1e 2b")), holds("dos_reyes", parse_hand("12o 3c 1e 2b"))
    (True, False)
    >>> draw_catches(7, 0, 0, 1.0), draw_catches(7, 0, 0, 0.0)
    ([1, 3], [])

Readings of docs/rules.md §3.8:

- A seña is true of the hand *as it is* when made (the mus is cut, so no card
  changes until the next deal). *dos reyes*, *dos ases*: one pair (par) of kings,
  of aces; *medias de reyes*, *de ases*, *medias*: three of a kind of kings, of
  aces, of another rank; *duples*: two pairs or four of a kind; *treinta y una*:
  31 points; *juego*: 32 to 40; *treinta*, *veintinueve*: 30, 29 points.
- Partial: a seña that tells part of the hand, when the hand holds more (two kings
  in duples, medias of kings or four kings; medias of kings said of four kings;
  plain medias said of medias de reyes; *juego* said of 31). Refused as
  ``partial_sign``, apart from a plain false one (``false_sign``).
- *Ciego* ("nothing worth a seña") only when none of the ten others is true of
  the hand, whatever the moment: a hand of plain medias may not say ciego before
  Grande, it waits to say medias; a hand of 30 points never says ciego.
- Plain *medias* once the Grande lance has been played (settled: in pass,
  accepted or refused); *treinta*, *veintinueve* once everyone has said "juego
  no" (the juego announcement named nobody: Punto is played).
- No seña in the mus phase (before the first no mus, in any mus round), during
  the discards, nor while a deal is due; so a seña is made while a lance is being
  played. Each seat makes each sign at most once a hand.
- Catching: each opponent of the maker, in seat order after the maker, draws one
  number from a generator of the table's seed and the seña's index in the game;
  it catches the seña when that number is below ``catch``. The deals use other
  generators, so a restart or a replay never draws a catch differently.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from ..base import JSON, IllegalAction
from .hands import CARD_CLASS, DUPLES, MEDIAS, PAR, hand_value
from .rules import ANSWER, DISCARD, GRANDE, IDLE, MUS_PHASE, SEATS, SPEAK

if TYPE_CHECKING:
    from .state import Mus

#: the federation's señas (docs/rules.md §3.8.1), in the rules' order
SIGNS: Final[tuple[str, ...]] = (
    "dos_reyes",
    "dos_ases",
    "medias_reyes",
    "medias_ases",
    "medias",
    "duples",
    "treinta_y_una",
    "juego",
    "treinta",
    "veintinueve",
    "ciego",
)
#: a sign's bit in a seat's mask of signs made this hand
SIGN_BIT: Final = {name: 1 << i for i, name in enumerate(SIGNS)}
#: the signs for people, in English and the Spanish term of art
SIGN_TITLES: Final = {
    "dos_reyes": "dos reyes (two kings)",
    "dos_ases": "dos ases (two aces)",
    "medias_reyes": "medias de reyes (three kings)",
    "medias_ases": "medias de ases (three aces)",
    "medias": "medias (three of a kind)",
    "duples": "duples (two pairs)",
    "treinta_y_una": "treinta y una (juego of 31)",
    "juego": "juego (a juego other than 31)",
    "treinta": "treinta (punto of 30)",
    "veintinueve": "veintinueve (punto of 29)",
    "ciego": "ciego (nothing worth a seña)",
}
#: the reasons a seña is refused (IllegalAction.reason), for clients to translate
REASONS: Final = (
    "unknown_sign",
    "not_a_seat",
    "senas_off",
    "game_over",
    "sign_during_deal",
    "sign_before_mus_cut",
    "sign_during_discard",
    "sign_repeated",
    "partial_sign",
    "false_sign",
    "ciego_not_allowed",
    "medias_before_grande",
    "punto_sign_too_early",
    "punto_not_played",
    "bad_catch",
)

_KING: Final = 7
_ACE: Final = 0


def _facts(hand: Sequence[int]) -> tuple[frozenset[str], frozenset[str]]:
    """(the signs true of ``hand``, the signs it holds part of)."""
    v = hand_value(hand)
    kind, pts = v.pares_kind, v.points
    counts = [0] * 8
    for c in hand:
        counts[CARD_CLASS[c]] += 1
    top = max(range(8), key=lambda k: counts[k])  # the pair or the three of a kind
    true: set[str] = set()
    if kind == PAR and top in (_KING, _ACE):  # a pair of another rank has no seña
        true.add("dos_reyes" if top == _KING else "dos_ases")
    elif kind == MEDIAS:
        true.add("medias_reyes" if top == _KING else "medias_ases" if top == _ACE else "medias")
    elif kind == DUPLES:
        true.add("duples")
    if pts == 31:
        true.add("treinta_y_una")
    elif pts >= 32:
        true.add("juego")
    elif pts == 30:
        true.add("treinta")
    elif pts == 29:
        true.add("veintinueve")
    if not true:
        true.add("ciego")
    part: set[str] = set()
    if counts[_KING] >= 2:
        part.add("dos_reyes")
    if counts[_ACE] >= 2:
        part.add("dos_ases")
    if counts[_KING] >= 3:
        part.add("medias_reyes")
    if counts[_ACE] >= 3:
        part.add("medias_ases")
    if max(counts) >= 3:
        part.add("medias")
    if pts >= 31:
        part.add("juego")
    return frozenset(true), frozenset(part - true)


_FACTS: Final[dict[tuple[int, ...], tuple[frozenset[str], frozenset[str]]]] = {}


def facts(hand: Sequence[int]) -> tuple[frozenset[str], frozenset[str]]:
    """(the signs true of ``hand`` by its cards alone, the signs it holds only part of);
    remembered by the hand's classes (there are 330)."""
    key = tuple(sorted(CARD_CLASS[c] for c in hand))
    out = _FACTS.get(key)
    if out is None:
        out = _FACTS[key] = _facts(hand)
    return out


def holds(sign: str, hand: Sequence[int]) -> bool:
    """Whether ``sign`` is true of ``hand`` by its cards alone (not partial, whatever the
    moment): what a seat that saw the seña knows of the maker's hand."""
    return sign in facts(hand)[0]


def refusal(state: Mus, seat: int, sign: str) -> IllegalAction | None:
    """Why ``seat`` may not make ``sign`` now (None: it may). docs/rules.md §3.8.2."""
    if sign not in SIGN_BIT:
        return IllegalAction(
            f"{sign!r} is not a seña: the señas are {', '.join(SIGNS)}",
            "unknown_sign",
            sign=sign,
        )
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < SEATS:
        return IllegalAction(f"{seat!r} is not a seat of this table (0..3)", "not_a_seat")
    said = f"seat {seat} cannot make the seña {sign}"
    if not state.settings["senas"]:
        return IllegalAction(f"{said}: this table plays without señas", "senas_off", sign=sign)
    if state.over:
        return IllegalAction(f"{said}: the {state.match_unit} is over", "game_over", sign=sign)
    phase = state.phase
    if phase == IDLE:
        return IllegalAction(
            f"{said}: the next hand has not been dealt", "sign_during_deal", sign=sign
        )
    if phase == MUS_PHASE:
        return IllegalAction(
            f"{said}: the mus has not been cut (señas come after the first no mus)",
            "sign_before_mus_cut",
            sign=sign,
        )
    if phase == DISCARD:
        return IllegalAction(
            f"{said} during the discards and their deal", "sign_during_discard", sign=sign
        )
    assert phase in (SPEAK, ANSWER)
    if state.signs_made[seat] & SIGN_BIT[sign]:
        return IllegalAction(
            f"{said}: it has made it already this hand", "sign_repeated", sign=sign
        )
    true, part = facts(state.hands[seat])
    if sign not in true:
        held = " and ".join(x for x in SIGNS if x in true)
        if sign == "ciego":
            return IllegalAction(
                f"{said}: ciego is only for a hand that no other seña fits, "
                f"and this one holds {held}",
                "ciego_not_allowed",
                sign=sign,
                holds=sorted(true, key=SIGNS.index),
            )
        if sign in part:
            return IllegalAction(
                f"{said}: it would tell only part of the hand, which holds {held}",
                "partial_sign",
                sign=sign,
                holds=sorted(true, key=SIGNS.index),
            )
        return IllegalAction(
            f"{said}: its hand does not hold {SIGN_TITLES[sign]}", "false_sign", sign=sign
        )
    if sign == "medias" and state.lance <= GRANDE:
        return IllegalAction(
            f"{said}: plain medias may be signalled only after Grande has been played",
            "medias_before_grande",
            sign=sign,
        )
    if sign in ("treinta", "veintinueve"):
        juego = state.holders[1]
        if juego is None:
            return IllegalAction(
                f"{said}: {sign} is a seña of Punto, once everyone has said juego no, "
                "and juego has not been announced yet",
                "punto_sign_too_early",
                sign=sign,
            )
        if juego:
            return IllegalAction(
                f"{said}: {sign} is a seña of Punto, and seat {juego[0]} has juego",
                "punto_not_played",
                sign=sign,
            )
    return None


def true_signs(state: Mus, seat: int) -> list[str]:
    """The señas ``seat`` may make right now, in :data:`SIGNS` order (docs/rules.md §3.8.2):
    true, not partial, at their moment, not made yet this hand."""
    if (
        state.phase not in (SPEAK, ANSWER)
        or state.over
        or not state.settings["senas"]
        or not 0 <= seat < SEATS
    ):
        return []
    true = facts(state.hands[seat])[0]  # (only these can pass: the others are false)
    return [x for x in SIGNS if x in true and refusal(state, seat, x) is None]


def opponents(seat: int) -> tuple[int, int]:
    """The two seats of the other pair, in seat order after ``seat``."""
    return (seat + 1) % SEATS, (seat + 3) % SEATS


def draw_catches(seed: int, index: int, maker: int, catch: float) -> list[int]:
    """The opponents of ``maker`` who catch seña number ``index`` (from 0) of the game.

    Drawn from a generator of ``(seed, index)`` alone — apart from the deals, whose
    generators are keyed otherwise — so it is the same on a restart or a replay, and
    the same whatever was dealt. Each opponent draws once, in seat order after the
    maker, and catches when the draw is below ``catch`` (0: never; 1: always)::

        >>> draw_catches(3, 5, 2, 0.5) == draw_catches(3, 5, 2, 0.5)
        True
    """
    rng = random.Random(f"taverna/{seed}/signal/{index}")
    return [x for x in opponents(maker) if rng.random() < catch]


def check_catch(maker: int, caught_by: Any) -> list[int]:
    """``caught_by`` as a list of the maker's opponents (IllegalAction if it is not)."""
    if not isinstance(caught_by, (list, tuple)) or any(
        not isinstance(x, int) or isinstance(x, bool) for x in caught_by
    ):
        raise IllegalAction(f"caught_by must be a list of seats, not {caught_by!r}", "bad_catch")
    them = opponents(maker)
    bad = [x for x in caught_by if x not in them]
    if bad or len(set(caught_by)) != len(caught_by):
        raise IllegalAction(
            f"a seña of seat {maker} can be caught only by its opponents {them[0]} and "
            f"{them[1]}, each once, not by {list(caught_by)}",
            "bad_catch",
        )
    return sorted(caught_by, key=them.index)


def visible(entry: JSON, seat: int | None, hand_over: bool) -> JSON | None:
    """What ``seat`` (None: a spectator) may see of the seña ``entry`` (docs/rules.md §3.8.3):
    the maker all of it, with who caught it; the partner and an opponent who caught it
    the seat and sign; any other opponent nothing; a spectator nothing until the hand
    is over, then all of it."""
    maker = entry["seat"]
    if seat is None:
        return dict(entry, caught_by=list(entry["caught_by"])) if hand_over else None
    if seat == maker:
        return dict(entry, caught_by=list(entry["caught_by"]))
    if seat == (maker + 2) % SEATS or seat in entry["caught_by"]:
        return {"seat": maker, "sign": entry["sign"], "after": entry["after"]}
    return None
