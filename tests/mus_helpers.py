"""Small helpers to build Mus deals by hand and play them in a compact notation."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from taverna.games.base import Event, event_for
from taverna.games.mus import Mus

ALL_CARDS = [f"{r}{s}" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12) for s in "oceb"]


def deal(
    hands: Sequence[str],
    mano: int | None = 0,
    top: Sequence[str] = (),
    reshuffles: list[list[str]] | None = None,
) -> dict[str, Any]:
    """A deal in record form: four hands written ``"12o 3c 1e 7b"``, the deck
    ``top`` first and then every other card in notation order."""
    hs = [h.split() for h in hands]
    used = {c for h in hs for c in h} | set(top)
    out: dict[str, Any] = {
        "hands": hs,
        "deck": list(top) + [c for c in ALL_CARDS if c not in used],
    }
    if mano is not None:
        out["mano"] = mano
    if reshuffles is not None:
        out["reshuffles"] = reshuffles
    return out


def start(*deals: dict[str, Any], settings: dict[str, Any] | None = None) -> Mus:
    """A game fed with these deals (and no rng: it waits for a deal after them)."""
    checked = Mus.check_settings(4, settings or {})
    parsed = [Mus.parse_deal(d, 4, checked, i) for i, d in enumerate(deals)]
    return Mus.start(4, settings or {}, parsed)


def action(text: str) -> dict[str, Any]:
    """``"1 bet 2"``, ``"0 no_mus"``, ``"2 discard 1o 2c"`` -> a record action."""
    seat, kind, *rest = text.split()
    out: dict[str, Any] = {"seat": int(seat), "type": kind}
    if kind in ("bet", "raise"):
        out["amount"] = int(rest[0])
    elif kind == "discard":
        out["cards"] = rest
    return out


def play(state: Mus, *moves: str) -> list[Event]:
    events: list[Event] = []
    for m in moves:
        events.extend(state.apply(Mus.parse_action(action(m), 4)))
    return events


def credits(events: list[Event]) -> list[tuple[str, int, int]]:
    """(lance, team, stones) of every credit event, in order."""
    return [(e["lance"], e["team"], e["stones"]) for e in events if e["type"] == "credit"]


def of_type(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]


def snapshot(state: Mus) -> Any:
    """Everything a state holds, for equality checks (the log by length)."""
    out = []
    for klass in type(state).__mro__:
        for name in getattr(klass, "__slots__", ()):
            if name in ("_rng",):
                continue
            value = getattr(state, name)
            if name in ("_log", "_deals"):
                value = None if value is None else len(value)
            out.append((name, repr(value)))
    return out


def cards_in(obj: Any) -> set[str]:
    """Every card notation string found anywhere inside a JSON-like value."""
    found: set[str] = set()
    known = set(ALL_CARDS)

    def walk(x: Any) -> None:
        if isinstance(x, str):
            if x in known:
                found.add(x)
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(obj)
    return found


def random_game(seed: int, settings: dict[str, Any] | None = None, mus_bias: float = 0.5) -> Mus:
    """A live game played by random legal actions (mus said with probability ``mus_bias``)."""
    rng = random.Random(seed)
    state = Mus.new(4, settings, seed=seed)
    steps = 0
    while not state.over and steps < 3000:
        acts = state.legal_actions()
        if acts[0].type == "mus":
            a = acts[0] if rng.random() < mus_bias else acts[1]
        else:
            a = rng.choice(acts)
        state.apply(a)
        steps += 1
    return state


def seen_by(events: list[Event], seat: int | None) -> list[Event]:
    return [event_for(e, seat) for e in events]
