"""The end of a hand (docs/rules.md §3.7, §3.2): who wins each lance and
why, the count of the stones lance by lance, and the games, cows and match they make.

Functions of a :class:`~.state.Mus` state (``state``). A hand's end credits its
stones at once and keeps what it has to tell as a :class:`HandEnd`; the summary
(``hand_end``: every stone where it came from, the verdicts saying why each lance
compared at the showdown was won) is written from it when asked for — the event of an
``apply``, ``Mus.last_hand`` in a view — and never in a search's steps, which read
neither (measured: writing it at every hand's end was a tenth of `taverna bench mus`).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from ..base import JSON, Event
from .hands import CLASS_NAMES, CLASS_ORDER, PARES_NAMES, HandValue, juego_bonus
from .notation import hands_str
from .rules import (
    ACCEPTED,
    ALONE,
    CHICA,
    GAME_STONES,
    IDLE,
    IN_PASS,
    JUEGO,
    LANCE_NAMES,
    ORDAGO_ACCEPTED,
    ORDERS,
    PARES,
    PENDING,
    REFUSED,
    SKIPPED,
    STATUS_NAMES,
)

if TYPE_CHECKING:
    from .state import Mus

#: _RANK_NAME[order value]: a rank's name by its order for Grande, Chica and Pares
_RANK_NAME: Final[tuple[str, ...]] = tuple(
    CLASS_NAMES[CLASS_ORDER.index(v)] if v in CLASS_ORDER else "" for v in range(16)
)
#: the HandValue fields Juego and Punto compare: plain juego, juego with real_31, punto
#: (Grande, Chica and Pares are fields 0, 1 and 2, their lance slots)
_JUEGO_FIELD: Final = HandValue._fields.index("juego")
_REAL_FIELD: Final = HandValue._fields.index("juego_real")
_PUNTO_FIELD: Final = HandValue._fields.index("punto")


class HandEnd:
    """What the end of a hand has to tell, kept by the state (``Mus._end``) until the
    next one: :func:`summary` writes the ``hand_end`` summary from it.

    ``reason`` is ``showdown``, ``ordago`` or ``game won``. The lists are the hand's
    own (its values, the lances' results, the refused bets' tally rows): each deal
    makes the state new ones, so nothing changes them once the hand is over, and a
    copy of the state shares this. ``stones`` are the pairs' stones at the end, ``cut``
    (showdown) the first lance not counted once a pair reached 40 (4: all counted),
    ``lance``/``seat``/``among`` (órdago) the lance of the órdago, its winner and the
    seats that spoke in it. ``written`` keeps the summary once :func:`summary` has
    written it: the apply's event and every view's ``last_hand`` are that one dict,
    as they were when the state kept the summary itself.
    """

    def __init__(
        self,
        state: Mus,
        reason: str,
        cut: int = 4,
        lance: int = -1,
        seat: int = -1,
        among: tuple[int, ...] = (),
    ) -> None:
        self.reason = reason
        self.hand = state.hand_no
        self.hands: list[tuple[int, ...]] = state.hands
        self.vals: list[HandValue] | None = state.vals
        self.status: list[int] = state.res_status
        self.stake: list[int] = state.res_stake
        self.team: list[int] = state.res_team
        self.punto: bool = state.punto
        self.holders: list[tuple[int, ...] | None] = state.holders
        self.mano: int = state.mano
        self.real31: bool = state.real31
        self.tally: list[JSON] = state.tally
        self.stones: list[int] = state.stones[:]
        self.cut = cut
        # showdown: the pair whose count reached 40 (-1: none)
        self.won = -1
        self.lance = lance
        self.seat = seat
        self.among = among
        # its summary, once written (not one of its facts: a step never writes it)
        self.written: JSON | None = None

    def facts(self) -> tuple[object, ...]:
        """Everything it holds, in order (two ends are equal when these are)."""
        return (
            self.reason,
            self.hand,
            self.hands,
            self.vals,
            self.status,
            self.stake,
            self.team,
            self.punto,
            self.holders,
            self.mano,
            self.real31,
            self.tally,
            self.stones,
            self.cut,
            self.won,
            self.lance,
            self.seat,
            self.among,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandEnd) and self.facts() == other.facts()

    __hash__ = None  # type: ignore[assignment]


def credit_at_once(
    state: Mus, team: int, n: int, lance: str, reason: str, events: list[Event]
) -> bool:
    """Credit the stones of a refused bet at once (docs/rules.md §3.6.3); True when that
    wins the game, which ends the hand there."""
    state.stones[team] += n
    if not state._quiet:
        events.append(
            {
                "type": "credit",
                "team": team,
                "stones": n,
                "lance": lance,
                "reason": reason,
                "total": state.stones[:],
            }
        )
    if state.stones[team] >= GAME_STONES:
        # docs/rules.md §3.6.3: credits that bring a pair to 40 end the game at once
        _end_hand(state, HandEnd(state, "game won"), events)
        win_game(state, team, "stones", events)
        return True
    return False


def _end_hand(state: Mus, end: HandEnd, events: list[Event]) -> None:
    """Keep ``end`` as the hand's end (``Mus.last_hand`` is written from it), and give its
    summary as an event unless this is a step."""
    state._end = end
    state._told = None
    if not state._quiet:
        events.append(summary(end))


def lances(status: list[int], stakes: list[int], teams: list[int], punto: bool) -> list[JSON]:
    """How each lance of the hand has ended so far (views, and a hand's end before its
    showdown)."""
    out = []
    for L, st in enumerate(status):
        if st == PENDING:
            continue
        item: JSON = {
            "lance": LANCE_NAMES[4 if punto and L == JUEGO else L],
            "status": STATUS_NAMES[st],
        }
        if st == ACCEPTED:
            item["stake"] = stakes[L]
        if st in (REFUSED, ALONE, ORDAGO_ACCEPTED):
            item["team"] = teams[L]
        out.append(item)
    return out


def lance_summary(state: Mus) -> list[JSON]:
    """How each lance of the hand has ended so far (:func:`lances` of a state)."""
    return lances(state.res_status, state.res_stake, state.res_team, state.punto)


def tally_facts(stones: list[int], tally: list[JSON], verdicts: list[JSON]) -> JSON:
    """hand_end's accounting: the stones before the hand (``stones`` less every counted
    row of ``tally``), the tally, the verdicts."""
    before = stones[:]
    for row in tally:
        if row.get("counted", True):
            before[row["team"]] -= row["stones"]
    return {"stones_before": before, "tally": tally, "verdicts": verdicts}


def _field(L: int, punto: bool, real31: bool) -> int:
    """The HandValue field lance ``L`` compares."""
    if L < JUEGO:
        return L  # HandValue fields 0..2: grande, chica, pares
    return _PUNTO_FIELD if punto else _REAL_FIELD if real31 else _JUEGO_FIELD


def best(vals: list[HandValue], f: int, among: Sequence[int]) -> int:
    """The seat whose hand is best in field ``f`` among ``among`` (in turn order from
    mano).

    docs/rules.md §3.3: ties go to the player closest to mano, so only a strictly
    better key displaces the best so far.
    """
    winner = top = -1  # every key is 0 or more: the first seat takes the lead
    for x in among:
        k = vals[x][f]
        if k > top:
            winner, top = x, k
    return winner


def _showdown_lance(end: HandEnd, L: int) -> tuple[int, int, Sequence[int]]:
    """Who wins lance ``L`` at the showdown: its pair, its seat (-1 when it was won
    before the showdown: refused, or one pair alone) and the seats compared."""
    st = end.status[L]
    if st in (REFUSED, ALONE):
        return end.team[L], -1, ()
    vals = end.vals
    assert vals is not None
    among: Sequence[int] = ORDERS[end.mano]
    if L == PARES or (L == JUEGO and not end.punto):
        held = end.holders[L - PARES]
        assert held is not None
        among = held
    seat = best(vals, _field(L, end.punto, end.real31), among)
    return seat & 1, seat, among


def _lance_stones(end: HandEnd, L: int, team: int, name: str, rows: list[JSON] | None) -> int:
    """The stones lance ``L`` gives pair ``team`` at the showdown, each written in ``rows``
    where it came from, when given (docs/rules.md §3.7)."""
    vals = end.vals
    assert vals is not None
    st = end.status[L]
    n = 0
    if st == ACCEPTED:
        n = end.stake[L]
        if rows is not None:
            rows.append({"lance": name, "team": team, "stones": n, "for": "stake"})
    if L <= CHICA:
        if st == IN_PASS:
            n = 1
            if rows is not None:
                rows.append({"lance": name, "team": team, "stones": 1, "for": "pass"})
    elif L == PARES:
        for x in (team, team + 2):
            k = vals[x].pares_kind
            if k:
                n += k
                if rows is not None:
                    rows.append(
                        {
                            "lance": name,
                            "team": team,
                            "stones": k,
                            "for": "pares",
                            "seat": x,
                            "kind": PARES_NAMES[k],
                        }
                    )
    elif end.punto:
        n += 1  # docs/rules.md §3.7: Punto's extra stone
        if rows is not None:
            rows.append({"lance": name, "team": team, "stones": 1, "for": "punto"})
    else:
        for x in (team, team + 2):
            if vals[x].juego:
                pts = vals[x].points
                bonus = juego_bonus(pts)
                n += bonus
                if rows is not None:
                    rows.append(
                        {
                            "lance": name,
                            "team": team,
                            "stones": bonus,
                            "for": "juego",
                            "seat": x,
                            "points": pts,
                        }
                    )
    return n


def verdict(end: HandEnd, L: int, seat: int, among: Sequence[int]) -> JSON:
    """Why ``seat`` won lance ``L``: against whom (the other pair's best among
    ``among``, in turn order from mano) and by what, in the words of
    docs/rules.md §3.5."""
    vals = end.vals
    assert vals is not None
    name = LANCE_NAMES[4 if end.punto and L == JUEGO else L]
    f = _field(L, end.punto, end.real31)
    team = seat & 1
    over = ko = -1
    for x in among:  # the other pair's best, as _best finds it
        if x & 1 != team and vals[x][f] > ko:
            over, ko = x, vals[x][f]
    w, o = vals[seat], vals[over]
    kw = w[f]
    if kw == ko:
        return {"lance": name, "seat": seat, "over": over, "by": "tie"}  # closer to mano
    if L <= CHICA:
        # the keys hold the cards' order values, four bits each: the highest card
        # first (Grande), or 15 less the lowest card first (Chica), then the next
        shift = 12
        while (kw >> shift & 15) == (ko >> shift & 15):
            shift -= 4
        rw, ro = kw >> shift & 15, ko >> shift & 15
        if L == CHICA:
            rw, ro = 15 - rw, 15 - ro
        return {
            "lance": name,
            "seat": seat,
            "over": over,
            "by": "card",
            "at": 3 - shift // 4,
            "ranks": [_RANK_NAME[rw], _RANK_NAME[ro]],
        }
    if L == PARES:
        if w.pares_kind != o.pares_kind:
            kinds = [PARES_NAMES[w.pares_kind], PARES_NAMES[o.pares_kind]]
            return {"lance": name, "seat": seat, "over": over, "by": "kind", "kinds": kinds}
        # the key is the kind, then the (higher) pair's rank, then the lower pair's
        hw, ho = kw >> 4 & 15, ko >> 4 & 15
        rw, ro = (hw, ho) if hw != ho else (kw & 15, ko & 15)
        return {
            "lance": name,
            "seat": seat,
            "over": over,
            "by": "rank",
            "kind": PARES_NAMES[w.pares_kind],
            "ranks": [_RANK_NAME[rw], _RANK_NAME[ro]],
        }
    if end.punto:
        points = [w.points, o.points]
        return {"lance": name, "seat": seat, "over": over, "by": "punto", "points": points}
    if w.points == o.points:  # two 31s, and only one is 7-7-7-sota
        return {"lance": name, "seat": seat, "over": over, "by": "real_31"}
    points = [w.points, o.points]
    return {"lance": name, "seat": seat, "over": over, "by": "juego", "points": points}


def summary(end: HandEnd) -> JSON:
    """The ``hand_end`` summary of a hand's end (the Mus class says its fields), written
    the first time it is asked for."""
    if end.written is None:
        end.written = _write(end)
    return end.written


def _write(end: HandEnd) -> JSON:
    """:func:`summary`, written out."""
    if end.reason == "game won":
        return {
            "type": "hand_end",
            "hand": end.hand,
            "reason": "game won",
            "hands": None,
            "lances": lances(end.status, end.stake, end.team, end.punto),
            "stones": end.stones[:],
            **tally_facts(end.stones, end.tally[:], []),
        }
    if end.reason == "ordago":
        L = end.lance
        seat = end.seat
        return {
            "type": "hand_end",
            "hand": end.hand,
            "reason": "ordago",
            "hands": hands_str(end.hands),
            "ordago": {
                "lance": LANCE_NAMES[4 if end.punto and L == JUEGO else L],
                "seat": seat,
                "team": seat & 1,
            },
            "lances": lances(end.status, end.stake, end.team, end.punto),
            "stones": end.stones[:],
            **tally_facts(end.stones, end.tally[:], [verdict(end, L, seat, end.among)]),
        }
    written = _showdown(end, None, None, True)
    assert written is not None
    return written


def _showdown(
    end: HandEnd, stones: list[int] | None, events: list[Event] | None, describe: bool
) -> JSON | None:
    """The showdown, lance by lance (docs/rules.md §3.7): with ``stones``, credit them
    (and say each credit in ``events``, when given) until a pair reaches 40, which sets
    ``end.cut``; with ``describe``, write the summary — the lances after the cut, and
    their tally rows, marked not counted. :func:`count` credits (and describes at an
    apply), :func:`summary` describes a showdown counted by a step: one pass either way.
    """
    vals = end.vals
    assert vals is not None
    punto = end.punto
    items: list[JSON] = []
    verdicts: list[JSON] = []
    tally: list[JSON] | None = end.tally[:] if describe else None
    cut = 4 if stones is not None else end.cut
    for L in range(4):
        st = end.status[L]
        name = LANCE_NAMES[4 if punto and L == JUEGO else L]
        if st == SKIPPED:
            if describe:
                items.append({"lance": name, "status": "skipped", "team": None, "stones": 0})
            continue
        if not describe and cut <= L:
            break  # the rest is not counted, and nobody asks what it was
        team, seat, among = _showdown_lance(end, L)
        if describe and seat >= 0:
            verdicts.append(verdict(end, L, seat, among))
        first = len(tally) if tally is not None else 0
        n = _lance_stones(end, L, team, name, tally)
        item: JSON = {}
        if describe:
            item = {
                "lance": name,
                "status": STATUS_NAMES[st],
                "team": team,
                "seat": seat if seat >= 0 else None,
                "stones": n,
            }
            if st == ACCEPTED:
                item["stake"] = end.stake[L]
            items.append(item)
        if cut <= L:
            item["counted"] = False
            if tally is not None:
                for row in tally[first:]:
                    row["counted"] = False
        elif stones is not None and n:
            stones[team] += n
            if events is not None:
                events.append(
                    {
                        "type": "credit",
                        "team": team,
                        "stones": n,
                        "lance": name,
                        "reason": STATUS_NAMES[st],
                        "total": stones[:],
                    }
                )
            if stones[team] >= GAME_STONES:
                end.won = team  # the game, and the rest of the hand is not counted
                cut = L + 1
    if stones is not None:
        end.cut = cut
        end.stones = stones[:]
    if tally is None:
        return None
    v0, v1, v2, v3 = vals
    return {
        "type": "hand_end",
        "hand": end.hand,
        "reason": "showdown",
        "hands": hands_str(end.hands),
        "pares": [v0.pares_kind, v1.pares_kind, v2.pares_kind, v3.pares_kind],
        "points": [v0.points, v1.points, v2.points, v3.points],
        "lances": items,
        "stones": end.stones[:],
        **tally_facts(end.stones, tally, verdicts),
    }


def ordago_showdown(state: Mus, events: list[Event]) -> None:
    # docs/rules.md §3.6.4: cards shown, the lance's winner wins the game
    L = state.lance
    vals = state.vals
    assert vals is not None
    among = state.speakers
    seat = best(vals, _field(L, state.punto, state.real31), among)
    team = seat & 1
    state.res_status[L] = ORDAGO_ACCEPTED
    state.res_team[L] = team
    _end_hand(state, HandEnd(state, "ordago", lance=L, seat=seat, among=among), events)
    win_game(state, team, "ordago", events)


def count(state: Mus, events: list[Event]) -> None:
    """docs/rules.md §3.7: count lance by lance, stop when a pair reaches 40."""
    state.phase = IDLE  # the hand is over: credits no longer stop it
    state.turn = -1
    quiet = state._quiet
    end = HandEnd(state, "showdown")
    # one pass: the credits, and at an apply the summary _end_hand gives as the event
    end.written = _showdown(end, state.stones, None if quiet else events, not quiet)
    _end_hand(state, end, events)
    if end.won >= 0:
        win_game(state, end.won, "stones", events)
    else:
        events.extend(state._next_deal())


def win_game(state: Mus, team: int, reason: str, events: list[Event]) -> None:
    """docs/rules.md §3.2: games make cows, cows make the match."""
    state.phase = IDLE
    state.turn = -1
    state.games[team] += 1
    quiet = state._quiet
    if not quiet:
        events.append(
            {
                "type": "game_end",
                "game": state.game_no,
                "team": team,
                "reason": reason,
                "stones": state.stones[:],
                "games": state.games[:],
            }
        )
    new_cow = state.games[team] >= state.games_per_cow
    if new_cow:
        state.cows[team] += 1
        if not quiet:
            events.append({"type": "cow_end", "team": team, "cows": state.cows[:]})
        if state.cows[team] >= state.cows_to_win:
            state.over = True
            state.winner = team
            if not quiet:
                events.append(
                    {
                        "type": "match_end",
                        "winner": team,
                        "games": state.games[:],
                        "cows": state.cows[:],
                    }
                )
            return
    # docs/rules.md §3.2: stones restart at 0 for each game, games for each cow
    state.stones = [0, 0]
    state.game_no += 1
    if new_cow:
        state.games = [0, 0]
    events.extend(state._next_deal())
