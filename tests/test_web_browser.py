"""The web client in a real browser: Playwright driving Debian's Chromium.

A real server (``taverna serve``) runs with quick bots; each test plays in the
page by clicking, as a person would. Screenshots go to ``test-artifacts/``.
Chromium comes from Debian (``scripts/ensure-chromium.sh``), never from a
Playwright download.
"""

from __future__ import annotations

import ast
import contextlib
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from taverna.bots import ALIASES

from .accounts_helpers import PASSWORD, unique, wait_finished
from .browser_helpers import STATIC, assert_accessible, chromium, game_folders, screenshot, strings
from .server_helpers import Person, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("web")),
        TAVERNA_BOT_DELAY="0.05",
        TAVERNA_REGISTER_LIMIT="1000/60",  # several tests register, all from 127.0.0.1
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


class Browser:
    """One person's browser tab on the Taverna site."""

    def __init__(self, browser: Any, server: Server, locale: str = "en-US", **context: Any) -> None:
        self.server = server
        self.context = browser.new_context(
            locale=locale,
            viewport=context.pop("viewport", {"width": 1280, "height": 900}),
            **context,
        )
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.checked: set[str] = set()

    def accessible(self, where: str) -> None:
        """axe-core finds nothing wrong with the page as it is (at a laptop's and a phone's
        size), the first time the test comes to ``where``."""
        if where not in self.checked:
            self.checked.add(where)
            assert_accessible(self.page, where)

    def open(self, path: str = "/") -> Any:
        self.page.goto(self.server.http + path)
        self.page.wait_for_selector(".hero, .table-page, .replay")
        return self.page

    def shot(self, name: str) -> None:
        screenshot(self.page, name, full_page=True)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors

    # ----------------------------------------------------------- lobby

    def create_table(
        self,
        game: str,
        name: str,
        seats: int | None = None,
        fields: dict[str, str] | None = None,
        who: list[str] | None = None,
        practice: bool = False,
        check: bool = False,
    ) -> str:
        """A new table through the lobby's dialog (``check``: axe-core looks at the
        dialog filled in); its id."""
        page = self.page
        page.click(f"[data-new='{game}']")
        dialog = page.locator("#name-dialog")
        if dialog.is_visible():
            dialog.locator("input").fill(name)
            dialog.locator("button[value=ok]").click()
        form = page.locator("#create-dialog form")
        form.wait_for()
        if seats is not None:
            form.locator("select[name=seats]").select_option(str(seats))
        for field, value in (fields or {}).items():
            el = form.locator(f"[name={field}]")
            if not el.is_visible():  # among the more options
                form.locator("details.more summary").click()
            if el.evaluate("e => e.tagName") == "SELECT":
                el.select_option(value)
            else:
                el.fill(value)
        for i, w in enumerate(who or []):
            # a bot by its level, or by the old name of one (greedy: level 4)
            level = ALIASES.get(w)
            form.locator(f"[data-who='{i}']").select_option(w if level is None else str(level))
        if practice:
            if not form.locator("[name=practice]").is_visible():
                form.locator("details.more summary").click()
            form.locator("[name=practice]").check()
        self.shot(f"create-{game}")
        if check:
            self.accessible(f"the new-table dialog ({game})")
        form.locator("button[type=submit]").click()
        page.wait_for_url(re.compile(r"#/table/"))
        page.wait_for_selector(".felt")
        return page.url.rsplit("/", 1)[1]

    # ------------------------------------------------------------ play

    def seq(self) -> int:
        value = self.page.get_attribute(".table-page", "data-seq")
        return int(value) if value else 0

    def after(self, seq: int, timeout: float = 10000) -> None:
        """Wait until the table has moved past update ``seq`` (or the game is over)."""
        self.page.wait_for_function(
            """seq => {
                const el = document.querySelector('.table-page');
                return !el || Number(el.dataset.seq || 0) > seq
                    || document.querySelector('.game-over');
            }""",
            arg=seq,
            timeout=timeout,
        )

    def over(self) -> bool:
        return self.page.locator(".game-over").count() > 0

    def click_and_wait(self, locator: Any) -> None:
        seq = self.seq()
        locator.click()
        self.after(seq)

    def idle(self, seq: int) -> None:
        """Nothing to do at update ``seq``: wait for the next one."""
        with contextlib.suppress(playwright_api.TimeoutError):
            self.after(seq, timeout=3000)


def play_loop(tab: Browser, step: Any, seconds: float = 150) -> int:
    """Call ``step`` (one of our moves, or False to wait) until the game is over."""
    deadline = time.time() + seconds
    moves = 0
    while time.time() < deadline:
        if tab.over():
            return moves
        seq = tab.seq()
        if step():
            moves += 1
        else:
            tab.idle(seq)
    raise AssertionError(f"the game did not finish in {seconds} s ({moves} moves made)")


# ------------------------------------------------------------------ games


