"""Every game played with the keyboard alone, in a real browser (issue 14, item 17).

A person who cannot use a mouse plays against bots on the real server: Tab and
Shift+Tab to move between controls, the arrow keys along the hand and the buttons,
Enter or Space to act, Escape to close; a game's own letter keys where the page
offers them. No click, no ``focus()`` from the test: where the focus goes after each
move is the page's doing, and it is checked — always somewhere sensible (the hand,
the buttons, the summary that has just opened, the game-over dialog), always visible
(a focus ring). Each game goes as far as its first hand summary, closed with the
keyboard, and a few moves into the next hand; dominoes to the end of the game and its
dialog. axe-core looks at the states only this path reaches (a claim, a Muggins! call,
a hand summary at the table). Playwright drives Debian's Chromium, never a download.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .browser_helpers import chromium
from .server_helpers import Person, Server, database_url
from .test_web_browser import Browser

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("keyboard")), TAVERNA_BOT_DELAY="0.05"
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


#: the focused element as the test needs to know it: what it is, where it is, and whether
#: its focus ring shows
FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const where = ['.game-over', '.hand-summary', '.felt .hand', '.felt .actions', '.end-target',
                 '.felt .controls', '.felt', '.side', '.table-head', 'header.topbar']
    .find((sel) => el.closest(sel));
  return {
    key: el.dataset.key || '', act: el.dataset.act || '', tag: el.tagName.toLowerCase(),
    cls: el.className && typeof el.className === 'string' ? el.className : '',
    text: (el.innerText || '').trim().slice(0, 40), where: where || '',
    playable: el.classList.contains('playable') && el.getAttribute('aria-disabled') !== 'true',
    pressed: el.getAttribute('aria-pressed'), ends: el.dataset.ends || '',
    ring: el.matches(':focus-visible') && style.outlineStyle !== 'none'
      && parseFloat(style.outlineWidth) >= 2,
  };
}"""

#: what the table is at: the seat's view, and what is open over the board
TABLE = """() => {
  const v = window.taverna.page?.view;
  const el = document.querySelector('.table-page');
  return {
    seq: Number(el?.dataset.seq || 0),
    over: !!document.querySelector('.game-over'),
    summary: !!document.querySelector('[data-close-summary]'),
    turn: v?.turn ?? null, mine: !!v && !v.over && (v.legal || []).length > 0,
    legal: v?.legal || [], phase: v?.phase || null, ordago: !!v?.ordago,
    hand_no: v?.hand_no ?? null,
  };
}"""


