"""The four lances and their betting (docs/rules.md §3.5, §3.6):
who speaks in each, passes, bets, raises, órdagos and their answers.

Functions of a :class:`~.state.Mus` state (``state``): the handlers of its actions
in a lance, the opening of each lance, and the betting worked out again from a view's
list of what was said (sampling). The readings of the betting rules are in the
package's docstring (:mod:`taverna.games.mus`).
"""

# taverna: compiled (mypyc; taverna/native.py)
from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import Event, IllegalAction
from .count import count, credit_at_once, ordago_showdown
from .notation import ACCEPT, BET, ORDAGO, PASS, RAISE, REJECT, MusAction
from .rules import (
    ACCEPTED,
    ALONE,
    ANSWER,
    ANSWER_ORDER,
    ANSWERERS,
    IN_PASS,
    JUEGO,
    LANCE_NAMES,
    ORDERS,
    PARES,
    REFUSED,
    SKIPPED,
    SPEAK,
)

if TYPE_CHECKING:
    from .state import Mus


def open_lance(state: Mus, events: list[Event]) -> None:
    """Start the lance ``state.lance``, or the next one that needs betting; after the
    fourth, count the hand."""
    order: tuple[int, ...] = ORDERS[state.mano]
    L = state.lance
    quiet = state._quiet
    while L < 4:
        if L >= PARES:
            vals = state.vals
            assert vals is not None
            holders: list[int] = []
            pairs = 0  # bit 1 << t set when pair t is among the holders
            for x in order:
                if vals[x].pares_kind if L == PARES else vals[x].juego:
                    holders.append(x)
                    pairs |= 1 << (x & 1)
            state.holders[L - PARES] = tuple(holders)
            # docs/rules.md §3.5: who holds pares or juego is announced before the lance
            if not quiet:
                events.append({"type": "announce", "lance": LANCE_NAMES[L], "holders": holders})
            if not holders and L == PARES:
                state.res_status[L] = SKIPPED
                if not quiet:
                    events.append({"type": "lance", "lance": "pares", "skipped": True})
                state.lance = L = L + 1
                continue
            if pairs == 1 or pairs == 2:  # one pair only
                team = pairs >> 1
                state.res_status[L] = ALONE
                state.res_team[L] = team
                if not quiet:
                    events.append(
                        {"type": "lance", "lance": LANCE_NAMES[L], "speakers": [], "team": team}
                    )
                state.lance = L = L + 1
                continue
            if holders:
                order = tuple(holders)
            else:
                state.punto = True  # nobody has juego: Punto, everyone takes part
        state.speakers = order
        state.pos = 0
        state.stake = state.prev_stake = state.n_bets = 0
        state.ordago = False
        state.betting = []
        state.phase = SPEAK
        state.turn = order[0]
        if not quiet:
            name = LANCE_NAMES[4 if state.punto and L == JUEGO else L]
            events.append({"type": "lance", "lance": name, "speakers": list(order)})
        return
    count(state, events)


def say_pass(state: Mus, s: int, action: MusAction) -> list[Event]:
    state.betting.append((s, PASS, 0))
    events: list[Event] = [] if state._quiet else [{"type": "pass", "seat": s}]
    state.pos += 1
    if state.pos < len(state.speakers):
        state.turn = state.speakers[state.pos]
    else:
        state.res_status[state.lance] = IN_PASS
        state.lance += 1
        open_lance(state, events)
    return events


def bet(state: Mus, s: int, action: MusAction) -> list[Event]:
    amount = action.amount
    if amount < 2:
        raise IllegalAction(f"seat {s} cannot bet {amount}: a bet is at least 2 stones", "min_bet")
    state.betting.append((s, BET, amount))
    state.prev_stake = 1  # refused, the lance's first bet is worth 1
    state.stake = amount
    state.n_bets = 1
    # the other pair answers, its players taking part in seat order after s
    state.answerers = ans = ANSWERERS[state.speakers][s]
    state.apos = 0
    state.bet_team = s & 1
    state.phase = ANSWER
    state.turn = ans[0]
    return [] if state._quiet else [{"type": "bet", "seat": s, "amount": amount, "stake": amount}]


