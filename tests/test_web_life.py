"""Life at the table in a real browser (Playwright driving Debian's Chromium): play now,
play again, the turn notice and the animation's promise to reduced motion.

The games are played to their end by the test's own clients over the table socket (a
greedy bot in each person's hand), with the pages open on the same tables: what is
checked is what a person sees and clicks.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from taverna.bots import ratings

from .browser_helpers import chromium, strings
from .server_helpers import Person, Seat, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("life")),
        TAVERNA_BOT_DELAY="0.05",
        # long enough that a waiting table is still waiting when the second person comes
        TAVERNA_PLAY_NOW_WAIT="120",
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


def tab(browser: Any, server: Server, person: Person, **context: Any) -> Any:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, **context)
    ctx.add_cookies(
        [{"name": "taverna_session", "value": person.cookie.split("=", 1)[1], "url": server.http}]
    )
    page = ctx.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def finish(
    server: Server,
    table: str,
    people: list[Person],
    pause: float = 0.0,
    hold: threading.Event | None = None,
) -> None:
    """Play the game at ``table`` to its end, each person's moves made by a greedy bot
    over a socket of their own (``pause`` seconds before each move; with ``hold``, no
    move after the first until it is set)."""

    async def go() -> None:
        seats = [Seat(server, table, p.cookie) for p in people]
        for s in seats:
            await s.connect()

        async def play(s: Seat) -> None:
            moved = False
            while not (s.view or {}).get("over"):
                v = s.view or {}
                if v.get("legal") and s.seat in v.get("to_act", []):
                    if moved and hold is not None:
                        await asyncio.to_thread(hold.wait)
                    moved = True
                    await asyncio.sleep(pause)
                    await s.play("greedy", until=lambda view, n=s.seq: s.seq > n)
                else:
                    await s.recv()

        await asyncio.gather(*(play(s) for s in seats))
        for s in seats:
            await s.close()

    # a thread of its own: Playwright's sync API runs its own event loop in this one
    failed: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(go())
        except BaseException as e:
            failed.append(e)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join(180)
    assert not worker.is_alive(), "the game did not end in 180 s"
    if failed:
        raise failed[0]


def test_play_now_seats_a_person_at_a_waiting_table(browser: Any, server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    waiting = ana.http.post("/api/play-now", json={"game": "dominoes"}).json()["table"]
    page = tab(browser, server, bea)
    page.goto(f"{server.http}/#/")
    # the levels as the page offers them: first the one nearest the player's rating, then
    # each with its measured rating in the game, in tens ("Level 5 · about 1650")
    en = strings("en")
    for game in ("muggins-dominoes", "muggins-cards", "mus"):
        rated = ratings.level_ratings(game)
        page.wait_for_selector(f'[data-now-level="{game}"] option', state="attached")
        offered = page.locator(f'[data-now-level="{game}"] option').all_inner_texts()
        assert offered == [en["lobby.level_near"]] + [
            en["bot.level_rated"].format(n=n, rating=math.floor(round(rated[n][0]) / 10 + 0.5) * 10)
            if n in rated
            else en["bot.level"].format(n=n)
            for n in range(1, 9)
        ], game
    page.select_option('[data-now-level="muggins-dominoes"]', "1")
    page.click('[data-play-now="muggins-dominoes"]')
    page.wait_for_url(f"**/#/table/{waiting['id']}")
    page.wait_for_selector(".felt .hand")  # seated, and the table full: the game is on
    table = ana.http.get(f"/api/tables/{waiting['id']}").json()["table"]
    assert table["status"] == "playing"
    assert [s["player_id"] for s in table["seating"]] == [ana.player["id"], bea.player["id"]]
    assert not page.errors, page.errors
    page.context.close()


def test_play_again_is_one_click_at_a_bot_table(browser: Any, server: Server) -> None:
    ana = Person(server, "Ana")
    old = ana.play_at("dominoes", settings={"target": 20}, bots={1: "greedy"})
    finish(server, old, [ana])
    page = tab(browser, server, ana)
    page.goto(f"{server.http}/#/table/{old}")
    page.wait_for_selector(".game-over")
    page.click(".game-over [data-again]")
    page.wait_for_url(lambda url: "#/table/" in url and old not in url)
    page.wait_for_selector(".felt .hand")
    new_id = page.url.rsplit("/", 1)[1]
    table = ana.http.get(f"/api/tables/{new_id}").json()["table"]
    assert table["status"] == "playing" and table["settings"] == {"target": 20}
    assert table["seating"][0]["player_id"] == ana.player["id"]
    assert table["seating"][1]["bot"] == "4"  # greedy: level 4
    assert not page.errors, page.errors
    page.context.close()


def test_play_again_offers_the_others_their_seats(browser: Any, server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    old = ana.create("dominoes", settings={"target": 15})["id"]
    ana.sit(old, 0)
    bea.sit(old, 1)
    ana.start(old)
    finish(server, old, [ana, bea])
    pages = [tab(browser, server, p) for p in (ana, bea)]
    for p in pages:
        p.goto(f"{server.http}/#/table/{old}")
        p.wait_for_selector(".game-over [data-again]")
    a, b = pages
    a.click(".game-over [data-again]")
    a.wait_for_url(lambda url: old not in url)
    new_id = a.url.rsplit("/", 1)[1]
    a.wait_for_selector(".seating")  # waiting for Bea, her seat kept for her
    assert "Bea" in a.locator(".seat-row").nth(1).inner_text()
    # Bea, still at the finished table, is told and joins with one click
    b.wait_for_selector(".game-over .again-offer")
    assert "Ana" in b.locator(".game-over .again-offer").inner_text()
    b.click(".game-over [data-again]")
    b.wait_for_url(f"**/#/table/{new_id}")
    for p in pages:
        p.wait_for_selector(".felt .hand")  # the same seats, and the game on
    table = ana.http.get(f"/api/tables/{new_id}").json()["table"]
    assert [s["player_id"] for s in table["seating"]] == [ana.player["id"], bea.player["id"]]
    for p in pages:
        assert not p.errors, p.errors
        p.context.close()


def _sounds(page: Any) -> list[str]:
    return page.evaluate("async () => (await import('/static/js/notice.js')).heard.sounds.slice()")


def _moved(page: Any) -> int:
    return page.evaluate("async () => (await import('/static/js/motion.js')).stats.started")


def test_the_turn_notice_sounds_and_can_be_muted(browser: Any, server: Server) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at("dominoes", settings={"target": 40}, bots={1: "greedy"})
    page = tab(browser, server, ana)
    page.goto(f"{server.http}/#/table/{tid}")
    page.wait_for_selector(".felt .hand")
    assert page.get_attribute("[data-sound]", "aria-pressed") == "true"
    # Ana's second move waits for the mute: a hand that ended meanwhile would put its
    # summary over the table (and the sound button under it)
    clicked = threading.Event()
    played = threading.Thread(target=finish, args=(server, tid, [ana], 0.3, clicked))
    played.start()
    try:
        # it becomes Ana's turn again after the bot's move: a chime; and the pieces travelled
        # (the page's own modules, held where a polled predicate can read them at once)
        page.evaluate(
            """async () => {
              window.notice = await import('/static/js/notice.js');
              window.motion = await import('/static/js/motion.js');
            }"""
        )
        page.wait_for_function(
            """() => window.notice.heard.sounds.includes('turn') && window.motion.stats.started > 0
              && document.title.startsWith('●')"""
        )
        page.click("[data-sound]")  # muted, and remembered
    finally:
        clicked.set()
    assert page.get_attribute("[data-sound]", "aria-pressed") == "false"
    muted_at = len(_sounds(page))
    played.join(120)
    assert not played.is_alive()
    page.wait_for_selector(".game-over")
    assert len(_sounds(page)) == muted_at  # not one sound since
    page.reload()
    page.wait_for_selector("[data-sound]")
    assert page.get_attribute("[data-sound]", "aria-pressed") == "false"
    assert not page.errors, page.errors
    page.context.close()


def test_nothing_moves_when_the_browser_asks_for_reduced_motion(
    browser: Any, server: Server
) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at("cards", settings={"target": 15}, bots={1: "greedy"})
    page = tab(browser, server, ana, reduced_motion="reduce")
    page.goto(f"{server.http}/#/table/{tid}")
    page.wait_for_selector(".felt .hand")
    finish(server, tid, [ana], 0.05)
    page.wait_for_selector(".game-over")
    assert _moved(page) == 0
    assert not page.errors, page.errors
    page.context.close()
