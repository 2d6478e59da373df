"""What the bots know about Mus (docs/rules.md §3).

Hand strength comes from a table computed by simulation and shipped as
package data (``data/mus_strength.json``, made by ``scripts/mus_strength.py``):
for each of the 330 hands (multisets of card classes), each lance and each
position (distance from mano), the chance that the hand's *pair* wins the
lance against random hands; the expected stones of the hand in pass; the
expected value of every keep (for discards); and the chance of winning a
game from any score (for órdagos and the search's rewards).

One policy, :func:`decide`, serves the ``greedy`` bot (from its view) and the
``expert``'s rollouts (from a sampled state, each seat with its own cards
only): mus or no mus by the hand's stones in pass, the discard with the best
keep, and envites from the lance's win probability — bet when strong, accept
when the game-win chance with the stake beats the one after refusing, raise
when very strong, órdago when near-certain or when the game is nearly lost.
An opponent's bet is a signal: the answering hand's probability is
discounted for each bet the other pair made in the lance.

Señas (docs/rules.md §3.8): both levels make every seña their view allows
(``may_signal``); the greedy policy reads those it sees when it opens a lance
(:func:`told_p`), and the expert's samples deal the other hands consistently
with them (``Mus.sample``). The option ``senas=ignore`` makes a bot read none,
``senas=off`` neither read nor make any.

The expert samples hidden hands consistent with the announcements, weighted
by how likely the greedy policy would have played the betting seen so far
(:func:`sampler`), branches only on its own decisions of the current phase
or lance and lets the other seats play the policy (:func:`branches`), and
scores a rollout by the change of each pair's expected games won
(:func:`standing`).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import bisect
import json
import math
import random
from collections.abc import Callable, Hashable, Sequence
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any, ClassVar, Final

from ..games.base import Event, State, View
from ..games.mus import (
    ACCEPT,
    ACCEPTED,
    ACTION_TYPES,
    ANSWER,
    BET,
    CHICA,
    DISCARD,
    DISCARD_CARDS,
    GAME_STONES,
    GRANDE,
    IN_PASS,
    JUEGO,
    MUS,
    MUS_PHASE,
    NO_MUS,
    ORDAGO,
    PARES,
    PASS,
    RAISE,
    REFUSED,
    REJECT,
    SPEAK,
    Mus,
    MusAction,
)
from ..games.mus.hands import CARD_CLASS, card_id, evaluate, hand_value, juego_bonus
from ..games.mus.senas import holds
from .heuristics import Strategy

if TYPE_CHECKING:
    from .base import Bot

# ------------------------------------------------------------------ the tables

DATA_FORMAT: Final = "taverna-mus-strength/1"
_SIGW: Final = tuple(1 << (3 * c) for c in CARD_CLASS)


class Strength:
    """The shipped hand-strength tables, indexed by hand (0..329) and position (0..3)."""

    def __init__(self, data: dict[str, Any]) -> None:
        if data.get("format") != DATA_FORMAT:
            raise ValueError(f"not a {DATA_FORMAT} file: format {data.get('format')!r}")
        self.data = data
        self.hands: list[str] = data["hands"]
        #: class-multiset signature (as in mus.hands.VALUES) -> hand index
        self.index = {sum(1 << (3 * int(ch)) for ch in key): i for i, key in enumerate(self.hands)}
        self.grande: list[list[float]] = data["grande"]
        self.chica: list[list[float]] = data["chica"]
        self.pares: list[list[list[float]]] = data["pares"]
        self.juego: list[list[list[float]]] = data["juego"]
        self.punto: list[list[float]] = data["punto"]
        self.ev: list[list[float]] = data["ev"]
        self.keep: dict[str, list[float]] = data["keep"]
        self.game_win: list[list[float]] = data["game_win"]

    def hand(self, cards: Sequence[int]) -> int:
        """The hand index of four card ids."""
        sig = 0
        for c in cards:
            sig += _SIGW[c]
        return self.index[sig]

    def keep_value(self, kept: Sequence[int], pos: int) -> float:
        """Expected stones in pass after keeping these card ids and drawing the rest."""
        key = "".join(sorted(str(CARD_CLASS[c]) for c in kept))
        return self.keep[key][pos]

    def win(self, us: int, them: int) -> float:
        """The chance that a pair on ``us`` stones wins the game against one on ``them``."""
        if us >= GAME_STONES:
            return 1.0
        if them >= GAME_STONES:
            return 0.0
        return self.game_win[max(us, 0)][max(them, 0)]


@cache
def strength() -> Strength:
    """The tables, loaded once from the package data."""
    text = resources.files(__package__).joinpath("data/mus_strength.json").read_text("utf-8")
    return Strength(json.loads(text))


# ------------------------------------------------------------------ the policy

#: tunable thresholds of the policy (see docs/bots.md)
PARAMS: Final[dict[str, float]] = {
    "no_mus": -0.5,  # cut the mus when the hand's stones in pass reach this
    "bet": 0.5,  # open a lance with a bet from this win probability
    "bet_big": 0.82,  # ... and bet more from this one
    "ordago_open": 0.95,  # near the end, open with órdago when the lance is near-certain
    "raise": 0.8,  # raise an answer from this (discounted) probability
    "ordago_answer": 0.93,
    "trust": 0.85,  # the share of the other pair's bets taken as honest (see discount)
    "partner_bet": 0.55,  # how strong a partner's bet says the partner is
    "bluff": 0.04,  # chance of a small bet with a weak hand
    "desperate": 0.25,  # below this game-win chance, near the end, órdago is worth it
    "read": 1.0,  # 0: never lower ``trust`` for a pair that bets too often (see Reading)
    # 1: read the señas seen when answering a bet too, not only when opening a lance
    # (measured worse: docs/bots.md, "What señas are worth")
    "senas_answer": 0.0,
}

#: expected bonus stones of a holder whose hand is unknown (par/medias/duples; juego 2 or 3)
PARES_BONUS: Final = 1.3
JUEGO_BONUS: Final = 2.3


def pattern(seat: int, holders: Sequence[int]) -> int:
    """The announcement pattern index of the data file for ``seat`` (holding itself)."""
    partner = (seat ^ 2) in holders
    opponents = ((seat ^ 1) in holders) + ((seat ^ 3) in holders)
    return 2 * partner + (opponents == 2)


def lance_p(
    t: Strength, hand: int, pos: int, lance: int, punto: bool, seat: int, holders: Sequence[int]
) -> float:
    """The chance that ``seat``'s pair wins ``lance`` with this hand, others random."""
    if lance == GRANDE:
        return t.grande[hand][pos]
    if lance == CHICA:
        return t.chica[hand][pos]
    if lance == PARES:
        row = t.pares[hand]
        return row[pos][pattern(seat, holders)] if row else 0.0
    if punto:
        prow = t.punto[hand]
        return prow[pos] if prow else 0.5
    row = t.juego[hand]
    return row[pos][pattern(seat, holders)] if row else 0.0


