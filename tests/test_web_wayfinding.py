"""Finding one's way on a phone, in a real browser (390×844): "How to play" linked from
the top bar, the lobby, the new-table form and the table; every setting of the form
named in the page's language; a top bar whose every link can be reached and seen, with
a member's name and chips; the moderators' tournament form and their page's link; the
table's bell drawn, not a character; and an official table's hint that offers no bots.

Playwright drives Debian's Chromium (``/usr/bin/chromium``). Screenshots go to
``test-artifacts/wayfinding-*.png``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest

from .accounts_helpers import ACCOUNT_ENV, Member
from .browser_helpers import PHONE, assert_accessible, chromium, strings
from .server_helpers import Person, Server, database_url
from .test_tournaments import grant
from .test_web_browser import Browser

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "it", "nl", "es")
ON_A_PHONE = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
GAMES = ("muggins-dominoes", "muggins-cards", "mus")
#: a time zone far from UTC, without summer time
ZONE = ZoneInfo("America/Sao_Paulo")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("wayfinding")), **ACCOUNT_ENV)
    yield srv.start()
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


def member_tab(browser: Any, server: Server, member: Member, **context: Any) -> Browser:
    """A browser tab logged in as ``member``, from the member's own address."""
    tab = Browser(
        browser, server, extra_http_headers={"X-Forwarded-For": member.address}, **context
    )
    cookie = member.http.cookies["taverna_session"]
    tab.context.add_cookies([{"name": "taverna_session", "value": cookie, "url": server.http}])
    return tab


#: how an element shows: its box, whether it is the element seen at its middle (nothing
#: lies over it), and whether its text is cut; found and measured in one step of the page
#: (a table page draws itself anew on every update: an element found in one call may be
#: gone in the next)
SEEN = """sel => {
  const e = document.querySelector(sel);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return { x: r.x, y: r.y, w: r.width, h: r.height, text: e.innerText,
           onTop: !!top && (top === e || e.contains(top)),
           cut: e.scrollWidth > e.clientWidth + 1 };
}"""


def seen(page: Any, selector: str) -> dict[str, Any]:
    """The element of ``selector`` as it shows, wholly on the screen and not under another."""
    box: dict[str, Any] | None = page.evaluate(SEEN, selector)
    view = page.viewport_size
    assert box is not None, selector
    assert box["w"] > 0 and box["h"] > 0, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["w"] <= view["width"] + 0.5, box
    assert box["y"] >= 0 and box["y"] + box["h"] <= view["height"] + 0.5, box
    assert box["onTop"], box  # not hidden under something else (the language selector)
    return box


