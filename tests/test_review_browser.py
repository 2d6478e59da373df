"""The review of a finished game on its replay page (issue 19): asked with one click,
its progress shown, the three costliest moments marked on the timeline, each mark a
way to the step; in the page's language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright import sync_api as playwright_api

from .browser_helpers import assert_accessible, chromium, strings
from .server_helpers import Server, database_url
from .test_game_review import play_out
from .test_web_tables import Tab

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("review"))).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


@pytest.mark.parametrize("locale,lang", [("en-US", "en"), ("es-ES", "es")])
def test_a_player_reviews_their_game_and_goes_to_its_costliest_moments(
    browser: Any, server: Server, locale: str, lang: str
) -> None:
    # the game is played by a client of its own (Playwright's loop holds this thread)
    with ThreadPoolExecutor(1) as pool:
        tid, ana = pool.submit(play_out, server, 7).result()
    said = strings(lang)
    tab = Tab(browser, server, person=ana, locale=locale)
    page = tab.page
    page.goto(f"{server.http}/#/replay/{tid}")
    page.wait_for_selector(".replay-bar")
    panel = page.locator(".panel.review")
    # Ana's own seat is the one offered
    assert panel.locator("[data-review-seat]").input_value() == "0"
    panel.locator("[data-review-ask]").click()
    # the progress, then the result (a review of a short game takes seconds)
    page.wait_for_selector(".review-mark", timeout=120_000)
    summary = panel.inner_text()
    assert re.search(said["review.summary"].split("{n}")[1].split("{cost}")[0].strip(), summary)
    marks = page.locator(".review-mark")
    assert 1 <= marks.count() <= 3
    reviews = ana.http.get(f"/api/games/{tid}/reviews").json()["reviews"]
    marked = reviews[0]["result"]["marked"]
    assert marks.count() == len(marked)
    # the first mark goes to the step of the costliest choice, where the panel says what
    # the bot preferred
    marks.nth(0).click()
    k = marked[0]  # the position the choice was made in
    assert page.locator("[data-slider]").input_value() == str(k)
    step_of = said["replay.step_of"].replace("{k}", str(k)).split("{n}")[0]
    playwright_api.expect(page.locator(".step-count")).to_contain_text(step_of.strip())
    here = panel.locator(".review-here")
    playwright_api.expect(here).to_contain_text(said["review.here"].split("(")[0].strip())
    # the list of the costliest moments goes there too
    items = panel.locator(".review-moments [data-review-step]")
    assert items.count() == len(marked)
    page.locator("[data-go=first]").click()
    items.nth(0).click()
    assert page.locator("[data-slider]").input_value() == str(k)
    tab.shot(f"review-{lang}")
    assert_accessible(page, f"replay with a review ({lang})")
    assert not tab.errors, tab.errors
    tab.context.close()