class Keys:
    """A keyboard at a table: presses, and the page's focus after each of them."""

    def __init__(self, tab: Browser) -> None:
        self.tab = tab
        self.page = tab.page
        self.pressed = 0

    def focused(self) -> dict[str, Any] | None:
        info: dict[str, Any] | None = self.page.evaluate(FOCUSED)
        return info

    def table(self) -> dict[str, Any]:
        state: dict[str, Any] = self.page.evaluate(TABLE)
        return state

    def press(self, key: str) -> dict[str, Any] | None:
        self.page.keyboard.press(key)
        self.pressed += 1
        return self.focused()

    def visible(self, where: str) -> dict[str, Any]:
        """The focus is on something, and its ring shows."""
        now = self.focused()
        assert now is not None, f"{where}: the focus is lost (on the page's body)"
        assert now["ring"], f"{where}: no focus ring on {now}"
        return now

    def until(
        self, selector: str, key: str = "Tab", limit: int = 40, where: str = ""
    ) -> dict[str, Any]:
        """Press ``key`` until the focused element matches ``selector``."""
        for _ in range(limit):
            if self.page.evaluate("s => !!document.activeElement?.matches(s)", selector):
                return self.visible(where or selector)
            self.press(key)
        raise AssertionError(f"{selector} not reached with {key} ({limit} times): {self.focused()}")

    def to_hand(self) -> dict[str, Any]:
        """Into the hand from the buttons below it (Shift+Tab), if the focus is not there."""
        return self.until(".felt .hand button", key="Shift+Tab", limit=10, where="the hand")

    def into_the_game(self) -> dict[str, Any]:
        """From the top of the content (a page just opened: through the skip link), Tab
        until the board's controls."""
        if self.page.evaluate("document.activeElement.id") != "app":
            self.press("Tab")
            assert self.page.evaluate("document.activeElement.id") == "skip-link"
            self.press("Enter")
        assert self.page.evaluate("document.activeElement.id") == "app"
        return self.until(
            ".felt .hand button, .felt .actions button", where="the hand or the buttons"
        )

    def acted(self, seq: int, timeout: float = 15000) -> None:
        """The move went through (the table moved on), and the focus stayed somewhere
        sensible: the board's controls, the summary just opened, the game-over dialog."""
        self.tab.after(seq, timeout=timeout)
        self.page.wait_for_timeout(50)  # the page has drawn the update
        now = self.visible("after a move")
        assert now["where"] in (
            ".felt .hand",
            ".felt .actions",
            ".felt .controls",
            ".end-target",
            ".hand-summary",
            ".game-over",
        ), now

    def close_summary(self) -> None:
        """The summary that has just opened has the focus: Enter on its close button, and
        the focus goes back to the board — or to the game-over dialog, when the game
        ended while the summary was open (the next hand's first moves can end it)."""
        now = self.visible("a summary opened")
        assert now["key"] == "close-summary", now
        self.tab.accessible(f"{self.tab.page.url.split('/')[-1]}: a hand summed up at the table")
        self.press("Enter")
        self.page.wait_for_selector("[data-close-summary]", state="detached")
        now = self.visible("the summary closed")
        board = (".felt .hand", ".felt .actions", ".felt .controls")
        if now["where"] == ".game-over":
            assert self.table()["over"], now
        else:
            assert now["where"] in board, now

    def game_over(self) -> None:
        """The game-over dialog has the focus; Tab goes round its own controls; Escape
        closes it."""
        self.page.wait_for_selector(".game-over")
        now = self.visible("the game-over dialog")
        assert now["where"] == ".game-over" and now["key"] == "close-over", now
        inside = self.page.locator(".game-over").locator("a[href], button").count()
        for key in ["Tab"] * (inside + 1) + ["Shift+Tab"]:  # round, and on: still in it
            now = self.press(key)
            assert now and now["where"] == ".game-over", (key, now)
        self.press("Escape")
        self.page.wait_for_selector(".game-over", state="detached")
        self.visible("the game-over dialog closed")


