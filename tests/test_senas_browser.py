"""Mus señas in a real browser (Playwright driving Debian's Chromium, as
tests/test_web_browser.py does): at a table with catch 0, a seña made from the seña bar
with the keyboard reaches the partner's page at once and not an opponent's; the maker's
page says nobody caught it; a false seña sent through the page's socket is refused and
the page says why in its own words.

Three people sit at seats 0, 1 and 2 (a greedy bot at 3); their moves are made by the
test's own sockets (local greedy bots), while each person's page watches its seat.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from taverna.bots import make_bot
from taverna.games import get_game

from .accounts_helpers import wait_finished
from .browser_helpers import assert_accessible, chromium, screenshot, strings
from .server_helpers import Person, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
Mus = get_game("mus")

#: the señas as every page names them: the federation's Spanish names
SPANISH = {
    "dos_reyes": "dos reyes",
    "dos_ases": "dos ases",
    "medias_reyes": "medias de reyes",
    "medias_ases": "medias de ases",
    "medias": "medias",
    "duples": "duples",
    "treinta_y_una": "treinta y una",
    "juego": "juego",
    "treinta": "treinta",
    "veintinueve": "veintinueve",
    "ciego": "ciego",
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("senas")), TAVERNA_BOT_DELAY="0.05"
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


class Hand:
    """A seat's own socket (the test's), which makes its moves with a greedy bot."""

    def __init__(self, server: Server, table: str, person: Person, stack: ExitStack) -> None:
        url = f"{server.ws}/ws/tables/{table}"
        self.ws = stack.enter_context(ws_connect(url, additional_headers={"Cookie": person.cookie}))
        self.ws.send(json.dumps({"type": "hello", "last_seq": None}))
        welcome = self.expect("welcome")
        self.seat: int = welcome["seat"]
        self.view: dict[str, Any] = welcome["view"]
        self.seq: int = welcome["seq"]
        self.bot = make_bot("greedy", Mus, self.seat, seed=20 + self.seat)

    def expect(self, kind: str, mid: Any = None, timeout: float = 20) -> dict[str, Any]:
        while True:
            msg = json.loads(self.ws.recv(timeout=timeout))
            if msg["type"] == "update":
                self.view = msg["view"]
                self.seq = msg["seq"]
            if msg["type"] == kind and (mid is None or msg.get("id") == mid):
                return msg

    def past(self, seq: int) -> None:
        """Read until the table has moved past update ``seq``, then what is already here
        (one move may bring more than one update: a hand's end and the next deal)."""
        while self.seq <= seq:
            self.expect("update")
        with contextlib.suppress(TimeoutError):
            while True:
                self.expect("update", timeout=0)

    def move(self) -> None:
        action = self.bot.choose(self.view)
        assert action is not None
        self.ws.send(json.dumps({"type": "act", "action": action.to_json()}))


def watch(browser: Any, server: Server, person: Person, table: str) -> Any:
    """A page of ``person``'s own at the table."""
    context = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 900})
    token = person.http.cookies["taverna_session"]
    context.add_cookies([{"name": "taverna_session", "value": token, "url": server.http}])
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.http}/#/table/{table}")
    page.wait_for_selector(".mus-table")
    page.errors = errors
    return page


def test_a_partner_sees_a_sena_an_opponent_does_not_and_a_false_one_is_refused(
    browser: Any, server: Server
) -> None:
    ana, bruno, carla = (Person(server, n) for n in ("Ana", "Bruno", "Carla"))
    tid = ana.create("mus", settings={"catch": 0}, bots={3: "greedy"})["id"]
    for seat, p in enumerate((ana, bruno, carla)):
        p.sit(tid, seat)
    ana.start(tid)
    with ExitStack() as stack:
        hands = [Hand(server, tid, p, stack) for p in (ana, bruno, carla)]
        pages = [watch(browser, server, p, tid) for p in (ana, bruno, carla)]
        play_and_sign(hands, pages)


