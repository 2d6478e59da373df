"""Hostile names in a real browser (issue 13, item 1): a player's name is text wherever
the client shows it — never markup, never a script — and every page keeps to the
Content-Security-Policy the server sends.

Guests may call themselves anything a person can type (registered usernames are
restricted, so the hostile names are guests'). They play finished games of all three
games through the API, sit at an open and a running table, and play beside a member,
so that their names reach every place a name shows: the lobby (open and running
tables, finished games), the table pages (seating, plates, score sheets, scores, log,
summary, game-over dialog), the replays, a member's profile, the club pages that echo
a name from their address, and the account page.

Playwright drives Debian's Chromium (``/usr/bin/chromium``), never a browser download.
"""

from __future__ import annotations

import asyncio
import urllib.parse
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest

from taverna.server.guard import CSP

from .accounts_helpers import Member, wait_finished
from .browser_helpers import assert_accessible, chromium
from .server_helpers import Person, Seat, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

#: names that would run a script, or show as something else, if a page took them for markup
HOSTILE = [
    '"><img src=x onerror=window.__pwned=1>',
    "<script>window.__pwned=2</script>",
    "' onmouseover='window.__pwned=3",
    "</title><svg onload=window.__pwned=4>",
    '<img src=x onerror=window.__pwned=5 x=">',  # 40 characters, the longest a name may be
    "&lt;b&gt;Amp &amp; &#96;tick&#96;",  # entities show as typed, not as what they stand for
]