def wait_for_something(keys: Keys, seen: int, seconds: float = 20) -> dict[str, Any]:
    """Until the table moves past update ``seen``, or something waits on us."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        state = keys.table()
        if state["seq"] > seen or state["over"] or state["mine"] or state["summary"]:
            return state
        keys.page.wait_for_timeout(50)
    raise AssertionError(f"the table stood still at update {seen}")


def member(browser: Any, server: Server, name: str) -> tuple[Person, Browser]:
    """A guest and a tab of theirs (their session cookie)."""
    person = Person(server, name)
    tab = Browser(browser, server, viewport={"width": 1366, "height": 900})
    token = person.cookie.split("=", 1)[1]
    tab.context.add_cookies([{"name": "taverna_session", "value": token, "url": server.http}])
    return person, tab


# ------------------------------------------------------------------- dominoes


def test_dominoes_with_the_keyboard_alone(browser: Any, server: Server) -> None:
    """From the lobby's button to the game-over dialog: a new table made with the
    keyboard, tiles placed with Enter (a tile that fits both ends: the focus goes to the
    ends, Tab between them), drawn and passed with their buttons."""
    tab = Browser(browser, server, viewport={"width": 1366, "height": 900})
    page = tab.open()
    keys = Keys(tab)
    keys.until("[data-new='muggins-dominoes']", where="the lobby's new-table button")
    keys.press("Enter")
    page.wait_for_selector("#name-dialog[open]")
    assert (keys.focused() or {}).get("tag") == "input"
    page.keyboard.type("Ana")
    keys.press("Enter")  # OK, the form's default button
    page.wait_for_selector("#create-dialog form")
    keys.until("#create-dialog input[name=target]")
    keys.press("Control+A")
    page.keyboard.type("61")  # a few hands: a summary before the end
    keys.press("Enter")  # the form is sent: seat 1 is a bot by default
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector(".hand-tile")
    keys.into_the_game()

    done = {"both ends": 0, "draw": 0, "pass": 0, "play": 0, "summary": 0}
    seen = 0
    deadline = time.time() + 150
    while not keys.table()["over"]:
        assert time.time() < deadline, f"the game did not end: {done}"
        state = wait_for_something(keys, seen)
        seen = state["seq"]
        if state["over"]:
            break
        now = keys.focused()
        if state["summary"] and now and now["key"] == "close-summary":
            keys.close_summary()
            done["summary"] += 1
            continue
        if not state["mine"]:
            continue
        types = {a["type"] for a in state["legal"]}
        keys.visible("my turn")
        if "play" in types:
            # along the hand with the arrows, to a tile that can be played
            keys.to_hand()
            keys.until(".felt .hand-tile.playable", key="ArrowRight", limit=30)
            now = keys.press("Enter")
            if now and now["where"] == ".end-target":
                # it fits both ends: the focus is on the first; Tab goes to the other
                other = keys.press("Tab")
                assert other and other["where"] == ".end-target", other
                keys.press("Enter")
                done["both ends"] += 1
            done["play"] += 1
        else:
            act = "draw" if "draw" in types else "pass"
            keys.until(f".felt [data-act={act}]")
            keys.press("Enter")
            done[act] += 1
        keys.acted(seen)
    tab.shot("keyboard-dominoes-over")
    # a hand's summary was closed with the keyboard whenever a hand ended before the
    # game did (a game to 61 may end in its first hand: greedy bots, 7 games in 200)
    ended_in = keys.table()["hand_no"]
    keys.game_over()
    assert done["play"] >= 3 and (done["summary"] or ended_in == 0), (done, ended_in)
    tab.close()


# ------------------------------------------------------------------------ cards


def test_muggins_cards_with_the_keyboard_alone(browser: Any, server: Server) -> None:
    """Cards played with Enter; my scores claimed and the bots' forgotten ones called
    (Muggins!) with their buttons; go; the round's summary closed; a few moves on."""
    person, tab = member(browser, server, "Bea")
    tid = person.play_at(
        "muggins-cards",
        seats=2,
        bots={"1": "greedy"},
        settings={"target": 5000},  # a round scores a lot: the game goes on after it
        bot_forget=1,  # the bot never claims: every score of its is a Muggins! chance
        muggins_wait=10,  # and mine waits for my claim while the test looks at the page
    )
    page = tab.open(f"/#/table/{tid}")
    page.wait_for_selector(".hand-card")
    keys = Keys(tab)
    keys.into_the_game()

    done = {"play": 0, "claim": 0, "muggins": 0, "go": 0, "summary": 0, "after": 0}
    seen = 0
    deadline = time.time() + 150
    while not (done["summary"] and done["after"] >= 3 and done["claim"] and done["muggins"]):
        assert time.time() < deadline, f"not all done: {done}"
        state = wait_for_something(keys, seen)
        seen = state["seq"]
        if state["over"]:
            break
        now = keys.focused()
        if state["summary"] and now and now["key"] == "close-summary":
            keys.close_summary()
            done["summary"] += 1
            continue
        types = {a["type"] for a in state["legal"]}
        if not types:
            continue
        keys.visible("something to do")
        if "muggins" in types or "claim" in types:
            act = "muggins" if "muggins" in types else "claim"
            # after my scoring play the focus is already on Claim; Muggins! is a Tab away
            keys.until(f".felt [data-act={act}]")
            tab.accessible(f"cards: {act} to be made")
            keys.press("Enter")
            done[act] += 1
        elif "play" in types:
            # a card that scores, if there is one (a claim to make next)
            scoring = [a["card"] for a in state["legal"] if a["type"] == "play" and a.get("claim")]
            target = scoring[0] if scoring else None
            sel = f".felt .hand-card[data-card='{target}']" if target else ".hand-card.playable"
            keys.to_hand()
            keys.until(sel, key="ArrowRight", limit=20)
            keys.press("Enter")
            done["play"] += 1
        elif "go" in types:
            keys.until(".felt [data-act=go]")
            keys.press("Enter")
            done["go"] += 1
        else:
            continue
        if done["summary"]:
            done["after"] += 1
        keys.acted(seen)
    assert done["summary"] and done["claim"] and done["muggins"] and done["play"], done
    tab.close()


