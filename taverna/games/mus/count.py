"""The end of a hand (RULES.md §3 Showdown; Match structure): who wins each lance and
why, the count of the stones lance by lance, and the games, cows and match they make.

Functions of a :class:`~.state.Mus` state (``state``). Every stone of a hand is
written in ``state.tally`` where it came from, and the hand's end (``hand_end``)
gives the tally and the verdicts: why each lance compared at the showdown was won.
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


def credit_at_once(
    state: Mus, team: int, n: int, lance: str, reason: str, events: list[Event]
) -> bool:
    """Credit the stones of a refused bet at once (RULES.md §3 Refused); True when that
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
        # RULES.md §3: credits that bring a pair to 40 end the game at once
        summary: JSON = {
            "type": "hand_end",
            "hand": state.hand_no,
            "reason": "game won",
            "hands": None,
            "lances": lance_summary(state),
            "stones": state.stones[:],
            **tally_facts(state, []),
        }
        state.last_hand = summary
        if not state._quiet:
            events.append(summary)
        win_game(state, team, "stones", events)
        return True
    return False


def lance_summary(state: Mus) -> list[JSON]:
    """How each lance of the hand has ended so far (views and the hand's end)."""
    out = []
    for L, st in enumerate(state.res_status):
        if st == PENDING:
            continue
        item: JSON = {
            "lance": LANCE_NAMES[4 if state.punto and L == JUEGO else L],
            "status": STATUS_NAMES[st],
        }
        if st == ACCEPTED:
            item["stake"] = state.res_stake[L]
        if st in (REFUSED, ALONE, ORDAGO_ACCEPTED):
            item["team"] = state.res_team[L]
        out.append(item)
    return out


def tally_facts(state: Mus, verdicts: list[JSON]) -> JSON:
    """hand_end's accounting: the stones before the hand, the tally, the verdicts."""
    before = state.stones[:]
    for row in state.tally:
        if row.get("counted", True):
            before[row["team"]] -= row["stones"]
    return {"stones_before": before, "tally": state.tally[:], "verdicts": verdicts}


def best(state: Mus, L: int, among: Sequence[int]) -> int:
    """The seat winning lance ``L`` among ``among`` (in turn order from mano).

    RULES.md §3: ties go to the player closest to mano, so only a strictly
    better key displaces the best so far.
    """
    vals = state.vals
    assert vals is not None
    if L < JUEGO:
        f = L  # HandValue fields 0..2: grande, chica, pares
    else:
        f = _PUNTO_FIELD if state.punto else _REAL_FIELD if state.real31 else _JUEGO_FIELD
    winner = top = -1  # every key is 0 or more: the first seat takes the lead
    for x in among:
        k = vals[x][f]
        if k > top:
            winner, top = x, k
    return winner


def verdict(state: Mus, L: int, seat: int, among: Sequence[int]) -> JSON:
    """Why ``seat`` won lance ``L``: against whom (the other pair's best among
    ``among``, in turn order from mano) and by what, in the words of RULES.md §3
    The four lances."""
    vals = state.vals
    assert vals is not None
    name = LANCE_NAMES[4 if state.punto and L == JUEGO else L]
    if L < JUEGO:
        f = L  # HandValue fields 0..2: grande, chica, pares
    else:
        f = _PUNTO_FIELD if state.punto else _REAL_FIELD if state.real31 else _JUEGO_FIELD
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
    if state.punto:
        points = [w.points, o.points]
        return {"lance": name, "seat": seat, "over": over, "by": "punto", "points": points}
    if w.points == o.points:  # two 31s, and only one is 7-7-7-sota
        return {"lance": name, "seat": seat, "over": over, "by": "real_31"}
    points = [w.points, o.points]
    return {"lance": name, "seat": seat, "over": over, "by": "juego", "points": points}


def ordago_showdown(state: Mus, events: list[Event]) -> None:
    # RULES.md §3 Órdago accepted: cards shown, the lance's winner wins the game
    L = state.lance
    seat = best(state, L, state.speakers)
    team = seat & 1
    name = LANCE_NAMES[4 if state.punto and L == JUEGO else L]
    state.res_status[L] = ORDAGO_ACCEPTED
    state.res_team[L] = team
    summary: JSON = {
        "type": "hand_end",
        "hand": state.hand_no,
        "reason": "ordago",
        "hands": hands_str(state.hands),
        "ordago": {"lance": name, "seat": seat, "team": team},
        "lances": lance_summary(state),
        "stones": state.stones[:],
        **tally_facts(state, [verdict(state, L, seat, state.speakers)]),
    }
    state.last_hand = summary
    if not state._quiet:
        events.append(summary)
    win_game(state, team, "ordago", events)