def _bonuses(
    lance: int, punto: bool, seat: int, holders: Sequence[int], own_points: int, own_kind: int
) -> tuple[float, float]:
    """Expected bonus stones at the showdown for our pair and for theirs if they win the lance."""
    if lance == PARES:
        ours = own_kind + (PARES_BONUS if (seat ^ 2) in holders else 0.0)
        theirs = PARES_BONUS * (((seat ^ 1) in holders) + ((seat ^ 3) in holders))
        return ours, theirs
    if lance == JUEGO:
        if punto:
            return 1.0, 1.0
        ours = juego_bonus(own_points) + (JUEGO_BONUS if (seat ^ 2) in holders else 0.0)
        theirs = JUEGO_BONUS * (((seat ^ 1) in holders) + ((seat ^ 3) in holders))
        return ours, theirs
    return 0.0, 0.0


def speak(
    t: Strength, p: float, us: int, them: int, rng: random.Random, params: dict[str, float]
) -> tuple[int, int]:
    """Open a lance: (PASS|BET|ORDAGO, amount)."""
    if desperate(t, us, them, params) and p >= 0.6:
        return ORDAGO, 0  # the game is nearly lost: a likely lance for the whole game
    if p >= params["ordago_open"] and max(us, them) >= 30:
        return ORDAGO, 0  # near the end a near-certain lance is worth the game
    if p >= params["bet_big"]:
        return BET, 4 if p >= (params["bet_big"] + 1) / 2 else 3
    if p >= params["bet"]:
        return BET, 2
    if rng.random() < params["bluff"]:
        return BET, 2
    return PASS, 0


def desperate(t: Strength, us: int, them: int, params: dict[str, float]) -> bool:
    """Near the end of a game that is nearly lost, an órdago is worth trying."""
    return them >= 30 and t.win(us, them) < params["desperate"]


def answer(
    t: Strength,
    p: float,
    *,
    stake: int,
    prev: int,
    ordago: bool,
    n_bets: int,
    us: int,
    them: int,
    ours: float,
    theirs: float,
    params: dict[str, float],
) -> tuple[int, int]:
    """Answer the other pair's bet with the (already discounted) probability ``p``."""
    refuse = t.win(us, them + prev + round(theirs))
    if ordago:
        return (ACCEPT, 0) if p > refuse + 0.02 else (REJECT, 0)
    if (p >= params["ordago_answer"] and max(us, them) >= 30) or (
        desperate(t, us, them, params) and p >= 0.55
    ):
        return ORDAGO, 0
    if p >= params["raise"] and n_bets < 3:
        return RAISE, 2
    win = t.win(us + stake + round(ours), them)
    lose = t.win(us, them + stake + round(theirs))
    if p * win + (1 - p) * lose >= refuse:
        return ACCEPT, 0
    return REJECT, 0


def discount(
    t: Strength,
    p: float,
    seat: int,
    betting: Sequence[tuple[int, int, int]],
    us: int,
    them: int,
    params: dict[str, float],
    *,
    partner_told: bool = False,
) -> float:
    """The answering pair's chance once the other pair's betting is taken into account.

    ``p`` is the chance against a random hand. A bet says the other pair's
    chance was at least the policy's line ``q`` for it, so, taking hand
    strengths as uniform quantiles, ours is about ``(p - q) / (1 - q)``;
    a share ``1 - trust`` of bets are taken as bluffs. A partner's bet makes
    our pair stronger, a partner's refusal weaker.
    """
    q = 0.0
    partner_bet = False
    partner_rejected = False
    for s, code, amount in betting:
        if code in (BET, RAISE, ORDAGO):
            partner_rejected = False
            if (s ^ seat) & 1:
                if code == BET:
                    q = params["bet"] if amount <= 2 else params["bet_big"]
                elif code == RAISE:
                    q = params["raise"]
                elif desperate(t, them, us, params):
                    q = 0.6
                else:
                    q = params["ordago_open"]
            elif s != seat:
                partner_bet = True
        elif code == REJECT and s == seat ^ 2:
            partner_rejected = True
    if partner_bet and not partner_told:
        p = 1 - (1 - p) * (1 - params["partner_bet"])
    if partner_rejected and not partner_told:
        p *= 0.85
    if q <= 0:
        return p
    honest = max(0.0, (p - q) / (1 - q))
    trust = params["trust"]
    return trust * honest + (1 - trust) * p