# -------------------------------------------------------------------------- Mus


def test_mus_with_the_keyboard_alone(browser: Any, server: Server) -> None:
    """Mus said until there is a discard; cards chosen with Space and thrown; an envido
    raised with the amount's buttons; quiero or no quiero; the first summary closed;
    after it, órdago; and a few moves on.

    The three greedy bots say mus with me in about one hand in six (71 of 400 deals, as
    their own code decides): hands are played until one does, for up to 150 seconds —
    some fifty hands, all of them without a discard once in twenty thousand runs."""
    person, tab = member(browser, server, "Carla")
    tid = person.play_at(
        "mus",
        seats=4,
        bots={"1": "greedy", "2": "greedy", "3": "greedy"},
        settings={"cows": 3, "games_per_cow": 3},  # a long match: it goes on after an órdago
    )
    page = tab.open(f"/#/table/{tid}")
    page.wait_for_selector(".mus-table")
    keys = Keys(tab)
    keys.press("Tab")
    keys.press("Enter")  # the skip link: the focus on the content
    first = True
    done = {"mus": 0, "no mus": 0, "discard": 0, "envido": 0, "answer": 0, "pass": 0}
    done |= {"ordago": 0, "summary": 0, "after": 0}
    seen = 0
    deadline = time.time() + 150
    while not (done["summary"] and done["after"] >= 3 and done["discard"] and done["envido"]):
        assert time.time() < deadline, f"not all done: {done}"
        state = wait_for_something(keys, seen)
        seen = state["seq"]
        if state["over"]:
            break
        now = keys.focused()
        if state["summary"] and now and now["key"] == "close-summary":
            keys.close_summary()
            done["summary"] += 1
            continue
        types = {a["type"] for a in state["legal"]}
        if not types:
            continue
        if first:  # from the top of the content to the board's buttons
            keys.until(".felt .actions button, .felt .hand button")
            first = False
        # my turn: the focus has come to the first thing to do by itself, or is in the hand
        now = keys.visible("my turn")
        assert now["where"] in (".felt .actions", ".felt .hand"), now
        if "discard" in types:
            # the hand is before the buttons: back to it, a card chosen with Space
            keys.until(".mus-hand .hand-card", key="Shift+Tab", limit=10)
            keys.press("ArrowRight")
            chosen = keys.press("Space")
            assert chosen and chosen["pressed"] == "true", chosen
            tab.accessible("mus: a card chosen to throw away")
            keys.until(".felt [data-discard]")
            keys.press("Enter")
            done["discard"] += 1
        elif "mus" in types:
            act = "mus" if not done["discard"] else "no_mus"
            keys.until(f".felt [data-act={act}]", key="ArrowRight", limit=8)
            keys.press("Enter")
            done["mus" if act == "mus" else "no mus"] += 1
        elif "ordago" in types and done["summary"] and not done["ordago"]:
            keys.until(".felt [data-act=ordago]", key="ArrowRight", limit=10)
            keys.press("Enter")
            done["ordago"] += 1
        elif "bet" in types and not done["envido"]:
            # the amount up by one with its button, then Envido with it
            keys.until(".felt [data-key=step-up]", key="ArrowRight", limit=10)
            keys.press("Enter")
            bet = keys.until(".felt [data-act=bet]", key="ArrowLeft", limit=10)
            assert "3" in bet["text"], bet
            keys.press("Enter")
            done["envido"] += 1
        elif "accept" in types:
            # quiero and no quiero in turn; an órdago refused (accepted, it ends the game)
            act = "accept" if done["answer"] % 2 == 0 and not state["ordago"] else "reject"
            keys.until(f".felt [data-act={act}]", key="ArrowRight", limit=10)
            keys.press("Enter")
            done["answer"] += 1
        else:
            act = "pass" if "pass" in types else sorted(types)[0]
            keys.until(f".felt [data-act={act}]", key="ArrowRight", limit=10)
            keys.press("Enter")
            done["pass"] += 1
        if done["summary"]:
            done["after"] += 1
        keys.acted(seen)
    if keys.table()["over"]:
        keys.game_over()
    assert done["summary"] and done["discard"] and done["envido"], done
    tab.close()
