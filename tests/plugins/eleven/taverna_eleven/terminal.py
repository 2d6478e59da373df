"""Eleven in the terminal (`taverna play eleven`)."""

from __future__ import annotations

from typing import Any

from rich.panel import Panel

from taverna.games.base import Action, Event, View
from taverna.play import Terminal


def render(view: View) -> Any:
    names = view.get("names") or [f"Seat {s}" for s in range(view["seats"])]
    lines = [
        f"{names[s]}: {view['scores'][s]} points, {view['hand_sizes'][s]} cards"
        for s in range(view["seats"])
    ]
    lines.append(f"Pile total {view['total']}, stock {view['stock']}")
    if view.get("hand") is not None:
        lines.append("Your hand: " + " ".join(view["hand"]))
    return Panel("\n".join(lines), title=f"Eleven — deal {view['hand_no'] + 1}", expand=False)


def describe(view: View, action: Action) -> str:
    data = action.to_json()
    if data["type"] == "claim":
        return "claim your eleven (2 points)"
    return f"play {data['card']}"


def narrate(e: Event, me: int, names: list[str]) -> str | None:
    kind = e["type"]
    if kind == "play":
        made = " — eleven!" if e["eleven"] else ""
        return f"{names[e['seat']]} plays {e['card']}: total {e['total']}{made}"
    if kind == "claim":
        return f"{names[e['seat']]} claims {e['points']} points"
    if kind == "lapse":
        return f"{names[e['seat']]} did not claim in time"
    if kind == "hand_end":
        return f"Last card: {names[e['last']]} scores {e['points']}."
    if kind == "game_end":
        return f"{names[e['winner']]} wins!"
    return None


TERMINAL = Terminal(render=render, describe=describe, narrate=narrate)
