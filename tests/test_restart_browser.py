"""A server restart as a person at the table sees it, in a real browser.

SIGTERM: the page says the server is restarting (not that the connection was
lost), comes back by itself when the server is up again, and shows the same
hand; the move made then is taken.
"""

from __future__ import annotations

import signal
from typing import Any

import pytest

from .browser_helpers import assert_accessible, chromium, strings
from .server_helpers import Person, Server, database_url, drop_database

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.browser

EN = strings("en")


def test_the_page_says_the_server_restarts_and_comes_back_by_itself(tmp_path: Any) -> None:
    url = database_url("sqlite", tmp_path)
    env = {"TAVERNA_GRACE_SECONDS": "600"}
    server = Server(url, **env).start()
    try:
        ana, bea = Person(server, "Ana"), Person(server, "Bea")
        tid = ana.create("muggins-dominoes", seats=2)["id"]
        ana.sit(tid, 0)
        bea.sit(tid, 1)
        ana.start(tid)
        with chromium(playwright_api) as browser:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            token = ana.cookie.split("=", 1)[1]
            context.add_cookies([{"name": "taverna_session", "value": token, "url": server.http}])
            page = context.new_page()
            page.set_default_timeout(20000)
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(f"{server.http}/#/table/{tid}")
            page.wait_for_selector(".table-page[data-status=playing] .status-bar")
            hand = page.locator(".hand").inner_text()
            seq = page.locator(".table-page").get_attribute("data-seq")

            assert server.proc is not None
            server.proc.send_signal(signal.SIGTERM)
            server.proc.wait(20)
            net = page.locator("#net")
            net.filter(has_text=EN["net.restarting"]).wait_for()
            assert_accessible(page, "a table while the server restarts")

            again = Server(url, **env)
            again.port = server.port  # the page comes back to the address it knows
            server = again.start()
            net.filter(has_text=EN["net.back"]).wait_for()
            page.wait_for_selector(f".table-page[data-seq='{seq}']")
            assert page.locator(".hand").inner_text() == hand
            assert errors == []
            context.close()
    finally:
        server.stop()
        drop_database(url)