#: what every page learns before its own scripts run: each policy violation it raises
WATCH = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sample}`);
});
"""

#: markup that must not be in any page: an element the names would have made, or any
#: inline event handler at all (the client sets its handlers from script)
INJECTED = """() => {
  const made = 'img[src="x"], svg[onload], script:not([src]), style';
  const found = [...document.querySelectorAll(made)].map((el) => el.outerHTML.slice(0, 80));
  for (const el of document.querySelectorAll('*')) {
    const on = [...el.attributes].filter((a) => a.name.startsWith('on')).map((a) => a.name);
    if (on.length) found.push(`${el.tagName} ${on.join(' ')}`);
  }
  return found;
}"""


Player = Person | Member


async def play_out(server: Server, table: str, people: Sequence[Player]) -> None:
    """Every seat played by a local bot over its own socket, to the end of the game."""
    seats = [Seat(server, table, p.cookie) for p in people]
    for s in seats:
        await s.connect()
    await asyncio.gather(*(s.play("greedy", seed=k) for k, s in enumerate(seats)))
    for s in seats:
        await s.ws.close()


def finished_game(server: Server, people: Sequence[Player], game: str, **body: Any) -> str:
    """A game of ``people`` only (in that seat order), played to its end; its table id."""
    tid: str = people[0].create(game, seats=len(people), **body)["id"]
    for seat, p in enumerate(people):
        p.sit(tid, seat)
    people[0].start(tid)
    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop may run in this thread
        pool.submit(asyncio.run, play_out(server, tid, people)).result()
    wait_finished(server, tid)
    return tid


@dataclass
class Club:
    """The games and tables the hostile names are part of."""

    guests: list[Person]
    member: Member
    dominoes: str  # finished, four hostile names
    cards: str  # finished, two
    mus: str  # finished, four
    beside_member: str  # finished: the member and a hostile guest
    running: str  # a hostile guest and a bot, the guest's turn to come
    open: str  # two hostile guests, a seat free


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("hostile")), TAVERNA_BOT_DELAY="0.05"
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def club(server: Server) -> Club:
    guests = [Person(server, name) for name in HOSTILE]
    for g, name in zip(guests, HOSTILE, strict=True):
        assert g.player["name"] == name  # kept as typed: the page must cope with it
    member = Member(server, "Mara", "10.30.0.1")
    no_hurry = {"turn_seconds": 600}  # the running table waits for its guest
    return Club(
        guests=guests,
        member=member,
        dominoes=finished_game(server, guests[:4], "dominoes", settings={"target": 30}, **no_hurry),
        cards=finished_game(
            server, guests[4:], "muggins-cards", settings={"target": 15}, muggins_wait=0, **no_hurry
        ),
        mus=finished_game(
            server, guests[2:], "mus", settings={"cows": 1, "games_per_cow": 1}, **no_hurry
        ),
        beside_member=finished_game(
            server, [member, guests[0]], "dominoes", settings={"target": 30}, **no_hurry
        ),
        running=guests[0].play_at(
            "dominoes", seats=2, bots={"1": "greedy"}, settings={"target": 30}, **no_hurry
        ),
        open=open_table(guests[4], guests[5]),
    )


def open_table(host: Person, other: Person) -> str:
    tid: str = host.create("muggins-cards", seats=3, settings={"target": 15})["id"]
    host.sit(tid, 0)
    other.sit(tid, 1)
    return tid


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


class Tab:
    """One browser tab, as nobody yet or as a given person, watching for anything that
    would mean a name was taken for markup."""

    def __init__(self, browser: Any, server: Server, who: Player | None = None) -> None:
        self.server = server
        self.context = browser.new_context(locale="en-US", viewport={"width": 1280, "height": 900})
        if who is not None:
            cookie = who.http.cookies["taverna_session"]
            self.context.add_cookies(
                [{"name": "taverna_session", "value": cookie, "url": server.http}]
            )
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def open(self, path: str, ready: str) -> Any:
        response = self.page.goto(self.server.http + path)
        assert response.headers.get("content-security-policy") == CSP, path
        self.page.wait_for_selector(ready)
        return self.page

    def check(self, where: str, names: list[str], scope: str = "body") -> None:
        """Nothing ran, nothing was injected, no policy was broken, and each of ``names``
        shows as it was typed (in ``scope``)."""
        page = self.page
        assert page.evaluate("window.__pwned") is None, where
        assert not self.dialogs, (where, self.dialogs)
        assert page.evaluate(INJECTED) == [], where
        assert page.evaluate("window.__csp") == [], where
        assert not self.errors, (where, self.errors)
        text = page.locator(scope).first.inner_text()
        missing = [n for n in names if n not in text]
        assert not missing, (where, missing, text[:2000])

    def close(self) -> None:
        self.context.close()


# ----------------------------------------------------------------- the lobby


def test_the_lobby_shows_the_names_of_open_running_and_finished_tables(
    browser: Any, server: Server, club: Club
) -> None:
    tab = Tab(browser, server, club.guests[3])
    page = tab.open("/", ".hero")
    page.wait_for_selector(f".table-card[data-id='{club.open}']")
    page.wait_for_selector(f".table-card[data-id='{club.running}']")
    page.wait_for_selector("#history-list li")
    open_card = page.locator(f".table-card[data-id='{club.open}']")
    tab.check("lobby: open table", HOSTILE[4:], f".table-card[data-id='{club.open}']")
    assert open_card.locator(".seat-chip.free").count() == 1
    tab.check("lobby: running table", [HOSTILE[0]], f".table-card[data-id='{club.running}']")
    tab.check("lobby: finished games", HOSTILE, "#history-list")
    tab.check("lobby: who is here", [HOSTILE[3]], "#who")
    assert_accessible(page, "the lobby: open, running and finished tables")
    chip = page.locator(f".table-card[data-id='{club.open}'] .seat-chip").first
    assert chip.get_attribute("title") == HOSTILE[4]
    tab.close()


# ----------------------------------------------------------------- the tables


def test_an_open_table_seats_the_names_as_text(browser: Any, server: Server, club: Club) -> None:
    tab = Tab(browser, server)
    tab.open(f"/#/table/{club.open}", ".seating")
    tab.check("open table: seating", HOSTILE[4:], ".seating")
    who = tab.page.locator(".seat-who strong")
    assert [who.nth(i).get_attribute("title") for i in range(2)] == HOSTILE[4:]
    assert_accessible(tab.page, "an open table's seats, watched")
    tab.close()


def test_a_running_table_as_its_hostile_player_and_as_a_spectator(
    browser: Any, server: Server, club: Club
) -> None:
    name = HOSTILE[0]
    player = Tab(browser, server, club.guests[0])
    page = player.open(f"/#/table/{club.running}", ".felt .hand")
    page.wait_for_selector(".me-plate .nm")
    player.check("running table: my plate", [name], ".me-plate")
    player.check("running table: scores", [name], ".scores")
    assert page.locator(".me-plate .nm").get_attribute("title") == f"{name} (you)"
    sheet = page.locator(".scores svg.sheet").first.get_attribute("aria-label") or ""
    assert sheet.startswith(f"{name}: "), sheet  # the paper score sheet of issue 13
    player.check("running table: whole page", [name])
    player.close()

    spectator = Tab(browser, server)
    page = spectator.open(f"/#/table/{club.running}", ".felt")
    page.wait_for_selector(".plate .nm")
    spectator.check("running table, watched: plates", [name], ".plates")
    spectator.check("running table, watched: log", [], ".log")
    spectator.close()


@pytest.mark.parametrize(
    ("game", "names"),
    [("dominoes", HOSTILE[:4]), ("cards", HOSTILE[4:]), ("mus", HOSTILE[2:])],
)
def test_a_finished_table_tells_its_end_in_the_names_as_typed(
    browser: Any, server: Server, club: Club, game: str, names: list[str]
) -> None:
    tid = getattr(club, game)
    tab = Tab(browser, server)
    page = tab.open(f"/#/table/{tid}", ".game-over")
    tab.check(f"{game} table: game over", names, ".game-over")
    final = page.locator(".game-over .final").inner_text()
    assert all(n in final for n in names), final
    if game == "dominoes":
        labels = page.locator(".game-over svg.sheet").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        assert sorted(label.split(": ")[0] for label in labels) == sorted(names), labels
    page.click("[data-close-over]")
    page.wait_for_selector(".game-over", state="detached")
    tab.check(f"{game} table: scores", names, ".scores")
    log = page.locator(".log").inner_text()
    assert any(n in log for n in names), log  # the newest events name somebody
    if page.locator("[data-open-summary]").count():
        page.click("[data-open-summary]")
        page.wait_for_selector(".hand-summary")
        tab.check(f"{game} table: summary", [], ".hand-summary")
    tab.check(f"{game} table: whole page", names)
    tab.close()


# ---------------------------------------------------------------- the replays


@pytest.mark.parametrize(
    ("game", "names"),
    [("dominoes", HOSTILE[:4]), ("cards", HOSTILE[4:]), ("mus", HOSTILE[2:])],
)
def test_a_replay_shows_the_names_at_every_step(
    browser: Any, server: Server, club: Club, game: str, names: list[str]
) -> None:
    tab = Tab(browser, server)
    page = tab.open(f"/#/replay/{getattr(club, game)}", ".replay-bar")
    tab.check(f"{game} replay: the deal", names, ".side")
    count = page.locator(".step-count")
    for key, where in (("ArrowRight", "first move"), ("End", "the end")):
        before = count.inner_text()
        page.keyboard.press(key)
        playwright_api.expect(count).not_to_have_text(before)
        tab.check(f"{game} replay: {where}", names)
    log = page.locator(".log").inner_text()
    assert any(n in log for n in names), log
    tab.close()


# ------------------------------------------------------------ the club pages


def test_a_members_profile_lists_a_hostile_guest_among_the_players(
    browser: Any, server: Server, club: Club
) -> None:
    tab = Tab(browser, server)
    tab.open(f"/players/{club.member.name}", "main h1")
    tab.page.wait_for_selector("td.players")
    tab.check("profile: history", [club.member.name, HOSTILE[0]], "main")
    assert_accessible(tab.page, "a member's profile, a finished game")
    tab.close()


@pytest.mark.parametrize("name", [n for n in HOSTILE if "/" not in n])  # a slash: no such page
def test_pages_that_echo_a_name_from_their_address(browser: Any, server: Server, name: str) -> None:
    """/players/NAME of nobody registered, /ranking/NAME of no game: the page says so,
    with the name from its address as text."""
    quoted = urllib.parse.quote(name, safe="")
    tab = Tab(browser, server)
    page = tab.open(f"/players/{quoted}", "main h1")
    page.wait_for_selector("main .error")
    tab.check("profile of nobody", [name], "main h1")
    assert page.title() == f"{name} · Taverna"
    checked = name == HOSTILE[1]  # axe-core: one of the names is enough, the pages are alike
    if checked:
        assert_accessible(page, "the profile of nobody")
    page = tab.open(f"/ranking/{quoted}", "main .error")
    tab.check("ranking of no game", [name], "main .error")
    if checked:
        assert_accessible(page, "the ranking of no game")
    tab.close()


def test_the_ranking_and_the_account_page(browser: Any, server: Server, club: Club) -> None:
    guest = Tab(browser, server, club.guests[0])
    guest.open("/account", "#register-form")
    guest.check("account: the guest's note", [HOSTILE[0]], ".page-note")
    guest.check("account: who is here", [HOSTILE[0]], "#who")
    guest.open("/ranking/muggins-dominoes", "main h1")
    guest.check("ranking", [HOSTILE[0]], "#who")
    guest.close()

    member = Tab(browser, server, club.member)
    member.open("/account", "#ledger")
    member.check("account: the member's own page", [club.member.name])
    member.close()


def test_the_api_page_and_the_missing_page_keep_to_the_policy(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    page = tab.open("/docs", "#ops section")
    assert page.locator("#ops section .method.post").count() > 0
    assert page.locator("#ops code", has_text="/api/session").count() > 0
    tab.check("api page", [])
    path = urllib.parse.quote(HOSTILE[0], safe="")
    page = tab.open(f"/{path}", ".not-found")
    tab.check("missing page", [])
    tab.close()