# ------------------------------------------------------------------ señas

#: cards of each class in the deck (aces and kings are eight: twos and threes count)
_CLASS_CARDS: Final = tuple(tuple(c for c in range(40) if CARD_CLASS[c] == k) for k in range(8))


@cache
def _every_hand() -> tuple[tuple[tuple[int, ...], float], ...]:
    """Each of the table's 330 hands as four card ids, with how many deals give it."""
    out = []
    for key in strength().hands:
        classes = [int(ch) for ch in key]
        cards: list[int] = []
        weight = 1.0
        for k in set(classes):
            n = classes.count(k)
            cards.extend(_CLASS_CARDS[k][:n])
            weight *= math.comb(len(_CLASS_CARDS[k]), n)
        out.append((tuple(cards), weight))
    return tuple(out)


@cache
def _told_p(
    signs: frozenset[str], lance: int, punto: bool, pos: int, pat: int, held: bool | None
) -> float | None:
    """The mean chance that a seat's pair wins ``lance`` (its announcement pattern
    ``pat``) over the hands that hold every one of ``signs`` and fit what was announced
    of the seat (``held``: whether it holds pares, or juego, in those lances); None
    when no hand does."""
    t = strength()
    total = weight = 0.0
    for cards, w in _every_hand():
        if not all(holds(x, cards) for x in signs):
            continue
        v = hand_value(cards)
        if lance == PARES and held is not None and bool(v.pares_kind) != held:
            continue
        if lance == JUEGO and (v.juego > 0) != (False if punto else bool(held)):
            continue
        h = t.hand(cards)
        if lance == GRANDE:
            p = t.grande[h][pos]
        elif lance == CHICA:
            p = t.chica[h][pos]
        elif lance == PARES:
            row = t.pares[h]
            p = row[pos][pat] if row else 0.0
        elif punto:
            prow = t.punto[h]
            p = prow[pos] if prow else 0.5
        else:
            row = t.juego[h]
            p = row[pos][pat] if row else 0.0
        total += w * p
        weight += w
    return total / weight if weight else None


def told_p(
    p: float,
    seat: int,
    mano: int,
    lance: int,
    punto: bool,
    holders: Sequence[int],
    told: dict[int, frozenset[str]],
) -> float:
    """Our pair's chance in ``lance``, ``p`` (from our hand, the others random), once the
    señas seen are taken into account (docs/rules.md §3.8.2: a seña is always true).

    The table's ``p`` is one minus the chance that neither of us wins: with each hand's
    chance of winning alone ``a``, ``1 - p = (1 - a_me) (1 - a_partner)``, a random
    partner's part being the mean over every hand. A partner's señas put its mean over
    the hands that hold them in place of the mean over all:
    ``1 - p' = (1 - p) (1 - p_told) / (1 - p_all)``. An opponent's seat mirrors it: its
    pair's chance ``1 - p`` is worked out from its side the same way.
    """
    for x, signs in told.items():
        if not signs or x == seat:
            continue
        pat = pattern(x, holders)
        held = (x in holders) if lance >= PARES and not punto else None
        pos = (x - mano) % 4
        known = _told_p(signs, lance, punto, pos, pat, held)
        anyone = _told_p(frozenset(), lance, punto, pos, pat, held)
        if known is None or anyone is None or anyone >= 0.999:
            continue
        if (x ^ seat) & 1 == 0:  # the partner
            p = 1 - (1 - p) * (1 - known) / (1 - anyone)
        else:
            p = p * (1 - known) / (1 - anyone)
    return min(1.0, max(0.0, p))


def _told(bot: Any, view: View) -> dict[int, frozenset[str]]:
    """The señas the bot's seat saw made by others this hand, by seat (none when the
    bot's option ``senas`` is ``ignore`` or ``off``)."""
    if not reads_senas(bot):
        return {}
    seen: dict[int, set[str]] = {}
    for e in view.get("signals", ()):
        if e["seat"] != view["seat"]:
            seen.setdefault(e["seat"], set()).add(e["sign"])
    return {x: frozenset(v) for x, v in seen.items()}


def reads_senas(bot: Any) -> bool:
    """Whether the bot reads the señas it sees (its option ``senas`` is ``read``)."""
    return bool(bot.options.get("senas", "read") == "read")


def best_keep(t: Strength, hand: Sequence[int], pos: int) -> tuple[int, ...]:
    """The cards to discard (1 to 4) whose keep has the highest expected value."""
    best: tuple[float, tuple[int, ...]] | None = None
    n = len(hand)
    for mask in range(1, 1 << n):
        kept = [hand[i] for i in range(n) if not mask >> i & 1]
        v = t.keep_value(kept, pos)
        if best is None or v > best[0]:
            best = (v, tuple(hand[i] for i in range(n) if mask >> i & 1))
    assert best is not None
    return best[1]


