"""The acid test of "a game is declared once" (issue 15): a fourth game, Eleven, written
as a plug-in package of its own (``tests/plugins/eleven``: its engine, what bots know
of it, how the terminal draws it, a minimal loop for the bench, its board module and
language keys, and its registration in its own ``pyproject.toml``), is installed with
pip into a folder of its own, and then — with nothing changed anywhere else — it is
playable from the CLI (``play``, ``simulate``, ``replay``, ``bench``), passes the
conformance suite every game passes, is played whole over WebSockets against a bot, and
in a browser.

Its rules (``tests/plugins/eleven/README.md``) are checked here on deals worked by hand.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .browser_helpers import assert_accessible, chromium
from .server_helpers import Person, Seat, Server, database_url

PLUGIN = Path(__file__).resolve().parent / "plugins" / "eleven"
ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eleven installed by pip into a folder of its own: a Python that has this folder
    on its path has the game, one that has not does not."""
    target = tmp_path_factory.mktemp("site")
    # built from a copy: pip builds in the source folder, which must stay as it is
    source = tmp_path_factory.mktemp("source") / "eleven"
    shutil.copytree(PLUGIN, source, ignore=shutil.ignore_patterns("build", "*.egg-info"))
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    return target


def with_site(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(site)}


def taverna(site: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "taverna", *args],
        env=with_site(site),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=site.parent,  # not the site itself: a working folder is on Python's path
    )


# ------------------------------------------------------------ the rules, by hand


def eleven() -> Any:
    """The engine, imported from the package's source (no registry needed for rules)."""
    sys.path.insert(0, str(PLUGIN))
    try:
        from taverna_eleven.game import Eleven
    finally:
        sys.path.remove(str(PLUGIN))
    return Eleven


#: deal 0 of two seats: seat 0 deals, seat 1 plays first; the stock's first card is drawn first
DEAL = {
    "dealer": 0,
    "hands": [["5a", "6a", "9b"], ["4a", "7a", "1b"]],
    "stock": ["1a", "2a", "3a", "8a", "9a", "10a", "2b", "3b", "4b", "5b", "6b", "7b", "8b", "10b"],
}


def play(state: Any, seat: int, card: str | None = None) -> list[dict[str, Any]]:
    cls = type(state)
    obj = {"seat": seat, "type": "play", "card": card} if card else {"seat": seat, "type": "claim"}
    events: list[dict[str, Any]] = state.apply(cls.parse_action(obj, state.seats))
    return events


def test_eleven_is_made_claimed_and_lost_by_the_next_play() -> None:
    cls = eleven()
    state = cls.start(2, {"target": 5}, [cls.parse_deal(DEAL, 2, {"target": 5}, 0)])
    assert state.to_act == (1,)  # the seat after the dealer
    play(state, 1, "4a")  # 4; seat 1 draws 1a
    assert state.view(1)["hand"] == ["1a", "1b", "7a"] and state.total == 4  # by value
    play(state, 0, "6a")  # 10; seat 0 draws 2a
    events = play(state, 1, "1a")  # 11: eleven, the total back to 0; draws 3a
    assert events[0] == {"type": "play", "seat": 1, "card": "1a", "total": 0, "eleven": True}
    assert state.to_act == (0, 1)  # seat 0's turn, and seat 1's right to claim
    assert {"seat": 1, "type": "claim"} in state.view(1)["legal"]
    assert {"seat": 0, "type": "claim"} not in state.view(0)["legal"]
    play(state, 1)  # the claim: 2 points
    assert state.scores == [0, 2] and state.to_act == (0,)
    play(state, 0, "9b")  # 9; seat 0 draws 8a
    play(state, 1, "7a")  # 16 is more than 11: the total starts again at 7; draws 9a
    assert state.total == 7
    play(state, 0, "2a")  # 9; draws 10a
    play(state, 1, "1b")  # 10; draws 2b
    play(state, 0, "5a")  # 15: the total starts again at 5; draws 3b
    assert state.total == 5
    play(state, 1, "3a")  # 8; draws 4b
    assert state.view(0)["hand"] == ["3b", "8a", "10a"]
    play(state, 0, "3b")  # 11: seat 0 may claim; draws 5b
    assert state.to_act == (1, 0)
    events = play(state, 1, "2b")  # ... but seat 1 plays first: the right is gone
    assert events[0] == {"type": "lapse", "seat": 0}
    assert state.scores == [0, 2] and state.total == 2 and state.to_act == (0,)
    assert state.view(None)["stock"] == 3  # 14, less a card drawn after each of 11 plays


