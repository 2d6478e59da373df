"""Small builders for hand-made Muggins cards positions."""

from __future__ import annotations

from typing import Any

from taverna.games.base import Event
from taverna.games.cards import CARD_STR, N_CARDS, CardAction, Cards, card_id


def deal(
    hands: list[list[str]], stock_top: list[str] | None = None, dealer: int | None = 0
) -> dict[str, Any]:
    """A deal in record form: ``stock_top`` first, then every other card in rank order."""
    top = list(stock_top or [])
    used = {card_id(c) for h in hands for c in h} | {card_id(c) for c in top}
    rest = [CARD_STR[c] for c in range(N_CARDS) if c not in used]
    out: dict[str, Any] = {"hands": hands, "stock": top + rest}
    if dealer is not None:
        out["dealer"] = dealer
    return out


def start(*deals: dict[str, Any], **settings: Any) -> Cards:
    seats = len(deals[0]["hands"])
    full = Cards.check_settings(seats, settings)
    parsed = [Cards.parse_deal(d, seats, full, i) for i, d in enumerate(deals)]
    return Cards.start(seats, settings, parsed)


def action(seat: int, kind: str, card: str | None = None, claim: bool = False) -> CardAction:
    obj: dict[str, Any] = {"seat": seat, "type": kind}
    if card is not None:
        obj["card"] = card
    if claim:
        obj["claim"] = True
    return Cards.parse_action(obj, 4)


def play(state: Cards, seat: int, card: str, claim: bool = False) -> list[Event]:
    return state.apply(action(seat, "play", card, claim))


def go(state: Cards, seat: int) -> list[Event]:
    return state.apply(action(seat, "go"))


def claim(state: Cards, seat: int) -> list[Event]:
    return state.apply(action(seat, "claim"))


def muggins(state: Cards, seat: int) -> list[Event]:
    return state.apply(action(seat, "muggins"))


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def credited(events: list[Event], seats: int) -> list[int]:
    """Per seat, the sum of the ``credit`` fields (each credits its event's ``seat``)."""
    out = [0] * seats
    for e in events:
        if e.get("credit"):
            out[e["seat"]] += e["credit"]
    return out


def play_out(state: Cards, until: Any) -> list[Event]:
    """Apply the first legal action (lowest card, no claim) until ``until(state)`` holds.

    Stops too when the game is over or a deal is awaited.
    """
    events: list[Event] = []
    while not until(state) and not state.over and not state.awaiting_deal:
        acts = state.legal_actions(state.turn)
        events.extend(state.apply(acts[0]))
    return events