def decide(
    seat: int,
    hand: Sequence[int],
    *,
    phase: int,
    mano: int,
    lance: int,
    punto: bool,
    holders: Sequence[int],
    betting: Sequence[tuple[int, int, int]],
    stake: int,
    prev: int,
    ordago: bool,
    n_bets: int,
    stones: Sequence[int],
    rng: random.Random,
    params: dict[str, float] = PARAMS,
    told: dict[int, frozenset[str]] | None = None,
) -> tuple[int, int, tuple[int, ...]]:
    """The policy's choice for ``seat``: (action code, amount, discarded cards);
    ``told``: the señas seen, by seat (:func:`told_p`)."""
    t = strength()
    pos = (seat - mano) % 4
    if phase == DISCARD:
        return DISCARD_CARDS, 0, best_keep(t, hand, pos)
    h = t.hand(hand)
    if phase == MUS_PHASE:
        return (NO_MUS if t.ev[h][pos] >= params["no_mus"] else MUS), 0, ()
    team = seat & 1
    us, them = stones[team], stones[1 - team]
    p = lance_p(t, h, pos, lance, punto, seat, holders)
    if told and (phase == SPEAK or params["senas_answer"]):
        p = told_p(p, seat, mano, lance, punto, holders, told)
    if phase == SPEAK:
        code, amount = speak(t, p, us, them, rng, params)
        return code, amount, ()
    # a partner whose señas were read has told its hand already: its bet or refusal says
    # no more about it (and was made knowing ours), so it is not counted twice
    partner_told = bool(params["senas_answer"]) and told is not None and bool(told.get(seat ^ 2))
    p = discount(t, p, seat, betting, us, them, params, partner_told=partner_told)
    v = evaluate(hand)
    ours, theirs = _bonuses(lance, punto, seat, holders, v.points, v.pares_kind)
    code, amount = answer(
        t,
        p,
        stake=stake,
        prev=prev,
        ordago=ordago,
        n_bets=n_bets,
        us=us,
        them=them,
        ours=ours,
        theirs=theirs,
        params=params,
    )
    return code, amount, ()


# ------------------------------------------------------------------ the greedy bot

_CODE: Final = {name: i for i, name in enumerate(ACTION_TYPES)}


def _view_betting(view: View) -> list[tuple[int, int, int]]:
    return [(b["seat"], _CODE[b["type"]], b.get("amount", 0)) for b in view["betting"]]


def _view_stake(betting: Sequence[tuple[int, int, int]]) -> tuple[int, int, int]:
    """(stake, stake before the last bet, bets made) from a lance's betting, as the engine."""
    stake = prev = n = 0
    for _, code, amount in betting:
        if code == BET:
            prev, stake, n = 1, amount, 1
        elif code == RAISE:
            prev, stake, n = stake, stake + amount, n + 1
        elif code == ORDAGO:
            prev, n = (stake if n else 1), n + 1
    return stake, prev, n


def _holders(view: View) -> list[int]:
    lance = view["lance_slot"]
    if lance == PARES:
        return list(view["announced"]["pares"] or [])
    if lance == JUEGO and not view["punto"]:
        return list(view["announced"]["juego"] or [])
    return []


class Reading:
    """How often the other pair opens a lance with a bet, from what this bot has seen.

    The policy takes bets as signals of strength (``trust``); against a pair
    that bets far more often than a sensible one (random play, a bluffer)
    the signal is worth less, and the bot trusts its own cards more.

    Only the openings of the seat just before ours count: whether it passes
    or bets, we are the next to speak or the first to answer, so we see
    every one of them (counting everything seen would over-count bets,
    which are answered, against passes, which may close the lance unseen).
    """

    PRIOR: ClassVar[float] = 10.0  # pseudo-observations at a sensible rate
    #: about the greedy policy's share of openings with a bet or órdago ...
    SENSIBLE: ClassVar[float] = 0.4
    LOOSE: ClassVar[float] = 0.75  # ... and random play's

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.left = (seat + 3) % 4
        self.seen: set[tuple[int, int]] = set()
        self.bets = 0
        self.openings = 0

    def watch(self, view: View) -> None:
        key = (view["hand_no"], view["lance_slot"])
        if key in self.seen:
            return
        for b in view["betting"]:
            if b["seat"] == self.seat:
                return  # we spoke first: the left seat's opening may go unseen
            if b["seat"] == self.left:
                self.seen.add(key)
                self.openings += 1
                self.bets += b["type"] in ("bet", "ordago")
                return

    def to_json(self) -> dict[str, Any]:
        return {
            "seen": sorted(list(k) for k in self.seen),
            "bets": self.bets,
            "openings": self.openings,
        }

    @classmethod
    def from_json(cls, seat: int, data: dict[str, Any]) -> Reading:
        reading = cls(seat)
        reading.seen = {(int(h), int(lance)) for h, lance in data["seen"]}
        reading.bets = int(data["bets"])
        reading.openings = int(data["openings"])
        return reading

    def trust(self, base: float) -> float:
        """The ``trust`` to give the watched seat's bets."""
        return self.trust_for(self.bets, self.openings, base)

    @classmethod
    def trust_for(cls, bets: int, openings: int, base: float) -> float:
        """The ``trust`` a reader gives a seat that opened ``openings`` lances with ``bets``."""
        rate = (bets + cls.PRIOR * cls.SENSIBLE) / (openings + cls.PRIOR)
        margin = 0.1
        if rate <= cls.SENSIBLE + margin:
            return base
        share = min(1.0, (rate - cls.SENSIBLE - margin) / (cls.LOOSE - cls.SENSIBLE - margin))
        return base - share * (base - 0.2)


