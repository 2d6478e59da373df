"""Tournaments in a real browser (issue 18): find one, sign up, see the standings."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from .accounts_helpers import ACCOUNT_ENV, Member
from .browser_helpers import assert_accessible, chromium
from .server_helpers import Server, database_url
from .test_tournaments import grant

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("tour")), **ACCOUNT_ENV).start()
    yield srv
    srv.stop()


def test_sign_up_for_a_tournament_and_see_the_standings(server: Server) -> None:
    mod, ana = Member(server, "Mod", "10.80.0.1"), Member(server, "Ana", "10.80.0.2")
    grant(server.url, mod.name)
    starts = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    r = mod.http.post(
        "/api/tournaments",
        json={"game": "cards", "name": "Winter <b>Cup</b>", "rounds": 2, "starts_at": starts},
    )
    assert r.status_code == 201, r.text
    tid = r.json()["tournament"]["id"]
    with chromium(playwright_api) as browser:
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx.add_cookies(
            [{"name": "taverna_session", "value": ana.cookie.split("=", 1)[1], "url": server.http}]
        )
        page: Any = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.http}/tournaments")
        link = page.locator(".tournament-list a", has_text="Winter <b>Cup</b>")  # text, not markup
        link.click()
        page.wait_for_url(f"**/tournaments/{tid}")
        page.click("[data-sign-up] button[type=submit]")
        page.wait_for_selector(".signed-up")
        standings = page.locator("table.standings tbody tr")
        assert standings.count() == 1 and ana.name in standings.first.inner_text()
        assert_accessible(page, "a tournament's page")
        assert not errors, errors


def test_the_moderators_page(server: Server) -> None:
    mod, eve = Member(server, "Mod", "10.81.0.1"), Member(server, "Eve", "10.81.0.2")
    grant(server.url, mod.name)
    with chromium(playwright_api) as browser:
        for who, allowed in ((eve, False), (mod, True)):
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            ctx.add_cookies(
                [
                    {
                        "name": "taverna_session",
                        "value": who.cookie.split("=", 1)[1],
                        "url": server.http,
                    }
                ]
            )
            page: Any = ctx.new_page()
            page.goto(f"{server.http}/moderation")
            if not allowed:
                assert "moderator" in page.wait_for_selector("[role=alert]").inner_text()
                ctx.close()
                continue
            page.fill("#mod-player", eve.name)
            page.fill("#mod-minutes", "15")
            page.fill("#mod-reason", "spam <script>")
            page.click("button[value=silence]")
            page.wait_for_selector(".mod-list li >> text=spam <script>")
            assert_accessible(page, "the moderators' page")
            ctx.close()
    assert eve.http.get("/api/session").json()["player"]["silenced"]["reason"] == "spam <script>"
