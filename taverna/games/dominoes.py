"""Muggins dominoes (docs/rules.md §1) on the game protocol.

The hot data are plain ints: a tile is a number 0..27, a hand is a 28-bit
mask, the line is known by its two open ends. That keeps :meth:`legal_actions`,
:meth:`apply` and :meth:`clone` cheap enough for search bots.

    >>> s = Dominoes.start(2, {}, [Dominoes.parse_deal({
    ...     "hands": [["6-6", "6-4", "5-5", "0-0", "0-1", "0-2", "0-3"],
    ...               ["3-3", "3-4", "1-1", "1-2", "1-3", "1-4", "1-5"]],
    ...     "boneyard": ["1-6", "2-2", "2-3", "2-4", "2-5", "2-6", "3-5",
    ...                  "3-6", "4-4", "4-5", "5-6", "0-4", "0-5", "0-6"],
    ...     "opener": 0}, 2, {"target": 250}, 0)])
    >>> [e["credit"] for e in s.apply(Dominoes.parse_action(
    ...     {"seat": 0, "type": "play", "tile": "5-5"}, 2)) if e["type"] == "play"]
    [10]
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple, Self

from .base import (
    JSON,
    Action,
    Dealer,
    DealReader,
    Event,
    IllegalAction,
    InvalidAction,
    MalformedRecord,
    NotationError,
    SampleError,
    Setting,
    State,
    View,
    action_seat,
    below,
    deal_below,
    deal_shuffle,
    not_an_action,
    only_fields,
    shuffle,
)

# ---------------------------------------------------------------- the set

#: tile id -> (low pip, high pip)
TILES: Final[tuple[tuple[int, int], ...]] = tuple((a, b) for a in range(7) for b in range(a, 7))
N_TILES: Final = len(TILES)
_ALL_IDS: Final = tuple(range(N_TILES))
_ID: Final = {(a, b): i for i, (a, b) in enumerate(TILES)} | {
    (b, a): i for i, (a, b) in enumerate(TILES)
}
#: pips of a tile in one 7-bit mask, to test it against excluded pips
PIP_MASK: Final = tuple((1 << a) | (1 << b) for a, b in TILES)
#: MATCH[p]: the tiles (28-bit mask) that carry pip p
MATCH: Final = tuple(sum(1 << i for i, (a, b) in enumerate(TILES) if p in (a, b)) for p in range(7))
#: ENDS[left * 7 + right]: the tiles (28-bit mask) that fit a line with those open ends
ENDS: Final = tuple(MATCH[left] | MATCH[right] for left in range(7) for right in range(7))
#: END_PIPS[left * 7 + right]: the two end pips as a 7-bit mask, like PIP_MASK
END_PIPS: Final = tuple((1 << left) | (1 << right) for left in range(7) for right in range(7))
TILE_SUM: Final = tuple(a + b for a, b in TILES)
#: OTHER[tile][pip]: the tile's other pip when it is placed on pip, or -1 if it does not carry it
OTHER: Final = tuple(tuple(a + b - p if p in (a, b) else -1 for p in range(7)) for a, b in TILES)
IS_DOUBLE: Final = tuple(a == b for a, b in TILES)
#: BIT[t] == 1 << t, prebuilt so the hot path allocates no shifted int
BIT: Final = tuple(1 << t for t in range(N_TILES))
ALL_TILES: Final = (1 << N_TILES) - 1
LEFT: Final = 0
RIGHT: Final = 1
END_NAMES: Final = ("left", "right")
_TILE_RE: Final = re.compile(r"^([0-6])-([0-6])$")


def tile_id(text: object) -> int:
    """The id of a tile written ``a-b`` (either order); raises NotationError."""
    m = _TILE_RE.match(text) if isinstance(text, str) else None
    if m is None:
        raise NotationError(f"{text!r} is not a domino tile (write it a-b with pips 0..6)")
    return _ID[(int(m[1]), int(m[2]))]


TILE_STR: Final = tuple(f"{b}-{a}" for a, b in TILES)


def tile_str(tile: int) -> str:
    """A tile in canonical notation, high pip first: ``6-4``."""
    return TILE_STR[tile]


#: _IN_CHUNK[c][bits]: the tile ids that the 7-bit chunk c of a mask holds
_IN_CHUNK: Final = [
    [tuple(t for t in range(7 * c, min(7 * c + 7, N_TILES)) if bits >> (t - 7 * c) & 1)
     for bits in range(128)]
    for c in range(4)
]  # fmt: skip
_C0: Final = _IN_CHUNK[0]
_C1: Final = _IN_CHUNK[1]
_C2: Final = _IN_CHUNK[2]
_C3: Final = _IN_CHUNK[3]


def tiles_of(mask: int) -> list[int]:
    """The tile ids in a hand mask, in id order."""
    return [*_C0[mask & 127], *_C1[mask >> 7 & 127], *_C2[mask >> 14 & 127], *_C3[mask >> 21]]


def round_to_five(pips: int) -> int:
    """Nearest multiple of five, remainders 1–2 down and 3–4 up (docs/rules.md §1.6)."""
    return (pips + 2) // 5 * 5


# --------------------------------------------------------------- actions


class DominoAction(Action):
    """``play`` a tile (written ``a``-``b``) at an ``end``, ``draw`` or ``pass``."""

    __slots__ = ("a", "b", "end", "seat", "tile", "type")

    def __init__(
        self, seat: int, type: str, a: int = -1, b: int = -1, end: int | None = None
    ) -> None:
        self.seat = seat
        self.type = type
        self.a = a
        self.b = b
        self.tile = _ID[(a, b)] if type == "play" else -1
        self.end = end

    def to_json(self) -> JSON:
        if self.type != "play":
            return {"seat": self.seat, "type": self.type}
        out: JSON = {"seat": self.seat, "type": "play", "tile": f"{self.a}-{self.b}"}
        if self.end is not None:
            out["end"] = END_NAMES[self.end]
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DominoAction):
            return NotImplemented
        return (self.seat, self.type, self.a, self.b, self.end) == (
            other.seat,
            other.type,
            other.a,
            other.b,
            other.end,
        )

    def __hash__(self) -> int:
        return hash((self.seat, self.type, self.a, self.b, self.end))

    def __str__(self) -> str:
        if self.type == "play":
            where = "" if self.end is None else f" {END_NAMES[self.end]}"
            return f"play {self.a}-{self.b}{where}"
        return self.type


PlaceTable = list[list[list[tuple[DominoAction, ...]]]]


def _placed(seat: int, tile: int, end: int, pip: int) -> tuple[DominoAction, ...]:
    """``()``, or the placement of ``tile`` at an ``end`` showing ``pip``,
    written as the tile lies in the line, left to right."""
    a, b = TILES[tile]
    if pip not in (a, b):
        return ()
    other = a + b - pip
    pair = (other, pip) if end == LEFT else (pip, other)
    return (DominoAction(seat, "play", *pair, end),)


def _placement_table() -> PlaceTable:
    """PLACE[seat][left * 7 + right][tile]: the placements of tile on a line whose
    ends show pips left and right, left end first, as legal_actions lists them.

    Prebuilt, so legal_actions allocates nothing but its list.
    """
    table: PlaceTable = []
    for s in range(4):
        at = [[[_placed(s, t, end, p) for t in range(N_TILES)] for p in range(7)] for end in (0, 1)]
        table.append(
            [
                [x + y for x, y in zip(at[LEFT][left], at[RIGHT][right], strict=True)]
                for left in range(7)
                for right in range(7)
            ]
        )
    return table


_DRAW: Final = [DominoAction(s, "draw") for s in range(4)]
_PASS: Final = [DominoAction(s, "pass") for s in range(4)]
_PLACE: Final = _placement_table()
#: the opening placement of each tile, written high pip first
_OPENINGS: Final = [[DominoAction(s, "play", b, a) for a, b in TILES] for s in range(4)]


# ------------------------------------------------------------------ deals


class DominoDeal(NamedTuple):
    """One hand's deal: ``hands`` (tile ids), ``boneyard`` (top first), ``opener``."""

    hands: tuple[tuple[int, ...], ...]
    boneyard: tuple[int, ...]
    opener: int | None