class Memory:
    """What a Mus bot remembers over a match: its reading of the other pair, its own openings.

    Kept in the bot's ``memory`` as ``"mus"``; as JSON (:meth:`to_json`) when the bot
    remembers it for a decision made elsewhere, rebuilt from it at its next use.
    """

    def __init__(self, seat: int) -> None:
        self.reading = Reading(seat)
        self.openings = 0
        self.bets = 0

    def to_json(self) -> dict[str, Any]:
        return {"reading": self.reading.to_json(), "openings": self.openings, "bets": self.bets}

    @classmethod
    def from_json(cls, seat: int, data: dict[str, Any]) -> Memory:
        memory = cls(seat)
        memory.reading = Reading.from_json(seat, data["reading"])
        memory.openings = int(data["openings"])
        memory.bets = int(data["bets"])
        return memory

    def opened(self, view: View, action: MusAction) -> None:
        """Count our own opening of a lance (what the seat after us reads of us)."""
        if view["phase"] != "speak" or any(b["seat"] == view["seat"] for b in view["betting"]):
            return
        self.openings += 1
        self.bets += action.type in ("bet", "ordago")


def _memory(bot: Any) -> Memory:
    memory = bot.memory.get("mus")
    if not isinstance(memory, Memory):  # new, or as JSON (Bot.recall)
        memory = Memory(bot.seat) if memory is None else Memory.from_json(bot.seat, memory)
        bot.memory["mus"] = memory
    return memory


def greedy(bot: Any, view: View, legal: list[MusAction]) -> MusAction:
    """The table policy from the bot's view, matched to a legal action."""
    seat = view["seat"]
    phase = ("mus", "discard", "speak", "answer").index(view["phase"])
    betting = _view_betting(view)
    stake, prev, n_bets = _view_stake(betting)
    memory = _memory(bot)
    memory.reading.watch(view)
    params = _params(bot)
    if params["read"]:
        trust = memory.reading.trust(params["trust"])
        if trust != params["trust"]:
            params = {**params, "trust": trust}
    code, amount, cards = decide(
        seat,
        [card_id(c) for c in view["hand"]],
        phase=phase,
        mano=view["mano"],
        lance=view["lance_slot"],
        punto=view["punto"],
        holders=_holders(view),
        betting=betting,
        stake=stake,
        prev=prev,
        ordago=view["ordago"],
        n_bets=n_bets,
        stones=view["stones"],
        rng=bot.rng,
        params=params,
        told=_told(bot, view),
    )
    return _match(legal, code, amount, cards)


def _params(bot: Any) -> dict[str, float]:
    extra = {k: float(v) for k, v in bot.options.items() if k in PARAMS}
    return {**PARAMS, **extra} if extra else PARAMS


def _match(legal: Sequence[MusAction], code: int, amount: int, cards: tuple[int, ...]) -> MusAction:
    """The legal action closest to the policy's choice."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    fallback: MusAction | None = None
    for a in legal:
        if a.code != code:
            continue
        if code in (BET, RAISE):
            if a.amount == amount:
                return a
            if fallback is None or abs(a.amount - amount) < abs(fallback.amount - amount):
                fallback = a
        elif code == DISCARD_CARDS:
            if a.mask == mask:
                return a
        else:
            return a
    if fallback is not None:
        return fallback
    # the policy's choice is not on the menu (e.g. a raise against an órdago): nearest sense
    for want in (ACCEPT,) if code in (RAISE, ORDAGO) else (PASS, REJECT, NO_MUS):
        for a in legal:
            if a.code == want:
                return a
    return legal[0]


# ------------------------------------------------------------------ the beginner

#: the king class (threes count as kings) and the ace class (twos count as aces)
KING: Final = 7
ACE: Final = 0
#: how often a beginner accepts an órdago with nothing for the lance (it hates to fold)
BEGINNER_CALLS: Final = 0.5


def _beginner_reads(hand: Sequence[int], lance: int, punto: bool) -> tuple[bool, bool]:
    """How a beginner reads its hand for ``lance``: (a winner, something in it). It
    counts kings for Grande and aces for Chica, whatever its position and the rest of
    its cards; any pair is a winner in Pares, 31 in Juego."""
    classes = [CARD_CLASS[c] for c in hand]
    v = hand_value(hand)
    if lance == GRANDE:
        return classes.count(KING) >= 2, KING in classes
    if lance == CHICA:
        return classes.count(ACE) >= 2, ACE in classes
    if lance == PARES:
        return v.pares_kind > 0, v.pares_kind > 0
    if punto:
        return v.points >= 28, v.points >= 24
    return v.points == 31, v.juego > 0


def beginner(bot: Any, view: View, legal: list[MusAction]) -> MusAction:
    """A beginner's Mus: cuts the mus with two kings, 31 or medias; keeps kings and
    pairs; bets 2 on Grande with two kings (Chica with two aces, Pares with any pair,
    Juego with 31) and passes otherwise; accepts a bet when it would have made it, and
    an órdago with anything in the lance or, half the time, with nothing. It never raises,
    never opens with an órdago, and neither makes nor reads señas."""
    hand = [card_id(c) for c in view["hand"]]
    classes = [CARD_CLASS[c] for c in hand]
    phase = view["phase"]
    if phase == "mus":
        v = hand_value(hand)
        cut = classes.count(KING) >= 2 or v.points == 31 or v.pares_kind >= 2
        return _match(legal, NO_MUS if cut else MUS, 0, ())
    if phase == "discard":
        gone = [c for c in hand if classes.count(CARD_CLASS[c]) < 2 and CARD_CLASS[c] != KING]
        if not gone:  # nothing it wants to change: the lowest card goes
            gone = [min(hand, key=lambda c: (CARD_CLASS[c], c))]
        return _match(legal, DISCARD_CARDS, 0, tuple(gone))
    winner, something = _beginner_reads(hand, view["lance_slot"], view["punto"])
    if phase == "speak":
        return _match(legal, BET if winner else PASS, 2, ())
    if view["ordago"]:
        calls = something or bot.rng.random() < BEGINNER_CALLS
        return _match(legal, ACCEPT if calls else REJECT, 0, ())
    return _match(legal, ACCEPT if winner else REJECT, 0, ())


# ------------------------------------------------------------------ search hooks


def _state_holders(state: Mus) -> Sequence[int]:
    L = state.lance
    if L == PARES:
        return state.holders[0] or ()
    if L == JUEGO and not state.punto:
        return state.holders[1] or ()
    return ()


def policy_action(state: Mus, rng: random.Random, params: dict[str, float] = PARAMS) -> MusAction:
    """The policy's action for the seat to act, from its own cards (rollouts)."""
    seat = state.turn
    code, amount, cards = decide(
        seat,
        state.hands[seat],
        phase=state.phase,
        mano=state.mano,
        lance=state.lance,
        punto=state.punto,
        holders=_state_holders(state),
        betting=state.betting,
        stake=state.stake,
        prev=state.prev_stake,
        ordago=state.ordago,
        n_bets=state.n_bets,
        stones=state.stones,
        rng=rng,
        params=params,
    )
    if code == RAISE and state.ordago:
        code = ACCEPT
    return MusAction(seat, code, amount, cards)


