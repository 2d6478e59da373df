"""The "How to play" pages (issue 14): /rules and /rules/GAME in a real browser, and
their texts (``taverna/web/static/rules/{en,it,nl,es}.json``) as data.

Every game's page opens in every language with its title, its contents and its
sections, breaks no Content-Security-Policy and raises no page error; an unknown game
is a 404 that says so; the Italian Mus page speaks the seed's words. Playwright drives
Debian's Chromium (``/usr/bin/chromium``), never a browser download.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taverna.games import ALIASES, GAMES
from taverna.server.guard import CSP

from .browser_helpers import assert_accessible, chromium, rules, screenshot, strings
from .server_helpers import Server, database_url
from .test_web_hostile import INJECTED, WATCH

# (as in test_web_browser.py, the whole module needs Playwright, a dev dependency)
playwright_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "taverna" / "web" / "static"
RULES = STATIC / "rules"
LANGUAGES = {"en": "en-US", "it": "it-IT", "nl": "nl-NL", "es": "es-ES"}
#: the blocks a section may hold (rules/rules.js BLOCKS), and the facts of each
BLOCKS = {"p", "list", "steps", "example", "terms", "table"}


def sections(text: dict[str, Any], game: str) -> list[dict[str, Any]]:
    """A game page's sections, in order: the game's own, then those every game shares."""
    return [*text["games"][game]["sections"], *text["common"]["sections"]]


# ------------------------------------------------------------------ the texts


def shape(value: Any, key: str | None = None) -> Any:
    """The structure of a rules file: its keys, list lengths and section ids, every
    other text reduced to its type."""
    if isinstance(value, dict):
        return {k: shape(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [shape(v) for v in value]
    return value if key == "id" else type(value).__name__


def texts(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for v in value.values():
            yield from texts(v)
    elif isinstance(value, list):
        for v in value:
            yield from texts(v)
    else:
        yield value


def check_item(item: Any, where: str) -> None:
    """An item is a text, or a text with its lead: {"lead", "text"}."""
    lead = isinstance(item, dict) and set(item) == {"lead", "text"}
    assert isinstance(item, str) or lead, where


def test_every_language_file_has_the_english_structure() -> None:
    english = rules("en")
    assert set(english["games"]) == set(GAMES)
    for lang in LANGUAGES:
        text = rules(lang)
        assert shape(text) == shape(english), lang
        for value in texts(text):
            assert isinstance(value, str) and value.strip(), (lang, value)
            # markup is the page's to make: a text holds none (it is shown as text)
            assert not re.search(r"<[A-Za-z/!]", value), (lang, value)
        for game in GAMES:
            ids = [s["id"] for s in sections(text, game)]
            assert len(ids) == len(set(ids)), (lang, game, ids)
            for s in sections(text, game):
                assert set(s) == {"id", "title", "blocks"}, (lang, game, s["id"])
                for b in s["blocks"]:
                    where = f"{lang} {game} {s['id']}: {b}"
                    assert len(b) == 1 and set(b) <= BLOCKS, where
                    [(kind, body)] = b.items()
                    if kind in ("p", "example"):
                        check_item(body, where)
                    elif kind in ("list", "steps"):
                        for x in body:
                            check_item(x, where)
                    elif kind == "terms":
                        assert all(set(x) == {"lead", "text"} for x in body), where
                    else:
                        assert set(body) == {"head", "rows"}, where
                        assert all(len(row) == len(body["head"]) for row in body["rows"]), where
    # the page draws every block the texts use, and no other
    js = (RULES / "rules.js").read_text()
    drawn = set(re.findall(r"^  (\w+): \(", js.split("const BLOCKS = {", 1)[1], re.M))
    assert drawn == BLOCKS


# ---------------------------------------------------------------- the browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("rules"))).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


class Tab:
    """A visitor's tab in a browser set to ``locale``, watching for policy violations."""

    def __init__(self, browser: Any, server: Server, locale: str = "en-US") -> None:
        self.server = server
        self.context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, path: str, ready: str, status: int = 200) -> Any:
        response = self.page.goto(self.server.http + path)
        assert response.status == status, path
        assert response.headers.get("content-security-policy") == CSP, path
        self.page.wait_for_selector(ready)
        return self.page

    def clean(self, where: str) -> None:
        """No page error, no policy violation, no inline handler or injected element."""
        assert not self.errors, (where, self.errors)
        assert self.page.evaluate("window.__csp") == [], where
        assert self.page.evaluate(INJECTED) == [], where
        ids = self.page.eval_on_selector_all("[id]", "els => els.map(e => e.id)")
        assert len(ids) == len(set(ids)), (where, sorted(ids))

    def close(self) -> None:
        self.context.close()