def raise_bet(state: Mus, s: int, action: MusAction) -> list[Event]:
    if state.ordago:
        raise state.not_now(s, RAISE)
    amount = action.amount
    if amount < 2:
        raise IllegalAction(
            f"seat {s} cannot raise by {amount}: a raise is at least 2 stones", "min_bet"
        )
    state.betting.append((s, RAISE, amount))
    state.prev_stake = stake = state.stake
    state.stake = stake = stake + amount
    state.n_bets += 1
    # the other pair answers, its players taking part in seat order after s
    state.answerers = ans = ANSWERERS[state.speakers][s]
    state.apos = 0
    state.bet_team = s & 1
    state.phase = ANSWER
    state.turn = ans[0]
    return [] if state._quiet else [{"type": "raise", "seat": s, "amount": amount, "stake": stake}]


def call_ordago(state: Mus, s: int, action: MusAction) -> list[Event]:
    if state.ordago:
        raise state.not_now(s, ORDAGO)
    state.betting.append((s, ORDAGO, 0))
    # refused, an órdago is worth the stake before it, or 1 if it opened the lance
    state.prev_stake = state.stake if state.n_bets else 1
    state.n_bets += 1
    state.ordago = True
    # the other pair answers, its players taking part in seat order after s
    state.answerers = ans = ANSWERERS[state.speakers][s]
    state.apos = 0
    state.bet_team = s & 1
    state.phase = ANSWER
    state.turn = ans[0]
    return [] if state._quiet else [{"type": "ordago", "seat": s}]


def accept(state: Mus, s: int, action: MusAction) -> list[Event]:
    state.betting.append((s, ACCEPT, 0))
    events: list[Event] = [] if state._quiet else [{"type": "accept", "seat": s}]
    L = state.lance
    if state.ordago:
        ordago_showdown(state, events)
        return events
    state.res_status[L] = ACCEPTED
    state.res_stake[L] = state.stake
    state.lance = L + 1
    open_lance(state, events)
    return events


def reject(state: Mus, s: int, action: MusAction) -> list[Event]:
    state.betting.append((s, REJECT, 0))
    events: list[Event] = [] if state._quiet else [{"type": "reject", "seat": s}]
    state.apos += 1
    if state.apos < len(state.answerers):
        state.turn = state.answerers[state.apos]  # the partner answers
        return events
    # docs/rules.md §3.6.3: the last bettors win the lance, credited at once
    L = state.lance
    team = state.bet_team
    state.res_status[L] = REFUSED
    state.res_team[L] = team
    name = LANCE_NAMES[4 if state.punto and L == JUEGO else L]
    state.tally.append({"lance": name, "team": team, "stones": state.prev_stake, "for": "refused"})
    if credit_at_once(state, team, state.prev_stake, name, "refused", events):
        return events
    state.lance = L + 1
    open_lance(state, events)
    return events


def replay_betting(state: Mus) -> None:
    """Work out the betting counters of the current lance again from what was said
    (``state.betting``), as a sample drawn from a view must."""
    state.pos = 0
    state.stake = state.prev_stake = state.n_bets = 0
    state.bet_team = -1
    state.ordago = False
    state.answerers = ()
    state.apos = 0
    for s, code, amount in state.betting:
        if code == PASS:
            state.pos += 1
        elif code == BET:
            state.prev_stake, state.stake, state.n_bets = 1, amount, 1
        elif code == RAISE:
            state.prev_stake, state.stake = state.stake, state.stake + amount
            state.n_bets += 1
        elif code == ORDAGO:
            state.prev_stake = state.stake if state.n_bets else 1
            state.n_bets += 1
            state.ordago = True
        if code in (BET, RAISE, ORDAGO):
            sp = state.speakers
            state.answerers = tuple(x for x in ANSWER_ORDER[s] if x in sp)
            state.apos = 0
            state.bet_team = s & 1
        elif code == REJECT:
            state.apos += 1