#: the policy's parameters per pair in the current search's rollouts: set by :func:`sampler`
#: at the start of each search (a search runs to its end before the next one starts)
ROLLOUT_PARAMS: Final[list[dict[str, float]]] = [PARAMS, PARAMS]


def rollout(state: Mus, rng: random.Random) -> None:
    """One policy step: every seat plays the table policy with its own cards."""
    state.step(policy_action(state, rng, ROLLOUT_PARAMS[state.turn & 1]))


def standing(state: Mus) -> list[float]:
    """Each seat's pair's expected games won: games so far plus the current game's chance.

    The change over a rollout is what the search maximises (:func:`reward`),
    so stones count by what they do to the chance of winning the game (a
    stone at 38 is worth more than one at 2) and an órdago is worth a whole
    game.
    """
    per_cow = state.games_per_cow
    won = [state.cows[0] * per_cow + state.games[0], state.cows[1] * per_cow + state.games[1]]
    if state.over:
        # the match's last cow is in ``cows`` and its games are still in ``games``
        assert state.winner is not None
        won[state.winner] -= per_cow
        team = [float(won[0]), float(won[1])]
    else:
        w0 = strength().win(state.stones[0], state.stones[1])
        team = [won[0] + w0, won[1] + 1 - w0]
    return [team[s & 1] for s in range(state.seats)]


def reward(state: Mus, before: list[float]) -> list[float]:
    """Per seat: its pair's gain in expected games minus the other pair's (linear).

    Linear, and the same whether or not the hand ended the match: the
    generic reward (a tanh of the gain, a flat ±1 for a match won or lost)
    overrated ending the match when ahead (an órdago on 38-30 won +1
    whatever it risked) and underrated it when behind.
    """
    after = standing(state)
    g0 = (after[0] - before[0]) - (after[1] - before[1])
    return [g0 if s & 1 == 0 else -g0 for s in range(state.seats)]


def anchor(bot: Any, view: View, legal: list[MusAction]) -> MusAction:
    """The greedy policy's choice: the expert keeps it unless its search clearly beats it."""
    return greedy(bot, view, legal)


#: the bets the search tries (the engine's menu is 2..5 and órdago)
SEARCH_BETS: Final = (2, 4)


#: the search offers an órdago of its own only once a pair has this many stones (or when
#: the game is nearly lost): early on it risks a game the expert's edge would likely win for
#: the stone a refusal brings (the greedy choice stays on the menu as the anchor)
ORDAGO_FROM: Final = 30


def search_actions(state: Mus, seat: int) -> list[MusAction]:
    """A smaller menu: bets of 2 and 4, raise 2, órdago late; the five best discards."""
    acts = state.legal_actions(seat)
    phase = state.phase
    if phase in (SPEAK, ANSWER):
        us, them = state.stones[seat & 1], state.stones[1 - (seat & 1)]
        late = max(us, them) >= ORDAGO_FROM or desperate(strength(), us, them, PARAMS)
        keep = SEARCH_BETS if phase == SPEAK else (2,)
        return [
            a
            for a in acts
            if (a.code not in (BET, RAISE) or a.amount in keep) and (a.code != ORDAGO or late)
        ]
    if phase == DISCARD:
        t = strength()
        pos = (seat - state.mano) % 4
        hand = state.hands[seat]

        def value(a: MusAction) -> float:
            gone = a.mask
            return t.keep_value([c for c in hand if not gone >> c & 1], pos)

        return sorted(acts, key=value, reverse=True)[:5]
    return acts


def segment(state: Mus) -> Hashable:
    """The part of the hand a decision belongs to: the mus round, or the lance."""
    if state.phase in (SPEAK, ANSWER):
        return (state.hand_no, "lance", state.lance)
    return (state.hand_no, "mus", state.mus_round, state.phase)


