"""The Mus state: the game's facts, its fields, and the protocol's answers
(docs/rules.md §3). What happens in each part of a hand is in the package's other
modules, functions of this state: :mod:`.dealing` (the deal and the mus phase),
:mod:`.betting` (the lances), :mod:`.count` (the end of a hand, games and cows),
:mod:`.views` (views and samples); :mod:`.notation` has the actions and deals,
:mod:`.hands` the cards and what a hand is worth, :mod:`.rules` the numbers.
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from ..base import (
    JSON,
    Dealer,
    Event,
    IllegalAction,
    MalformedRecord,
    Setting,
    State,
    View,
    not_an_action,
)
from .betting import accept, bet, call_ordago, raise_bet, reject, say_pass
from .count import HandEnd, summary
from .dealing import begin, check_deal, discard, random_deal, say_mus, say_no_mus
from .figures import FIGURE_NAMES, seat_figures
from .hands import HandValue
from .notation import (
    ACCEPT,
    ANSWER_MENU,
    BET,
    DISCARD_CARDS,
    MUS,
    MUS_MENU,
    NO_MUS,
    ORDAGO,
    ORDAGO_MENU,
    PASS,
    RAISE,
    REJECT,
    SPEAK_MENU,
    VERBS,
    MusAction,
    MusDeal,
    cards_str,
    discards,
)
from .notation import deal_json as write_deal
from .notation import parse_action as read_action
from .notation import parse_deal as read_deal
from .rules import (
    ANSWER,
    DISCARD,
    IDLE,
    JUEGO,
    LANCE_NAMES,
    LANCE_TITLES,
    MUS_PHASE,
    PENDING,
    SEATS,
    SPEAK,
)
from .senas import SIGN_BIT, SIGNS, check_catch, draw_catches, refusal, true_signs, visible
from .views import sample as sample_view
from .views import view as seat_view


class Mus(State[MusAction]):
    """Mus: four seats in two pairs, stones, games and cows (docs/rules.md §3).

    Events (plain dicts; ``private`` parts only for the seat they name):

    - ``deal`` {hand, game, mano, deck, stones; private: cards}
    - ``mus``, ``no_mus`` {seat}; ``discard`` {seat, count, deck; private:
      cards, drawn}; ``reshuffle`` {seat, deck} when the deck is rebuilt
    - ``announce`` {lance: pares|juego, holders} before those lances;
      ``lance`` {lance, speakers} (or ``skipped``, or ``team`` when one pair
      wins it without betting)
    - ``pass``, ``bet``/``raise`` {amount, stake}, ``ordago``, ``accept``,
      ``reject`` {seat}
    - ``credit`` {team, stones, lance, reason, total}: every stone credited
    - ``hand_end`` {reason: showdown|ordago|game won, hands (all four, or
      None when not shown), lances (status, team, seat, stones), stones,
      stones_before, tally, verdicts}: ``tally`` lists every stone of the hand
      where it came from, in the order credited — {lance, team, stones, for:
      refused (credited during the hand) | pass | stake | pares | juego |
      punto, and for a bonus the ``seat`` with its ``kind`` or ``points``;
      ``counted`` false once a pair had reached 40} — so ``stones_before``
      plus the counted rows is ``stones``; ``verdicts`` say why each lance
      compared at the showdown was won: {lance, seat, over (the best seat of
      the other pair), by: card {at, ranks} | kind {kinds} | rank {kind,
      ranks} | juego {points} | real_31 | punto {points} | tie (closer to
      mano)}
    - ``game_end`` {game, team, reason: stones|ordago, stones, games},
      ``cow_end`` {team, cows}, ``match_end`` {winner, games, cows}
    """

    game: ClassVar[str] = "mus"
    min_seats: ClassVar[int] = SEATS
    max_seats: ClassVar[int] = SEATS
    #: docs/rules.md §3.1: seats 0 and 2 are team 0, seats 1 and 3 team 1
    team_count: ClassVar[int | None] = 2
    title: ClassVar[str] = "Mus"
    match_unit: ClassVar[str] = "match"
    aliases: ClassVar[tuple[str, ...]] = ()
    order = 3
    default_seats: ClassVar[int] = 4
    private_fields: ClassVar[tuple[str, ...]] = ("hand", "discarded")
    signal_signs: ClassVar[tuple[str, ...]] = SIGNS
    settings_declared: ClassVar[tuple[Setting, ...]] = (
        # docs/rules.md §3.2: cows per match and games per cow, 1 to 3
        Setting("cows", "choice", 1, choices=(1, 2, 3)),
        Setting("games_per_cow", "choice", 3, choices=(1, 2, 3)),
        Setting("real_31", "bool", False),
        # docs/rules.md §3.2, §3.8.3: on by default; each opponent catches one with this chance
        Setting("senas", "bool", True, quiet=True),
        Setting("catch", "number", 0.25, minimum=0, maximum=1, quiet=True),
    )
    #: a player's page counts (:mod:`.figures`) the lances their pair won by kind, and
    #: the órdagos they called and those of them their pair won
    figure_names: ClassVar[tuple[str, ...]] = FIGURE_NAMES

    __slots__ = (
        "_end",
        "_told",
        "answerers",
        "apos",
        "bet_team",
        "betting",
        "cows",
        "cows_to_win",
        "dealt",
        "deck",
        "discards",
        "game_no",
        "games",
        "games_per_cow",
        "given",
        "hands",
        "holders",
        "lance",
        "mano",
        "mus_count",
        "mus_round",
        "n_actions",
        "n_bets",
        "ordago",
        "phase",
        "piles",
        "pos",
        "prev_stake",
        "punto",
        "real31",
        "res_stake",
        "res_status",
        "res_team",
        "reshuffled",
        "signals",
        "signals_start",
        "signs_made",
        "speakers",
        "stake",
        "stones",
        "tally",
        "vals",
    )

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
        self.cows_to_win: int = self.settings["cows"]
        self.games_per_cow: int = self.settings["games_per_cow"]
        self.real31: bool = self.settings["real_31"]
        # the deal of the hand (with the reshuffles drawn so far) and whether it was
        # given (a record's, or passed to deal()) rather than dealt here
        self.dealt: MusDeal | None = None
        self.given = False
        self.stones = [0, 0]
        self.games = [0, 0]
        self.cows = [0, 0]
        self.game_no = 0
        self.mano = -1
        # the last hand's end (its summary, ``last_hand``, is written from it when read),
        # or the summary a view told (a sampled state)
        self._end: HandEnd | None = None
        self._told: JSON | None = None
        # no hand yet (each deal sets these four)
        self.phase = IDLE
        self.hands: list[tuple[int, ...]] = [(), (), (), ()]
        self.deck: list[int] = []  # top at the end
        self.piles: list[list[int]] = [[], [], [], []]  # each seat's discards in the pile
        self.discards: list[list[int]] = []  # cards discarded per round, per seat (public counts)
        # docs/rules.md §3.8.4: every seña of the game, as the record lists them; an entry
        # is never changed once made (a clone shares them)
        self.signals: list[JSON] = []
        self.n_actions = 0  # actions applied (a seña's ``after``), kept by clones too
        self.reset_hand()

    def reset_hand(self) -> None:
        """The hand's other fields, as before its deal."""
        if self.discards:  # else the piles are empty too (only a discard fills them)
            self.piles = [[], [], [], []]
            self.discards = []
        self.reshuffled = 0
        self.signals_start = len(self.signals)  # this hand's señas are signals[signals_start:]
        self.signs_made = [0, 0, 0, 0]  # per seat, the bits (SIGN_BIT) of this hand's
        self.mus_round = 0
        self.mus_count = 0  # mus said (mus phase) or discards made (discard phase) this round
        self.vals: list[HandValue] | None = None
        # who announced pares, who juego (None: not announced yet)
        self.holders: list[tuple[int, ...] | None] = [None, None]
        self.lance = -1
        self.punto = False
        self.speakers: tuple[int, ...] = ()
        self.pos = 0
        self.answerers: tuple[int, ...] = ()
        self.apos = 0
        self.stake = 0
        self.prev_stake = 0
        self.bet_team = -1
        self.ordago = False
        self.n_bets = 0
        self.betting: list[tuple[int, int, int]] = []  # (seat, action code, amount)
        self.res_status = [PENDING] * 4
        self.res_stake = [0] * 4
        self.res_team = [-1] * 4
        # the stones of the hand's refused bets, where they came from (hand_end's tally;
        # the showdown's rows are written with its summary); a sampled state starts it
        # at the view, which does not say what a refused bet was worth
        self.tally: list[JSON] = []

    @property
    def last_hand(self) -> JSON | None:
        """The summary of the last hand (its ``hand_end`` event, the very dict), None
        before the first ends; written the first time it is asked for
        (:func:`.count.summary`): a search's steps never write one."""
        if self._end is not None:
            return summary(self._end)
        return self._told

    @last_hand.setter
    def last_hand(self, told: JSON | None) -> None:
        self._end = None
        self._told = told

    @property
    def scores(self) -> list[int]:
        """The stones of the current game per pair (docs/rules.md §4.4)."""
        return self.stones

    @classmethod
    def check_deals(cls, seats: int, deals: Sequence[Any]) -> None:
        # docs/rules.md §3.3: it passes to the next seat every hand, across
        # games, so every queued deal's mano is known from the first one.
        if deals:
            first = deals[0].mano
            if first is None:
                raise MalformedRecord("deal 0 must name the mano (the first hand's draw)")
            for i, d in enumerate(deals):
                want = (first + i) % SEATS
                if d.mano is not None and d.mano != want:
                    raise MalformedRecord(
                        f"deal {i} names mano {d.mano}, but mano passes to the next seat "
                        f"every hand: after deal 0's mano {first} it is seat {want}"
                    )

    # ------------------------------------------------------ notation and dealing

    @classmethod
    def parse_action(cls, obj: Any, seats: int) -> MusAction:
        return read_action(obj, seats)

    @classmethod
    def parse_deal(cls, obj: Any, seats: int, settings: Mapping[str, Any], index: int) -> MusDeal:
        return read_deal(obj, index)

    @classmethod
    def deal_json(cls, deal: Any) -> JSON:
        return write_deal(deal)

    def _random_deal(self, rng: random.Random) -> MusDeal:
        return random_deal(self, rng)

    def _check_deal(self, deal: MusDeal) -> None:
        check_deal(self, deal)

    def _begin(self, deal: MusDeal, given: bool) -> list[Event]:
        return begin(self, deal, given)

    @classmethod
    def count_figures(cls, events: Sequence[Event], seat: int) -> dict[str, int]:
        """The lances ``seat``'s pair won by kind, the órdagos it called and won
        (:func:`.figures.seat_figures`)."""
        return seat_figures(events, seat)

    # ------------------------------------------------------------ queries

    def legal_actions(self, seat: int | None = None) -> list[MusAction]:
        s = self.turn
        if s < 0 or (seat is not None and seat != s):
            return []
        ph = self.phase
        if ph == ANSWER:
            return (ORDAGO_MENU[s] if self.ordago else ANSWER_MENU[s]).copy()
        if ph == SPEAK:
            return SPEAK_MENU[s].copy()
        if ph == MUS_PHASE:
            return MUS_MENU[s].copy()
        return discards(s, self.hands[s])

    def hand_cards(self, seat: int) -> list[str]:
        """A seat's cards in notation."""
        return cards_str(self.hands[seat])

    @property
    def lance_name(self) -> str | None:
        """The lance being played (``grande`` .. ``punto``), if any."""
        if self.lance < 0 or self.phase not in (SPEAK, ANSWER):
            return None
        return LANCE_NAMES[4 if self.punto and self.lance == JUEGO else self.lance]

    def _turn_doing(self) -> str:
        ph = self.phase
        if ph == MUS_PHASE:
            return "say mus or no mus"
        if ph == DISCARD:
            return "discard"
        return f"speak in {LANCE_TITLES[4 if self.punto and self.lance == JUEGO else self.lance]}"

    # ------------------------------------------------------------ playing

    # ``object``: compiled, a narrower type would refuse a dict with a bare TypeError
    # before the body's own refusal says what to do instead (not_an_action)
    def apply(self, action: object) -> list[Event]:
        if not isinstance(action, MusAction):
            raise not_an_action(self, action)
        s = action.seat
        turn = self.turn
        if s != turn or turn < 0:
            self._refuse_turn(s, VERBS[action.code])
        # The part of the hand that takes the action, by direct calls: compiled, a call
        # through a table of functions goes through Python's calling convention (the
        # arguments boxed and parsed at every action), a direct one does not.
        ph = self.phase
        code = action.code
        events: list[Event]
        if ph == SPEAK:
            if code == PASS:
                events = say_pass(self, s, action)
            elif code == BET:
                events = bet(self, s, action)
            elif code == ORDAGO:
                events = call_ordago(self, s, action)
            else:
                raise self.not_now(s, code)
        elif ph == ANSWER:
            if code == ACCEPT:
                events = accept(self, s, action)
            elif code == REJECT:
                events = reject(self, s, action)
            elif code == RAISE:
                events = raise_bet(self, s, action)
            elif code == ORDAGO:
                events = call_ordago(self, s, action)
            else:
                raise self.not_now(s, code)
        elif ph == MUS_PHASE and code == MUS:
            events = say_mus(self, s, action)
        elif ph == MUS_PHASE and code == NO_MUS:
            events = say_no_mus(self, s, action)
        elif ph == DISCARD and code == DISCARD_CARDS:
            events = discard(self, s, action)
        else:
            raise self.not_now(s, code)
        self.n_actions += 1
        log = self._log
        if log is not None:
            log.append(action)
        return events

    def not_now(self, s: int, code: int) -> IllegalAction:
        """Why seat ``s``, whose turn it is, may not make an action of ``code`` now."""
        ph = self.phase
        if ph == SPEAK:
            should = "pass, bet or call órdago"
        elif ph == ANSWER and self.ordago:
            should = "accept or reject the órdago (it cannot be raised)"
        elif ph == ANSWER:
            should = "accept, raise, call órdago or reject"
        elif ph == MUS_PHASE:
            should = "say mus or no mus"
        else:
            should = "discard 1 to 4 cards"
        if ph in (SPEAK, ANSWER):
            where = f"in {LANCE_TITLES[4 if self.punto and self.lance == JUEGO else self.lance]}"
            if ph == ANSWER:
                bettor = next(b[0] for b in reversed(self.betting) if b[1] in (BET, RAISE, ORDAGO))
                what = "called órdago" if self.ordago else f"made the stake {self.stake}"
                where += f": seat {bettor} has {what}"
        elif ph == MUS_PHASE:
            where = "in the mus phase"
        else:
            where = "in the discards"
        return IllegalAction(f"seat {s} cannot {VERBS[code]} {where}; it may {should}", "not_now")

    # ---------------------------------------------------------------- señas

    def check_signal(self, seat: int, sign: str) -> None:
        """Refuse (IllegalAction, with a reason of :data:`.senas.REASONS`) a seña that
        ``seat`` may not make now: false, partial, out of its moment, made already this
        hand, at a table without señas (docs/rules.md §3.8)."""
        refused = refusal(self, seat, sign)
        if refused is not None:
            raise refused

    def make_signal(self, seat: int, sign: str, caught_by: Sequence[int] = ()) -> JSON:
        """Make a seña: checked (:meth:`check_signal`), then listed in :attr:`signals`
        with the opponents that caught it (drawn by :func:`.senas.draw_catches`); returns
        the record entry ``{"seat", "sign", "after", "caught_by"}``. No stone and no
        turn changes."""
        self.check_signal(seat, sign)
        caught = check_catch(seat, caught_by)
        entry: JSON = {"seat": seat, "sign": sign, "after": self.n_actions, "caught_by": caught}
        self.signals.append(entry)
        self.signs_made[seat] |= SIGN_BIT[sign]
        return entry

    def signal_for(self, entry: JSON, seat: int | None) -> JSON | None:
        """What ``seat`` (None: a spectator) may see of the seña ``entry``, one of
        :attr:`signals`; None: nothing. The one place that decides it (docs/rules.md §3.8.3): the
        maker sees it with ``caught_by``, the partner and an opponent who caught it see
        the sign, other opponents nothing, a spectator nothing while its hand is played.
        """
        playing = self.phase != IDLE and any(e is entry or e == entry for e in self.hand_signals)
        return visible(entry, seat, not playing)

    @property
    def hand_signals(self) -> list[JSON]:
        """The señas of the current hand (or of the last one, between hands)."""
        return self.signals[self.signals_start :]

    def may_signal(self, seat: int) -> list[str]:
        """The señas ``seat`` may make now (:func:`.senas.true_signs`)."""
        return true_signs(self, seat)

    def record(self) -> JSON:
        """docs/rules.md §4.1, with the señas (``signals``) when there are some (§3.8.4)."""
        rec = super().record()
        if self.signals:
            rec["signals"] = [dict(e, caught_by=list(e["caught_by"])) for e in self.signals]
        return rec

    def signals_open(self) -> bool:
        """Whether a seña may be made now: in a lance, at a table that plays them."""
        return self.phase in (SPEAK, ANSWER) and not self.over and self.settings["senas"]

    def catches(self, seed: int, seat: int) -> list[int]:
        """Who catches the next seña, ``seat``'s: :func:`.senas.draw_catches` with the
        table's ``catch`` and the seña's index in the game."""
        return draw_catches(seed, len(self.signals), seat, self.settings["catch"])

    # ---------------------------------------------------------------- views

    def result(self) -> JSON:
        """docs/rules.md §4.4: stones of the current game, games and cows per pair."""
        return {
            "scores": self.stones[:],
            "games": self.games[:],
            "cows": self.cows[:],
            "over": self.over,
            "winner": self.winner,
            "to_act": list(self.to_act),
        }

    def view(self, seat: int | None) -> View:
        """What ``seat`` sees: the public table, its own cards and discards, its legal moves."""
        return seat_view(self, seat)

    @classmethod
    def sample(cls, view: View, rng: random.Random) -> Self:
        """A full state consistent with ``view``: the unseen cards placed at random
        (:func:`.views.sample`)."""
        return sample_view(cls, view, rng)