# ------------------------------------------------------------------ state


class Dominoes(State[DominoAction]):
    """Muggins dominoes: double-six set, 2–4 seats, individual scores (docs/rules.md §1.1)."""

    game: ClassVar[str] = "muggins-dominoes"
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    title: ClassVar[str] = "Muggins dominoes"
    aliases: ClassVar[tuple[str, ...]] = ("dominoes",)
    order = 1
    piece: ClassVar[str] = "tile"
    settings_declared: ClassVar[tuple[Setting, ...]] = (
        # docs/rules.md §1.2: 250 for two players, 200 for three or four
        Setting("target", "int", lambda seats: 250 if seats == 2 else 200, minimum=1),
    )
    #: a player's page counts (:meth:`count_figures`) the hands they dominoed and their
    #: placements credited (docs/rules.md §1.5: no Muggins! call, every count is credited)
    figure_names: ClassVar[tuple[str, ...]] = ("dominoes", "scoring_plays")

    #: each seat's score
    scores: list[int]

    __slots__ = (
        "_drew",
        "bone",
        "credits",
        "hands",
        "last_hand",
        "ldbl",
        "left",
        "line_left",
        "line_right",
        "must",
        "opener",
        "rdbl",
        "right",
        "scores",
        "slots",
        "target",
    )

    # ---------------------------------------------------------- settings

    @staticmethod
    def hand_size(seats: int) -> int:
        """7 tiles each for two players, 5 for three or four (docs/rules.md §1.2)."""
        return 7 if seats == 2 else 5

    @staticmethod
    def default_target(seats: int) -> int:
        """250 for two players, 200 for three or four (docs/rules.md §1.2)."""
        return 250 if seats == 2 else 200

    @classmethod
    def count_figures(cls, events: Sequence[Event], seat: int) -> dict[str, int]:
        """The hands ``seat`` ended by placing its last tile (docs/rules.md §1.6:
        "domino") and its placements whose count was credited (Count after each
        placement: a positive multiple of five)."""
        dominoes = scoring = 0
        for e in events:
            kind = e["type"]
            if kind == "play":
                scoring += e["seat"] == seat and e["credit"] > 0
            elif kind == "hand_end":
                dominoes += e["reason"] == "domino" and e["winner"] == seat
        return {"dominoes": dominoes, "scoring_plays": scoring}

    # ------------------------------------------------------ construction

    def __init__(
        self,
        seats: int,
        settings: Mapping[str, Any] | None = None,
        deals: Sequence[Any] = (),
        dealer: Dealer | None = None,
        *,
        log: bool = True,
    ) -> None:
        super().__init__(seats, settings, deals, dealer, log=log)
        self.target: int = self.settings["target"]
        self.scores = [0] * seats
        self.credits = [0] * seats  # hand-independent total of credits, for checks
        self.last_hand: JSON | None = None
        self._reset_hand([0] * seats, [[] for _ in range(seats)], [])

    def _reset_hand(self, hands: list[int], slots: list[list[int]], bone: list[int]) -> None:
        self.hands = hands  # a 28-bit mask of tiles per seat
        self.slots = slots  # per hidden tile of each seat, the pips (7-bit mask) it cannot carry
        self.bone = bone  # the boneyard, top last
        self.left = self.right = -1
        self.ldbl = self.rdbl = False
        self.line_left: list[int] = []  # oriented tiles a*7+b, right-to-left from the first
        self.line_right: list[int] = []  # oriented tiles a*7+b, left-to-right, first included
        self.must = -1  # a drawn tile that must be placed at once
        self._drew = False
        self.turn = -1
        self.opener = -1

    # ------------------------------------------------------------ notation

    @classmethod
    def parse_action(cls, obj: Any, seats: int) -> DominoAction:
        seat = action_seat(obj, seats)
        kind = obj.get("type")
        if kind in ("draw", "pass"):
            only_fields(obj, kind)
            return (_DRAW if kind == "draw" else _PASS)[seat]
        if kind != "play":
            raise InvalidAction(
                f"unknown dominoes action type {kind!r} (expected play, draw or pass)"
            )
        only_fields(obj, "play", "tile", "end")
        text: Any = obj.get("tile")
        try:
            tile_id(text)
        except ValueError as e:
            raise InvalidAction(str(e)) from None
        end_name = obj.get("end")
        if end_name is None:
            end = None
        elif end_name in END_NAMES:
            end = END_NAMES.index(end_name)
        else:
            raise InvalidAction(f"end must be 'left' or 'right', not {end_name!r}")
        assert isinstance(text, str)
        return DominoAction(seat, "play", int(text[0]), int(text[2]), end)

    @classmethod
    def parse_deal(
        cls, obj: Any, seats: int, settings: Mapping[str, Any], index: int
    ) -> DominoDeal:
        where = f"deal {index}"
        if not isinstance(obj, dict):
            raise MalformedRecord(f"{where} must be an object with hands, boneyard and opener")
        extra = set(obj) - {"hands", "boneyard", "opener"}
        if extra:
            raise MalformedRecord(f"{where} has an unknown field {sorted(extra)[0]!r}")
        read = DealReader(where, "tile", "double-six set", N_TILES, tile_id, tile_str)
        hands = read.hands(obj.get("hands"), seats, cls.hand_size(seats), f" with {seats} players")
        bone = read.items(obj.get("boneyard"), "boneyard")
        read.check_whole()
        first = "the first hand's neutral draw" if index == 0 else None
        opener = read.seat(obj, "opener", seats, first)
        return DominoDeal(hands, bone, opener)

    @classmethod
    def deal_json(cls, deal: Any) -> JSON:
        out: JSON = {
            "hands": [[tile_str(t) for t in h] for h in deal.hands],
            "boneyard": [tile_str(t) for t in deal.boneyard],
        }
        if deal.opener is not None:
            out["opener"] = deal.opener
        return out

    # ----------------------------------------------------------- dealing

    def _random_deal(self, rng: random.Random) -> DominoDeal:
        tiles = list(_ALL_IDS)
        deal_shuffle(rng, tiles)
        n = self.seats
        k = self.hand_size(n)
        hands = tuple([tuple(tiles[i * k : i * k + k]) for i in range(n)])
        opener = self._last_winner()
        if opener is None:
            # docs/rules.md §1.3: a neutral draw, every seat equally likely
            opener = deal_below(rng, n)
        return DominoDeal(hands, tuple(tiles[n * k :]), opener)

    def _last_winner(self) -> int | None:
        """The seat that played the last tile of the previous hand (None: blocked, or none)."""
        return self.last_hand["winner"] if self.last_hand else None

    def _check_deal(self, deal: DominoDeal) -> None:
        # docs/rules.md §1.3: the player who played the last tile opens; after
        # a blocked hand (or the first hand) the deal carries the neutral draw.
        previous_winner = self._last_winner()
        if previous_winner is not None:
            if deal.opener is not None and deal.opener != previous_winner:
                raise IllegalAction(
                    f"deal {self.hand_no + 1} names opener {deal.opener}, but seat "
                    f"{previous_winner} played the last tile and opens"
                )
        elif deal.opener is None:
            raise IllegalAction(
                f"deal {self.hand_no + 1} must name the opener: "
                "the previous hand was blocked, so a new neutral draw decides"
            )

    def _begin(self, deal: DominoDeal, given: bool) -> list[Event]:
        previous_winner = self._last_winner()
        opener = previous_winner if previous_winner is not None else deal.opener
        assert opener is not None  # checked (_check_deal), or dealt so
        k = self.hand_size(self.seats)
        masks = []
        for tiles in deal.hands:
            m = 0
            for t in tiles:
                m |= BIT[t]
            masks.append(m)
        self._reset_hand(masks, [[0] * k for _ in masks], list(reversed(deal.boneyard)))
        self.opener = self.turn = opener
        if self._quiet:
            return []
        return [
            {
                "type": "deal",
                "hand": self.hand_no,
                "opener": opener,
                "boneyard": len(self.bone),
                "hand_sizes": [k] * self.seats,
                "private": {
                    s: {"tiles": [TILE_STR[t] for t in h]} for s, h in enumerate(deal.hands)
                },
            }
        ]

    # ------------------------------------------------------------ queries

    def legal_actions(self, seat: int | None = None) -> list[DominoAction]:
        s = self.turn  # -1 once the game is over or while a deal is due
        if s < 0 or (seat is not None and seat != s):
            return []
        L = self.left
        if L < 0:
            opening = _OPENINGS[s]
            return [opening[t] for t in tiles_of(self.hands[s])]
        place = _PLACE[s][L * 7 + self.right]
        if self.must >= 0:
            return list(place[self.must])  # the drawn tile, which fits
        mask = self.hands[s] & ENDS[L * 7 + self.right]
        if not mask:
            return [_DRAW[s] if self.bone else _PASS[s]]
        out: list[DominoAction] = []
        while mask:
            low = mask & -mask
            out += place[low.bit_length() - 1]
            mask ^= low
        return out

    def hand_tiles(self, seat: int) -> list[str]:
        return [tile_str(t) for t in tiles_of(self.hands[seat])]

    def line(self) -> list[tuple[int, int]]:
        """The line left to right, each tile as it lies: ``[(6, 6), (6, 4), ...]``."""
        return [divmod(x, 7) for x in reversed(self.line_left)] + [
            divmod(x, 7) for x in self.line_right
        ]

    def count(self) -> int:
        """The sum of the open ends (docs/rules.md §1.5): doubles at an end count twice."""
        if self.left < 0:
            return 0
        if len(self.line_left) + len(self.line_right) == 1:
            return self.left + self.right  # a lone tile counts once
        return (self.left << 1 if self.ldbl else self.left) + (
            self.right << 1 if self.rdbl else self.right
        )

    # ------------------------------------------------------------ playing

    # ``object``: compiled, a narrower type would refuse a dict with a bare TypeError
    # before the body's own refusal says what to do instead (not_an_action)
    def apply(self, action: object) -> list[Event]:
        # The hot path of every search: playing and drawing are written out here,
        # with tables for the arithmetic; refusals and rare paths live in helpers.
        if not isinstance(action, DominoAction):
            raise not_an_action(self, action)
        s = action.seat
        if s != self.turn:  # -1 once the game is over or while a deal is due
            self._refuse_turn(s, action.type)
        # A queued deal whose opener contradicts the rules is refused when this
        # action ends the hand; undo the half-played action then (replays only).
        snapshot = (
            self.clone()
            if self._queue and (len(self.slots[s]) == 1 or len(self.bone) <= 1)
            else None
        )
        log = self._log
        try:
            if action.type == "play":
                t = action.tile
                hand = self.hands[s]
                bit = BIT[t]
                if not hand & bit or 0 <= self.must != t:
                    self._refuse_tile(s, t)
                dbl = IS_DOUBLE[t]
                L = self.left
                end = action.end
                if L < 0:
                    # docs/rules.md §4.3: the first tile as written sets the ends
                    L, R = self.left, self.right = action.a, action.b
                    self.ldbl = self.rdbl = dbl
                    self.line_right.append(L * 7 + R)
                    end = None
                    count = L + R  # docs/rules.md §1.5: a lone tile counts once
                else:
                    R = self.right
                    if end is None:
                        end = self._only_end(s, t, L, R)
                    # docs/rules.md §1.5: the open ends, a double at an end counting both halves
                    if end == LEFT:
                        new = OTHER[t][L]
                        if new < 0:
                            self._refuse_end(s, t, end)
                        self.line_left.append(new * 7 + L)
                        self.left = L = new
                        self.ldbl = dbl
                        count = (L << 1 if dbl else L) + (R << 1 if self.rdbl else R)
                    else:
                        new = OTHER[t][R]
                        if new < 0:
                            self._refuse_end(s, t, end)
                        self.line_right.append(R * 7 + new)
                        self.right = R = new
                        self.rdbl = dbl
                        count = (L << 1 if self.ldbl else L) + (R << 1 if dbl else R)
                self.hands[s] = hand = hand ^ bit
                slots = self.slots[s]
                if self._drew or not slots[0]:
                    slots.pop()  # the drawn tile, or any slot when nothing is known
                else:
                    pm = PIP_MASK[t]
                    for i, m in enumerate(slots):
                        if not m & pm:
                            del slots[i]
                            break
                self.must = -1
                self._drew = False
                credit = count if count % 5 == 0 and count else 0
                quiet = self._quiet
                events: list[Event] = []
                if not quiet:
                    events.append(
                        {
                            "type": "play",
                            "seat": s,
                            "tile": TILE_STR[t],
                            "end": None if end is None else END_NAMES[end],
                            "count": count,
                            "credit": credit,
                        }
                    )
                if credit:
                    scores = self.scores
                    scores[s] += credit
                    self.credits[s] += credit
                    if scores[s] >= self.target:
                        # docs/rules.md §1.7: no subtraction follows
                        self.over = True
                        self.winner = s
                        self.turn = -1
                        if not quiet:
                            events.append({"type": "game_end", "winner": s, "scores": scores[:]})
                        if log is not None:
                            log.append(action)
                        return events
                if not hand:
                    events.extend(self._end_hand(s))
                elif not self.bone and self._blocked():
                    events.extend(self._end_hand(None))
                else:
                    self.turn = (s + 1) % self.seats
            elif action.type == "draw":
                L = self.left
                ends = L * 7 + self.right
                # a drawn tile still to place fits an end, so it is in hand & ENDS
                if L < 0 or self.hands[s] & ENDS[ends]:
                    self._refuse_move(s, "draw")
                bone = self.bone
                if not bone:
                    raise IllegalAction(
                        f"seat {s} cannot draw: the boneyard is empty, it must pass",
                        "boneyard_empty",
                    )
                t = bone.pop()
                self.hands[s] |= BIT[t]
                # Everybody now knows seat s held nothing matching either end.
                x = END_PIPS[ends]
                slots = self.slots[s]
                if slots and slots[0] & x != x:
                    slots[:] = [m | x for m in slots]
                slots.append(0)
                self._drew = True
                events = []
                if not self._quiet:
                    events.append(
                        {
                            "type": "draw",
                            "seat": s,
                            "boneyard": len(bone),
                            "private": {s: {"tile": TILE_STR[t]}},
                        }
                    )
                if PIP_MASK[t] & x:
                    self.must = t  # docs/rules.md §1.4: a playable drawn tile is placed at once
                elif not bone and self._blocked():
                    events.extend(self._end_hand(None))
            else:
                events = self._pass(s)
        except IllegalAction:
            if snapshot is not None:
                self._restore(snapshot)
            raise
        if log is not None:
            log.append(action)
        return events

    def _refuse_move(self, s: int, verb: str) -> None:
        """Raise if seat ``s`` could place a tile (so it may not draw or pass)."""
        if self.left < 0:
            raise IllegalAction(
                f"seat {s} cannot {verb}: it opens the hand and must play a tile", "must_open"
            )
        if self.must >= 0:
            raise IllegalAction(
                f"seat {s} cannot {verb}: it must place the drawn tile {tile_str(self.must)}",
                "must_place_drawn",
                tile=tile_str(self.must),
            )
        mask = self.hands[s] & (MATCH[self.left] | MATCH[self.right])
        if mask:
            t = (mask & -mask).bit_length() - 1
            a, b = TILES[t]
            end = "left" if self.left in (a, b) else "right"
            raise IllegalAction(
                f"seat {s} cannot {verb}: {tile_str(t)} can be placed on the {end} end",
                "must_play",
                tile=tile_str(t),
                end=end,
            )

    def _pass(self, s: int) -> list[Event]:
        self._refuse_move(s, "pass")
        if self.bone:
            raise IllegalAction(
                f"seat {s} cannot pass: the boneyard still has {len(self.bone)} "
                f"tile{'s' if len(self.bone) != 1 else ''}",
                "must_draw",
                n=len(self.bone),
            )
        x = (1 << self.left) | (1 << self.right)
        slots = self.slots[s]
        if slots and slots[0] & x != x:
            slots[:] = [m | x for m in slots]
        self._drew = False
        self.turn = (s + 1) % self.seats
        return [] if self._quiet else [{"type": "pass", "seat": s}]

    def _refuse_tile(self, s: int, t: int) -> None:
        """Raise: seat ``s`` does not hold ``t``, or must place the tile it drew instead."""
        if not self.hands[s] >> t & 1:
            raise IllegalAction(
                f"seat {s} cannot play {tile_str(t)}: it does not hold that tile",
                "not_held",
                tile=tile_str(t),
            )
        raise IllegalAction(
            f"seat {s} cannot play {tile_str(t)}: it must place the drawn tile "
            f"{tile_str(self.must)} at once",
            "must_place_drawn",
            tile=tile_str(self.must),
        )

    def _refuse_end(self, s: int, t: int, end: int) -> None:
        """Raise: tile ``t`` does not fit the ``end`` it was played at."""
        shows = self.left if end == LEFT else self.right
        raise IllegalAction(
            f"seat {s} cannot play {tile_str(t)} on the {END_NAMES[end]} end: it shows {shows}",
            "does_not_fit",
            tile=tile_str(t),
        )

    def _only_end(self, s: int, t: int, L: int, R: int) -> int:
        """The end a tile played without one goes to; raises unless exactly one fits."""
        a, b = TILES[t]
        fits_l = a == L or b == L
        fits_r = a == R or b == R
        if fits_l and fits_r:
            raise IllegalAction(
                f"seat {s} cannot play {tile_str(t)} without an end: "
                f"it fits both the left ({L}) and the right ({R}) end",
                "which_end",
                tile=tile_str(t),
            )
        if not (fits_l or fits_r):
            raise IllegalAction(
                f"seat {s} cannot play {tile_str(t)}: it matches neither end ({L} and {R})",
                "does_not_fit",
                tile=tile_str(t),
            )
        return LEFT if fits_l else RIGHT

    def _blocked(self) -> bool:
        ends = ENDS[self.left * 7 + self.right]
        for h in self.hands:  # noqa: SIM110 - a loop costs less than any() and a generator
            if h & ends:
                return False
        return True

    def _end_hand(self, winner: int | None) -> list[Event]:
        # docs/rules.md §1.6: each player loses their own pips, rounded to five
        hands = [tiles_of(h) for h in self.hands]
        pips = [sum([TILE_SUM[t] for t in h]) for h in hands]
        subtract = [round_to_five(p) for p in pips]
        scores = self.scores
        for s, x in enumerate(subtract):
            scores[s] -= x
        summary: JSON = {
            "type": "hand_end",
            "hand": self.hand_no,
            "reason": "domino" if winner is not None else "blocked",
            "winner": winner,
            "hands": [[TILE_STR[t] for t in h] for h in hands],
            "pips": pips,
            "subtract": subtract,
            "scores": self.scores[:],
        }
        self.last_hand = summary
        self.turn = -1
        dealt = self._next_deal()
        return [] if self._quiet else [summary, *dealt]

    # ---------------------------------------------------------------- views

    def view(self, seat: int | None) -> View:
        """What ``seat`` sees: public table, its own tiles, its legal moves."""
        v: View = {
            "game": self.game,
            "seat": seat,
            "seats": self.seats,
            "settings": dict(self.settings),
            "hand_no": self.hand_no,
            "scores": self.scores[:],
            "target": self.target,
            "opener": self.opener,
            "turn": self.turn if self.to_act else None,
            "to_act": list(self.to_act),
            "line": [f"{a}-{b}" for a, b in self.line()],
            "doubles_at_ends": [self.ldbl, self.rdbl] if self.left >= 0 else [False, False],
            "ends": [self.left, self.right] if self.left >= 0 else None,
            "count": self.count(),
            "boneyard": len(self.bone),
            "hand_sizes": [len(x) for x in self.slots],
            # public knowledge: per hidden tile, the pips its holder showed not to hold
            "excluded": [[_pips(m) for m in x] for x in self.slots],
            "drawn_must_play": seat == self.turn and self.must >= 0,
            "over": self.over,
            "winner": self.winner,
            "last_hand": self.last_hand,
        }
        if seat is not None:
            v["hand"] = self.hand_tiles(seat)
            v["drawn"] = tile_str(self.must) if seat == self.turn and self.must >= 0 else None
            v["legal"] = [a.to_json() for a in self.legal_actions(seat)]
        return v

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> Self:
        seat = view["seat"]
        if seat is None:
            raise SampleError("a spectator's view has no seat to sample for")
        seats = view["seats"]
        state = cls(seats, view["settings"], (), Dealer(rng=rng), log=False)
        state.scores = list(view["scores"])
        state.hand_no = view["hand_no"]
        state.over = view["over"]
        state.winner = view["winner"]
        state.last_hand = view["last_hand"]
        state.opener = view["opener"]
        state.turn = view["turn"] if view["turn"] is not None else -1
        if state.over:
            return state
        own = 0
        for text in view["hand"]:
            own |= 1 << tile_id(text)
        placed = 0
        line = view["line"]
        for text in line:
            placed |= 1 << tile_id(text)
        if line:
            first = len(line) - 1
            # The first tile's position is not in the view; any split gives the same ends.
            state.line_left = [int(x[0]) * 7 + int(x[2]) for x in reversed(line[:first])]
            state.line_right = [int(line[first][0]) * 7 + int(line[first][2])]
            state.left, state.right = view["ends"]
            state.ldbl, state.rdbl = view["doubles_at_ends"]
        excluded = [[_mask(p) for p in x] for x in view["excluded"]]
        unknown = tiles_of(ALL_TILES & ~own & ~placed)
        if view["drawn"] is not None:
            state.must = tile_id(view["drawn"])
            state._drew = True
        assignment = _assign(unknown, excluded, seat, rng)
        state.hands = [own if s == seat else 0 for s in range(seats)]
        for s, tiles in enumerate(assignment):
            for t in tiles:
                state.hands[s] |= 1 << t
        state.slots = [m[:] for m in excluded]
        used = {t for tiles in assignment for t in tiles}
        state.bone = [t for t in unknown if t not in used]
        shuffle(rng, state.bone)
        return state


def _pips(mask: int) -> list[int]:
    return [p for p in range(7) if mask >> p & 1]


def _mask(pips: list[int]) -> int:
    m = 0
    for p in pips:
        m |= 1 << p
    return m


def _assign(
    unknown: list[int], excluded: list[list[int]], seat: int, rng: random.Random
) -> list[list[int]]:
    """Deal ``unknown`` tiles to the other seats' hidden slots, respecting exclusions.

    Most constrained slots first, a random compatible tile each; retried on a
    dead end. The true hands always satisfy the exclusions, so a solution exists.
    """
    slots = [(m, s) for s, ms in enumerate(excluded) if s != seat for m in ms]
    slots.sort(key=lambda x: -bin(x[0]).count("1"))
    for _ in range(200):
        pool = unknown[:]
        out: list[list[int]] = [[] for _ in excluded]
        for m, s in slots:
            fits = [i for i, t in enumerate(pool) if not PIP_MASK[t] & m] if m else None
            if fits is not None and not fits:
                break
            i = below(rng, len(pool)) if fits is None else fits[below(rng, len(fits))]
            out[s].append(pool[i])
            pool[i] = pool[-1]
            pool.pop()
        else:
            return out
    raise SampleError("no deal of the unknown tiles fits what the view shows")