# ------------------------------------------------------------------ belief sampling


def _soft(x: float, width: float) -> float:
    return 1.0 / (1.0 + math.exp(-x / width))


def likelihood(state: Mus, me: int, params: dict[str, float] = PARAMS) -> float:
    """How well the other seats' hands in ``state`` explain the betting seen in this hand.

    A soft version of the policy: a pass is likely with a weak hand, a bet
    with a strong one; an accept likely above the accepting line, a reject
    below. Lances already settled count by their public status (in pass:
    nobody was strong; refused or accepted: someone of a pair was).
    """
    t = strength()
    mano = state.mano
    hands = state.hands
    idx = [t.hand(h) for h in hands]
    bet_t = params["bet"]
    eps = 0.05
    w = 1.0

    def p_of(x: int, L: int, holders: Sequence[int]) -> float:
        return lance_p(t, idx[x], (x - mano) % 4, L, state.punto, x, holders)

    def strong(p: float, line: float) -> float:
        return eps + (1 - 2 * eps) * _soft(p - line, 0.06)

    for L in range(4):
        st = state.res_status[L]
        if state.lance == L and state.phase in (SPEAK, ANSWER):
            holders = _state_holders(state)
            for x, code, _ in state.betting:
                if x == me:
                    continue
                p = p_of(x, L, holders)
                if code == PASS:
                    w *= 1 - strong(p, bet_t)
                elif code in (BET, RAISE, ORDAGO):
                    w *= strong(p, bet_t if code == BET else params["raise"] - 0.1)
                elif code == ACCEPT:
                    w *= strong(p, 0.4)
                elif code == REJECT:
                    w *= 1 - strong(p, 0.4)
            continue
        if st not in (IN_PASS, ACCEPTED, REFUSED):
            continue
        if L == PARES:
            holders = state.holders[0] or ()
        elif L == JUEGO and not state.punto:
            holders = state.holders[1] or ()
        else:
            holders = ()
        speakers = holders if L >= PARES and holders else range(4)
        if st == IN_PASS:  # nobody was strong enough to bet
            for x in speakers:
                if x != me:
                    w *= 1 - strong(p_of(x, L, holders), bet_t)
        else:
            bettors = state.res_team[L] if st == REFUSED else -1
            for team in (0, 1):
                seats = [x for x in speakers if x & 1 == team and x != me]
                if not seats or (me & 1) == team:
                    continue
                line = bet_t if team == bettors else 0.45 if st == ACCEPTED else 0.4
                best = max(strong(p_of(x, L, holders), line) for x in seats)
                w *= best if st == ACCEPTED or team == bettors else 1 - best
    return w


#: candidate samples drawn for a betting decision (the option ``pool``): a count, not a
#: time, so that the decision is the same on any machine. When the announcements are rare
#: (three other seats with pares and juego) ``Mus.sample`` rejects many deals for each one
#: it returns; only the decision's safety cap (taverna.bots.budget) stops it sooner
POOL: Final = 200


def sampler(bot: Any, view: View) -> Callable[[], State[Any]]:
    """Samples consistent with the view, weighted by how well they explain the betting.

    Also sets the rollout policy for this search: our pair trusts the other
    pair's bets as our reading of them says, and the other pair trusts ours
    as much as our own openings so far deserve (a pair that is seen to bet
    at every turn gets called) — or, in a share ``own_cards`` of the samples
    (level 8), not at all: it answers our bets on its own cards, as players
    who do not read bets as greedy does (docs/bots.md, Level 8 in Mus).
    """
    me = view["seat"]
    memory = _memory(bot)
    memory.reading.watch(view)
    base = PARAMS["trust"]
    ours = {**PARAMS, "trust": memory.reading.trust(base)}
    theirs = {**PARAMS, "trust": Reading.trust_for(memory.bets, memory.openings, base)}
    them = 1 - (me & 1)
    ROLLOUT_PARAMS[me & 1] = ours
    ROLLOUT_PARAMS[them] = theirs
    game, rng = bot.game, bot.rng
    # the share of samples in which the other pair answers our bets on its own cards
    share = float(bot.options.get("own_cards", 0.0))
    plain = {**theirs, "trust": 0.0}
    if share >= 1:
        ROLLOUT_PARAMS[them] = plain
    sample = game.sample
    if view.get("signals") and not reads_senas(bot):
        view = {**view, "signals": []}  # the samples deal as if no seña had been seen
    if view["phase"] in ("mus", "discard") or (not view["lances"] and not view["betting"]):
        if 0 < share < 1:

            def mixed() -> State[Any]:
                ROLLOUT_PARAMS[them] = plain if rng.random() < share else theirs
                drawn: State[Any] = sample(view, rng)
                return drawn

            return mixed
        return lambda: sample(view, rng)
    pool: list[Mus] = []
    weights: list[float] = []
    size = max(1, int(bot.options.get("pool", POOL)))
    cap = getattr(bot, "cap", None)  # a search's safety cap (a review has none)
    while len(pool) < size and (cap is None or len(pool) < 8 or not cap.reached()):
        s = sample(view, rng)
        assert isinstance(s, Mus)
        pool.append(s)
        weights.append(likelihood(s, me))
    total = sum(weights)
    if total <= 0:
        return lambda: sample(view, rng)
    cum: list[float] = []
    acc = 0.0
    for x in weights:
        acc += x
        cum.append(acc)

    def draw() -> Mus:
        if 0 < share < 1:
            ROLLOUT_PARAMS[them] = plain if rng.random() < share else theirs
        i = bisect.bisect_left(cum, rng.random() * acc)
        return pool[min(i, len(pool) - 1)].clone(rng=rng)

    return draw


