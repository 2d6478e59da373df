"""Muggins cards in the terminal (`taverna play cards`)."""

from __future__ import annotations

from typing import Any

from rich.panel import Panel
from rich.text import Text

from ..games.base import Action, Event, View
from . import Terminal, plural, verb

SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_label(card: str) -> str:
    """``10H`` as ``10♥``."""
    return card[:-1] + SUIT_SIGNS.get(card[-1], card[-1])


def render_cards(view: View) -> Any:
    me = view["seat"]
    names = view.get("names") or [f"seat {s}" for s in range(view["seats"])]
    body = Text()
    for s in range(view["seats"]):
        marker = "▶ " if view["turn"] == s else "  "
        you = f" (seat {s})" if s == me else ""
        dealer = "  [dealer]" if view["dealer"] == s else ""
        body.append(
            f"{marker}{names[s]}{you}: {view['scores'][s]} points, "
            f"{plural(view['hand_sizes'][s], 'card')}{dealer}\n"
        )
    body.append(f"\nTarget {view['target']} · stock {view['stock']} cards\n\n")
    pile = " ".join(card_label(c) for c in view["pile"]) or "(empty)"
    body.append(f"Pile: {pile}\n", style="bold")
    body.append(f"Running total: {view['total']} / {view['limit']}\n", style="bold")
    pending = view.get("pending")
    if pending:
        who = names[pending["seat"]]
        body.append(
            f"Unclaimed: {pending['points']} points of {who} — Muggins! is open\n", style="yellow"
        )
    if view.get("hand") is not None:
        body.append("\nYour cards: ", style="bold")
        body.append("  ".join(card_label(c) for c in view["hand"]) + "\n")
    return Panel(body, title=f"Muggins cards — round {view['round'] + 1}", expand=False)


def describe_cards(view: View, action: Action) -> str:
    from ..games.cards import VALUE, card_id

    data = action.to_json()
    kind = data["type"]
    if kind == "go":
        return "go (nothing fits: draw a card and pass)"
    if kind == "claim":
        return f"claim your {view['pending']['points']} points"
    if kind == "muggins":
        return f"Muggins! — take the {view['pending']['points']} unclaimed points"
    total = view["total"] + VALUE[card_id(data["card"])]
    note = ""
    if total == view["limit"]:
        note = f" → {total} for 2!"
    elif total % 5 == 0:
        note = f" → scores {total}!"
    claim = ", and claim it" if data.get("claim") else (", without claiming" if note else "")
    return f"play {card_label(data['card'])} (total {total}{note}{claim})"


def narrate_cards(e: Event, me: int, names: list[str]) -> str | None:
    who = names[e["seat"]] if "seat" in e else ""
    kind = e["type"]
    if kind == "deal":
        dealer, leader = names[e["dealer"]], names[e["leader"]]
        return (
            f"Round {e['round'] + 1}: {dealer} {verb(dealer, 'deals')}, "
            f"{leader} {verb(leader, 'leads')}."
        )
    if kind == "play":
        text = f"{who} {verb(who, 'plays')} {card_label(e['card'])}: total {e['total']}"
        if e.get("credit"):
            text += f", scores {e['credit']}"
        elif e.get("pending"):
            text += f" ({e['pending']} points not claimed yet!)"
        return text
    if kind == "draw":
        card = f" ({card_label(e['card'])})" if "card" in e else ""
        return f"{who} {verb(who, 'draws')}{card}"
    if kind == "go":
        return f"{who}: go"
    if kind == "claim":
        return f"{who} {verb(who, 'claims')} {e['points']} points"
    if kind == "muggins":
        return f"Muggins! {who} {verb(who, 'takes')} {e['points']} points from {names[e['from']]}"
    if kind == "lost":
        return f"{who} never claimed {e['points']} points: lost"
    if kind == "pile_closed":
        why = {"limit": "the limit", "go": "a round of go", "last-card": "the round's last card"}
        text = f"The pile closes on {why.get(e['reason'], e['reason'])}"
        if e.get("last"):
            text += f": 'last' {e['last']} to {names[e['seat']]}"
        return text
    if kind == "round_end":
        return "End of the round. Scores: " + ", ".join(
            f"{names[s]} {x}" for s, x in enumerate(e["scores"])
        )
    if kind == "game_end":
        w = names[e["winner"]]
        return f"{w} {verb(w, 'reaches')} the target and {verb(w, 'wins')}!"
    return None


TERMINAL = Terminal(render=render_cards, describe=describe_cards, narrate=narrate_cards)
