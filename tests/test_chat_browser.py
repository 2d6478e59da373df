"""A table's chat in a real browser (Playwright driving Debian's Chromium): two people
talk, one mutes the other (for themself only, and still after a reload), a spectator's
words never reach the players, and markup in a message is shown as text."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from .browser_helpers import assert_accessible, chromium, strings
from .server_helpers import Person, Seat, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")
expect = playwright_api.expect

pytestmark = pytest.mark.browser

EN = strings("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("chat"))).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


def page_of(
    browser: Any, server: Server, person: Person, table: str, wait: str = ".side .chat #chat-input"
) -> Any:
    """A tab of ``person`` (their session cookie) on the table's page, once ``wait`` shows
    (the chat, by default)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    ctx.add_cookies(
        [{"name": "taverna_session", "value": person.cookie.split("=", 1)[1], "url": server.http}]
    )
    page = ctx.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.http}/#/table/{table}")
    page.wait_for_selector(wait)
    return page


def a_game(server: Server) -> tuple[Person, Person, str]:
    """Ana and Bea at a running dominoes table, with all the time in the world."""
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("dominoes", settings={"target": 250}, turn_seconds=600)["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)
    return ana, bea, tid


def write(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


def lines(page: Any) -> Any:
    return page.locator(".chat-list .chat-line")


def close(*pages: Any) -> None:
    for p in pages:
        errors = p.errors
        p.context.close()
        assert not errors, errors


def test_two_people_chat_and_one_mutes_the_other(browser: Any, server: Server) -> None:
    ana, bea, tid = a_game(server)
    a = page_of(browser, server, ana, tid)
    b = page_of(browser, server, bea, tid)
    write(a, "Hola, Bea")
    expect(lines(b).last.locator(".chat-text")).to_have_text("Hola, Bea")
    expect(lines(b).last.locator(".chat-name")).to_have_text("Ana")
    b.click("[data-phrase=good_luck]")
    expect(lines(a).last.locator(".chat-text")).to_have_text(EN["chat.phrase.good_luck"])
    # what was being typed survives the table's redraws
    a.fill("#chat-input", "half a sent")
    b.click("[data-phrase=thanks]")
    expect(lines(a)).to_have_count(3)
    assert a.input_value("#chat-input") == "half a sent"
    a.fill("#chat-input", "")
    assert_accessible(a, "a table page with its chat")

    # Ana mutes Bea: Bea's messages go, for Ana only
    bea_id = bea.player["id"]
    a.locator(f".chat-line[data-player='{bea_id}'] [data-mute]").first.click()
    expect(a.locator(f".chat-line[data-player='{bea_id}']")).to_have_count(0)
    expect(a.locator(".chat-muted [data-unmute]")).to_have_text(
        EN["chat.unmute"].replace("{name}", "Bea")
    )
    b.click("[data-phrase=oops]")
    expect(lines(b).last.locator(".chat-text")).to_have_text(EN["chat.phrase.oops"])
    write(a, "anyone there?")
    expect(lines(a).last.locator(".chat-text")).to_have_text("anyone there?")
    assert a.locator(f".chat-line[data-player='{bea_id}']").count() == 0
    expect(b.locator(f".chat-line[data-player='{bea_id}']")).to_have_count(3)
    # and still after a reload (the welcome tells the chat again)
    a.reload()
    a.wait_for_selector(".side .chat #chat-input")
    expect(lines(a)).to_have_count(2)
    assert a.locator(f".chat-line[data-player='{bea_id}']").count() == 0
    a.click(".chat-muted [data-unmute]")
    expect(a.locator(f".chat-line[data-player='{bea_id}']")).to_have_count(3)

    # a report from Bea's page, kept once
    b.locator(f".chat-line[data-player='{ana.player['id']}'] [data-report]").first.click()
    expect(b.locator(".toast")).to_have_text(EN["chat.reported"])
    close(a, b)


def test_a_spectators_words_do_not_reach_the_players(browser: Any, server: Server) -> None:
    ana, _, tid = a_game(server)
    eve = Person(server, "Eve")
    a = page_of(browser, server, ana, tid)
    e = page_of(browser, server, eve, tid)
    expect(e.locator(".chat-note")).to_have_text(EN["chat.spectators_note"])
    write(e, "Ana has the double six")
    expect(lines(e).last.locator(".chat-text")).to_have_text("Ana has the double six")
    expect(lines(e).last.locator(".chat-tag")).to_have_text(EN["chat.from_spectator"])
    write(a, "good luck to me")
    expect(lines(e).last.locator(".chat-text")).to_have_text("good luck to me")
    # Ana's own message arrived after Eve's: Eve's would have been there first
    expect(lines(a).last.locator(".chat-text")).to_have_text("good luck to me")
    expect(lines(a)).to_have_count(1)
    assert "double six" not in a.locator(".chat").inner_text()
    close(a, e)


def test_a_script_in_a_message_is_shown_as_text(browser: Any, server: Server) -> None:
    ana, bea, tid = a_game(server)
    a = page_of(browser, server, ana, tid)
    b = page_of(browser, server, bea, tid)
    evil = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b>'
    write(a, evil)
    text = lines(b).last.locator(".chat-text")
    expect(text).to_have_text(evil)
    assert b.locator(".chat-list img, .chat-list script, .chat-list b").count() == 0
    assert b.evaluate("window.pwned") is None
    # after a reload too (the welcome's copy), and on the page of the one who wrote it
    b.reload()
    b.wait_for_selector(".side .chat #chat-input")
    expect(lines(b).last.locator(".chat-text")).to_have_text(evil)
    expect(lines(a).last.locator(".chat-text")).to_have_text(evil)
    assert b.evaluate("window.pwned") is None and a.evaluate("window.pwned") is None
    close(a, b)


def test_the_replay_shows_the_chat_of_both_rooms(browser: Any, server: Server) -> None:
    ana, eve = Person(server, "Ana"), Person(server, "Eve")
    tid = ana.create("dominoes", settings={"target": 30}, bots={1: "greedy"})["id"]
    ana.sit(tid, 0)
    ana.start(tid)

    async def go() -> None:
        me, watcher = Seat(server, tid, ana.cookie), Seat(server, tid, eve.cookie)
        await me.connect()
        await watcher.connect()
        await me.send({"type": "chat", "phrase": "good_luck", "id": 1})
        await watcher.send({"type": "chat", "text": "<i>go Ana</i>", "id": 2})
        await me.expect("ack")
        await watcher.expect("ack")
        await me.play("greedy")
        await me.close()
        await watcher.close()

    # the browser's own loop runs in this thread: the sockets get one of their own
    worker = threading.Thread(target=asyncio.run, args=(go(),))
    worker.start()
    worker.join(120)
    assert not worker.is_alive()
    page = page_of(browser, server, ana, tid, wait=".table-page .chat")
    page.goto(f"{server.http}/#/replay/{tid}")
    players = page.locator(".replay-chat [data-room=players] .chat-line")
    expect(players).to_have_count(1)
    expect(players.locator(".chat-text")).to_have_text(EN["chat.phrase.good_luck"])
    spectators = page.locator(".replay-chat [data-room=spectators] .chat-line .chat-text")
    expect(spectators).to_have_text("<i>go Ana</i>")
    expect(page.locator(".replay-chat h3")).to_have_text(
        [EN["chat.players"], EN["chat.spectators"]]
    )
    close(page)


def test_the_host_turns_the_chat_off_and_the_others_see_it(browser: Any, server: Server) -> None:
    ana, bea, tid = a_game(server)
    a = page_of(browser, server, ana, tid)
    b = page_of(browser, server, bea, tid)
    assert b.locator("[data-chat-switch]").count() == 0  # only the host has the switch
    a.click("[data-chat-switch]")
    expect(b.locator(".chat-note")).to_have_text(EN["chat.off"])
    expect(b.locator("[data-phrase=hello]")).to_be_disabled()
    expect(b.locator(".chat-form")).to_be_hidden()
    expect(a.locator("[data-chat-switch]")).to_have_text(EN["chat.turn_on"])
    a.click("[data-chat-switch]")
    expect(b.locator("[data-phrase=hello]")).to_be_enabled()
    b.click("[data-phrase=hello]")
    expect(lines(a).last.locator(".chat-text")).to_have_text(EN["chat.phrase.hello"])
    close(a, b)