def branches(state: Mus, seat: int, root_seat: int, root_segment: Hashable) -> bool:
    """The tree branches only on the searching seat's decisions in the current lance or round.

    The other seats (partner included) play the policy with their own sampled
    cards inside the tree: a tree node shared by every sample would make them
    answer without looking at their cards.
    """
    return seat == root_seat and segment(state) == root_segment


#: a hint's word for a move in a lance: the pair likely wins it (the move counts on it)
#: or likely loses it (the move keeps out of it)
_COUNTS_ON_IT: Final = frozenset({"bet", "raise", "ordago", "accept"})
_KEEPS_OUT: Final = frozenset({"pass", "reject"})


def explain(bot: Any, view: View, action: MusAction) -> dict[str, Any] | None:
    """In a lance, the pair's chance of winning it as the policy reads it from the
    seat's hand and the señas it saw (:func:`lance_p`, :func:`told_p`), when the move
    agrees with it: a bet or an acceptance on a likely win, a pass or a refusal on a
    likely loss."""
    if view["phase"] not in ("speak", "answer") or view.get("lance_slot") is None:
        return None
    t = strength()
    seat, mano, lance, punto = view["seat"], view["mano"], view["lance_slot"], view["punto"]
    holders = _holders(view)
    hand = t.hand([card_id(c) for c in view["hand"]])
    p = lance_p(t, hand, (seat - mano) % 4, lance, punto, seat, holders)
    told = _told(bot, view)
    if told:
        p = told_p(p, seat, mano, lance, punto, holders, told)
    facts = {"lance": view["lance"], "chance": round(100 * p)}
    if action.type in _COUNTS_ON_IT and p >= 0.5:
        return {"key": "pair_wins", **facts}
    if action.type in _KEEPS_OUT and p < 0.5:
        return {"key": "pair_loses", **facts}
    return None


class MusStrategy(Strategy[Mus, MusAction]):
    """Mus: the policy's thresholds, samples weighted by the betting, a paired search."""

    game = "mus"
    number_options = (*PARAMS, "pool", "own_cards")
    #: level 8: the other pair answers our bets on its own cards in every sample
    #: (docs/bots.md, Level 8 in Mus)
    top_options: ClassVar[dict[str, Any]] = {"own_cards": 1.0}
    retired_options: ClassVar[dict[str, str]] = {
        "pool_seconds": "the pool of samples is a count (pool, default 200) and only the "
        "safety cap (seconds) looks at the clock (docs/bots.md, Budgets)"
    }
    #: ``senas``: ``read`` the señas seen (the greedy policy's estimates, the expert's
    #: samples) or ``ignore`` them (both make theirs), or ``off``: neither read nor make
    #: any: to measure what señas are worth to a pair
    choice_options: ClassVar[dict[str, tuple[str, ...]]] = {"senas": ("read", "ignore", "off")}
    scale = 1.0
    exploration = 0.3
    # playouts a decision: 1500 plays as well as 3000 did against greedy, with half the
    # playouts (docs/bots.md, What a decision costs)
    iterations = 1500
    review_samples = 96  # a Mus rollout costs more: about 0.1 s a decision reviewed
    paired = True
    unit = "games"

    def greedy(self, bot: Bot, view: View, legal: list[MusAction]) -> MusAction:
        return greedy(bot, view, legal)

    def beginner(self, bot: Bot, view: View, legal: list[MusAction]) -> MusAction:
        return beginner(bot, view, legal)

    def budget(self, effort: float) -> dict[str, Any]:
        # the pool of samples grows with the playouts: both are the search's work
        return {**super().budget(effort), "pool": max(8, round(POOL * effort))}

    def signals(self, bot: Bot, view: View) -> list[str]:
        # docs/rules.md §3.8.2: every seña the hand allows, as soon as it may be made
        if bot.options.get("senas", "read") == "off":
            return []
        return list(view.get("may_signal", ()))

    def rollout(self, state: Mus, rng: random.Random) -> None:
        rollout(state, rng)

    def standing(self, state: Mus) -> list[float]:
        return standing(state)

    def search_actions(self, state: Mus, seat: int) -> list[MusAction]:
        return search_actions(state, seat)

    def sampler(self, bot: Bot, view: View) -> Callable[[], State[Any]]:
        return sampler(bot, view)

    def chosen(self, bot: Bot, view: View, action: MusAction) -> None:
        _memory(bot).opened(view, action)

    def branches(self, state: Mus, seat: int, root_seat: int, root_segment: Hashable) -> bool:
        return branches(state, seat, root_seat, root_segment)

    def segment(self, state: Mus) -> Hashable:
        return segment(state)

    def reward(self, state: Mus, before: list[float]) -> list[float]:
        return reward(state, before)

    def worth(self, value: float) -> float:
        # the reward counts what one pair's chance of games gains and the other's loses:
        # half of it is the pair's own gain, in games (0.2: a fifth of a game)
        return value / 2

    def anchor(self, bot: Bot, view: View, legal: list[MusAction]) -> MusAction | None:
        return anchor(bot, view, legal)

    def explain(
        self, bot: Bot, view: View, action: MusAction, events: list[Event] | None
    ) -> dict[str, Any] | None:
        return explain(bot, view, action)