def test_with_three_seats_a_claim_lapses_when_any_seat_plays() -> None:
    cls = eleven()
    deal = {
        "dealer": 0,
        "hands": [["5a", "6a", "1b"], ["4a", "7a", "2b"], ["3a", "8a", "9b"]],
        "stock": ["1a", "2a", "9a", "10a", "3b", "4b", "5b", "6b", "7b", "8b", "10b"],
    }
    state = cls.start(3, {"target": 50}, [cls.parse_deal(deal, 3, {"target": 50}, 0)])
    assert state.to_act == (1,)
    play(state, 1, "4a")  # 4; draws 1a
    play(state, 2, "3a")  # 7; draws 2a
    play(state, 0, "1b")  # 8; draws 9a
    play(state, 1, "1a")  # 9; draws 10a
    play(state, 2, "2a")  # 11: seat 2 may claim; draws 3b
    assert state.to_act == (0, 2)
    events = play(state, 0, "5a")  # seat 0 plays first: seat 2's right ends
    assert events[0] == {"type": "lapse", "seat": 2}
    assert state.to_act == (1,) and state.scores == [0, 0, 0] and state.total == 5
    before = state.view(2)
    with pytest.raises(Exception, match="no eleven"):
        play(state, 2)
    assert state.view(2) == before


def test_a_deal_ends_when_no_seat_holds_a_card_and_the_target_ends_the_game() -> None:
    cls = eleven()
    settings = {"target": 1}
    state = cls.start(2, settings, [cls.parse_deal(DEAL, 2, settings, 0)])
    # play the whole deal, no claims: whoever plays the last card scores 1 and wins
    last = None
    while not state.over:
        seat = state.turn
        card = state.view(seat)["hand"][0]
        last = seat
        events = play(state, seat, card)
    assert state.winner == last and state.scores[last] == 1
    assert [e["type"] for e in events][-2:] == ["hand_end", "game_end"]
    assert sum(state.view(None)["hand_sizes"]) == 0


def test_deals_and_actions_in_notation_are_checked() -> None:
    cls = eleven()
    with pytest.raises(Exception, match="dealer is seat 0"):
        cls.parse_deal({**DEAL, "dealer": 1}, 2, {"target": 5}, 0)
    with pytest.raises(Exception, match="twice"):
        cls.parse_deal({**DEAL, "stock": ["5a", *DEAL["stock"][1:]]}, 2, {"target": 5}, 0)
    with pytest.raises(Exception, match="not a card"):
        cls.parse_action({"seat": 0, "type": "play", "card": "11a"}, 2)
    state = cls.start(2, {"target": 5}, [cls.parse_deal(DEAL, 2, {"target": 5}, 0)])
    before = state.view(0)
    with pytest.raises(Exception, match="turn"):
        play(state, 0, "5a")  # seat 1 plays first
    with pytest.raises(Exception, match="not in its hand"):
        play(state, 1, "5a")
    assert state.view(0) == before


# ------------------------------------------------------------------------ the CLI


def test_the_cli_plays_simulates_replays_and_benches_it(site: Path) -> None:
    help_text = taverna(site, "play", "--help").stdout
    assert "eleven" in help_text  # the games are listed from what is installed
    # without the plug-in on its path, Python has no Eleven: the game comes from it alone
    alone = subprocess.run(
        [sys.executable, "-m", "taverna", "simulate", "eleven", "--bots", "greedy,random"],
        capture_output=True,
        text=True,
        cwd=site.parent,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert alone.returncode == 2 and "unknown game 'eleven'" in alone.stderr

    played = taverna(site, "play", "eleven", "--seed", "3", "--bots", "greedy", stdin="1\n" * 200)
    assert played.returncode == 0, played.stderr
    assert "Eleven — deal 1" in played.stdout and "Game over." in played.stdout

    sim = taverna(
        site,
        "simulate",
        "eleven",
        "--bots",
        "greedy,random",
        "--games",
        "40",
        "--json",
        "--no-progress",
    )
    assert sim.returncode == 0, sim.stderr
    report = json.loads(sim.stdout)
    assert report["games"] == 40 and sum(b["wins"] for b in report["bots"]) + report["draws"] == 40

    bench = taverna(site, "bench", "eleven", "--seconds", "0.4", "--json")
    assert bench.returncode == 0, bench.stderr
    rows = json.loads(bench.stdout)["results"]
    assert [r["seats"] for r in rows] == [2, 3]
    assert all(r["hands_per_second"] > 0 and r["protocol_cost"] > 0 for r in rows)


def test_a_record_replays_and_the_conformance_suite_passes(site: Path, tmp_path: Path) -> None:
    script = (
        "import json, random\n"
        "from taverna.games import get_game\n"
        "cls = get_game('eleven'); s = cls.new(3, {'target': 6}, seed=11); r = random.Random(1)\n"
        "while not s.over: s.apply(r.choice(s.legal_actions()))\n"
        "print(json.dumps({'record': s.record(), 'scores': s.scores, 'winner': s.winner}))\n"
    )
    made = subprocess.run(
        [sys.executable, "-c", script], env=with_site(site), capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    game = json.loads(made.stdout)
    record = tmp_path / "eleven.json"
    record.write_text(json.dumps(game["record"]))
    out = taverna(site, "replay", str(record))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert result["ok"] and result["over"]
    assert result["scores"] == game["scores"] and result["winner"] == game["winner"]

    suite = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-o",
            "addopts=",
            "-q",
            "-p",
            "no:cacheprovider",
            str(ROOT / "tests" / "test_protocol.py"),
        ],
        env={**with_site(site), "TAVERNA_TEST_GAMES": "eleven"},
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert suite.returncode == 0, suite.stdout[-3000:]
    assert re.search(r"\b8 passed\b", suite.stdout), suite.stdout  # every test of the suite


# --------------------------------------------------------------------- the server


@pytest.fixture(scope="module")
def server(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("eleven")),
        PYTHONPATH=str(site),
        TAVERNA_BOT_DELAY="0.02",
    ).start()
    yield srv
    srv.stop()