def count(state: Mus, events: list[Event]) -> None:
    """RULES.md §3 Showdown: count lance by lance, stop when a pair reaches 40."""
    vals = state.vals
    assert vals is not None
    order = ORDERS[state.mano]
    state.phase = IDLE  # the hand is over: credits no longer stop it
    state.turn = -1
    status, stakes, teams = state.res_status, state.res_stake, state.res_team
    stones = state.stones
    punto = state.punto
    lances: list[JSON] = []
    verdicts: list[JSON] = []
    tally = state.tally
    won = -1
    for L in range(4):
        st = status[L]
        name = LANCE_NAMES[4 if punto and L == JUEGO else L]
        if st == SKIPPED:
            lances.append({"lance": name, "status": "skipped", "team": None, "stones": 0})
            continue
        seat = None
        if st in (REFUSED, ALONE):
            team = teams[L]
        else:
            among: Sequence[int] = order
            if L == PARES or (L == JUEGO and not punto):
                held = state.holders[L - PARES]
                assert held is not None
                among = held
            seat = best(state, L, among)
            team = seat & 1
            verdicts.append(verdict(state, L, seat, among))
        # the lance's stones, each where it came from (hand_end's tally)
        first = len(tally)
        n = 0
        if st == ACCEPTED:
            n = stakes[L]
            tally.append({"lance": name, "team": team, "stones": n, "for": "stake"})
        if L <= CHICA:
            if st == IN_PASS:
                n = 1
                tally.append({"lance": name, "team": team, "stones": 1, "for": "pass"})
        elif L == PARES:
            for x in (team, team + 2):
                k = vals[x].pares_kind
                if k:
                    n += k
                    tally.append(
                        {
                            "lance": name,
                            "team": team,
                            "stones": k,
                            "for": "pares",
                            "seat": x,
                            "kind": PARES_NAMES[k],
                        }
                    )
        elif punto:
            n += 1  # RULES.md §3: Punto's extra stone
            tally.append({"lance": name, "team": team, "stones": 1, "for": "punto"})
        else:
            for x in (team, team + 2):
                if vals[x].juego:
                    pts = vals[x].points
                    bonus = juego_bonus(pts)
                    n += bonus
                    tally.append(
                        {
                            "lance": name,
                            "team": team,
                            "stones": bonus,
                            "for": "juego",
                            "seat": x,
                            "points": pts,
                        }
                    )
        item: JSON = {
            "lance": name,
            "status": STATUS_NAMES[st],
            "team": team,
            "seat": seat,
            "stones": n,
        }
        if st == ACCEPTED:
            item["stake"] = stakes[L]
        lances.append(item)
        if won >= 0:
            item["counted"] = False
            for row in tally[first:]:
                row["counted"] = False
        elif n:
            stones[team] += n
            if not state._quiet:
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
                won = team  # the rest of the hand is not counted
    v0, v1, v2, v3 = vals
    summary: JSON = {
        "type": "hand_end",
        "hand": state.hand_no,
        "reason": "showdown",
        "hands": hands_str(state.hands),
        "pares": [v0.pares_kind, v1.pares_kind, v2.pares_kind, v3.pares_kind],
        "points": [v0.points, v1.points, v2.points, v3.points],
        "lances": lances,
        "stones": stones[:],
        **tally_facts(state, verdicts),
    }
    state.last_hand = summary
    if not state._quiet:
        events.append(summary)
    if won >= 0:
        win_game(state, won, "stones", events)
    else:
        events.extend(state._next_deal())


def win_game(state: Mus, team: int, reason: str, events: list[Event]) -> None:
    """RULES.md §3 Match structure: games make cows, cows make the match."""
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
    # RULES.md §3 Match structure: stones restart at 0 for each game, games for each cow
    state.stones = [0, 0]
    state.game_no += 1
    if new_cow:
        state.games = [0, 0]
    events.extend(state._next_deal())
