"""`taverna play`: a game in the terminal against bots.

The table is drawn from the human seat's view only (the same JSON the
server would send), legal moves are numbered, and every event is told in
the game's own words. Keyboard only: a number and Enter; ``?`` for help,
``q`` to quit.

How a game is drawn is its :class:`Terminal`, found through the entry point group
``taverna.terminal`` (:mod:`taverna.registry`); a game without one is drawn from its
view's fields and told from its events' fields.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.panel import Panel

from ..bots import UnknownBot, make_bot
from ..bots.base import Bot
from ..games import get_game
from ..games.base import Action, Event, State, View, event_for
from ..registry import PluginError, parts

Renderer = Callable[[View], Any]
Describer = Callable[[View, Action], str]
Narrator = Callable[[Event, int, list[str]], str | None]
#: a typed move beyond the numbered menu: (view, legal, text) -> action, None, or a hint
Typist = Callable[[View, list[Action], str], "Action | str | None"]
#: what may be typed beyond the menu now, if anything (legal) -> a hint or None
TypedHint = Callable[[list[Action]], str | None]


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


def _generic_describe(view: View, action: Action) -> str:
    return " ".join(f"{k} {v}" for k, v in action.to_json().items() if k != "seat")


def _generic_render(view: View) -> Any:
    keys = [k for k in view if k not in ("legal", "settings")]
    return Panel("\n".join(f"{k}: {view[k]}" for k in keys), title=view["game"], expand=False)


def _generic_narrate(e: Event, me: int, names: list[str]) -> str | None:
    fields = ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("type", "private"))
    return f"{e['type']}: {fields}"


@dataclass(frozen=True)
class Terminal:
    """How one game is drawn and told in the terminal: the table from a seat's view,
    a legal action as a menu line, an event as a sentence (None: not told), and
    ``typed``, what a person may type beyond the menu: when (a hint, or None while
    nothing may be typed) and its reader."""

    render: Renderer = _generic_render
    describe: Describer = _generic_describe
    narrate: Narrator = _generic_narrate
    typed: tuple[TypedHint, Typist] | None = None


_TERMINALS: dict[str, Terminal] | None = None


def terminal(game: str) -> Terminal:
    """The installed terminal of ``game`` (a record name), or the generic one."""
    global _TERMINALS
    if _TERMINALS is None:
        _TERMINALS = {}
        for name, found in parts("taverna.terminal").items():
            if not isinstance(found, Terminal):
                raise PluginError(f"entry point {name!r} is not a taverna.play.Terminal")
            _TERMINALS[name] = found
    return _TERMINALS.get(game, Terminal())


# ----------------------------------------------------------------- the loop


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
        drawn = terminal(state.game)
        self.render = drawn.render
        self.describe = drawn.describe
        self.narrate = drawn.narrate
        self.typed = drawn.typed
        self.names = [
            "You" if s == human else f"Seat {s} ({_said(bots[s])})" for s in range(state.seats)
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
        hint = self.typed[0](legal) if self.typed else None
        typed = self.typed if hint else None
        if hint:
            self.console.print(f"  ({hint})")
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
    from ..series import parse_sets

    try:
        cls = get_game(args.game)
        settings = parse_sets(args.set or [])
        seats = args.seats or cls.default_seats
        state = cls.new(seats, settings, seed=args.seed)
    except Exception as e:
        print(f"taverna play: {e.args[0] if e.args else e}", file=sys.stderr)
        return 2
    levels = [x.strip() for x in (args.bots or "4").split(",")]
    human = args.seat
    if not 0 <= human < seats:
        print(f"taverna play: --seat must be 0..{seats - 1}", file=sys.stderr)
        return 2
    if not all(levels):
        print(
            f"taverna play: --bots {args.bots!r} has an empty level: "
            "write levels separated by commas, e.g. 4,7",
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
    except UnknownBot as e:
        print(f"taverna play: {e}", file=sys.stderr)
        return 2
    try:
        return TerminalGame(state, human, bots).run()
    except (KeyboardInterrupt, EOFError):
        print("\nGoodbye.")
        return 0


def _said(bot: Bot) -> str:
    """A bot as the terminal names it: its level (``level 4``), else its name."""
    return f"level {bot.level}" if bot.level is not None else bot.name