def test_dominoes_game_against_a_bot(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    page = tab.open()
    page.wait_for_selector("#history-list :is(ul, .empty)")
    tab.shot("lobby")
    tab.accessible("the lobby")
    tid = tab.create_table(
        "muggins-dominoes",
        "Ana",
        seats=2,
        fields={"target": "30"},
        who=["me", "greedy"],
        check=True,
    )
    page.wait_for_selector(".hand-tile")
    tab.shot("dominoes-start")
    state = {"dropped": False, "dragged": False, "keyboard": False}

    def step() -> bool:
        if not state["dropped"] and tab.seq() > 4:
            # a network drop: the page reconnects by itself and says so
            page.evaluate("window.taverna.page.socket.simulateDrop()")
            page.wait_for_selector("#net[data-reconnected]")
            state["dropped"] = True
            tab.shot("dominoes-reconnected")
        if page.locator(".me-plate.turn").count():  # my turn: the bot waits
            tab.accessible("dominoes: my turn")
            if page.locator(".hand-summary").count():
                tab.accessible("dominoes: a hand summed up")
        if not state["dragged"]:
            # drag a tile onto the end it fits
            onto_end = page.locator(
                ".hand-tile.playable[data-ends~=left], .hand-tile.playable[data-ends~=right]"
            ).first
            if onto_end.count():
                end = onto_end.get_attribute("data-ends").split()[0]
                seq = tab.seq()
                onto_end.drag_to(page.locator(f"[data-end={end}]"))
                tab.after(seq)
                state["dragged"] = True
                return True
        if state["dragged"] and not state["keyboard"]:
            # with the keyboard only: focus a tile, Enter, then L or R for the end
            tile = page.locator(".hand-tile.playable").first
            if tile.count():
                ends = tile.get_attribute("data-ends").split()
                seq = tab.seq()
                tile.focus()
                page.keyboard.press("Enter")
                if len(ends) > 1:
                    # two ends of the same pips are one choice: Enter has played it;
                    # else the end is asked for
                    page.wait_for_function(
                        """seq => Number(document.querySelector('.table-page')?.dataset.seq
                            || 0) > seq || document.querySelector('.end-target.fits')""",
                        arg=seq,
                    )
                    if page.locator(".end-target.fits").count():
                        page.keyboard.press("l" if "left" in ends else "r")
                tab.after(seq)
                state["keyboard"] = True
                return True
        tile = page.locator(".hand-tile.playable").first
        if tile.count():
            seq = tab.seq()
            tile.click()
            end = page.locator(".end-target.fits").first
            if tab.seq() == seq and end.count():
                # the tile fits both ends: it is selected, now the end
                end.click()
            tab.after(seq)
            return True
        for act in ("draw", "pass"):
            button = page.locator(f"[data-act={act}]")
            if button.count():
                tab.click_and_wait(button)
                return True
        return False

    watcher = Browser(browser, server)
    watcher.open(f"/#/table/{tid}")
    watcher.page.wait_for_selector(".felt .line")
    assert watcher.page.locator(".badge.watching").count() == 1
    assert watcher.page.locator(".hand-tile").count() == 0  # a spectator sees no tiles
    watcher.shot("dominoes-spectator")
    watcher.accessible("dominoes, watched")
    watcher.close()

    moves = play_loop(tab, step)
    assert moves > 0 and state["dropped"] and state["dragged"] and state["keyboard"]
    over = page.locator(".game-over")
    assert "wins" in over.inner_text() or "win!" in over.inner_text()
    assert over.locator(".final li").count() == 2
    assert page.locator(".sheet").count() >= 2  # the paper score sheet
    tab.shot("dominoes-over")
    tab.accessible("dominoes: game over")
    page.click("[data-close-over]")
    page.wait_for_selector(".log-list li[data-event=game_end]")
    tab.shot("dominoes-final-table")
    tab.accessible("dominoes: the table after the game")

    # the replay: every hand revealed, step by step
    page.goto(f"{server.http}/#/replay/{tid}")
    page.wait_for_selector(".replay-bar")
    page.click("[data-go=next]")
    page.wait_for_selector(".plate .tile-small")
    assert page.locator(".plate .tile:not(.back)").count() >= 7  # the other seat's tiles, shown
    page.click("[data-go=last]")
    page.wait_for_selector(".replay .log-list li[data-event], .replay .log-list li.win")
    tab.shot("dominoes-replay")
    tab.accessible("dominoes replay")
    tab.close()


def _wait_for_my_turn_with_nothing_to_claim(page: Any) -> None:
    """Until seat 0 is to play and no score is pending: a claim is then refused as
    "nothing to claim", or as too late when the bot's last card scored and it claimed
    (:func:`_assert_claim_refused`); a bot's unclaimed score would make it "not your
    score"."""
    page.wait_for_function(
        "() => { const v = window.taverna.page?.view;"
        " return !!v && v.turn === 0 && !v.pending && !v.over; }"
    )


def _assert_claim_refused(page: Any, lang: str, heard: list[str]) -> None:
    """The toast says why seat 0's claim was refused, in the page's language: "nothing to
    claim" (an error), or, when the bot's last card scored and it claimed, that this
    window is closed (a race, said as news)."""
    toast = page.locator("#toast.show")
    toast.wait_for()
    words = strings(lang)
    said_back = [json.loads(f) for f in heard if isinstance(f, str) and '"reason"' in f]
    replies = [r for r in said_back if isinstance(r, dict) and "reason" in r]
    if replies and replies[-1]["reason"] == "window_closed":
        said = words["refused.window_closed.claim.theirs"].split("{")[0]
        assert toast.get_attribute("class") == "toast show info", heard[-4:]
        assert toast.inner_text().startswith(said), heard[-4:]
    else:
        assert (toast.get_attribute("class"), toast.inner_text()) == (
            "toast show error",
            words["refused.nothing_to_claim"],
        ), heard[-4:]


def test_cards_game_against_a_bot(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    heard: list[str] = []  # what the table's socket brought
    tab.page.on("websocket", lambda ws: ws.on("framereceived", lambda f: heard.append(f)))
    page = tab.open()
    tab.create_table("muggins-cards", "Bea", seats=2, fields={"target": "15"}, who=["me", "greedy"])
    page.wait_for_selector(".hand-card")
    tab.shot("cards-start")
    # an action the rules refuse: the page says the server's reason in its own words
    _wait_for_my_turn_with_nothing_to_claim(page)
    page.evaluate("window.taverna.page.socket.act({type: 'claim', seat: 0})")
    _assert_claim_refused(page, "en", heard)
    tab.shot("cards-refused")

    def step() -> bool:
        # my turn, no score waiting to be claimed: nothing moves until I play
        if page.locator(".me-plate.turn").count() and not page.locator(".pending-box").count():
            tab.accessible("cards: my turn")
            if page.locator(".hand-summary").count():
                tab.accessible("cards: a round summed up")
        for act in ("claim", "muggins"):
            button = page.locator(f"[data-act={act}]")
            if button.count():
                tab.click_and_wait(button)
                return True
        card = page.locator("button.hand-card.playable").first
        if card.count():
            tab.click_and_wait(card)
            return True
        go = page.locator("[data-act=go]")
        if go.count():
            tab.click_and_wait(go)
            return True
        return False

    play_loop(tab, step)
    tab.shot("cards-over")
    assert page.locator(".game-over .final li").count() == 2
    assert "cards: my turn" in tab.checked
    tab.accessible("cards: game over")
    tab.close()


def test_mus_game_with_three_bots(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    page = tab.open()
    tab.create_table(
        "mus",
        "Carla",
        fields={"cows": "1", "games_per_cow": "1"},
        who=["me", "greedy", "greedy", "greedy"],
    )
    page.wait_for_selector(".mus-table")
    tab.shot("mus-start")
    did: set[str] = set()

    def step() -> bool:
        actions = page.locator(".mus-actions")
        if not actions.count():
            return False
        # my turn to speak: the bots wait
        if page.locator(".hand-summary").count():
            tab.accessible("mus: a hand summed up")
        if page.locator("[data-discard]").count():
            # choose the first card, then discard it
            page.locator(".mus-hand button.hand-card").first.click()
            tab.accessible("mus: discarding, a card chosen")
            tab.click_and_wait(page.locator("[data-discard]"))
            did.add("discard")
            return True
        if "mus" not in did and page.locator("[data-act=mus]").count():
            tab.accessible("mus: mus or no mus")
            did.add("mus")
            tab.click_and_wait(page.locator("[data-act=mus]"))
            return True
        if page.locator("[data-act=no_mus]").count():
            tab.click_and_wait(page.locator("[data-act=no_mus]"))
            return True
        if "envido" not in did and page.locator("[data-act=bet]").count():
            page.click("[data-step='1']")  # envido 3
            assert "3" in page.locator("[data-act=bet]").inner_text()
            did.add("envido")
            tab.shot("mus-betting")
            tab.accessible("mus: betting")
            tab.click_and_wait(page.locator("[data-act=bet]"))
            return True
        for act in ("ordago", "accept"):
            button = page.locator(f"[data-act={act}]")
            if button.count():
                if act == "accept":
                    tab.accessible("mus: answering a bet")
                did.add(act)
                tab.click_and_wait(button)
                return True
        button = page.locator(".mus-actions button:not([disabled])").first
        if button.count():
            tab.click_and_wait(button)
            return True
        return False

    play_loop(tab, step, seconds=180)
    tab.shot("mus-over")
    assert page.locator(".game-over .final li").count() == 2
    tab.accessible("mus: game over")
    page.click("[data-close-over]")
    if page.locator("[data-open-summary]").count():
        page.click("[data-open-summary]")
    tab.shot("mus-final-table")
    tab.accessible("mus: the table after the game")
    tab.close()


# ------------------------------------------------------------- new table


def test_the_new_table_form_checks_numbers_and_seats_before_asking(
    browser: Any, server: Server
) -> None:
    tab = Browser(browser, server)
    page = tab.open()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    info = httpx.get(f"{server.http}/api/games").json()
    assert info["table_limits"]["turn_seconds"] == {"type": "int", "min": 5, "max": 600}
    page.click("[data-new='muggins-dominoes']")
    page.locator("#name-dialog input").fill("Gia")
    page.locator("#name-dialog button[value=ok]").click()
    form = page.locator("#create-dialog form")
    form.wait_for()
    posts.clear()
    en = strings("en")

    # the limits are the server's (GET /api/games)
    target = form.locator("input[name=target]")
    assert target.get_attribute("min") == "1" and target.get_attribute("max") is None
    target.fill("0")
    form.locator("button[type=submit]").click()
    error = form.locator("#err-target")
    playwright_api.expect(error).to_have_text(en["create.at_least"].replace("{min}", "1"))
    assert target.get_attribute("aria-invalid") == "true"
    assert page.evaluate("document.activeElement.name") == "target"
    target.fill("2.5")
    target.blur()
    playwright_api.expect(error).to_have_text(en["create.whole_number"])
    target.fill("40")
    playwright_api.expect(error).to_have_text("")  # mended: the message goes at once

    # a field among the more options: they open to show it
    form.locator("details.more summary").click()
    form.locator("input[name=turn_seconds]").fill("2")
    form.locator("details.more summary").click()  # closed again
    form.locator("button[type=submit]").click()
    playwright_api.expect(form.locator("#err-turn_seconds")).to_have_text(
        en["create.between"].replace("{min}", "5").replace("{max}", "600")
    )
    assert form.locator("details.more").get_attribute("open") is not None
    assert page.evaluate("document.activeElement.name") == "turn_seconds"
    assert not posts, posts  # nothing was sent while a field was wrong
    tab.shot("create-invalid")
    tab.accessible("the new-table dialog, two fields wrong")

    # one "me": taking another seat moves you, your old seat takes what that one had
    form.locator("input[name=game][value=mus]").check()
    who = [form.locator(f"[data-who='{i}']") for i in range(4)]
    who[1].select_option("7")
    who[1].select_option("me")
    assert [w.input_value() for w in who] == ["7", "me", "4", "4"]
    form.locator("input[name=game][value=muggins-cards]").check()
    form.locator("select[name=seats]").select_option("4")
    form.locator("[data-who='3']").select_option("me")
    form.locator("select[name=seats]").select_option("2")  # your seat is gone: the first
    assert form.locator("[data-who='0']").input_value() == "me"
    tab.close()


# ------------------------------------------------------------ first visit


def test_a_first_visit_logs_no_error(browser: Any, server: Server) -> None:
    """Nobody has a session yet: no console error, no failed request, on any page."""
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on(
        "response",
        lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400 else None,
    )
    page.goto(server.http + "/")
    page.wait_for_selector(".hero")
    page.wait_for_selector("#history-list :is(ul, .empty)")
    for path in ("/account", "/ranking/mus"):
        page.goto(server.http + path)
        page.wait_for_selector("main h1")
        assert_accessible(page, f"{path}, a first visit")
    page.goto(server.http + "/docs")
    page.wait_for_load_state("networkidle")
    assert_accessible(page, "the API's page (/docs)")
    assert not problems, problems
    context.close()


# ------------------------------------------------------------- names


def test_a_guest_is_told_a_name_is_registered_and_may_choose_another(
    browser: Any, server: Server
) -> None:
    owner = f"Olga{int(time.time() * 1000) % 1_000_000}"
    r = httpx.post(
        f"{server.http}/api/register",
        json={"username": owner, "password": "a long enough secret"},
    )
    assert r.status_code == 201, r.text
    tab = Browser(browser, server)
    page = tab.open()
    page.click("[data-new='muggins-dominoes']")
    dialog = page.locator("#name-dialog")
    dialog.locator("input").fill(owner.upper())
    dialog.locator("button[value=ok]").click()
    error = dialog.locator(".form-error")
    playwright_api.expect(error).to_have_text(
        strings("en")["error.name_registered"].replace("{name}", owner.upper())
    )
    assert dialog.is_visible() and dialog.locator("input").get_attribute("aria-invalid") == "true"
    tab.shot("name-registered")
    tab.accessible("the name dialog, a name refused")
    dialog.locator("input").fill(f"{owner} the guest")
    dialog.locator("button[value=ok]").click()
    page.locator("#create-dialog form").wait_for()  # on to the new table
    assert page.locator("#who").inner_text() == f"{owner} the guest"
    tab.close()


# ------------------------------------------------------------- languages


def test_language_from_the_browser_and_switchable(browser: Any, server: Server) -> None:
    es = Browser(browser, server, locale="es-ES")
    page = es.open()
    assert page.locator(".hero h1").inner_text() == strings("es")["lobby.title"]
    assert page.get_attribute("html", "lang") == "es"
    es.close()

    tab = Browser(browser, server)
    page = tab.open()
    assert page.locator(".hero h1").inner_text() == strings("en")["lobby.title"]
    for lang in ("it", "nl", "es", "en"):
        page.select_option("#lang", lang)
        assert page.locator(".hero h1").inner_text() == strings(lang)["lobby.title"]
        assert page.locator("[data-new=mus]").inner_text() == strings(lang)["lobby.new_table"]
        tab.shot(f"lobby-{lang}")
    # at a table too, and it is remembered
    tab.create_table("muggins-dominoes", "Dino", seats=2, who=["me", "greedy"])
    page.select_option("#lang", "it")
    page.wait_for_selector(f"text={strings('it')['table.scores']}")
    tab.shot("table-it")
    page.reload()
    page.wait_for_selector(".felt")
    assert page.get_attribute("html", "lang") == "it"
    page.select_option("#lang", "en")
    tab.close()


def test_refusals_are_said_in_the_language_of_the_page(browser: Any, server: Server) -> None:
    """The server refuses in English with a code; the page says it in its own language."""
    it = Browser(browser, server, locale="it-IT")
    heard: list[str] = []  # what the table's socket brought, said if the toast is not there
    it.page.on("websocket", lambda ws: ws.on("framereceived", lambda f: heard.append(f)))
    page = it.open()
    it.create_table("muggins-cards", "Ugo", seats=2, who=["me", "greedy"])
    page.wait_for_selector(".hand-card")
    _wait_for_my_turn_with_nothing_to_claim(page)
    page.evaluate("window.taverna.page.socket.act({type: 'claim', seat: 0})")
    toast = page.locator("#toast.show")
    try:
        toast.wait_for()
    except playwright_api.Error as e:
        raise AssertionError(f"no toast; the socket's last messages: {heard[-4:]}") from e
    _assert_claim_refused(page, "it", heard)
    it.close()

    es = Browser(browser, server, locale="es-ES")
    page = es.page
    page.goto(server.http + "/account")
    login = page.locator("#login-form")
    login.locator("input[name=username]").fill("nadie")
    login.locator("input[name=password]").fill("no es la clave")
    login.locator("button").click()
    playwright_api.expect(login.locator(".error")).to_have_text(
        strings("es")["error.wrong_credentials"]
    )
    es.close()


def test_every_refusal_the_server_names_is_said_in_every_language() -> None:
    """Each code of an HTTP error and each reason of a refused move, as the code raises
    them, has its sentence (or sentences, by variant) in the four languages."""
    http: set[str] = set()
    moves: set[str] = set()
    for path in (ROOT / "taverna").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            strs = [a.value for a in node.args if isinstance(a, ast.Constant)]
            codes = [x for x in strs if isinstance(x, str) and re.fullmatch(r"[a-z_]+", x)]
            if node.func.id in ("Refused", "Conflict", "NotFound") and codes:
                http.add(codes[0])
            elif node.func.id in ("IllegalAction", "Refusal") and codes:
                moves.add(codes[0])
    assert {"name_taken", "weak_password", "not_enough_chips", "seat_taken"} <= http
    assert {"not_your_turn", "window_closed", "must_play"} <= moves
    for lang in ("en", "it", "nl", "es"):
        keys = set(strings(lang))

        def said(key: str, keys: set[str] = keys) -> bool:
            return key in keys or any(k.startswith(key + ".") for k in keys)

        missing = [c for c in sorted(http) if not said(f"error.{c}")]
        missing += [r for r in sorted(moves) if not said(f"refused.{r}")]
        assert not missing, (lang, missing)


def test_every_language_has_every_string() -> None:
    english = strings("en")
    for lang in ("it", "nl", "es"):
        other = strings(lang)
        assert set(other) == set(english), (lang, set(english) ^ set(other))
        for key, text in english.items():
            # the same placeholders in every language
            assert set(re.findall(r"\{\w+\}", other[key])) == set(re.findall(r"\{\w+\}", text)), (
                lang,
                key,
            )
    # every key the client asks for exists
    # the main client's modules and the club pages' (account, ranking, profiles)
    js = "\n".join(
        p.read_text()
        for p in [*(STATIC).rglob("*.js"), *(f / "board.js" for f in game_folders().values())]
    )
    used = set(re.findall(r"'((?:[a-z]+)(?:\.[a-z0-9_]+)+)'", js))
    prefixes = {k.split(".")[0] for k in english}
    missing = {
        k
        for k in used
        if k.split(".")[0] in prefixes and k not in english and f"{k}_one" not in english
    }
    assert not missing, missing


def test_counts_are_singular_or_plural_never_both() -> None:
    """No "cow(s)", "vaca/vacas", "juego('s)": a count picks key_one or key_other."""
    hedge = re.compile(r"\w\((s|'s|i|e|en|es)\)|\w/(i|e|s|vacas)\b")
    for lang in ("en", "it", "nl", "es"):
        for key, text in strings(lang).items():
            assert not hedge.search(text), (lang, key, text)
        table = strings(lang)
        for key in [k for k in table if k.endswith("_one")]:
            assert key.removesuffix("_one") + "_other" in table, (lang, key)


def test_mus_settings_say_one_cow_and_three_games(browser: Any, server: Server) -> None:
    for locale, lang in (("en-US", "en"), ("es-ES", "es")):
        tab = Browser(browser, server, locale=locale)
        page = tab.open()
        tab.create_table(
            "mus",
            "Hugo",
            fields={"cows": "1", "games_per_cow": "3"},
            who=["me", "random", "random", "random"],
        )
        chips = page.locator(".table-head .chips").inner_text()
        words = strings(lang)
        assert words["mus.set.cows_n_one"].replace("{n}", "1") in chips, chips
        assert words["mus.set.games_per_cow_n_other"].replace("{n}", "3") in chips, chips
        assert "(" not in chips
        label = page.locator(".stones-row svg").first.get_attribute("aria-label") or ""
        # the stones said in words, however many the bots have made by now
        said = [words[f"mus.stones_n_{k}"].replace("{n}", r"\d+") for k in ("one", "other")]
        assert re.match(f"({'|'.join(said)}):", label), label
        tab.close()


def test_this_round_shows_the_newest_credit_in_sight(browser: Any, server: Server) -> None:
    """The cards score panel, drawn by the page's own module with many credits: the
    newest is the one in sight without scrolling."""
    tab = Browser(browser, server)
    page = tab.open()
    page.evaluate(
        """async () => {
            const cards = (await import('/games/muggins-cards/board.js')).default;
            const items = Array.from({ length: 30 }, (_, i) => ({
                seat: i % 2, points: i + 1, why: ['cards.why.claim', {}],
            }));
            const c = {
                view: { scores: [12, 30], target: 61, turn: 0, winner: null, round: 2 },
                seats: 2, me: 0,
                label: (s) => `Seat ${s + 1}`, name: (s) => `Seat ${s + 1}`,
                notes: { round: { n: 2, items } },
            };
            const box = document.createElement('aside');
            box.className = 'side';
            box.style.width = '350px';
            box.innerHTML = `<section class="panel scores">${cards.scores(c)}</section>`;
            document.getElementById('app').prepend(box);
        }"""
    )
    listing = page.locator(".side .credits-scroll")  # the list, in the box it scrolls in
    first = listing.locator("ol li").first
    assert "+30" in first.inner_text()  # the newest credit leads
    assert listing.evaluate("box => box.scrollHeight > box.clientHeight")  # the list scrolls
    box, item = listing.bounding_box(), first.bounding_box()
    assert (
        box
        and item
        and box["y"] <= item["y"]
        and item["y"] + item["height"] <= box["y"] + box["height"]
    )
    assert "newest" in (first.get_attribute("class") or "")
    tab.close()


# ---------------------------------------------------------------- Muggins!


def test_calling_muggins_on_a_bot_that_forgot_to_claim(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    page = tab.open()
    called = {"done": False}
    for attempt in range(3):
        if attempt:
            page.goto(server.http + "/")
            page.wait_for_selector(".hero")
        tab.create_table(
            "muggins-cards",
            "Dora",
            seats=2,
            fields={"target": "61"},
            who=["me", "random"],
            practice=True,
        )
        page.wait_for_selector(".hand-card")

        def step() -> bool:
            muggins = page.locator("[data-act=muggins]")
            if muggins.count():
                tab.shot("muggins-chance")
                tab.click_and_wait(muggins)
                page.wait_for_selector(".log-list li[data-event=muggins]")
                called["done"] = True
                tab.shot("muggins-called")
                return True
            claim = page.locator("[data-act=claim]")
            if claim.count():
                tab.click_and_wait(claim)
                return True
            card = page.locator("button.hand-card.playable").first
            if card.count():
                tab.click_and_wait(card)
                return True
            go = page.locator("[data-act=go]")
            if go.count():
                tab.click_and_wait(go)
                return True
            return False

        deadline = time.time() + 90
        while time.time() < deadline and not called["done"] and not tab.over():
            seq = tab.seq()
            if not step():
                tab.idle(seq)
        if called["done"]:
            break
    assert called["done"], "the bot never left a score unclaimed"
    entry = page.locator(".log-list li[data-event=muggins]").first.inner_text()
    assert "Dora" in entry
    tab.close()


def test_a_muggins_call_that_loses_the_race_is_told_kindly(browser: Any, server: Server) -> None:
    """Eve claims her score just before Finn's Muggins! reaches the table: Finn's page
    says what happened, as news rather than as an error."""
    eve = Person(server, "Eve")
    tid = eve.create("muggins-cards", seats=2, settings={"target": 121})["id"]
    eve.sit(tid, 1)
    tab = Browser(browser, server)
    page = tab.page
    page.goto(f"{server.http}/#/table/{tid}")
    page.click("[data-sit='0']")
    page.locator("#name-dialog input").fill("Finn")
    page.locator("#name-dialog button[value=ok]").click()
    page.wait_for_selector(".seat-row.mine")
    eve.start(tid)
    page.wait_for_selector(".felt")

    with ws_connect(
        f"{server.ws}/ws/tables/{tid}", additional_headers={"Cookie": eve.cookie}
    ) as ws:
        ws.send(json.dumps({"type": "hello", "last_seq": None}))
        view: dict[str, Any] = {}

        def read(wait: float = 0.05) -> None:
            nonlocal view
            with contextlib.suppress(TimeoutError):
                while True:
                    msg = json.loads(ws.recv(timeout=wait))
                    if msg.get("view"):
                        view = msg["view"]

        def eve_plays_until_she_scores() -> int:
            """Eve's turn: a scoring play left unclaimed (its points), or any move (0)."""
            moves = [a for a in view["legal"] if not a.get("claim")]
            limit, total = view["limit"], view["total"]

            def scores(a: dict[str, Any]) -> int:
                if a["type"] != "play":
                    return 0
                t = total + min(10, "A23456789".find(a["card"][0]) + 1 or 10)
                return 2 if t == limit else t if t % 5 == 0 else 0

            best = max(moves, key=scores)
            ws.send(json.dumps({"type": "act", "action": best}))
            return scores(best)

        points = 0
        deadline = time.time() + 90
        while not points and time.time() < deadline:
            read(0.2)
            if view.get("turn") == 1:
                points = eve_plays_until_she_scores()
                continue
            if view.get("turn") == 0:
                seq = tab.seq()
                card = page.locator("button.hand-card.playable").first
                go = page.locator("[data-act=go]")
                if card.count():
                    card.click()
                elif go.count():
                    go.click()
                tab.idle(seq)
        assert points, "Eve never had a scoring play"
        muggins = page.locator("[data-act=muggins]")
        muggins.wait_for()  # Finn may call it ...
        ws.send(json.dumps({"type": "act", "action": {"type": "claim"}}))  # ... but Eve claims
        muggins.wait_for(state="detached")
        # Finn's click was already on its way
        page.evaluate("window.taverna.page.socket.act({type: 'muggins', seat: 0})")
        toast = page.locator(".toast.show")
        toast.wait_for()
        expected = strings("en")["refused.window_closed.claim.theirs"]
        expected = expected.replace("{owner}", "Eve").replace("{points}", str(points))
        assert toast.inner_text() == expected
        assert "error" not in (toast.get_attribute("class") or "")
        tab.shot("muggins-too-late")
    tab.close()


# ----------------------------------------------------------------- phones


def test_phone_sized_lobby_and_table(browser: Any, server: Server) -> None:
    tab = Browser(
        browser,
        server,
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page = tab.open()
    tab.shot("phone-lobby")
    tab.create_table("mus", "Eva", who=["me", "random", "random", "random"])
    page.wait_for_selector(".mus-table")
    # nothing wider than the screen
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width
    page.wait_for_selector(".mus-actions button", timeout=30000)  # Eva's turn to speak
    in_sight(page, ".mus-hand .hand-card", ".mus-actions button")
    tab.shot("phone-mus")

    # four at Muggins cards, seven cards each: the whole hand on one screen
    page.goto(server.http + "/")
    page.wait_for_selector(".hero")
    tab.create_table(
        "muggins-cards",
        "Eva",
        seats=4,
        fields={"hand_size": "7"},
        who=["me", "random", "random", "random"],
    )
    page.wait_for_selector(".cards-hand .hand-card")
    page.wait_for_function("document.querySelectorAll('.cards-hand .hand-card').length === 7")
    in_sight(page, ".cards-hand .hand-card")
    page.wait_for_selector(".cards-hand .hand-card.playable, .actions .btn", timeout=30000)
    # the buttons' row (go, claim, Muggins! when they apply) and the claim option too
    in_sight(page, ".cards-hand .hand-card", ".felt .actions", ".felt .check.inline")
    tab.shot("phone-cards-4")
    tab.close()


#: The border box of each element in the viewport, as bounding_box() has it (None: no box,
#: not displayed), all read in one go in the page.
BOXES = """els => els.map(e => {
    if (!e.getClientRects().length) return null;
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
})"""


def in_sight(page: Any, *selectors: str) -> None:
    """Every element of ``selectors`` lies wholly on the screen, without scrolling.

    The page draws the table anew on every update (a bot's move, and one may come while
    we measure): a box read element by element can be that of a card just replaced, so
    the boxes of a selector are read at once, all from one drawing."""
    view = page.viewport_size
    assert page.evaluate("window.scrollY") == 0
    for sel in selectors:
        boxes = page.locator(sel).evaluate_all(BOXES)
        assert boxes, sel
        for b in boxes:
            assert b is not None, sel
            assert b["y"] >= 0 and b["y"] + b["height"] <= view["height"], (sel, b)
            assert b["x"] >= 0 and b["x"] + b["width"] <= view["width"], (sel, b)


# ------------------------------------------------------------- issues found by a newcomer


def lobby_card(page: Any, table: str) -> Any:
    card = page.locator(f".table-card[data-id='{table}']")
    card.wait_for()
    return card


def test_the_lobby_knows_my_tables_by_my_player_not_by_my_name(
    browser: Any, server: Server
) -> None:
    """Guest names need not be unique, and a guest who registers changes theirs: "Back
    to my table" goes by the player's id."""
    en = strings("en")
    other = Person(server, "Sam")
    theirs = other.play_at("muggins-dominoes", seats=2, bots={"1": "greedy"})
    tab = Browser(browser, server)
    page = tab.page
    page.goto(server.http + "/")
    assert page.request.post(server.http + "/api/session", data={"name": "Sam"}).ok
    r = page.request.post(  # the tab's own table, opened with the tab's cookie
        server.http + "/api/tables",
        data={"game": "muggins-dominoes", "seats": 2, "bots": {"1": "greedy"}},
    )
    assert r.ok, r.text()
    mine = r.json()["table"]["id"]
    assert page.request.post(f"{server.http}/api/tables/{mine}/seats/0").ok
    assert page.request.post(f"{server.http}/api/tables/{mine}/start").ok

    tab.open()
    assert (
        lobby_card(page, theirs).locator(".btn.primary, .btn.ghost").first.inner_text()
        == (en["lobby.watch"])
    )
    playwright_api.expect(lobby_card(page, mine).locator("a.btn")).to_have_text(
        en["lobby.back_to_table"]
    )

    # Sam registers under another name: the table is still Sam's, under the new name
    name = unique("Samuel")
    r = page.request.post(
        server.http + "/api/register", data={"username": name, "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    tab.open()
    card = lobby_card(page, mine)
    playwright_api.expect(card.locator("a.btn")).to_have_text(en["lobby.back_to_table"])
    playwright_api.expect(card.locator(".seat-chip").first).to_have_text(name)
    playwright_api.expect(lobby_card(page, theirs).locator("a.btn")).to_have_text(en["lobby.watch"])
    card.locator("a.btn").click()
    page.wait_for_selector(".felt")
    assert page.locator(".badge.watching").count() == 0  # seated, not a spectator
    tab.close()


def test_an_official_table_seats_no_bots_and_a_guest_is_told_why(
    browser: Any, server: Server
) -> None:
    en = strings("en")
    tab = Browser(browser, server)
    page = tab.open()
    page.click("[data-new='mus']")
    page.locator("#name-dialog input").fill("Olivia")
    page.locator("#name-dialog button[value=ok]").click()
    form = page.locator("#create-dialog form")
    form.locator("details.more summary").click()
    official = form.locator("input[name=official]")
    assert official.is_disabled()  # a guest: not offered, and told why
    playwright_api.expect(form.locator("#official-why")).to_contain_text(
        en["create.official_members"]
    )
    assert form.locator("#official-why a").get_attribute("href") == "/account"
    assert form.locator("input[name=stake]").count() == 0
    tab.shot("create-official-guest")
    page.keyboard.press("Escape")

    r = page.request.post(
        server.http + "/api/register", data={"username": unique("Olivia"), "password": PASSWORD}
    )
    assert r.status == 201, r.text()
    page.reload()
    page.wait_for_selector(".hero")
    page.click("[data-new='mus']")
    form.wait_for()
    who = [form.locator(f"[data-who='{i}']") for i in range(4)]
    who[2].select_option("7")
    assert [w.input_value() for w in who] == ["me", "4", "7", "4"]
    form.locator("details.more summary").click()
    assert form.locator("input[name=stake]").count() == 0  # a stake only for official tables
    official.check()
    # the bots give way to open seats, and no bot is offered any more
    assert [w.input_value() for w in who] == ["me", "open", "open", "open"]
    for w in who:
        assert w.locator("option").evaluate_all("os => os.map(o => o.value)") == ["me", "open"]
    playwright_api.expect(form.locator("#official-seats")).to_have_text(en["create.official_seats"])
    assert form.locator("input[name=stake]").is_visible()
    assert form.locator("details.more").get_attribute("open") is not None
    tab.shot("create-official")
    official.uncheck()  # the bots come back
    assert [w.input_value() for w in who] == ["me", "4", "7", "4"]
    assert form.locator("input[name=stake]").count() == 0
    official.check()
    form.locator("input[name=stake]").fill("50")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/"))
    page.wait_for_selector(".seating")
    tid = page.url.rsplit("/", 1)[1]
    table = httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]
    assert (table["official"], table["stake"], table["status"]) == (True, 50, "open")
    assert [s["bot"] for s in table["seating"]] == [None] * 4
    assert page.locator("[data-add-bot]").count() == 0  # nor is a bot offered at the table
    assert page.locator("#create-dialog .form-error").count() == 0
    tab.close()


def finish_bots_only(person: Person, game: str, **body: Any) -> str:
    """A game among bots, played to its end; the table's id."""
    seats = body.pop("seats")
    bots = {str(s): "greedy" for s in range(seats)}
    tid: str = person.create(game, seats=seats, bots=bots, **body)["id"]
    person.start(tid)
    wait_finished(person.server, tid, timeout=120)
    return tid


def test_replay_captions_show_tiles_and_cards_as_the_table_does(
    browser: Any, server: Server
) -> None:
    """Not record codes ("plays 3D + claims", "discards 12o 3c"): the table's own small
    tiles and cards, each named in words for screen readers."""
    ana = Person(server, "Ana")
    tables = {
        "muggins-dominoes": finish_bots_only(
            ana, "muggins-dominoes", seats=2, settings={"target": 30}
        ),
        "muggins-cards": finish_bots_only(ana, "muggins-cards", seats=2, settings={"target": 15}),
    }
    # a Mus game in which somebody discarded (all four said mus): 7 in 10 greedy games
    # have one, so eight tries miss once in 15,000 runs (four missed once in 120)
    for _ in range(8):
        tid = finish_bots_only(ana, "mus", seats=4, settings={"cows": 1, "games_per_cow": 1})
        steps = ana.http.get(f"/api/games/{tid}/replay").json()["steps"]
        if any(s["action"] and s["action"]["type"] == "discard" for s in steps):
            tables["mus"] = tid
            break
    assert "mus" in tables, "eight Mus games without a discard"
    raw = {
        "muggins-dominoes": re.compile(r"\b[0-6]-[0-6]\b"),
        "muggins-cards": re.compile(r"\b(10|[2-9AJQK])[SHDC]\b"),
        "mus": re.compile(r"\b(1[0-2]|[1-7])[oceb]\b"),
    }
    chip = {
        "muggins-dominoes": ".mini-tile",
        "muggins-cards": ".card-chip",
        "mus": ".card-chip.spanish",
    }
    wanted = {"muggins-dominoes": "play", "muggins-cards": "play", "mus": "discard"}
    tab = Browser(browser, server)
    page = tab.page
    for game, tid in tables.items():
        steps = ana.http.get(f"/api/games/{tid}/replay").json()["steps"]
        k, action = next(
            (k, s["action"])
            for k, s in enumerate(steps)
            if s["action"] and s["action"]["type"] == wanted[game]
        )
        page.goto(f"{server.http}/#/replay/{tid}")
        page.wait_for_selector(".replay-bar")
        page.evaluate(
            """k => { const s = document.querySelector('[data-slider]');
                      s.value = k; s.dispatchEvent(new Event('input')); }""",
            k,
        )
        caption = page.locator(".replay-action")
        playwright_api.expect(caption).to_contain_text(
            strings("en")[f"replay.action.{wanted[game]}"]
        )
        text = caption.inner_text()
        assert not raw[game].search(text), (game, text)
        things = caption.locator(".thing")
        count = len(action["cards"]) if game == "mus" else 1
        playwright_api.expect(things).to_have_count(count)
        assert caption.locator(f".thing {chip[game]}").count() == count
        label = things.first.get_attribute("aria-label") or ""
        assert label.startswith("tile ") or " of " in label, label  # "3 of diamonds"
        tab.shot(f"replay-caption-{game}")
        tab.accessible(f"{game} replay, a step with its caption")
    tab.close()


def test_a_long_name_is_cut_with_an_ellipsis_on_a_phone(browser: Any, server: Server) -> None:
    name = "W" * 40
    tab = Browser(
        browser, server, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = tab.open()
    tab.create_table("mus", name, who=["me", "random", "random", "random"])
    page.wait_for_selector(".me-plate .nm")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 392, width  # nothing scrolls sideways
    plate = page.locator(".me-plate .nm")
    assert name in (plate.get_attribute("title") or "")  # the whole name in the tooltip
    # read in one step of the page's own: the bots play on and the page draws the plate
    # anew (an element found in one call may be gone, measuring 0, in the next)
    assert page.evaluate(
        """() => { const e = document.querySelector('.me-plate .nm');
                   return e.scrollWidth > e.clientWidth
                       && getComputedStyle(e).textOverflow === 'ellipsis'; }"""
    )
    tab.shot("phone-long-name")
    page.goto(server.http + "/#/")
    page.wait_for_selector(".table-card")
    assert page.evaluate("document.documentElement.scrollWidth") <= 392
    tab.close()


def test_an_unknown_table_says_so_without_a_socket(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    page = tab.page
    sockets: list[str] = []
    problems: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(server.http + "/#/table/nosuchtable")
    playwright_api.expect(page.locator(".not-found h1")).to_have_text(
        strings("en")["table.not_found"]
    )
    page.wait_for_timeout(1500)  # a socket would have been opened, and refused, by now
    assert not [u for u in sockets if "/ws/tables/" in u], sockets
    # the one error is the table's own 404 (GET /api/tables/nosuchtable): no refused socket
    assert all("404" in p for p in problems), problems
    tab.accessible("a table nobody has")
    tab.close()


def test_skip_to_content_stays_on_the_page(browser: Any, server: Server) -> None:
    """The skip link moves the focus to the content; it must not route (the hash
    names the page: "#app" used to send a table or replay back to the lobby)."""
    tab = Browser(browser, server)
    page = tab.page
    page.goto(server.http + "/#/table/nosuchtable")
    page.wait_for_selector(".not-found h1")
    page.keyboard.press("Tab")  # the skip link is the first thing to focus
    assert page.evaluate("document.activeElement.id") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#/table/nosuchtable"
    assert page.evaluate("document.activeElement.id") == "app"
    playwright_api.expect(page.locator(".not-found h1")).to_be_visible()
    tab.close()


def test_a_page_nobody_has_is_the_sites_own_404(browser: Any, server: Server) -> None:
    tab = Browser(browser, server)
    page = tab.page
    response = page.goto(server.http + "/nonsense")
    assert response is not None and response.status == 404
    h1 = page.locator(".not-found h1")
    playwright_api.expect(h1).to_have_text(strings("en")["page.not_found"])
    assert page.locator("header.topbar #nav a[href='/account']").count() == 1
    tab.accessible("a page nobody has (404)")
    page.select_option("#lang", "nl")
    playwright_api.expect(h1).to_have_text(strings("nl")["page.not_found"])
    page.select_option("#lang", "en")
    page.locator(".not-found a.btn").click()
    page.wait_for_selector(".hero")
    tab.close()


def test_leaving_a_table_is_not_told_as_a_reconnection(browser: Any, server: Server) -> None:
    """Taking, leaving a seat reconnects the table's socket as somebody else: no
    "Connection lost" or "Reconnected" notice."""
    tab = Browser(browser, server)
    page = tab.open()
    tab.create_table("muggins-dominoes", "Lea", seats=2, who=["me", "greedy"])
    page.wait_for_selector(".hand-tile")
    page.evaluate(
        """() => {
            window.netLog = [];
            const net = document.getElementById('net');
            const log = () => window.netLog.push(net.className + ':' + net.textContent);
            new MutationObserver(log).observe(net, {
                attributes: true, childList: true, characterData: true, subtree: true,
            });
        }"""
    )
    page.once("dialog", lambda d: d.accept())
    page.click("[data-leave]")
    page.wait_for_selector(".badge.watching")
    page.wait_for_timeout(1500)
    log = page.evaluate("window.netLog")
    assert not [x for x in log if "reconnected" in x or "lost" in x], log
    assert page.locator("#net").inner_text() == ""
    tab.close()
