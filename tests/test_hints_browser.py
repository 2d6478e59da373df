"""The Hint button in a real browser (issue 19): a casual table made with hints on
shows, on the player's turn, the strong bot's move marked on the board and why."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from .browser_helpers import chromium, strings
from .server_helpers import Server, database_url
from .test_web_browser import Browser

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("hints")), TAVERNA_BOT_DELAY="0.05"
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


def test_the_hint_button_shows_the_strong_bots_move(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    page = tab.open()
    page.click("[data-new='muggins-dominoes']")
    dialog = page.locator("#name-dialog")
    if dialog.is_visible():
        dialog.locator("input").fill("Ana")
        dialog.locator("button[value=ok]").click()
    form = page.locator("#create-dialog form")
    form.wait_for()
    form.locator("select[name=seats]").select_option("2")
    form.locator("[data-who='0']").select_option("me")
    form.locator("[data-who='1']").select_option("4")
    form.locator("details.more summary").click()
    form.locator("[name=hints]").check()
    tab.accessible("the new-table dialog with hints")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/"))
    tid = page.url.rsplit("/", 1)[1]
    table = tab.page.request.get(f"{server.http}/api/tables/{tid}").json()["table"]
    assert table["options"]["hints"] is True

    # on our turn the button is there; from the keyboard, it asks
    button = page.locator(".felt [data-hint]")
    button.wait_for()
    button.focus()
    page.keyboard.press("Enter")
    line = page.locator(".felt .hint-line strong")
    line.wait_for()
    en = strings("en")
    assert en["hint.suggests"] in page.locator(".felt .hint-line").inner_text()
    assert page.locator(".felt .hinted").count() >= 1
    tab.shot("hint")
    tab.accessible("a table with a hint shown")
    # the mark and the line go with the move
    seq = tab.seq()
    page.locator(".felt .hinted").first.click()
    if page.locator(".felt .end-target.fits").count():
        page.locator(".felt .end-target.fits").first.click()
    tab.after(seq)
    assert page.locator(".felt .hint-line strong").count() == 0
    tab.close()
