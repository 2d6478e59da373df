"""Muggins dominoes in the terminal (`taverna play dominoes`)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..games.base import Action, Event, View
from . import Terminal, plural, verb


def domino_line(line: list[str], width: int = 100) -> Text:
    """The line left to right, doubles standing crosswise over three rows, wrapped to ``width``."""
    tiles: list[tuple[str, str, str]] = []
    for text in line:
        a, b = text.split("-")
        if a == b:
            tiles.append((f"┌{a}┐", "│ │", f"└{b}┘"))
        else:
            tiles.append(("     ", f"[{a}|{b}]", "     "))
    rows: list[list[str]] = []
    current: list[tuple[str, str, str]] = []
    used = 0
    for t in tiles:
        if current and used + len(t[1]) > width:
            rows.append(["".join(x[i] for x in current) for i in range(3)])
            current, used = [], 0
        current.append(t)
        used += len(t[1])
    if current:
        rows.append(["".join(x[i] for x in current) for i in range(3)])
    out = Text()
    for i, r in enumerate(rows):
        if i:
            out.append("  ↪\n", style="dim")
        for line_ in r:
            if line_.strip():  # rows above and below only where a double stands
                out.append(line_.rstrip() + "\n", style="bold")
    return out


def render_dominoes(view: View) -> Any:
    me = view["seat"]
    body = Text()
    names = view.get("names") or [f"seat {s}" for s in range(view["seats"])]
    for s in range(view["seats"]):
        marker = "▶ " if view["turn"] == s else "  "
        you = f" (seat {s})" if s == me else ""
        sheet = score_sheet(view["scores"][s])
        body.append(
            f"{marker}{names[s]}{you}: {view['scores'][s]} points, "
            f"{plural(view['hand_sizes'][s], 'tile')}  {sheet}\n"
        )
    body.append(f"\nTarget {view['target']} · boneyard {view['boneyard']} · ")
    body.append(f"count of the open ends: {view['count']}\n\n")
    if view["line"]:
        body.append_text(domino_line(view["line"], width=Console().width - 8))
    else:
        body.append("(the line is empty: the opener plays any tile)\n", style="dim")
    if view.get("hand") is not None:
        body.append("\nYour tiles: ", style="bold")
        body.append("  ".join(f"[{t.replace('-', '|')}]" for t in view["hand"]) + "\n")
        if view.get("drawn"):
            body.append(f"You drew {view['drawn']}: it fits, place it now.\n", style="yellow")
    return Panel(body, title=f"Muggins dominoes — hand {view['hand_no'] + 1}", expand=False)


def score_sheet(points: int) -> str:
    """The seed's paper score sheet: X with four x for each 50, a stroke for each 5."""
    fifties, rest = divmod(max(points, 0), 50)
    return "⊠" * fifties + "|" * (rest // 5)


def describe_dominoes(view: View, action: Action) -> str:
    from ..bots.dominoes import count_after
    from ..games.dominoes import DominoAction

    assert isinstance(action, DominoAction)
    if action.type == "draw":
        return "draw a tile from the boneyard"
    if action.type == "pass":
        return "pass (nothing fits and the boneyard is empty)"
    count, _ = count_after(view, action)
    where = "to open the line" if action.end is None else f"on the {('left', 'right')[action.end]}"
    gain = f" → scores {count}!" if count and count % 5 == 0 else ""
    return f"play {action.a}-{action.b} {where} (count {count}{gain})"


def narrate_dominoes(e: Event, me: int, names: list[str]) -> str | None:
    who = names[e["seat"]] if "seat" in e else ""
    if e["type"] == "play":
        where = f" on the {e['end']}" if e["end"] else ""
        score = f", scores {e['credit']}" if e["credit"] else ""
        return f"{who} {verb(who, 'plays')} {e['tile']}{where}: count {e['count']}{score}"
    if e["type"] == "draw":
        tile = f" ({e['tile']})" if "tile" in e else ""
        return f"{who} {verb(who, 'draws')}{tile}; {e['boneyard']} left in the boneyard"
    if e["type"] == "pass":
        return f"{who} {verb(who, 'passes')}"
    if e["type"] == "hand_end":
        lines = [
            "Domino! " + names[e["winner"]] + " played the last tile."
            if e["winner"] is not None
            else "The hand is blocked: nobody can place and the boneyard is empty."
        ]
        for s, tiles in enumerate(e["hands"]):
            lines.append(
                f"  {names[s]}: {' '.join(tiles) or '—'} = {e['pips'][s]} pips, "
                f"−{e['subtract'][s]} → {e['scores'][s]}"
            )
        return "\n".join(lines)
    if e["type"] == "deal":
        opener = names[e["opener"]]
        return f"New hand: {opener} {verb(opener, 'opens')}."
    if e["type"] == "game_end":
        w = names[e["winner"]]
        return f"{w} {verb(w, 'reaches')} the target and {verb(w, 'wins')}!"
    return None


TERMINAL = Terminal(render=render_dominoes, describe=describe_dominoes, narrate=narrate_dominoes)
