"""`taverna play`: a scripted human plays a whole dominoes game in the terminal."""

from __future__ import annotations

import io
import itertools

from rich.console import Console

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.play import TerminalGame, verb
from taverna.play.dominoes import domino_line, score_sheet


def test_scripted_human_finishes_a_game_against_bots() -> None:
    cls = get_game("dominoes")
    state = cls.new(2, {"target": 60}, seed=12)
    out = io.StringIO()
    answers = itertools.chain(["?", "x", "99"], itertools.repeat("1"))
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    game = TerminalGame(
        state, 0, {1: make_bot("greedy", cls, 1, seed=1)}, Console(file=out, width=100), read
    )
    assert game.run() == 0
    text = out.getvalue()
    assert state.over
    assert "Game over" in text
    assert "Please type a number" in text and "Type the number of a move" in text
    assert "You play" in text and "Seat 1 (level 4) plays" in text
    assert prompts and all(p.startswith("Your move [1-") for p in prompts)


def test_line_shows_doubles_crosswise() -> None:
    text = domino_line(["3-6", "6-6", "6-2"]).plain.splitlines()
    assert text == ["     ┌6┐", "[3|6]│ │[6|2]", "     └6┘"]


def test_paper_score_sheet() -> None:
    assert score_sheet(15) == "|||"
    assert score_sheet(115) == "⊠⊠|||"
    assert score_sheet(-20) == ""


def test_verbs_agree_with_you() -> None:
    assert verb("You", "plays") == "play"
    assert verb("You", "passes") == "pass"
    assert verb("You", "reaches") == "reach"
    assert verb("Seat 1", "plays") == "plays"


def _scripted_game(game: str, settings: dict, seed: int) -> str:
    cls = get_game(game)
    seats = cls.max_seats if cls.team_count else 2
    state = cls.new(seats, settings, seed=seed)
    out = io.StringIO()
    bots = {s: make_bot("greedy", cls, s, seed=s) for s in range(1, seats)}
    game_ = TerminalGame(state, 0, bots, Console(file=out, width=100), lambda _: "1")
    assert game_.run() == 0
    assert state.over
    return out.getvalue()


def test_cards_in_the_terminal() -> None:
    text = _scripted_game("cards", {"target": 31}, seed=3)
    assert "Running total" in text and "Your cards" in text
    assert "Game over" in text


def test_mus_in_the_terminal() -> None:
    text = _scripted_game("mus", {"games_per_cow": 1}, seed=4)
    assert "mano" in text and "Game over" in text
    assert "de oros" in text or "de copas" in text or "de espadas" in text or "de bastos" in text


def test_mus_envido_of_any_amount_can_be_typed() -> None:
    """docs/rules.md §3.6.1: bet or raise any N >= 2; the menu lists 2-5, `envido N` types more."""
    cls = get_game("mus")
    state = cls.new(4, {"games_per_cow": 1}, seed=4)
    out = io.StringIO()
    typed: list[str] = []

    def read(prompt: str) -> str:
        view = state.view(0)
        kinds = {a["type"] for a in view["legal"]}
        if "bet" in kinds and not typed:
            typed.extend(["envido 1", "envido 17"])
            return "envido 1"  # refused: at least 2
        if "bet" in kinds and typed == ["envido 1", "envido 17"]:
            typed.append("done")
            return "envido 17"
        return "1"

    bots = {s: make_bot("greedy", cls, s, seed=s) for s in (1, 2, 3)}
    game = TerminalGame(state, 0, bots, Console(file=out, width=100), read)
    events: list[dict] = []
    tell = game.tell
    game.tell = lambda evs: (events.extend(evs), tell(evs))  # type: ignore[method-assign]
    game.run()
    text = out.getvalue()
    assert "or type envido N" in text
    assert "An envido is at least 2 stones." in text
    assert any(e["type"] == "bet" and e["amount"] == 17 and e["seat"] == 0 for e in events)
