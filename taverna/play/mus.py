"""Mus in the terminal (`taverna play mus`)."""

from __future__ import annotations

from typing import Any

from rich.panel import Panel
from rich.text import Text

from ..games.base import Action, Event, View
from ..games.mus import Mus
from . import Terminal, verb

MUS_SUITS = {"o": "oros", "c": "copas", "e": "espadas", "b": "bastos"}
MUS_RANKS = {"1": "as", "10": "sota", "11": "caballo", "12": "rey"}
LANCES = {
    "grande": "Grande",
    "chica": "Chica",
    "pares": "Pares",
    "juego": "Juego",
    "punto": "Punto",
}


def mus_card(card: str) -> str:
    """``12o`` as ``rey de oros``."""
    rank, suit = card[:-1], card[-1]
    return f"{MUS_RANKS.get(rank, rank)} de {MUS_SUITS.get(suit, suit)}"


def _stones(n: int) -> str:
    """Stones as the table counts them: amarracos (5) and stones."""
    amarracos, rest = divmod(n, 5)
    return f"{n} ({amarracos} amarraco{'s' if amarracos != 1 else ''} + {rest})"


def render_mus(view: View) -> Any:
    me = view["seat"]
    names = view.get("names") or [f"seat {s}" for s in range(4)]
    body = Text()

    def seat_line(s: int) -> str:
        mano = " [mano]" if view["mano"] == s else ""
        turn = "▶ " if view["turn"] == s else ""
        pair = "us" if me is not None and s % 2 == me % 2 else "them"
        return f"{turn}{names[s]}{mano} ({pair})"

    across = (me + 2) % 4 if me is not None else 2
    left, right = ((me + 1) % 4, (me + 3) % 4) if me is not None else (1, 3)
    body.append(f"{'':18}{seat_line(across)}\n")
    body.append(f"{seat_line(right):34}{seat_line(left)}\n")
    body.append(f"{'':18}{seat_line(me if me is not None else 0)}\n\n")
    for t in (0, 1):
        who = "us" if me is not None and t == me % 2 else "them"
        body.append(
            f"Pair {t} ({who}): stones {_stones(view['stones'][t])}, "
            f"games {view['games'][t]}, cows {view['cows'][t]}\n"
        )
    phase = view["phase"]
    if view.get("lance"):
        body.append(f"\nLance: {LANCES.get(view['lance'], view['lance'])}", style="bold")
        if view.get("stake"):
            body.append(f" · stake {view['stake']}{' (órdago!)' if view.get('ordago') else ''}")
        body.append("\n")
        for b in view.get("betting", []):
            body.append(f"  {names[b['seat']]}: {_bet_words(b)}\n")
    else:
        body.append(f"\nPhase: {phase}\n")
    announced = view.get("announced") or {}
    for lance in ("pares", "juego"):
        holders = announced.get(lance)
        if holders is not None:
            body.append(f"{LANCES[lance]}: {', '.join(names[h] for h in holders) or 'nobody'}\n")
    if view.get("hand") is not None:
        body.append("\nYour cards: ", style="bold")
        body.append(", ".join(mus_card(c) for c in view["hand"]) + "\n")
    title = f"Mus — game {view['game_no'] + 1}, hand {view['hand_no'] + 1}"
    return Panel(body, title=title, expand=False)


def _bet_words(b: dict[str, Any]) -> str:
    kind = b["type"]
    if kind == "bet":
        return f"envido {b['amount']}"
    if kind == "raise":
        return f"envido {b['amount']} más"
    words: dict[str, str] = {
        "pass": "paso",
        "ordago": "¡órdago!",
        "accept": "quiero",
        "reject": "no quiero",
    }
    return words.get(kind, str(kind))


def describe_mus(view: View, action: Action) -> str:
    data = action.to_json()
    kind = data["type"]
    if kind == "mus":
        return "Mus (change cards)"
    if kind == "no_mus":
        return "No mus (play these cards)"
    if kind == "discard":
        return "discard " + ", ".join(mus_card(c) for c in data["cards"])
    words = _bet_words(data)
    return words[0].upper() + words[1:]


def narrate_mus(e: Event, me: int, names: list[str]) -> str | None:
    who = names[e["seat"]] if "seat" in e else ""
    kind = e["type"]
    if kind == "deal":
        mano = names[e["mano"]]
        return f"New hand: {mano} {verb(mano, 'is')} mano."
    if kind in ("mus", "no_mus"):
        return f"{who}: {'mus' if kind == 'mus' else 'no mus'}"
    if kind == "discard":
        drawn = e.get("drawn")
        extra = f" (new: {', '.join(mus_card(c) for c in drawn)})" if drawn else ""
        return f"{who} {verb(who, 'discards')} {e['count']}{extra}"
    if kind == "reshuffle":
        return "The discards are shuffled into a new deck."
    if kind == "announce":
        holders = ", ".join(names[h] for h in e["holders"]) or "nobody"
        return f"{LANCES[e['lance']]}: {holders}"
    if kind == "lance":
        name = LANCES.get(e["lance"], e["lance"])
        if e.get("skipped"):
            return f"{name}: nobody holds, skipped"
        if e.get("team") is not None and not e.get("speakers"):
            return f"{name}: only pair {e['team']} holds, it wins without betting"
        return f"— {name} —"
    if kind in ("pass", "bet", "raise", "ordago", "accept", "reject"):
        return f"{who}: {_bet_words(e)}"
    if kind == "credit":
        return f"Pair {e['team']} +{e['stones']} ({e['lance']}): {e['total'][0]}–{e['total'][1]}"
    if kind == "hand_end":
        if not e.get("hands"):
            return "The hand ends."
        lines = ["Showdown:"]
        for s, cards in enumerate(e["hands"]):
            lines.append(f"  {names[s]}: {', '.join(mus_card(c) for c in cards)}")
        return "\n".join(lines)
    if kind == "game_end":
        how = {"stones": "at the count", "ordago": "by órdago"}.get(e["reason"], e["reason"])
        return f"Pair {e['team']} wins the game {how}."
    if kind == "cow_end":
        return f"Pair {e['team']} wins a cow."
    if kind == "match_end":
        return f"Pair {e['winner']} wins the match!"
    return None


def typed_hint(legal: list[Action]) -> str | None:
    """While a bet may be made or raised, any envido may be typed."""
    if any(a.type in ("bet", "raise") for a in legal):
        return "or type envido N for any N of 2 or more"
    return None


def typed_mus(view: View, legal: list[Action], text: str) -> Action | str | None:
    """``envido N`` for any N >= 2 (docs/rules.md §3.6.1: bet or raise N >= 2); the menu
    lists 2-5."""
    words = text.lower().replace("más", "").replace("mas", "").split()
    if len(words) != 2 or words[0] not in ("envido", "bet", "raise") or not words[1].isdigit():
        return None
    amount = int(words[1])
    kinds = {a.type for a in legal}
    kind = "raise" if "raise" in kinds else "bet" if "bet" in kinds else None
    if kind is None:
        return "Nobody can envido now."
    if amount < 2:
        return "An envido is at least 2 stones."
    return Mus.parse_action({"seat": view["seat"], "type": kind, "amount": amount}, view["seats"])


TERMINAL = Terminal(
    render=render_mus,
    describe=describe_mus,
    narrate=narrate_mus,
    typed=(typed_hint, typed_mus),
)
