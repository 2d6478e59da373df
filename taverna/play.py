"""`taverna play`: a game in the terminal against bots.

The table is drawn from the human seat's view only (the same JSON the
server would send), legal moves are numbered, and every event is told in
the game's own words. Keyboard only: a number and Enter; ``?`` for help,
``q`` to quit. Renderers per game live in :data:`RENDERERS`.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from .bots import make_bot
from .bots.base import Bot
from .games import get_game
from .games.base import Action, Event, State, View, event_for

Renderer = Callable[[View], Any]
Describer = Callable[[View, Action], str]
Narrator = Callable[[Event, int, list[str]], str | None]
#: a typed move beyond the numbered menu: (view, legal, text) -> action, None, or a hint
Typist = Callable[[View, list[Action], str], "Action | str | None"]

RENDERERS: dict[str, Renderer] = {}
DESCRIBE: dict[str, Describer] = {}
NARRATE: dict[str, Narrator] = {}
TYPED: dict[str, tuple[str, Typist]] = {}  # game -> (what may be typed, reader)


# ----------------------------------------------------------------- dominoes


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
    from .bots.dominoes import _count_after
    from .games.dominoes import DominoAction

    assert isinstance(action, DominoAction)
    if action.type == "draw":
        return "draw a tile from the boneyard"
    if action.type == "pass":
        return "pass (nothing fits and the boneyard is empty)"
    count, _ = _count_after(view, action)
    where = "to open the line" if action.end is None else f"on the {('left', 'right')[action.end]}"
    gain = f" → scores {count}!" if count and count % 5 == 0 else ""
    return f"play {action.a}-{action.b} {where} (count {count}{gain})"


def plural(n: int, noun: str) -> str:
    """``1 tile``, ``2 tiles``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def verb(who: str, third_person: str) -> str:
    """``plays`` for a seat, ``play`` for "You"."""
    if who != "You":
        return third_person
    if third_person == "is":
        return "are"
    if third_person == "has":
        return "have"
    if third_person.endswith(("sses", "ches", "shes", "xes")):
        return third_person[:-2]
    return third_person[:-1]


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


RENDERERS["muggins-dominoes"] = render_dominoes
DESCRIBE["muggins-dominoes"] = describe_dominoes
NARRATE["muggins-dominoes"] = narrate_dominoes


# -------------------------------------------------------------------- cards

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
    from .games.cards import VALUE, card_id

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


RENDERERS["muggins-cards"] = render_cards
DESCRIBE["muggins-cards"] = describe_cards
NARRATE["muggins-cards"] = narrate_cards


# ---------------------------------------------------------------------- mus

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


def typed_mus(view: View, legal: list[Action], text: str) -> Action | str | None:
    """``envido N`` for any N >= 2 (RULES.md §3: bet or raise N >= 2); the menu lists 2-5."""
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
    return get_game("mus").parse_action(
        {"seat": view["seat"], "type": kind, "amount": amount}, view["seats"]
    )


RENDERERS["mus"] = render_mus
DESCRIBE["mus"] = describe_mus
NARRATE["mus"] = narrate_mus
TYPED["mus"] = ("or type envido N for any N of 2 or more", typed_mus)


# ----------------------------------------------------------------- the loop


def _generic_describe(view: View, action: Action) -> str:
    return str(action)


def _generic_render(view: View) -> Any:
    keys = [k for k in view if k not in ("legal", "settings")]
    return Panel("\n".join(f"{k}: {view[k]}" for k in keys), title=view["game"], expand=False)


def _generic_narrate(e: Event, me: int, names: list[str]) -> str | None:
    fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "private"))
    return f"{e['type']}: {fields}"