def expect_game_page(page: Any, lang: str, game: str) -> None:
    """The page of ``game`` as the texts of ``lang`` write it."""
    text = rules(lang)
    title = strings(lang)[f"game.{game}"]
    expect = playwright_api.expect
    expect(page.locator("main h1")).to_have_text(f"{text['page']['title']}: {title}")
    assert page.title() == f"{title} · {text['page']['title']} · Taverna"
    assert page.evaluate("document.documentElement.lang") == lang
    own = sections(text, game)
    expect(page.locator(".rules-toc h2")).to_have_text(text["page"]["contents"])
    links = page.locator(".rules-toc a")
    expect(links).to_have_text([s["title"] for s in own])
    assert [links.nth(i).get_attribute("href") for i in range(len(own))] == [
        f"#{s['id']}" for s in own
    ]
    heads = page.locator(".rules-text section > h2")
    expect(heads).to_have_text([s["title"] for s in own])
    ids = page.eval_on_selector_all(".rules-text section", "els => els.map(e => e.id)")
    assert ids == [s["id"] for s in own]
    expect(page.locator(".club-tabs [aria-current=page]")).to_have_text(title)
    # a text is shown as it is written (the first paragraph of the first section)
    first = next(b["p"] for b in own[0]["blocks"] if "p" in b)
    expect(page.locator(".rules-text section p").first).to_have_text(
        first if isinstance(first, str) else f"{first['lead']} {first['text']}"
    )


@pytest.mark.browser
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_game_has_its_page_in_every_language(browser: Any, server: Server, lang: str) -> None:
    """The browser's language picks the texts (as on every page of the site)."""
    tab = Tab(browser, server, LANGUAGES[lang])
    text = rules(lang)
    page = tab.open("/rules", ".rules-games")
    playwright_api.expect(page.locator("main h1")).to_have_text(text["page"]["title"])
    playwright_api.expect(page.locator("main .page-note")).to_have_text(text["page"]["intro"])
    games = page.locator(".rules-games h2 a")
    playwright_api.expect(games).to_have_text([strings(lang)[f"game.{g}"] for g in GAMES])
    assert [games.nth(i).get_attribute("href") for i in range(3)] == [f"/rules/{g}" for g in GAMES]
    tab.clean(f"/rules in {lang}")
    if lang == "en":  # axe-core: the pages of one language (the others have their structure)
        assert_accessible(page, "/rules")
    for game in GAMES:
        page = tab.open(f"/rules/{game}", ".rules-text")
        expect_game_page(page, lang, game)
        tab.clean(f"/rules/{game} in {lang}")
        if lang == "en":
            assert_accessible(page, f"/rules/{game}")
        if lang in ("en", "it"):
            screenshot(page, f"rules-{game}-{lang}", full_page=True)
    tab.close()


@pytest.mark.browser
def test_the_short_names_and_a_section_in_the_address(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    for alias, game in ALIASES.items():
        page = tab.open(f"/rules/{alias}", ".rules-text")
        expect_game_page(page, "en", game)
    page = tab.open("/rules/mus#count", ".rules-text")
    playwright_api.expect(page.locator("#count")).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
    page.locator(".rules-toc a[href='#senas']").click()
    playwright_api.expect(page.locator("#senas")).to_be_in_viewport()
    tab.clean("aliases")
    # narrow: the contents come above the text, nothing is wider than the screen
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{server.http}/rules/muggins-cards")
    page.wait_for_selector(".rules-text")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "rules-muggins-cards-phone", full_page=True)
    tab.clean("phone")
    tab.close()


@pytest.mark.browser
def test_an_unknown_game_is_a_404_that_says_so(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    page = tab.open("/rules/chess", "main [role=alert]", status=404)
    expect = playwright_api.expect
    expect(page.locator("main [role=alert]")).to_have_text(
        strings("en")["club.unknown_game"].replace("{game}", "chess")
    )
    expect(page.locator("main h1")).to_have_text(rules("en")["page"]["title"])
    assert page.locator(".rules-text").count() == 0  # not another game's rules
    expect(page.locator(".rules-games h2 a")).to_have_count(3)
    tab.clean("/rules/chess")
    assert_accessible(page, "/rules/chess (404)")
    page.locator(".rules-games a[href='/rules/mus']").click()
    expect_game_page(page, "en", "mus")
    tab.close()


@pytest.mark.browser
def test_the_italian_mus_page_speaks_the_seeds_words(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)  # an English browser: the address asks for Italian
    page = tab.open("/rules/mus?lang=it", ".rules-text")
    expect_game_page(page, "it", "mus")
    words = page.locator("main").inner_text()
    for word in ("Voglio", "Non voglio", "Scommessa", "Grande", "Piccola", "Coppia", "Gioco"):
        assert word in words, word
    for word in ("Punti", "mucche", "giochi", "pietre", "primo di mano"):
        assert word in words, word
    assert "quiero" not in words.lower()
    tab.clean("/rules/mus in Italian")
    tab.close()


@pytest.mark.browser
def test_the_language_is_switched_at_the_top_and_remembered(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    page = tab.open("/rules/mus#betting", ".rules-text")
    expect_game_page(page, "en", "mus")
    page.select_option("#lang", "es")
    expect_game_page(page, "es", "mus")
    assert "Quiero" in page.locator("#betting").inner_text()
    page.goto(f"{server.http}/rules/muggins-dominoes")
    page.wait_for_selector(".rules-text")
    expect_game_page(page, "es", "muggins-dominoes")
    page.locator(".club-tabs a[href='/rules']").click()
    playwright_api.expect(page.locator("main h1")).to_have_text(rules("es")["page"]["title"])
    tab.clean("switched to Spanish")
    tab.close()