def open_menu(page: Any) -> Any:
    """Open the top bar's pages (a phone's menu); the links."""
    toggle = page.locator("#nav-toggle")
    seen(page, "#nav-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    playwright_api.expect(toggle).to_have_attribute("aria-expanded", "true")
    return page.locator("#nav a")


# ---------------------------------------------------------------- "How to play"


def test_how_to_play_is_linked_from_the_bar_the_lobby_the_form_and_the_table(
    browser: Any, server: Server
) -> None:
    en = strings("en")
    tab = Browser(browser, server, **ON_A_PHONE)
    page = tab.open()
    links = open_menu(page)
    assert links.filter(has_text=en["nav.rules"]).get_attribute("href") == "/rules"
    seen(page, "#nav a[href='/rules']")
    page.keyboard.press("Escape")
    # each game's card in the lobby: its own page
    for game in GAMES:
        link = page.locator(f".game-card[data-game='{game}'] .game-card-rules a")
        assert link.get_attribute("href") == f"/rules/{game}"
        assert link.inner_text() == en["nav.rules"]
    # the new-table form: the chosen game's page, beside the form
    page.click("[data-new='mus']")
    page.locator("#name-dialog input").fill("Nina")
    page.locator("#name-dialog button[value=ok]").click()
    form = page.locator("#create-dialog form")
    link = form.locator(".create-rules a")
    assert (link.get_attribute("href"), link.get_attribute("target")) == ("/rules/mus", "_blank")
    form.locator("input[name=game][value='muggins-cards']").check()
    assert link.get_attribute("href") == "/rules/muggins-cards"
    page.keyboard.press("Escape")

    # the table: a "?" among its tools opens the game's page in a tab of its own
    nina = Person(server, "Nina")
    tab.context.add_cookies(
        [{"name": "taverna_session", "value": nina.cookie.split("=", 1)[1], "url": server.http}]
    )
    tid = nina.create("mus", bots={"1": "random", "2": "random"})["id"]
    nina.sit(tid, 0)
    page.goto(f"{server.http}/#/table/{tid}")
    page.wait_for_selector(".seating")
    ask = page.locator(".table-tools a[href='/rules/mus']")
    seen(page, ".table-tools a[href='/rules/mus']")
    assert ask.get_attribute("target") == "_blank"
    assert en["nav.rules_of"].replace("{game}", "Mus") in (ask.get_attribute("aria-label") or "")
    tab.shot("wayfinding-table-rules")
    with tab.context.expect_page() as opened:
        ask.click()
    rules_page = opened.value
    rules_page.wait_for_selector(".rules-text[data-game='mus']")
    assert rules_page.url == f"{server.http}/rules/mus"
    # and there, the top bar marks where one is
    assert rules_page.locator("#nav a[aria-current='page']").get_attribute("href") == "/rules"
    rules_page.close()
    assert page.url.endswith(f"#/table/{tid}")  # the table is still there, seated
    tab.accessible("a table waiting for players, with its how-to-play link")
    tab.close()


# ------------------------------------------------------------- settings in words


def test_every_setting_of_the_mus_form_is_named_in_every_language(
    browser: Any, server: Server
) -> None:
    tab = Browser(browser, server, **ON_A_PHONE)
    page = tab.open()
    page.click("[data-new='mus']")
    page.locator("#name-dialog input").fill("Iker")
    page.locator("#name-dialog button[value=ok]").click()
    for lang in LANGUAGES:
        words = strings(lang)
        form = page.locator("#create-dialog form")
        form.wait_for()
        labels = {}
        for name in ("cows", "games_per_cow", "real_31", "senas", "catch"):
            field = form.locator("label", has=page.locator(f"[name={name}]"))
            said = field.inner_text()
            label = words[f"game.mus.setting.{name}"]
            assert said.startswith(label), (lang, name, said)
            assert words[f"game.mus.setting.{name}.help"] in said, (lang, name, said)
            labels[name] = label
        # no raw name is left as a label, in any language
        shown = form.locator(".form-grid label > span:first-child").all_inner_texts()
        assert not {"senas", "catch", "cows", "games_per_cow", "real_31"} & {
            s.split("\n")[0].strip() for s in shown
        }, (lang, shown)
        # a number's help is read with its field
        catch = form.locator("input[name=catch]")
        assert "help-catch" in (catch.get_attribute("aria-describedby") or "")
        # the table's own options too
        form.locator("details.more summary").click()
        more = form.locator("details.more").inner_text()
        for key in ("option.turn_seconds", "option.turn_seconds.help", "option.public.help"):
            assert words[key] in more, (lang, key)
        if lang == "en":
            tab.shot("wayfinding-mus-form")
            tab.accessible("the Mus new-table form, more options open")
        page.keyboard.press("Escape")
        if lang != LANGUAGES[-1]:
            page.select_option("#lang", LANGUAGES[LANGUAGES.index(lang) + 1])
            page.click("[data-new='mus']")
    page.select_option("#lang", "en")
    tab.close()


# --------------------------------------------------------------- the phone's bar


def test_the_top_bar_shows_every_page_and_the_members_chips_on_a_phone(
    browser: Any, server: Server
) -> None:
    ana = Member(server, "Ana", "10.29.0.1")
    tab = member_tab(browser, server, ana, **ON_A_PHONE)
    page = tab.open()
    for lang in LANGUAGES:
        page.select_option("#lang", lang)
        words = strings(lang)
        # who is here: the name and the chips, on the screen, the chips whole
        name = seen(page, "#who .who-name")
        assert name["text"] == ana.name
        chips = seen(page, "#who .who-chips")
        assert not chips["cut"], (lang, chips)
        assert words["chrome.chips_n_other"].replace("{n}", "").strip() in chips["text"]
        seen(page, "#lang")
        # every page: each link on the screen, under nothing, nothing scrolled sideways
        links = open_menu(page)
        want = [words[k] for k in ("nav.lobby", "nav.rules", "nav.ranking")] + [
            words["nav.tournaments"],
            words["nav.account"],
        ]
        assert links.all_inner_texts() == want, lang
        for i in range(links.count()):
            seen(page, f"#nav a:nth-of-type({i + 1})")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        nav = page.locator("#nav").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert nav[0] <= nav[1], (lang, nav)
        if lang == "en":
            tab.shot("wayfinding-phone-menu")
            assert_accessible(page, "the phone's menu, open", sizes=(PHONE,))
        page.locator("#nav-toggle").click()
        assert page.locator("#nav a").first.is_hidden()
    page.select_option("#lang", "en")
    # "Account" follows, and lands on the account page
    open_menu(page).filter(has_text="Account").click()
    page.wait_for_url("**/account")
    page.wait_for_selector("#nav-toggle")
    assert open_menu(page).filter(has_text="Account").get_attribute("aria-current") == "page"
    tab.close()


def test_the_phones_menu_works_from_the_keyboard(browser: Any, server: Server) -> None:
    tab = Browser(browser, server, **ON_A_PHONE)
    page = tab.open()
    toggle = page.locator("#nav-toggle")
    assert toggle.get_attribute("aria-controls") == "nav"
    playwright_api.expect(toggle).to_have_accessible_name(strings("en")["nav.menu"])
    toggle.focus()
    page.keyboard.press("Enter")
    playwright_api.expect(toggle).to_have_attribute("aria-expanded", "true")
    page.keyboard.press("Tab")
    first = page.locator("#nav a").first
    playwright_api.expect(first).to_be_focused()
    page.keyboard.press("Escape")  # closed, and the focus back where it opened
    playwright_api.expect(toggle).to_have_attribute("aria-expanded", "false")
    playwright_api.expect(toggle).to_be_focused()
    assert first.is_hidden()
    toggle.click()
    page.mouse.click(200, PHONE["height"] - 20)  # a click elsewhere closes it too
    playwright_api.expect(toggle).to_have_attribute("aria-expanded", "false")
    # on a laptop the pages are in the bar itself, no menu
    page.set_viewport_size({"width": 1366, "height": 900})
    assert toggle.is_hidden() and first.is_visible()
    tab.close()


# ------------------------------------------------------------- tournaments


def test_me_says_whether_i_am_a_moderator(server: Server) -> None:
    mod, bea = Member(server, "Mod", "10.29.1.1"), Member(server, "Bea", "10.29.1.2")
    grant(server.url, mod.name)
    assert mod.me()["role"] == "moderator"
    assert bea.me()["role"] is None


def test_a_moderator_schedules_a_tournament_from_the_page(browser: Any, server: Server) -> None:
    mod, bea = Member(server, "Mod", "10.29.2.1"), Member(server, "Bea", "10.29.2.2")
    grant(server.url, mod.name)
    en = strings("en")

    # a member sees no form, and no link to the moderators' page
    tab = member_tab(browser, server, bea, **ON_A_PHONE)
    page = tab.page
    page.goto(f"{server.http}/tournaments")
    page.wait_for_selector("h2#t-upcoming")
    assert page.locator("[data-new-tournament]").count() == 0
    assert page.locator("#nav a[href='/moderation']").count() == 0
    tab.close()

    # a moderator far from the server's UTC: the start is typed in the moderator's time
    tab = member_tab(browser, server, mod, timezone_id=ZONE.key, **ON_A_PHONE)
    page = tab.page
    page.goto(f"{server.http}/tournaments")
    form = page.locator("[data-new-tournament]")
    form.wait_for()
    assert open_menu(page).last.inner_text() == en["nav.moderation"]
    seen(page, "#nav a[href='/moderation']")
    page.keyboard.press("Escape")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    later = (datetime.now(ZONE) + timedelta(days=3)).replace(second=0, microsecond=0)
    form.locator("input[name=starts_at]").fill(later.strftime("%Y-%m-%dT%H:%M"))

    # what only the server knows to refuse (a target beyond any table's), in its words
    form.locator("select[name=game]").select_option("muggins-cards")
    form.locator("input[name=name]").fill("Winter Cup")
    form.locator("input[name=target]").fill("2000000")
    form.locator("button[type=submit]").click()
    alert = form.locator("#new-error")
    playwright_api.expect(alert).to_contain_text(en["error.bad_setting"].split("{")[0].strip())
    playwright_api.expect(alert).to_contain_text("1,000,000")

    form.locator("select[name=game]").select_option("mus")
    # Mus's own settings, in words, and its pairs said
    for name in ("cows", "senas", "catch"):
        label = form.locator("[data-settings] label", has=page.locator(f"[name={name}]"))
        assert label.inner_text().startswith(en[f"game.mus.setting.{name}"])
    playwright_api.expect(form).to_contain_text(en["tour.new.pairs"].replace("{game}", "Mus"))
    form.locator("select[name=cows]").select_option("2")
    form.locator("select[name=format]").select_option("knockout")
    assert form.locator("input[name=rounds]").count() == 0  # a knockout has no set rounds
    assert form.locator("select[name=cows]").input_value() == "2"  # kept through the redraw

    # a blank name, then a start in the past: each said, beside its field
    form.locator("input[name=name]").fill("   ")
    form.locator("button[type=submit]").click()
    playwright_api.expect(form.locator("#err-name")).to_have_text(en["tour.new.need_name"])
    assert form.locator("input[name=name]").get_attribute("aria-invalid") == "true"
    form.locator("input[name=name]").fill("Spring <i>Cup</i>")
    past = (datetime.now(ZONE) - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M")
    form.locator("input[name=starts_at]").fill(past)
    form.locator("button[type=submit]").click()
    starts = form.locator("input[name=starts_at]")
    playwright_api.expect(form.locator("#err-starts_at")).to_have_text(en["error.bad_start.past"])
    playwright_api.expect(starts).to_be_focused()
    assert starts.get_attribute("aria-invalid") == "true"
    assert "err-starts_at" in (starts.get_attribute("aria-describedby") or "")
    tab.shot("wayfinding-tournament-refused")
    assert_accessible(page, "the tournament form, its start refused")
    # a setting out of the game's limits: said beside it before anything is sent
    form.locator("input[name=catch]").fill("2")
    form.locator("button[type=submit]").click()
    playwright_api.expect(form.locator("#err-catch")).not_to_be_empty()
    playwright_api.expect(form.locator("input[name=catch]")).to_be_focused()
    form.locator("input[name=catch]").fill("0.5")

    form.locator("input[name=starts_at]").fill(later.strftime("%Y-%m-%dT%H:%M"))
    form.locator("input[name=stake]").fill("20")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/tournaments/[\w-]+$"))
    tid = page.url.rsplit("/", 1)[1]
    made = httpx.get(f"{server.http}/api/tournaments/{tid}").json()["tournament"]
    assert (made["name"], made["game"], made["format"], made["stake"]) == (
        "Spring <i>Cup</i>",
        "mus",
        "knockout",
        20,
    )
    assert made["settings"]["cows"] == 2 and made["settings"]["catch"] == 0.5
    assert (
        datetime.fromisoformat(made["starts_at"]) == later
    )  # the moment chosen, whatever the zone
    page.goto(f"{server.http}/tournaments")
    page.locator(".tournament-list a", has_text="Spring <i>Cup</i>").wait_for()
    tab.close()


# ----------------------------------------------------------------- the table


def test_the_sound_button_is_a_drawn_bell(browser: Any, server: Server) -> None:
    tab = Browser(browser, server, **ON_A_PHONE)
    page = tab.open()
    ugo = Person(server, "Ugo")
    tab.context.add_cookies(
        [{"name": "taverna_session", "value": ugo.cookie.split("=", 1)[1], "url": server.http}]
    )
    tid = ugo.create("muggins-dominoes", seats=2)["id"]
    ugo.sit(tid, 0)
    page.goto(f"{server.http}/#/table/{tid}")
    button = page.locator("[data-sound]")
    for pressed in ("true", "false"):
        playwright_api.expect(button).to_have_attribute("aria-pressed", pressed)
        assert button.evaluate("b => b.textContent.trim()") == ""  # no character to miss
        bell = button.locator("svg.bell")
        box = bell.bounding_box()
        assert box and box["width"] >= 16 and box["height"] >= 16, box
        assert bell.get_attribute("aria-hidden") == "true"
        assert ("off" in (bell.get_attribute("class") or "")) == (pressed == "false")
        playwright_api.expect(button).to_have_accessible_name(strings("en")["notice.sound"])
        seen(page, "[data-sound]")
        button.click()
    tab.shot("wayfinding-bell")
    tab.close()


def test_an_official_tables_hint_offers_no_bots(browser: Any, server: Server) -> None:
    en = strings("en")
    eva = Member(server, "Eva", "10.29.3.1")
    official = eva.create("muggins-cards", seats=2, official=True, stake=10)["id"]
    eva.sit(official, 0)
    casual = eva.create("muggins-cards", seats=2)["id"]
    eva.sit(casual, 0)
    tab = member_tab(browser, server, eva, **ON_A_PHONE)
    page = tab.page
    for tid, key in ((official, "table.needs_seats_official"), (casual, "table.needs_seats")):
        page.goto(f"{server.http}/#/table/{tid}")
        hint = page.locator(".start-row .muted")
        playwright_api.expect(hint).to_have_text(en[key])
    assert page.locator("[data-add-bot]").count() > 0  # the casual table does offer them
    tab.close()