class TerminalGame:
    """One human seat against bots, in a terminal."""

    def __init__(
        self,
        state: State,
        human: int,
        bots: dict[int, Bot],
        console: Console | None = None,
        read: Callable[[str], str] = input,
    ) -> None:
        self.state = state
        self.human = human
        self.bots = bots
        self.console = console or Console()
        self.read = read
        game = state.game
        self.render = RENDERERS.get(game, _generic_render)
        self.describe: Describer = DESCRIBE.get(game, _generic_describe)
        self.narrate = NARRATE.get(game, _generic_narrate)
        self.typed = TYPED.get(game)
        self.names = [
            "You" if s == human else f"Seat {s} ({bots[s].name})" for s in range(state.seats)
        ]

    def tell(self, events: list[Event]) -> None:
        for e in events:
            text = self.narrate(event_for(e, self.human), self.human, self.names)
            if text:
                self.console.print(text)

    def ask(self, view: View, legal: list[Action]) -> Action | None:
        """The human's choice; ``None`` lets an optional right go by."""
        optional = view.get("turn") != self.human
        self.console.print(self.render(dict(view, names=self.names)))
        for i, a in enumerate(legal, start=1):
            self.console.print(f"  [bold cyan]{i}[/]) {self.describe(view, a)}")
        if optional:
            self.console.print("  [bold cyan]Enter[/]) let it go")
        betting = any(a.type in ("bet", "raise") for a in legal)
        typed = self.typed if betting else None
        if typed:
            self.console.print(f"  ({typed[0]})")
        while True:
            answer = self.read(f"Your move [1-{len(legal)}], ? for help, q to quit: ").strip()
            if answer.lower() in ("q", "quit", "exit"):
                raise KeyboardInterrupt
            if answer in ("?", "h", "help"):
                self.console.print(
                    "Type the number of a move and press Enter. The table shows only what "
                    "your seat may see. q quits."
                )
                continue
            if answer == "" and optional:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            if answer == "" and len(legal) == 1:
                return legal[0]
            if typed:
                got = typed[1](view, legal, answer)
                if isinstance(got, str):
                    self.console.print(f"[red]{got}[/]")
                    continue
                if got is not None:
                    return got
            self.console.print(f"[red]Please type a number from 1 to {len(legal)}.[/]")

    def run(self) -> int:
        state = self.state
        self.tell(state.initial_events)
        while not state.over and state.to_act:
            acting = state.to_act
            action = None
            if self.human in acting:
                view = state.view(self.human)
                legal = [state.parse_action(a, state.seats) for a in view["legal"]]
                action = self.ask(view, legal)
            if action is None:
                for seat in sorted(acting, key=lambda s: state.view(s).get("turn") == s):
                    if seat == self.human:
                        continue
                    action = self.bots[seat].choose(state.view(seat))
                    if action is not None:
                        break
            if action is None:
                self.console.print("[red]Nobody can move: the game stops here.[/]")
                break
            self.tell(state.apply(action))
        self.console.print(self.render(dict(state.view(self.human), names=self.names)))
        if state.over:
            result = state.result()
            if state.team_count is not None:
                winner = f"pair {state.winner}" + (
                    " (yours)" if state.side_of(self.human) == state.winner else ""
                )
                extra = f" Games {result.get('games')}, cows {result.get('cows')}."
            else:
                winner = self.names[state.winner] if state.winner is not None else "nobody"
                extra = (
                    " Scores: "
                    + ", ".join(f"{self.names[i]} {x}" for i, x in enumerate(result["scores"]))
                    + "."
                )
            self.console.print(f"[bold]Game over.[/] The winner: {winner}.{extra}")
        return 0


def main(args: Any) -> int:
    from .simulate import parse_sets

    try:
        cls = get_game(args.game)
        settings = parse_sets(args.set or [])
        seats = args.seats or (cls.max_seats if cls.team_count else 2)
        state = cls.new(seats, settings, seed=args.seed)
    except Exception as e:
        print(f"taverna play: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    levels = [x.strip() for x in (args.bots or "greedy").split(",")]
    human = args.seat
    if not 0 <= human < seats:
        print(f"taverna play: --seat must be 0..{seats - 1}", file=sys.stderr)
        return 2
    if not all(levels):
        print(
            f"taverna play: --bots {args.bots!r} has an empty level: "
            "write levels separated by commas, e.g. greedy,expert",
            file=sys.stderr,
        )
        return 2
    if len(levels) > seats - 1:
        print(
            f"taverna play: --bots {args.bots} names {len(levels)} bots, but a {seats}-seat "
            f"game has {seats - 1} other seat{'s' if seats > 2 else ''} "
            "(give one level per other seat, or one for all)",
            file=sys.stderr,
        )
        return 2
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    others = [s for s in range(seats) if s != human]
    try:
        bots = {
            s: make_bot(levels[min(i, len(levels) - 1)], cls, s, seed=seed + s)
            for i, s in enumerate(others)
        }
    except KeyError as e:
        print(f"taverna play: {e.args[0]}", file=sys.stderr)
        return 2
    try:
        return TerminalGame(state, human, bots).run()
    except (KeyboardInterrupt, EOFError):
        print("\nGoodbye.")
        return 0