def test_the_server_lists_serves_and_plays_it_whole(server: Server) -> None:
    listed = httpx.get(f"{server.http}/api/games").json()["games"]
    facts = next(g for g in listed if g["game"] == "eleven")
    assert facts["optional_actions"] == ["claim"] and facts["default_seats"] == 2
    assert facts["web"]["board"] == "/games/eleven/board.js"
    assert set(facts["web"]["lang"]) == {"en", "it", "nl", "es"}
    board = httpx.get(f"{server.http}{facts['web']['board']}")
    assert board.status_code == 200 and "export default" in board.text

    ana = Person(server, "Ana")
    tid = ana.play_at("eleven", settings={"target": 4}, bots={1: "greedy"})

    async def go() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        seat = Seat(server, tid, ana.cookie)
        await seat.connect(last_seq=0)  # the game from its first deal
        # Ana plays from her view alone (this process has no Eleven: the server's does),
        # and claims every eleven she makes
        while seat.view is not None and not seat.view["over"]:
            v = seat.view
            if v.get("legal") and 0 in v["to_act"]:
                action = next((a for a in v["legal"] if a["type"] == "claim"), v["legal"][0])
                await seat.send({"type": "act", "action": action, "id": seat.seq})
                while (await seat.recv())["type"] not in ("update", "error"):
                    pass
            else:
                await seat.recv()
        view = seat.view
        assert view is not None
        await seat.close()
        return view, seat.messages

    view, messages = asyncio.run(go())
    assert view["over"] and max(view["scores"]) >= 4
    replay = httpx.get(f"{server.http}/api/games/{tid}/replay").json()
    assert replay["steps"][-1]["view"]["over"]
    # no peeking: each deal told Ana her own cards, and nothing of the bot's
    dealt = [
        e["private"] for step in replay["steps"] for e in step["events"] if e["type"] == "deal"
    ]
    told = [
        e
        for msg in messages
        for e in [*msg.get("events", []), *(x for m in msg.get("missed", []) for x in m["events"])]
        if e["type"] == "deal"
    ]
    assert [e["cards"] for e in told] == [d["0"]["cards"] for d in dealt]
    assert all("private" not in e for msg in messages for e in msg.get("events", []))


def test_a_browser_plays_it(server: Server) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    with chromium(playwright_api) as browser:
        page = browser.new_page(viewport={"width": 1366, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.http}/")
        card = page.locator(".game-card[data-game=eleven]")
        playwright_api.expect(card.locator("h2")).to_have_text("Eleven")
        card.locator("[data-new]").click()
        page.fill("#name-dialog input[name=name]", "Eva")
        page.keyboard.press("Enter")
        dialog = page.locator("#create-dialog")
        playwright_api.expect(dialog.locator("input[name=target]")).to_have_value("5")
        assert "Points to win" in dialog.inner_text()
        dialog.locator("input[name=target]").fill("3")
        dialog.locator("[data-key=create-submit]").click()
        page.wait_for_selector(".eleven-board")
        assert_accessible(page, "eleven table")
        deadline = 240
        for _ in range(deadline * 10):
            if page.locator(".game-over").count():
                break
            claim = page.locator("[data-claim]")
            playable = page.locator(".eleven-play:not([aria-disabled=true])")
            if claim.count():
                claim.first.click()
            elif playable.count():
                playable.first.click()
            page.wait_for_timeout(100)
        playwright_api.expect(page.locator(".game-over")).to_be_visible()
        log = page.locator(".log").inner_text()
        # the log keeps the last moves: a deal's notice among them (a long game's last)
        assert "plays" in log and re.search(r"Deal \d+: \w+ deals", log), log
        assert not errors, errors
        page.close()
