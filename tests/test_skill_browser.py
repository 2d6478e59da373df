"""The skill rating in a real browser (issue 18): the ranking sorted by rating, and a
player's page with their statistics and the plot of their rating over time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .accounts_helpers import ACCOUNT_ENV, Member
from .browser_helpers import assert_accessible, chromium
from .server_helpers import Server, database_url
from .test_skill_ratings import official_game

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("skill")), **ACCOUNT_ENV).start()
    yield srv
    srv.stop()


def test_the_ranking_by_rating_and_the_rating_plot(server: Server) -> None:
    ana, bea = Member(server, "Ana", "10.50.0.1"), Member(server, "Bea", "10.50.0.2")
    first = official_game(server, [ana, bea])
    official_game(server, [bea, ana])
    winner = (ana, bea)[first["result"]["winner"]]
    with chromium(playwright_api) as browser:
        page: Any = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.http}/ranking/dominoes")
        page.click("text=Skill rating")
        page.wait_for_url("**by=rating**")
        page.wait_for_selector("table tbody tr")
        rows = page.locator("table tbody tr")
        assert rows.count() == 2
        assert "provisional" in rows.first.inner_text()  # two games: not established yet
        assert_accessible(page, "ranking by rating")
        page.goto(f"{server.http}/players/{winner.name}")
        plot = page.wait_for_selector(".skill[data-game='muggins-dominoes'] .rating-plot svg")
        assert plot.get_attribute("data-points") == "2"  # one point per rated game
        assert page.locator(".rating-plot circle").count() == 2
        figures = page.locator(".skill .figures").inner_text()
        assert "Win rate" in figures and "Average score" in figures
        # the game's own figures, labelled by its strings: the winner reached 30 by
        # credited placements (docs/rules.md §1.5), so it made some
        assert "Scoring plays" in figures and "Hands dominoed" in figures
        scoring = page.locator(
            ".skill[data-game='muggins-dominoes'] [data-figure='scoring_plays'] dd"
        )
        assert int(scoring.inner_text()) > 0
        assert_accessible(page, "a player's statistics")
        assert not errors, errors
