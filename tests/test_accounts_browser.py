"""The club pages in a real browser: registration, the ledger, the ranking, a profile.

Playwright drives Debian's Chromium (``/usr/bin/chromium``), never a browser
download; `make test` installs Chromium first.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from .accounts_helpers import ACCOUNT_ENV, Member, unique, wait_finished
from .browser_helpers import assert_accessible, chromium, screenshot, strings
from .server_helpers import Server, database_url
from .test_accounts_play import official_dominoes, play_all

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("club")), **ACCOUNT_ENV).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.set_default_timeout(10000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def test_register_see_the_ledger_log_out_and_in(server: Server, page: Any) -> None:
    name = unique("Rosa")
    page.goto(f"{server.http}/account")
    form = page.locator("#register-form")
    form.locator("input[name=username]").fill(name)
    form.locator("input[name=password]").fill("short")
    form.locator("button").click()
    error = form.locator(".error")
    playwright_api.expect(error).to_contain_text("at least 10 characters")
    assert_accessible(page, "/account: a password refused")

    form.locator("input[name=password]").fill("a long enough secret")
    form.locator("button").click()
    playwright_api.expect(page.locator("h1")).to_have_text(f"Logged in as {name}")
    playwright_api.expect(page.locator("#chips")).to_have_text("1,000")
    playwright_api.expect(page.locator("#ledger tbody tr")).to_have_count(1)
    playwright_api.expect(page.locator("#ledger tbody")).to_contain_text("Welcome gift")
    assert_accessible(page, "/account: logged in, the ledger")
    cookie = next(c for c in page.context.cookies() if c["name"] == "taverna_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"

    page.locator("#logout").click()
    login = page.locator("#login-form")
    login.locator("input[name=username]").fill(name)
    login.locator("input[name=password]").fill("not the secret")
    login.locator("button").click()
    playwright_api.expect(login.locator(".error")).to_have_text("Wrong username or password.")
    login.locator("input[name=password]").fill("a long enough secret")
    login.locator("button").click()
    playwright_api.expect(page.locator("h1")).to_have_text(f"Logged in as {name}")


def test_the_ranking_page_and_a_profile(server: Server, page: Any) -> None:
    (ana, bea), tid = official_dominoes(server, "10.20.0.1", "10.20.0.2", target=40)

    async def go() -> None:
        seats = [ana.seat(tid), bea.seat(tid)]
        await play_all(seats)
        for s in seats:
            await s.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
        pool.submit(asyncio.run, go()).result()
    table = wait_finished(server, tid)
    winner, loser = (ana, bea) if table["result"]["winner"] == 0 else (bea, ana)

    page.goto(f"{server.http}/ranking/muggins-dominoes")
    playwright_api.expect(page.locator("h1")).to_have_text("Ranking: Muggins dominoes")
    row = page.locator("tbody tr", has_text=winner.name)
    playwright_api.expect(row.locator("td").nth(2)).to_have_text("12")
    playwright_api.expect(
        page.locator("tbody tr", has_text=loser.name).locator("td").nth(2)
    ).to_have_text("-10")
    assert_accessible(page, "a ranking")
    page.locator("nav.tabs a", has_text="Mus").click()
    playwright_api.expect(page.locator("main")).to_contain_text("Nobody is ranked yet")
    page.go_back()

    page.locator("a", has_text=winner.name).click()
    playwright_api.expect(page.locator("h1")).to_have_text(winner.name)
    game = page.locator("main table").nth(1).locator("tbody tr").first
    playwright_api.expect(game).to_contain_text("won")
    playwright_api.expect(game).to_contain_text("+12")
    assert_accessible(page, "a profile, an official game won")
    assert game.locator("a", has_text="Replay").get_attribute("href") == f"/#/replay/{tid}"


def test_the_ranking_of_an_unknown_game_says_so(server: Server, page: Any) -> None:
    page.goto(f"{server.http}/ranking/chess")
    alert = page.locator("main [role=alert]")
    playwright_api.expect(alert).to_have_text(
        "There is no game called “chess” here: choose one of ours."
    )
    playwright_api.expect(page.locator("main h1")).to_have_text("Ranking")
    assert page.locator("main table").count() == 0  # not another game's ranking
    links = page.locator("nav.tabs a")
    playwright_api.expect(links).to_have_count(3)
    assert page.locator("nav.tabs a[aria-current]").count() == 0
    assert_accessible(page, "the ranking of no game")
    links.nth(2).click()
    playwright_api.expect(page.locator("main h1")).to_have_text("Ranking: Mus")


def look(page: Any) -> dict[str, Any]:
    """What makes a page look like the site: its top bar and background."""
    return page.evaluate(
        """() => ({
            bar: getComputedStyle(document.querySelector('header.topbar')).backgroundImage,
            body: getComputedStyle(document.body).backgroundImage,
            nav: [...document.querySelectorAll('#nav a')].map(a => a.getAttribute('href')),
            languages: [...document.querySelectorAll('#lang option')].map(o => o.value),
        })"""
    )


def test_the_club_pages_are_pages_of_the_same_site(server: Server, page: Any) -> None:
    """The ranking, account and player pages: the lobby's top bar, look, language
    selector and number formatting ("1,000 chips"); a bot in a finished game is named as
    the tables name it."""
    ana = Member(server, "Ana", "10.30.0.1")
    # a casual game against a bot, in Ana's history: she leaves, a bot plays it out
    tid = ana.create("muggins-dominoes", seats=2, settings={"target": 30}, bots={"1": "greedy"})[
        "id"
    ]
    ana.sit(tid, 0)
    ana.start(tid)
    assert ana.http.delete(f"/api/tables/{tid}/seats/0").status_code == 200
    wait_finished(server, tid)
    page.context.add_cookies(
        [
            {
                "name": "taverna_session",
                "value": ana.http.cookies["taverna_session"],
                "url": server.http,
            }
        ]
    )
    en = strings("en")

    page.goto(f"{server.http}/")
    page.wait_for_selector(".hero")
    site = look(page)
    assert site["nav"] == [
        "/#/",
        "/rules",
        "/ranking",
        "/tournaments",
        "/account",
    ]  # the first game the club lists
    assert site["languages"] == ["en", "it", "nl", "es"]
    playwright_api.expect(page.locator("#who")).to_have_text(f"{ana.name} · 1,000 chips")
    for path in ("/ranking/mus", "/account", f"/players/{ana.name}"):
        page.goto(server.http + path)
        page.wait_for_selector("main h1")
        assert look(page) == site, path
        playwright_api.expect(page.locator("#who")).to_have_text(f"{ana.name} · 1,000 chips")
        screenshot(page, f"club{path.replace('/', '-')}", full_page=True)
    playwright_api.expect(page.locator("main h1")).to_have_text(ana.name)
    game = page.locator("main table").last.locator("tbody tr").first
    playwright_api.expect(game).to_contain_text(f"{ana.name}, Bruno (bot, Level 4)")

    # the language is the site's: chosen here, it holds in the lobby too
    page.select_option("#lang", "it")
    it = strings("it")
    playwright_api.expect(game).to_contain_text(f"Bruno (bot, {it['bot.level'].format(n=4)})")
    playwright_api.expect(page.locator("main h2").first).to_have_text(it["club.standing"])
    page.goto(f"{server.http}/account")
    playwright_api.expect(page.locator("#chips")).to_have_text(
        "1000"
    )  # Italian: no grouping of four digits
    page.goto(f"{server.http}/")
    playwright_api.expect(page.locator(".hero h1")).to_have_text(it["lobby.title"])
    page.select_option("#lang", "en")
    playwright_api.expect(page.locator(".hero h1")).to_have_text(en["lobby.title"])