def play_and_sign(hands: list[Hand], pages: list[Any]) -> None:
    """Ana (seat 0) makes a seña from her page; Carla (2) sees it, Bruno (1) does not."""
    maker, opponent, partner = pages

    # the people play (their sockets) until Ana may make a seña; her page's bar says so
    for _ in range(300):
        if hands[0].view.get("may_signal"):
            break
        actor = hands[0].view["to_act"][0]
        seq = hands[0].seq
        if actor < 3:
            hands[actor].move()
        for h in hands:
            h.past(seq)
    may = hands[0].view["may_signal"]
    assert may, "Ana never had a seña to make"
    bar = maker.locator(".sena-bar")
    enabled = bar.locator("[data-sena]:not([disabled])")
    playwright_api.expect(enabled).to_have_count(len(may))
    assert bar.locator("[data-sena]").count() == len(SPANISH)  # every seña, named
    sign = enabled.first.get_attribute("data-sena")
    assert sign == may[0]
    assert enabled.first.inner_text() == SPANISH[sign]
    assert enabled.first.get_attribute("title") == strings("en")[f"mus.sena.{sign}"]

    # with the keyboard: the button has the focus, Enter makes the seña
    enabled.first.focus()
    maker.keyboard.press("Enter")
    mine = maker.locator(".me-plate .sena")
    playwright_api.expect(mine).to_contain_text(SPANISH[sign])
    playwright_api.expect(mine).to_contain_text(strings("en")["mus.sena_unseen"])
    playwright_api.expect(bar.locator(f"[data-sena={sign}]")).to_be_disabled()
    seen = partner.locator('.mus-seat[data-seat="0"] .sena')
    playwright_api.expect(seen).to_have_text(SPANISH[sign])
    said = strings("en")["mus.log.sena"].replace("{name}", "Ana").replace("{sign}", SPANISH[sign])
    told = partner.locator(".log-list [data-event=signal]", has_text=said)
    playwright_api.expect(told).to_have_count(1)
    screenshot(maker, "senas-maker", full_page=True)
    screenshot(partner, "senas-partner", full_page=True)
    # the partner's page has it: the opponent's, told by the same server at once, has not
    assert opponent.locator('.mus-seat[data-seat="0"] .sena').count() == 0
    assert opponent.locator(".log-list [data-event=signal]", has_text="Ana").count() == 0
    assert_accessible(maker, "mus: the seña bar, a seña made")
    assert_accessible(partner, "mus: the partner's seña on the table")

    # a false seña, sent through the page's own socket, is refused in the page's words
    wrong = next(x for x in SPANISH if x not in may)
    hands[0].ws.send(json.dumps({"type": "signal", "sign": wrong, "id": "probe"}))
    refused = hands[0].expect("error", "probe")
    assert refused["code"] == "illegal" and refused["params"]["sign"] == wrong
    words = strings("en")[f"refused.{refused['reason']}"]
    words = words.replace("{sign}", SPANISH[wrong])
    holds = [SPANISH[x] for x in refused["params"].get("holds", [])]
    words = words.replace("{holds}", ", ".join(holds))
    maker.evaluate(f"window.taverna.page.socket.signal({json.dumps(wrong)})")
    playwright_api.expect(maker.locator(".toast.error")).to_have_text(words)
    playwright_api.expect(mine).to_have_count(1)  # nothing changed
    for page in pages:
        assert not page.errors, page.errors
        page.context.close()


def test_the_replay_shows_each_sena_at_its_step(browser: Any, server: Server) -> None:
    """Four greedy bots play a game; its replay shows each seña at the step it was made,
    at its seat with who caught it, and tells it in the log."""
    ana = Person(server, "Ana")
    bots = {str(s): "greedy" for s in range(4)}
    settings = {"cows": 1, "games_per_cow": 1, "catch": 0.5}
    tid = ana.create("mus", seats=4, bots=bots, settings=settings)["id"]
    ana.start(tid)
    wait_finished(server, tid, timeout=120)
    signals = httpx.get(f"{server.http}/api/games/{tid}/replay").json()["signals"]
    assert signals, "four greedy bots made no seña in a whole game"
    x = signals[-1]
    context = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.goto(f"{server.http}/#/replay/{tid}")
    page.wait_for_selector(".replay .mus-table")
    page.locator("[data-slider]").fill(str(x["after"]))
    plate = page.locator(f'.mus-seat[data-seat="{x["seat"]}"] .sena', has_text=SPANISH[x["sign"]])
    playwright_api.expect(plate).to_have_count(1)
    words = strings("en")
    if x["caught_by"]:  # "caught by Bruno (bot, medium)": the names as the table says them
        playwright_api.expect(plate).to_contain_text(words["mus.sena_caught_by"].split("{")[0])
    else:
        playwright_api.expect(plate).to_contain_text(words["mus.sena_unseen"])
    told = page.locator(".log-list .sena-line", has_text=SPANISH[x["sign"]])
    assert told.count() >= 1
    page.locator("[data-slider]").fill(str(x["after"] - 1) if x["after"] else "0")
    if x["after"]:  # a step before it was made: not shown yet (unless made twice)
        same = [y for y in signals if (y["seat"], y["sign"]) == (x["seat"], x["sign"])]
        if len(same) == 1:
            playwright_api.expect(plate).to_have_count(0)
    screenshot(page, "senas-replay", full_page=True)
    context.close()
