"""The one game protocol that every Taverna game implements.

Bots, the server, the CLI and records talk to a game only through
:class:`State` and the small values around it (actions, deals, events,
views), so each of them is written once for all three games.

A state is a whole game: the deals, the hands, the scores and the match
around them. Randomness comes only from a seeded :class:`random.Random`
(a live game) or from the deals of a record (a replay)::

    >>> from taverna.games import get_game
    >>> Dominoes = get_game("muggins-dominoes")
    >>> state = Dominoes.new(seats=2, seed=7)
    >>> seat = state.to_act[0]
    >>> events = state.apply(state.legal_actions(seat)[0])
    >>> events[0]["type"]
    'play'

Events are plain dicts ready for JSON, each a dict of its own, its private part
too (a hand's summary is also the state's ``last_hand``, which views show).
What only some seats may see sits under the ``"private"`` key,
``{seat: {field: value}}``; :func:`event_for` gives the copy one seat (or a
spectator, seat ``None``) may receive.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
import secrets
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, ClassVar, Final, Generic, NoReturn, Self

from mypy_extensions import mypyc_attr

if sys.version_info >= (3, 13):
    from typing import TypeVar
else:  # a type variable's default (PEP 696) is new in 3.13
    from typing_extensions import TypeVar

Event = dict[str, Any]
View = dict[str, Any]
JSON = dict[str, Any]


class TavernaError(Exception):
    """Base of every error the games raise on purpose."""


class IllegalAction(TavernaError):
    """A well-formed action that the rules forbid right now.

    The message says who tried what and why it is refused, e.g.
    ``seat 1 cannot draw: 3-5 can be placed on the right end``. The state
    is left exactly as it was.

    ``reason`` names the kind of refusal for programs (a client translates it)
    and ``params`` its facts, in notation: seats as numbers, tiles and cards
    as strings::

        >>> e = IllegalAction("seat 1 cannot go: it is seat 0's turn", "not_your_turn", turn=0)
        >>> e.reason, e.params
        ('not_your_turn', {'turn': 0})
    """

    def __init__(self, message: str, reason: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = params


class InvalidAction(TavernaError):
    """An action that does not parse: unknown type, bad tile or card, bad seat."""


class MalformedRecord(TavernaError):
    """A record or deal that is not valid data: bad JSON, unknown tiles, a partial set."""


class NotationError(TavernaError, ValueError):
    """A tile, card or hand not written in the game's notation (docs/rules.md §4.1); the
    message says how to write one. A ValueError too, so that a caller catching bad input
    as ValueError catches it."""


class SampleError(TavernaError, ValueError):
    """No state can be sampled from this view: a spectator's (it has no seat to sample
    for), or one that no placing of the unseen tiles or cards fits. A ValueError too, so
    that a caller catching bad input as ValueError catches it."""


def not_an_action(state: object, action: object) -> IllegalAction:
    """What ``apply`` raises when given something that is not one of the game's action
    values — typically a dict in record notation — saying how to make one."""
    cls = type(state)
    game = getattr(cls, "game", cls.__name__)
    return IllegalAction(
        f"{action!r} is not a {game} action: parse it first with "
        f"{cls.__name__}.parse_action(obj, seats) (obj in record notation, with its 'seat'), "
        "or pick one from state.legal_actions()"
    )


class SettingsError(TavernaError):
    """A table setting that the game does not know or does not allow."""


_SETTINGS_CACHE: Final[dict[tuple[Any, ...], dict[str, Any]]] = {}


@dataclass(frozen=True)
class Setting:
    """One table setting a game declares: the one source of its validation, of what
    ``/api/games`` says, of the lobby's form and of the settings summary.

    ``kind`` is ``int`` (a whole number from ``minimum``, to ``maximum`` if any),
    ``number`` (any number from ``minimum`` to ``maximum``, a chance say), ``choice``
    (one of ``choices``) or ``bool``. ``default`` is a value, or a function of the
    seat count. ``hints`` name some values for people (``{21: "Strict 21"}``).
    ``quiet``: a record writes the setting only when it is not its default (a setting
    added after records were kept, so that theirs stay as they were).

        >>> Setting("limit", "choice", 31, choices=(31, 21), hints={21: "Strict 21"}).check(25)
        Traceback (most recent call last):
        ...
        taverna.games.base.SettingsError: limit must be 31 or 21 (Strict 21), not 25
    """

    name: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    # ``int | float``, not ``float``: compiled, a float field turns a whole number into
    # a float (a form would be told 1.0 where 1 is meant)
    minimum: int | float | None = None
    maximum: int | float | None = None
    hints: Mapping[Any, str] = field(default_factory=dict)
    quiet: bool = False

    def default_for(self, seats: int) -> Any:
        return self.default(seats) if callable(self.default) else self.default

    def check(self, value: Any) -> Any:
        """``value`` if the setting may be it; else SettingsError saying what it may be."""
        whole = isinstance(value, int) and not isinstance(value, bool)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise SettingsError(f"{self.name} must be true or false, not {value!r}")
        elif self.kind == "choice":
            if not whole or value not in self.choices:
                named = [str(c) for c in self.choices]
                told = ", ".join(named[:-1]) + f" or {named[-1]}" if len(named) > 1 else named[0]
                hint = ", ".join(self.hints.values())
                raise SettingsError(
                    f"{self.name} must be {told}{f' ({hint})' if hint else ''}, not {value!r}"
                )
        elif self.kind == "int":
            low, high = self.minimum, self.maximum
            if (
                not whole
                or (low is not None and value < low)
                or (high is not None and value > high)
            ):
                if low == 1 and high is None:
                    want = "a positive whole number"
                elif high is None:
                    want = f"a whole number of at least {low}"
                else:
                    want = f"a whole number from {low} to {high}"
                raise SettingsError(f"{self.name} must be {want}, not {value!r}")
        elif self.kind == "number":
            low, high = self.minimum, self.maximum
            if (
                not isinstance(value, (int, float))
                or isinstance(value, bool)
                or value != value  # NaN
                or (low is not None and value < low)
                or (high is not None and value > high)
            ):
                raise SettingsError(
                    f"{self.name} must be a number from {low:g} to {high:g}, not {value!r}"
                    if low is not None and high is not None
                    else f"{self.name} must be a number, not {value!r}"
                )
        else:  # pragma: no cover - a declaration's own mistake
            raise TypeError(f"setting {self.name}: unknown kind {self.kind!r}")
        return value

    def spec(self) -> dict[str, Any]:
        """What a form needs to ask for it: ``{"type", "min"/"max" | "choices"}``."""
        out: dict[str, Any] = {"type": self.kind}
        if self.kind in ("int", "number"):
            if self.minimum is not None:
                out["min"] = self.minimum
            if self.maximum is not None:
                out["max"] = self.maximum
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        if self.hints:
            out["hints"] = {str(k): v for k, v in self.hints.items()}
        return out


class Dealer:
    """Where a live game's deals come from.

    ``Dealer(seed=s)`` gives deal ``k`` — and reshuffle ``j`` within it (Mus) — a
    generator of its own, derived from ``s`` and those numbers alone. What a game
    deals then depends on nothing but the seed and how far the game has got: a game
    rebuilt from its record deals on exactly as it would have, and a copy that deals
    (a trial move, a search) cannot change what the game itself deals::

        >>> d = Dealer(seed=7)
        >>> d.for_deal(3).random() == Dealer(seed=7).for_deal(3).random()
        True

    ``Dealer(rng=r)`` deals everything from the one generator ``r``, as search bots
    and benchmarks want (cheap, and the generator is their own). With neither, the
    seed is drawn from system randomness. ``hands=False``: a dealer of the current
    hand's reshuffles only (Mus), whose game waits when the hand ends
    (:meth:`State.deal_no_more_hands`).
    """

    __slots__ = ("hands", "rng", "seed")

    def __init__(
        self, seed: int | None = None, rng: random.Random | None = None, hands: bool = True
    ) -> None:
        if rng is None and seed is None:
            seed = secrets.randbits(64)
        self.seed = seed
        self.rng = rng
        self.hands = hands

    def for_deal(self, deal: int, reshuffle: int | None = None) -> random.Random:
        """The generator of deal ``deal`` (from 0), or of its reshuffle ``reshuffle``."""
        if self.rng is not None:
            return self.rng
        # a str seed is hashed with SHA-512: neighbouring deals get unrelated generators
        key = f"taverna/{self.seed}/{deal}"
        return random.Random(key if reshuffle is None else f"{key}/{reshuffle}")

    def __repr__(self) -> str:
        return "<Dealer of one generator>" if self.rng is not None else "<Dealer of a seed>"


#: the generator whose draws :func:`deal_shuffle` and :func:`deal_below` repeat (bound
#: once: compiled, ``random.Random`` is looked up in the module at every use)
_RANDOM: Final = random.Random
#: _BITS[n]: n.bit_length(), for the shuffles of a deck
_BITS: Final = tuple(n.bit_length() for n in range(129))


def deal_shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does — the same order
    from the same generator, the same state left behind — for the deals: a seed deals
    what it always dealt. CPython's ``Random.shuffle`` draws each index bit by bit in
    Python (``_randbelow``: ``getrandbits`` of the index's bit length, again while it is
    too large); compiled, the same draws cost a fifth of that (2.5 µs a 52-card deck
    against 12 µs). A generator of another kind (a subclass) shuffles itself."""
    if type(rng) is not _RANDOM or len(items) >= len(_BITS):
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = _BITS[n]
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def deal_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` exactly — the same number from the same generator, the same
    state left behind — for what a deal draws besides its shuffle (the first dealer, the
    opener, the mano): CPython draws it in Python (``_randbelow``: ``getrandbits`` of
    ``n``'s bit length, again while it is too large); compiled, less than half the cost
    (measured, called from Python: 75 ns against 172). A generator of another kind
    draws itself."""
    if type(rng) is not _RANDOM or not 0 < n < len(_BITS):
        return rng.randrange(n)
    k = _BITS[n]
    j: int = rng.getrandbits(k)
    while j >= n:
        j = rng.getrandbits(k)
    return j


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """Shuffle ``items`` in place (Fisher–Yates, an index from one float each): for the
    samples a search draws by the thousand, where ``random.shuffle`` (an index drawn bit
    by bit in Python) was half their cost. A deal keeps the generator's own shuffle
    (:func:`deal_shuffle`): a seed deals what it always dealt."""
    rand = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rand() * (i + 1))
        items[i], items[j] = items[j], items[i]


def below(rng: random.Random, n: int) -> int:
    """A number from 0 to ``n - 1`` at random, for the same samples (:func:`shuffle`)."""
    return int(rng.random() * n)


def dealer_of(rng: random.Random | Dealer | None, seed: int | None = None) -> Dealer | None:
    """The dealer for a game's later deals: ``rng`` (a generator or a dealer), else one
    of ``seed``, else None (the game waits for each deal: :attr:`State.awaiting_deal`)."""
    if isinstance(rng, Dealer):
        return rng
    if rng is not None:
        return Dealer(rng=rng)
    if seed is not None:
        return Dealer(seed=seed)
    return None


def event_for(event: Event, seat: int | None) -> Event:
    """The copy of ``event`` that ``seat`` may see (``None``: a spectator).

    Public fields are kept, the ``private`` part of that seat is merged in,
    every other seat's private part is dropped.
    """
    private = event.get("private")
    if private is None:
        return event
    out = {k: v for k, v in event.items() if k != "private"}
    if seat is not None and seat in private:
        out.update(private[seat])
    return out


def event_json(event: Event) -> Event:
    """The omniscient form of an event, for records and replays (JSON keys are strings)."""
    private = event.get("private")
    if private is None:
        return event
    out = dict(event)
    out["private"] = {str(s): dict(fields) for s, fields in private.items()}
    return out


def action_seat(obj: Any, seats: int) -> int:
    """The acting seat of a record action (docs/rules.md §4.3), checked; raises InvalidAction."""
    if not isinstance(obj, dict):
        raise InvalidAction(f"an action must be an object, not {obj!r}")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise InvalidAction(f"action seat must be 0..{seats - 1}, not {seat!r}")
    return seat


def only_fields(obj: dict[str, Any], kind: str, *fields: str) -> None:
    """Refuse a record action with a field its type does not take."""
    extra = set(obj) - {"seat", "type", *fields}
    if extra:
        raise InvalidAction(f"a {kind} takes no {sorted(extra)[0]!r}")


# a game of another package subclasses these (docs/games.md), as Python classes even
# when the engines are compiled (taverna/native.py)
@mypyc_attr(allow_interpreted_subclasses=True)
class Action(ABC):
    """A move by one seat. Small, immutable, printable as record notation."""

    __slots__ = ()
    seat: int
    type: str

    @abstractmethod
    def to_json(self) -> JSON:
        """The action as a record entry (docs/rules.md §4.3)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.to_json().items())))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.to_json()}>"


#: the action type of a game (:class:`State`); a bare ``State`` is a state of any game
A = TypeVar("A", bound=Action, default=Action)


@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC, Generic[A]):
    """One game in progress: the protocol every game implements.

    A game is a subclass that declares its facts once (class attributes: ``game``,
    ``min_seats``/``max_seats``, its settings...) and implements its rules: what a deal
    is (:meth:`parse_deal`, :meth:`deal_json`, :meth:`_random_deal`, :meth:`_begin`),
    what an action is (:meth:`parse_action`), :meth:`legal_actions`, :meth:`apply`,
    :meth:`view` and :meth:`sample`. ``State[A]`` is a game whose actions are ``A``s
    (``Dominoes`` is a ``State[DominoAction]``); a bare ``State`` is any game's.

    The base owns what every game shares (docs/games.md): the table (``seats``,
    ``settings``), the deals (a record's queued first, then the dealer's), the record
    (:attr:`deals_used`, :attr:`actions_played`), the constructors :meth:`new` and
    :meth:`start`, :meth:`deal` while one is awaited, the refusals of a seat that may
    not act now, and :meth:`clone`.
    """

    __slots__ = (
        "_dealer",
        "_deals",
        "_log",
        "_queue",
        "_quiet",
        "awaiting",
        "hand_no",
        "initial_events",
        "over",
        "seats",
        "settings",
        "turn",
        "winner",
    )

    game: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    #: the name of what one deal starts: "hand" or "round"
    deal_unit: ClassVar[str] = "hand"
    #: what is over when the state is over, as refusals say it: "game" (Mus: "match")
    match_unit: ClassVar[str] = "game"
    #: how many sides play against each other, by seat count (None: one side per seat)
    team_count: ClassVar[int | None] = None
    #: the table settings, declared once (:class:`Setting`): :meth:`check_settings`,
    #: ``/api/games``, the lobby's form and the settings summary all read them
    settings_declared: ClassVar[tuple[Setting, ...]] = ()
    #: short names a person may type for the game (``taverna play dominoes``)
    aliases: ClassVar[tuple[str, ...]] = ()
    #: the game's name for people, in English (clients translate it by ``game``)
    title: ClassVar[str] = ""
    #: the seat count a new table has unless told otherwise
    default_seats: ClassVar[int] = 2
    #: where the game comes in lists of games (the lobby, ``/api/games``): lower first
    order: ClassVar[int] = 100
    #: what the game is played with, singular: "tile" or "card"
    piece: ClassVar[str] = "card"
    #: the fields of a seat's view that only that seat sees (a replay shows them all)
    private_fields: ClassVar[tuple[str, ...]] = ("hand",)
    #: action types that are rights, not turns: any seat that holds one may use it
    #: while another seat is to move (Muggins cards: claims and calls)
    optional_actions: ClassVar[tuple[str, ...]] = ()
    #: the signals partners may make (Mus señas), listed apart in a record's
    #: ``signals`` (:meth:`replay_signal`); empty: the game has none
    signal_signs: ClassVar[tuple[str, ...]] = ()
    #: the game's own figures on a player's page (:meth:`count_figures`), in the order shown;
    #: a client labels each with its strings' ``game.<game>.figure.<name>``; empty: none
    figure_names: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def count_figures(cls, events: Sequence[Event], seat: int) -> dict[str, int]:
        """What ``seat`` did in a finished game, as the game counts it for a player's
        page, from the events of the whole game (omniscient, as a replay makes them):
        ``{name: count}`` by figure name (Muggins cards: Muggins! calls made and
        suffered). A game without figures answers ``{}``. From a record:
        :func:`taverna.games.record.figures`."""
        return {}

    @classmethod
    def setting_specs(cls) -> dict[str, dict[str, Any]]:
        """What each setting may be, for forms that check before they ask."""
        return {x.name: x.spec() for x in cls.settings_declared}

    @classmethod
    def facts(cls) -> JSON:
        """Everything the game declares about itself, as ``/api/games`` serves it."""
        return {
            "game": cls.game,
            "title": cls.title,
            "aliases": list(cls.aliases),
            "min_seats": cls.min_seats,
            "max_seats": cls.max_seats,
            "default_seats": cls.default_seats,
            "order": cls.order,
            "team_count": cls.team_count,
            "deal_unit": cls.deal_unit,
            "piece": cls.piece,
            "private_fields": list(cls.private_fields),
            "optional_actions": list(cls.optional_actions),
            "figures": list(cls.figure_names),
            "settings": cls.setting_specs(),
            "defaults": {
                n: cls.check_settings(n, {}) for n in range(cls.min_seats, cls.max_seats + 1)
            },
        }

    @classmethod
    def side_of(cls, seat: int) -> int:
        """The side a seat plays for: its own seat, or its pair in a team game."""
        return seat if cls.team_count is None else seat % cls.team_count

    seats: int
    settings: dict[str, Any]
    #: events of the first deal, made when the state was created
    initial_events: list[Event]
    #: index of the current hand (or round), from 0; -1 before the first deal
    hand_no: int
    #: the seat whose turn it is, -1 for none (over, or a deal is due)
    turn: int
    #: a new deal is due but none is queued and there is no dealer (:meth:`deal`)
    awaiting: bool
    over: bool
    winner: int | None

    @property
    @abstractmethod
    def scores(self) -> list[int]:
        """Each side's score now (a field of the game's, or Mus's stones of the game)."""

    # ------------------------------------------------------------------ facts

    @classmethod
    def check_settings(cls, seats: int, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate table settings against :attr:`settings_declared` and fill in the
        defaults; raises SettingsError. A game adds rules between settings in
        :meth:`check_together`."""
        cls.check_seats(seats)
        given = dict(settings or {})
        known = [x.name for x in cls.settings_declared]
        unknown = sorted(set(given) - set(known))
        if unknown:
            has = f"it has {', '.join(known)}" if known else "it has no settings"
            raise SettingsError(f"unknown setting {unknown[0]!r} for {cls.game} ({has})")
        out = {
            x.name: x.check(given[x.name]) if x.name in given else x.default_for(seats)
            for x in cls.settings_declared
        }
        cls.check_together(out)
        return out

    @classmethod
    def check_together(cls, settings: dict[str, Any]) -> None:
        """Refuse settings that are each allowed but not together (SettingsError)."""
        return None

    @classmethod
    def settings_for(cls, seats: int, settings: Mapping[str, Any] | None) -> dict[str, Any]:
        """:meth:`check_settings`, remembered: a new game must not pay for validation.

        Returns a fresh dict each time (callers may keep it as their own).
        """
        try:
            key = (cls, seats, tuple(sorted(settings.items())) if settings else ())
            cached = _SETTINGS_CACHE.get(key)
        except TypeError:  # an unhashable value: validate, and let it explain
            return cls.check_settings(seats, settings)
        if cached is None:
            cached = cls.check_settings(seats, settings)
            if len(_SETTINGS_CACHE) < 1024:
                _SETTINGS_CACHE[key] = cached
        return dict(cached)

    @classmethod
    def check_seats(cls, seats: object) -> int:
        """``seats`` if the game is played by that many; else SettingsError saying why."""
        if type(seats) is int and cls.min_seats <= seats <= cls.max_seats:
            return seats  # the usual case, first: every new game asks
        if not isinstance(seats, int) or isinstance(seats, bool):
            raise SettingsError(f"seats must be a whole number, not {seats!r}")
        if not cls.min_seats <= seats <= cls.max_seats:
            if cls.min_seats == cls.max_seats:
                raise SettingsError(
                    f"{cls.game} is played by exactly {cls.min_seats} seats, not {seats}"
                )
            raise SettingsError(
                f"{cls.game} is played by {cls.min_seats} to {cls.max_seats} seats, not {seats}"
            )
        return seats

    # ------------------------------------------------------------ construction

    def __init__(
        self,
        seats: int,
        settings: Mapping[str, Any] | None = None,
        deals: Sequence[Any] = (),
        dealer: Dealer | None = None,
        *,
        log: bool = True,
    ) -> None:
        """A game before its first deal: its table, the parsed ``deals`` to play first
        (a record's), the ``dealer`` of the later ones (None: wait for each) and, with
        ``log``, a record kept. A game adds its own fields in its ``__init__``; the
        deal itself is :meth:`_begin`'s. Use :meth:`new`, :meth:`start` or
        :meth:`sample`: a state made here has not been dealt.
        """
        self.seats = self.check_seats(seats)
        self.settings = self.settings_for(seats, settings)
        self._queue = list(reversed(deals)) if deals else []  # pop() takes the next one
        self._dealer = dealer
        self._log: list[A] | None = [] if log else None
        self._deals: list[Any] | None = [] if log else None
        # true only during a step: its apply makes no events (step)
        self._quiet = False
        self.initial_events = []
        self.hand_no = -1
        self.turn = -1
        self.awaiting = False
        self.over = False
        self.winner = None

    @classmethod
    def new(
        cls,
        seats: int | None = None,
        settings: Mapping[str, Any] | None = None,
        seed: int | None = None,
        *,
        rng: random.Random | Dealer | None = None,
    ) -> Self:
        """A live game of ``seats`` (the game's :attr:`default_seats` if None): deal
        ``k`` comes from ``Dealer(seed=seed).for_deal(k)`` — the same seed, the same
        game — or every deal from ``rng``."""
        n = cls.default_seats if seats is None else seats
        state = cls(n, settings, (), dealer_of(rng) or Dealer(seed))
        state.initial_events = state._next_deal()
        return state

    @classmethod
    def start(
        cls,
        seats: int,
        settings: Mapping[str, Any] | None,
        deals: Sequence[Any],
        *,
        rng: random.Random | Dealer | None = None,
        seed: int | None = None,
    ) -> Self:
        """A game fed with the given parsed deals first, then from ``rng`` or ``seed``
        (as :meth:`new`; with neither it waits for each later deal).

        ``start(seats, settings, game.deals_used, seed=s)`` and the same actions
        rebuild a game made by ``new(seats, settings, s)``, and it deals on exactly
        as that game would have. Deals that cannot follow one another are refused
        before anything is played (:meth:`check_deals`).
        """
        cls.check_deals(cls.check_seats(seats), deals)
        state = cls(seats, settings, deals, dealer_of(rng, seed))
        state.initial_events = state._next_deal()
        return state

    @classmethod
    def check_deals(cls, seats: int, deals: Sequence[Any]) -> None:
        """Refuse a record's deals that cannot follow one another (MalformedRecord):
        what every deal says that is known from the first (a dealer or a mano that
        passes round the table)."""
        return None

    @classmethod
    @abstractmethod
    def parse_action(cls, obj: Any, seats: int) -> A:
        """An action from its record form; raises InvalidAction."""

    @classmethod
    @abstractmethod
    def parse_deal(cls, obj: Any, seats: int, settings: Mapping[str, Any], index: int) -> Any:
        """A deal from its record form, checked as data; raises MalformedRecord."""

    @classmethod
    @abstractmethod
    def deal_json(cls, deal: Any) -> JSON:
        """A parsed deal back in record form."""

    @classmethod
    @abstractmethod
    def sample(cls, view: View, rng: random.Random) -> Self:
        """A full state consistent with everything ``view``'s seat has seen.

        Hidden tiles or cards are placed at random among the places they may
        be; later deals come from ``rng``. Used by search bots, which never
        see the real state. Raises SampleError for a spectator's view or a view
        that nothing fits.
        """

    def clone(self, rng: random.Random | Dealer | None = None, *, record: bool = False) -> Self:
        """A cheap independent copy: nothing done to it changes this game.

        The copy has no generator of this game's: it stops at the next deal
        (:attr:`awaiting_deal`) unless it is given one of its own, ``rng`` (search
        bots pass theirs). It keeps no record unless ``record`` is true, when it
        starts with a copy of this game's (a server tries a move on such a copy, stores
        the move and what it dealt, and only then makes the copy its game).

        Every other slot is copied as it is: a game keeps in its slots numbers,
        strings, tuples, None, dicts it never changes (settings, a finished hand's
        summary), lists of those and lists of such lists, all of one kind. A clone
        copies each list, and the lists in it; it shares everything else.
        """
        copy = type(self)(self.seats, self.settings, (), dealer_of(rng), log=False)
        for name in _copied_slots(type(self)):
            value = getattr(self, name)
            if type(value) is list:
                value = [x[:] for x in value] if value and type(value[0]) is list else value[:]
            setattr(copy, name, value)
        if record and self._log is not None and self._deals is not None:
            copy._log = self._log[:]
            copy._deals = self._deals[:]
        return copy

    def deal_no_more_hands(self) -> None:
        """Deal no new hand: when this one ends the game waits (:attr:`awaiting_deal`).
        A search's playout stops there, and a deal it would never look at costs a
        shuffle; a reshuffle within the hand (Mus) still comes from the dealer."""
        if self._dealer is not None:
            self._dealer = Dealer(self._dealer.seed, self._dealer.rng, hands=False)

    # ----------------------------------------------------------------- dealing

    @property
    def awaiting_deal(self) -> bool:
        """True when a new deal is due but none is queued and there is no dealer."""
        return self.awaiting

    def deal(self, deal: Any) -> list[Event]:
        """Start the next hand with ``deal`` (only while :attr:`awaiting_deal`)."""
        if not self.awaiting:
            raise IllegalAction("no deal is due now")
        return self._take_deal(deal, True)

    def _next_deal(self) -> list[Event]:
        """Start the next deal: the next queued one (a record's), else one dealt by the
        dealer's generator for it, else wait for one (:attr:`awaiting_deal`)."""
        if self._queue:
            return self._take_deal(self._queue.pop(), True)
        if self._dealer is not None and self._dealer.hands:
            rng = self._dealer.for_deal(self.hand_no + 1)
            return self._take_deal(self._random_deal(rng), False)
        self.awaiting = True
        return []

    def _take_deal(self, deal: Any, given: bool) -> list[Event]:
        """Start deal ``hand_no + 1``; a ``given`` one (queued or passed to :meth:`deal`)
        is checked first, and refused (IllegalAction) before anything changes."""
        if given:
            self._check_deal(deal)
        self.awaiting = False
        self.hand_no += 1
        if self._deals is not None:
            self._deals.append(deal)
        return self._begin(deal, given)

    def _amend_deal(self, deal: Any) -> None:
        """Record ``deal`` in place of the current one: the deal as it turned out (Mus:
        with the reshuffles drawn during its hand), so that a replay deals the same."""
        if self._deals:
            self._deals[-1] = deal

    def _check_deal(self, deal: Any) -> None:
        """Refuse (IllegalAction) a given deal that cannot be the next one here."""
        return None

    @abstractmethod
    def _random_deal(self, rng: random.Random) -> Any:
        """The next deal, shuffled and drawn (dealer, opener or mano) from ``rng``."""

    @abstractmethod
    def _begin(self, deal: Any, given: bool) -> list[Event]:
        """Set up hand :attr:`hand_no` from ``deal`` and return its events; ``given`` is
        false for a deal made here by :meth:`_random_deal`."""

    # --------------------------------------------------------------- playing

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that hold a right to act now (empty when over or awaiting a deal)."""
        return (self.turn,) if self.turn >= 0 else ()

    @property
    def turn_seat(self) -> int | None:
        """The seat that must act now; other seats in :attr:`to_act` only may (claims, calls)."""
        acting = self.to_act
        return acting[0] if len(acting) == 1 else None

    @abstractmethod
    def legal_actions(self, seat: int | None = None) -> list[A]:
        """Every legal action of ``seat`` (all acting seats when ``None``)."""

    @abstractmethod
    def apply(self, action: A) -> list[Event]:
        """Play ``action`` and return its events; IllegalAction changes nothing."""

    def step(self, action: A) -> None:
        """Play ``action`` as :meth:`apply` does, without making its events.

        The state after a step is the state after the same apply, its record too, and
        IllegalAction changes nothing just the same (tests/test_protocol.py holds every
        game to it). Searches and playouts play thousands of actions whose events
        nobody reads: a game's apply builds them only while ``self._quiet`` is false,
        and it is true only during a step. (A game whose apply does not look makes
        them, and the step drops them.)
        """
        self._quiet = True
        try:
            self.apply(action)
        finally:
            self._quiet = False

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator), as JSON-ready data."""

    def _not_turn(self, s: int, verb: str) -> IllegalAction:
        """Why seat ``s`` may not ``verb`` now: the game is over, the next deal is due,
        or it is another seat's turn."""
        if self.over:
            return IllegalAction(
                f"seat {s} cannot {verb}: the {self.match_unit} is over", "game_over"
            )
        if self.awaiting:
            return IllegalAction(
                f"seat {s} cannot {verb}: the next {self.deal_unit} has not been dealt",
                "not_dealt",
            )
        doing = self._turn_doing()
        return IllegalAction(
            f"seat {s} cannot {verb}: it is seat {self.turn}'s turn"
            + (f" to {doing}" if doing else ""),
            "not_your_turn",
            turn=self.turn,
        )

    def _refuse_turn(self, s: int, verb: str) -> NoReturn:
        """Raise :meth:`_not_turn`."""
        raise self._not_turn(s, verb)

    def _turn_doing(self) -> str:
        """What the seat whose turn it is has to do, for refusals ("speak in Grande");
        empty: a game whose turns are all alike."""
        return ""

    def _restore(self, snapshot: Self) -> None:
        """Become ``snapshot`` (a clone taken before a rare apply that may fail half-way).

        The record log is kept as it is (a failed apply has not logged anything), and so
        is the dealer (the snapshot, a clone, has none).
        """
        for name in _all_slots(type(self)):
            if name not in ("_log", "_deals", "_dealer"):
                setattr(self, name, getattr(snapshot, name))

    def result(self) -> JSON:
        """The fields `taverna replay` reports about a state (docs/rules.md §4.4)."""
        return {
            "scores": list(self.scores),
            "over": self.over,
            "winner": self.winner,
            "to_act": list(self.to_act),
        }

    # --------------------------------------------------------------- records

    @property
    def deals_used(self) -> list[Any]:
        """The parsed deals consumed so far, in order."""
        return list(self._deals or [])

    @property
    def actions_played(self) -> list[A]:
        """Every action applied so far (empty for clones and samples, which keep no record)."""
        return list(self._log or [])

    # ------------------------------------------------------------- signals

    def signals_open(self) -> bool:
        """Whether a seat may make a signal now (Mus: a seña in a lance, at a table that
        plays them); a driver asks its players for theirs only then."""
        return False

    def make_signal(self, seat: int, sign: str, caught_by: Sequence[int] = ()) -> JSON:
        """Make a signal (Mus: a seña), caught by the seats ``caught_by``; returns its
        record entry. IllegalAction when the rules refuse it; a game without
        :attr:`signal_signs` refuses every one."""
        raise IllegalAction(f"{self.game} has no signals", "no_signals")

    def catches(self, seed: int, seat: int) -> list[int]:
        """The seats that catch the next signal ``seat`` makes, drawn from the game's
        ``seed`` apart from its deals (Mus: :func:`~taverna.games.mus.senas.draw_catches`)."""
        return []

    def replay_signal(self, entry: JSON) -> JSON:
        """Make the signal of a record's ``signals`` entry at its place (:meth:`make_signal`)."""
        return self.make_signal(entry["seat"], entry["sign"], entry["caught_by"])

    @classmethod
    def record_settings(cls, settings: Mapping[str, Any]) -> JSON:
        """The settings as a record writes them: all but a ``quiet`` one at its default."""
        quiet = {x.name: x.default for x in cls.settings_declared if x.quiet}
        return {k: v for k, v in settings.items() if k not in quiet or v != quiet[k]}

    def record(self) -> JSON:
        """The record of this game so far (docs/rules.md §4.1)."""
        return {
            "game": self.game,
            "seats": self.seats,
            "settings": self.record_settings(self.settings),
            "deals": [self.deal_json(d) for d in self.deals_used],
            "actions": [a.to_json() for a in self.actions_played],
        }


class DealReader:
    """Reads the items of one deal as data: each known, each once, the whole set.

    Shared by every game's ``parse_deal``; the messages name the deal, the
    place (``hand 1``, ``boneyard``) and the item as the game writes it.
    """

    def __init__(
        self,
        where: str,
        noun: str,
        whole: str,
        size: int,
        parse: Callable[[object], int],
        show: Callable[[int], str],
    ) -> None:
        self.where = where
        self.noun = noun
        self.whole = whole
        self.size = size
        self.parse = parse
        self.show = show
        self.seen: dict[int, str] = {}

    def items(self, raw: object, what: str, *, own_set: bool = False) -> tuple[int, ...]:
        """The ids of a list of items; ``own_set`` checks repeats within this list only."""
        if not isinstance(raw, list):
            raise MalformedRecord(f"{self.where} must list the {what}")
        seen: dict[int, str] = {} if own_set else self.seen
        out = []
        for text in raw:
            try:
                item = self.parse(text)
            except ValueError as e:
                raise MalformedRecord(f"{self.where}, {what}: {e}") from None
            if item in seen:
                raise MalformedRecord(
                    f"{self.where}: {self.noun} {self.show(item)} appears twice "
                    f"({seen[item]} and {what})"
                )
            seen[item] = what
            out.append(item)
        return tuple(out)

    def hands(self, raw: object, seats: int, size: int, rule: str) -> tuple[tuple[int, ...], ...]:
        """``seats`` hands of ``size`` items each; ``rule`` says why that size."""
        if not isinstance(raw, list) or len(raw) != seats:
            raise MalformedRecord(f"{self.where} must list {seats} hands")
        out = []
        for s, h in enumerate(raw):
            if not isinstance(h, list) or len(h) != size:
                raise MalformedRecord(f"{self.where}: hand {s} must hold {size} {self.noun}s{rule}")
            out.append(self.items(h, f"hand {s}"))
        return tuple(out)

    def check_whole(self) -> None:
        if len(self.seen) != self.size:
            missing = [self.show(i) for i in range(self.size) if i not in self.seen]
            raise MalformedRecord(
                f"{self.where} is not a whole {self.whole}: missing {', '.join(missing)}"
            )

    def seat(
        self, obj: dict[str, Any], key: str, seats: int, required_why: str | None
    ) -> int | None:
        """A seat field (opener, dealer, mano); required when ``required_why`` is set."""
        value = obj.get(key)
        if value is None:
            if required_why is not None:
                raise MalformedRecord(f"{self.where} must name the {key} ({required_why})")
            return None
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < seats:
            raise MalformedRecord(
                f"{self.where}: {key} must be a seat 0..{seats - 1}, not {value!r}"
            )
        return value


@cache
def _all_slots(cls: type) -> tuple[str, ...]:
    """Every slot of a state class, its bases' included. (A class compiled by mypyc
    lists its fields in ``__mypyc_attrs__``, its ``__slots__`` empty.)"""
    names: list[str] = []
    for klass in cls.__mro__:
        fields: tuple[str, ...] = vars(klass).get("__mypyc_attrs__", ()) or getattr(
            klass, "__slots__", ()
        )
        names.extend(name for name in fields if name not in names and name != "__dict__")
    return tuple(names)


#: what a clone does not take as it is: its table (given to its constructor), its dealer
#: and its record (:meth:`State.clone` says), and the first deal's events (it has none)
_NOT_COPIED: Final = frozenset(
    {"seats", "settings", "_dealer", "_log", "_deals", "_quiet", "initial_events"}
)


@cache
def _copied_slots(cls: type) -> tuple[str, ...]:
    """The slots :meth:`State.clone` copies."""
    return tuple(name for name in _all_slots(cls) if name not in _NOT_COPIED)


def play_randomly(state: State, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play random legal actions until the game is over; returns actions played."""
    n = 0
    while not state.over and n < max_actions:
        acts = state.legal_actions()
        if not acts:
            break
        state.step(rng.choice(acts))
        n += 1
    return n
