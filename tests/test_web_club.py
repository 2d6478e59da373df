"""What a newcomer found at the tables, in a real browser: an official game on one
address said to count for nobody (before, during and after it, in the ledger and on the
profile), practice bots that forget one score in three, hand summaries that break no
word, a phone's Mus table, new-table form, scores and log, finished games with their
date, players and score, score sheets that can be read, one form for the winner, and
the official mark.

Playwright drives Debian's Chromium (``/usr/bin/chromium``), never a browser download.
Screenshots go to ``test-artifacts/newcomer-*.png``.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from .accounts_helpers import ACCOUNT_ENV, Member, wait_finished
from .browser_helpers import assert_accessible, screenshot
from .server_helpers import Person, Server, database_url
from .test_accounts_play import play_all
from .test_web_browser import BOXES, Browser, finish_bots_only, in_sight, strings

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

LANGUAGES = ("en", "it", "nl", "es")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("newcomer-web")),
        TAVERNA_BOT_DELAY="0.05",
        **ACCOUNT_ENV,
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def finished(server: Server) -> dict[str, str]:
    """One finished game of each game, among bots: its table id by game."""
    ana = Person(server, "Ana")
    return {
        # long enough for several hands or rounds, each summed up (the summaries' test)
        "muggins-dominoes": finish_bots_only(
            ana, "muggins-dominoes", seats=2, settings={"target": 100}
        ),
        "muggins-cards": finish_bots_only(
            ana, "muggins-cards", seats=2, settings={"target": 121}, muggins_wait=0
        ),
        "mus": finish_bots_only(ana, "mus", seats=4, settings={"cows": 1, "games_per_cow": 1}),
    }


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from .browser_helpers import chromium

    with chromium(playwright_api) as b:
        yield b


def member_tab(browser: Any, server: Server, member: Member, **context: Any) -> Browser:
    """A browser tab logged in as ``member``, coming from the member's own address."""
    tab = Browser(
        browser, server, extra_http_headers={"X-Forwarded-For": member.address}, **context
    )
    tab.context.add_cookies(
        [
            {
                "name": "taverna_session",
                "value": member.http.cookies["taverna_session"],
                "url": server.http,
            }
        ]
    )
    return tab


def play_out(tid: str, *people: Member) -> None:
    """Every seat of ``tid`` played to the end by a local bot over the person's socket."""

    async def go() -> None:
        seats = [p.seat(tid) for p in people]
        await play_all(seats)
        for s in seats:
            await s.close()

    with ThreadPoolExecutor(1) as pool:  # Playwright's own loop runs in this thread
        pool.submit(asyncio.run, go()).result()


# ------------------------------------------------ item 1: two players on one address


def test_a_game_on_one_address_is_said_to_count_for_nobody(browser: Any, server: Server) -> None:
    """Two accounts on one machine, stake 100: the rule voids the game (PLATFORM.md), and
    the page says so before it, while it is played, at its end, in the ledger and on the
    profile — not "You win!" and silence."""
    en = strings("en")
    ana = Member(server, "Ana", "10.61.0.1")
    bea = Member(server, "Bea", "10.61.0.1")  # the same machine
    tid = ana.create("dominoes", seats=2, official=True, stake=100, settings={"target": 30})["id"]
    ana.sit(tid, 0)
    tab = member_tab(browser, server, ana)
    page = tab.open(f"/#/table/{tid}")
    note = page.locator(".table-head .shared-address")
    assert note.count() == 0  # one player: nothing shared yet

    bea.sit(tid, 1)  # now two players sat from one address: said at once
    playwright_api.expect(note).to_have_text(en["table.shared_address"])
    assert note.get_attribute("role") == "note"
    tab.shot("newcomer-shared-address-before")
    assert_accessible(page, "an official table's seats, a shared address said")
    page.wait_for_selector(".felt")  # the host's page starts the full table
    playwright_api.expect(note).to_be_visible()  # and while it is played
    tab.shot("newcomer-shared-address-playing")

    play_out(tid, ana, bea)
    table = wait_finished(server, tid)
    assert table["result"]["settlement"]["why"] == "shared_address"
    over = page.locator(".game-over")
    # the page draws every move of a game that two local bots played at full speed: alone
    # it is there in 6 s, but in the suite, four test processes on two cores, it once took
    # longer than the 15 s a step waits (.ci/run, 2026-12-08); the end is what is checked
    over.wait_for(timeout=60_000)
    playwright_api.expect(over.locator(".over-note")).to_have_text(en["over.shared_address"])
    assert over.get_attribute("aria-describedby") == "over-note"
    tab.shot("newcomer-shared-address-over")
    assert_accessible(page, "game over, the game voided")
    assert ana.chips() == 1000 and bea.chips() == 1000

    page.goto(f"{server.http}/account")
    ledger = page.locator("#ledger tbody tr")
    playwright_api.expect(ledger.first.locator("td").nth(1)).to_have_text(
        en["club.refund_shared_address"]
    )
    playwright_api.expect(ledger.first.locator("td").nth(3)).to_have_text("+100")
    tab.shot("newcomer-shared-address-ledger")
    assert_accessible(page, "a member's account, the ledger")

    page.goto(f"{server.http}/players/{ana.name}")
    row = page.locator("main table").last.locator("tbody tr").first
    playwright_api.expect(row.locator(".voided")).to_have_text(en["club.voided"])
    playwright_api.expect(row.locator("td").nth(4)).to_have_text("—")  # not "0 points"
    tab.shot("newcomer-shared-address-profile")
    assert_accessible(page, "a member's profile, a voided game")
    for lang in LANGUAGES[1:]:  # said in every language
        page.select_option("#lang", lang)
        playwright_api.expect(row.locator(".voided")).to_have_text(strings(lang)["club.voided"])
    page.select_option("#lang", "en")

    page.goto(f"{server.http}/")
    finished = page.locator(f".hist-row[data-id='{tid}']")
    playwright_api.expect(finished.locator(".hist-voided")).to_have_text(en["club.voided"])
    tab.close()


# ------------------------------------------------------------- item 3: practice


def test_practice_bots_forget_about_one_score_in_three(browser: Any, server: Server) -> None:
    en = strings("en")
    tab = Browser(browser, server)
    page = tab.open()
    bodies: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda r: (
            bodies.append(r.post_data_json)
            if r.method == "POST" and r.url.endswith("/api/tables")
            else None
        ),
    )
    page.click("[data-new='muggins-cards']")
    page.locator("#name-dialog input").fill("Pia")
    page.locator("#name-dialog button[value=ok]").click()
    form = page.locator("#create-dialog form")
    form.locator("details.more summary").click()
    practice = form.locator("label.check", has=page.locator("[name=practice]"))
    playwright_api.expect(practice.locator("small")).to_have_text(en["option.bot_forget.help"])
    # every language says how often, not that the bots forget every claim
    how_often = {
        "en": "one score in three",
        "it": "su tre",
        "nl": "op de drie",
        "es": "de cada tres",
    }
    for lang, words in how_often.items():
        assert words in strings(lang)["option.bot_forget.help"], lang
    form.locator("[name=practice]").check()
    tab.shot("newcomer-practice-form")
    tab.accessible("the new-table dialog, more options open")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/"))
    [body] = bodies
    assert body["bot_forget"] == pytest.approx(1 / 3, abs=0.01), body
    tid = page.url.rsplit("/", 1)[1]
    options = httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]["options"]
    assert options["bot_forget"] == pytest.approx(1 / 3, abs=0.01)
    tab.close()


# ---------------------------------------------------- item 5: hand summaries at 390 px

#: Go back from the end of a replay to the last step that sums up a hand (or a round):
#: its step, or null.
LAST_SUMMARY = """() => {
  for (let k = Number(document.querySelector('[data-slider]').max); k >= 0; k--) {
    const slider = document.querySelector('[data-slider]');
    slider.value = k;
    slider.dispatchEvent(new Event('input'));
    if (document.querySelector('.hand-summary .summary-table')) return k;
  }
  return null;
}"""

#: A round of Muggins cards summed up by the game's module, in the side of a table page.
CARDS_SUMMARY = """async (names) => {
  const { html, setMarkup } = await import('/static/js/html.js');
  const cards = (await import('/games/muggins-cards/board.js')).default;
  const items = [
    { seat: 0, points: 2, why: ['cards.why.play', { total: 15 }] },
    { seat: 1, points: 6, why: ['cards.why.muggins', { from: 0 }] },
    { seat: 0, points: 1, why: ['cards.why.last', {}] },
  ];
  const c = { view: { scores: [48, 52], target: 61 }, seats: 2, me: null,
              notes: { lastRound: { n: 4, items, scores: [48, 52] } },
              name: (s) => names[s], label: (s) => names[s] };
  // as js/table.js draws the page around it
  setMarkup(document.getElementById('app'), html`<div class="table-page">
    <header class="table-head"><h1>Muggins cards</h1></header>
    <div class="table-layout"><section class="felt"></section><aside class="side">
      <section class="panel hand-summary" aria-labelledby="summary-title">
        <h2 class="sr-only" id="summary-title">Hand summary</h2>${cards.summary(c)}</section>
    </aside></div></div>`);
}"""

#: Every word of a summary table's cells that the page draws on more than one line.
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('.summary-table th, .summary-table td')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const boxes = [...r.getClientRects()].filter((q) => q.width > 0);
        const lines = new Set(boxes.map((q) => Math.round(q.top)));
        if (lines.size > 1) broken.push(`${m[0]} (${cell.textContent.trim()})`);
      }
    }
  }
  return broken;
}"""

#: The lines a header cell is drawn on, each as the text of its characters.
HEADER_LINES = """() => [...document.querySelectorAll('.summary-table thead th')].map((th) => {
  const lines = new Map();
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 1);
      const box = r.getClientRects()[0];
      if (!box) continue;
      const top = Math.round(box.top);
      lines.set(top, (lines.get(top) ?? '') + n.data[i]);
    }
  }
  return { text: th.textContent, lines: [...lines.values()].map((l) => l.trim()) };
})"""


def test_hand_summaries_break_no_word_at_390_px(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    """ "Pip s", "Minu s", "Scor e", "Ston es", "Gran de", "Piedr as": a header or a cell
    wraps between its words (or the table scrolls in its panel), in every language. The
    summaries of real hands: each game's last, beside its replay on a phone."""
    tab = Browser(browser, server, **PHONE)
    page = tab.open()
    for lang in LANGUAGES:
        page.select_option("#lang", lang)
        words = strings(lang)
        for game in ("muggins-dominoes", "mus", "muggins-cards"):
            if game == "muggins-cards":
                # a bots' game of cards may end in its first round, never summed up: its
                # module sums one up as the table does (its board.js learns it so)
                page.goto(f"{server.http}/#/")
                page.wait_for_selector(".hero")
                page.evaluate(
                    CARDS_SUMMARY,
                    [words["seat.bot_short"].replace("{name}", n) for n in ("Alba", "Bruno")],
                )
            else:
                page.goto(f"{server.http}/#/replay/{finished[game]}")
                page.wait_for_selector(".replay-bar")
                assert page.evaluate(LAST_SUMMARY) is not None, (lang, game)
            page.wait_for_selector(".hand-summary .summary-table")
            assert page.evaluate(BROKEN_WORDS) == [], (lang, game)
            for header in page.evaluate(HEADER_LINES):
                # each line of a header is some of its words, whole, in order
                assert " ".join(header["lines"]).split() == header["text"].split(), (
                    lang,
                    game,
                    header,
                )
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, (lang, game)
            fits = page.locator(".hand-summary").evaluate(
                """p => p.scrollWidth <= p.clientWidth + 1
                       || getComputedStyle(p).overflowX === 'auto'"""
            )
            assert fits, (lang, game)  # as wide as its panel, or it scrolls in it
            if lang in ("en", "nl"):
                screenshot(page.locator(".hand-summary"), f"newcomer-summary-{game}-{lang}-390")
            if lang == "en":
                tab.accessible(f"{game}: the last hand summed up")
    tab.close()


# ---------------------------------------------------------------- item 11: phones


def test_phone_mus_names_the_mano_and_leads_to_the_scores_and_the_log(
    browser: Any, server: Server
) -> None:
    en = strings("en")
    tab = Browser(browser, server, **PHONE)
    page = tab.open()
    tab.create_table("mus", "Eva", who=["me", "random", "random", "random"])
    page.wait_for_selector(".mus-table .mus-seat.top .nm")
    # every opponent's whole name: "Diego (bot, Level 1)", not "Diego (bot,…"
    for seat in page.locator(".mus-seat:not(.bottom)").all():
        name = seat.locator(".plate-name .nm")
        text = name.inner_text().replace("\n", " ")
        assert re.fullmatch(r"(Alba|Bruno|Chiara|Diego) \(bot, Level 1\)", text), text
        assert name.evaluate(
            "e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"
        ), text

    # the mano mark on an opponent, in sight on its plate: play on until one is mano
    deadline = time.time() + 60
    while not page.locator(".mus-seat:not(.bottom) .tag.mano").count():
        assert time.time() < deadline, "no opponent was mano"
        seq = tab.seq()
        button = page.locator(".mus-actions button:not([disabled])").first
        if button.count():
            tab.click_and_wait(button)
        else:
            tab.idle(seq)
    # measured in one step of the page's own (the bots play on and the page redraws: an
    # element found in one call may be gone in the next)
    seen = page.wait_for_function(
        """() => {
            const tag = document.querySelector('.mus-seat:not(.bottom) .tag.mano');
            if (!tag) return null;
            const b = tag.getBoundingClientRect();
            const plate = tag.closest('.mus-seat').getBoundingClientRect();
            const name = tag.closest('.plate-name').getBoundingClientRect();
            const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
            const inside = (r) => b.left >= r.left - 1 && b.right <= r.right + 1
                && b.top >= r.top - 1 && b.bottom <= r.bottom + 1;
            return {
                inside: inside(plate) && inside(name), hit: tag.contains(hit), width: b.width,
            };
        }"""
    ).json_value()
    assert seen == {**seen, "inside": True, "hit": True}, seen
    assert seen["width"] > 20  # the whole word, not a sliver
    tab.shot("newcomer-phone-mus-mano")

    # the scores and the log are below the board: the head leads to them
    jump = page.locator(".table-head .jump")
    playwright_api.expect(jump.locator("button")).to_have_count(2)
    in_sight(page, ".table-head .jump button")
    log = page.locator("#log-title")
    assert log.bounding_box()["y"] > 844  # below the fold: the reason for the buttons
    jump.locator("button", has_text=en["table.jump_log"]).click()
    page.wait_for_function(
        """() => { const r = document.getElementById('log-title').getBoundingClientRect();
                   return r.top >= 0 && r.bottom <= innerHeight; }"""
    )
    tab.shot("newcomer-phone-mus-log")
    page.evaluate("window.scrollTo(0, 0)")
    jump.locator("button", has_text=en["table.jump_scores"]).click()
    page.wait_for_function(
        """() => { const r = document.getElementById('scores-title').getBoundingClientRect();
                   return r.top >= 0 && r.bottom <= innerHeight; }"""
    )
    tab.close()


def on_screen(page: Any, *selectors: str) -> None:
    """Every element of ``selectors`` lies wholly in the viewport as it is now (a modal
    dialog: the page behind it may have scrolled to the button that opened it)."""
    view = page.viewport_size
    for sel in selectors:
        for b in page.locator(sel).evaluate_all(BOXES):
            assert b is not None, sel
            assert b["y"] >= 0 and b["y"] + b["height"] <= view["height"], (sel, b)
            assert b["x"] >= 0 and b["x"] + b["width"] <= view["width"], (sel, b)


def test_the_new_table_forms_buttons_are_in_sight_on_a_phone(browser: Any, server: Server) -> None:
    tab = Browser(browser, server, **PHONE)
    page = tab.open()
    page.click("[data-new='mus']")
    page.locator("#name-dialog input").fill("Ugo")
    page.locator("#name-dialog button[value=ok]").click()
    form = page.locator("#create-dialog form")
    form.wait_for()
    submit = form.locator("button[type=submit]")
    on_screen(page, "#create-dialog button[type=submit]", "#create-dialog [data-cancel]")
    tab.shot("newcomer-phone-create")
    form.locator("details.more summary").click()  # longer still
    on_screen(page, "#create-dialog button[type=submit]")
    # a mistake is said beside the buttons, in sight too
    form.locator("input[name=turn_seconds]").fill("")
    submit.click()
    playwright_api.expect(form.locator("#err-turn_seconds")).not_to_be_empty()
    on_screen(page, "#create-dialog button[type=submit]")
    tab.shot("newcomer-phone-create-more")
    form.locator("input[name=turn_seconds]").fill("30")
    submit.click()
    page.wait_for_url(re.compile(r"#/table/"))
    tab.close()


# ------------------------------------------------------------ item 12: the lobby


def test_finished_games_show_their_date_players_and_score(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    en = strings("en")
    tab = Browser(browser, server)
    page = tab.open()
    for tid in finished.values():
        table = httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]
        result = table["result"]
        row = page.locator(f".hist-row[data-id='{tid}']")
        row.wait_for()
        when = row.locator("time.hist-when")
        playwright_api.expect(when).to_have_count(1)
        # the table's date, as the page's language writes it (the server keeps UTC)
        at = when.get_attribute("datetime") or ""
        assert at[:16] == table["created_at"][:16], (at, table["created_at"])
        assert re.search(r"\d{4}", when.inner_text()), when.inner_text()
        sides = row.locator(".hist-players > li")
        w = result["winner"]
        if table["game"] == "mus":
            playwright_api.expect(sides).to_have_count(2)
            for team in (0, 1):
                side = sides.nth(team)
                assert "(bot)" in side.locator(".hist-name").inner_text()
                n = result["cows"][team]
                cows = en["mus.set.cows_n_one" if n == 1 else "mus.set.cows_n_other"]
                playwright_api.expect(side.locator(".hist-score")).to_have_text(
                    cows.replace("{n}", str(n))
                )
        else:
            playwright_api.expect(sides).to_have_count(2)
            for seat in (0, 1):
                playwright_api.expect(sides.nth(seat).locator(".hist-score")).to_have_text(
                    str(result["scores"][seat])
                )
        assert "winner" in (sides.nth(w).get_attribute("class") or "")
        assert "winner" not in (sides.nth(1 - w).get_attribute("class") or "")
    tab.shot("newcomer-lobby-history")
    tab.accessible("the lobby, finished games")
    tab.close()


def test_the_score_sheets_half_strokes_read_at_the_normal_size(
    browser: Any, server: Server
) -> None:
    """15, 25, 35, 45: the big X and a stroke or more of the small x's, each small stroke
    long and thick enough to be seen on the sheet beside the table (not 5 px of a hair)."""
    tab = Browser(browser, server)
    page = tab.open()
    strokes = page.evaluate(
        """async () => {
            const { html, setMarkup } = await import('/static/js/html.js');
            const { scoreSheet } = await import('/games/muggins-dominoes/sheet.js');
            // as the dominoes scores show them, beside the table
            const rows = [15, 25, 35, 45].map((n) => html`<li>
              <div class="paper">${scoreSheet(n, `${n} points on the score sheet`)}</div></li>`);
            setMarkup(document.getElementById('app'), html`<div class="table-page">
              <div class="table-layout"><section class="felt"></section><aside class="side">
                <section class="panel scores"><ul class="score-list">${rows}</ul></section>
              </aside></div></div>`);
            return [...document.querySelectorAll('.side .sheet')].map((svg) => {
              const scale = svg.getBoundingClientRect().height / svg.viewBox.baseVal.height;
              return [...svg.querySelectorAll('line')].slice(2).map((l) => ({
                long: Math.abs(l.x2.baseVal.value - l.x1.baseVal.value) * scale,
                thick: Number(l.getAttribute('stroke-width')) * scale,
              }));
            });
        }"""
    )
    assert [len(s) for s in strokes] == [1, 3, 5, 7]  # the half strokes past the X
    for sheet in strokes:
        for stroke in sheet:
            assert stroke["long"] >= 7 and stroke["thick"] >= 2, stroke
    tab.shot("newcomer-score-sheet")
    tab.close()


def winner_forms(lang: str) -> tuple[str, str]:
    words = strings(lang)
    return words["result.wins"], words["result.pair_won"]


def test_the_winner_is_said_in_one_form_in_every_language(
    browser: Any, server: Server, finished: dict[str, str]
) -> None:
    """Not "X won" for Mus and "X wins!" for the others: the same sentence, for one player
    or a pair, in every language; and so it reads at the end of a game."""
    for lang in LANGUAGES:
        one, pair = winner_forms(lang)
        a, b = one.replace("{name}", "@"), pair.replace("{names}", "@")
        # the same shape: the name(s) in the same place, the same marks at either end
        assert a.endswith("!") and b.endswith("!"), (lang, one, pair)
        assert (a.index("@") == 0) == (b.index("@") == 0) and a[0] == b[0], (lang, one, pair)
    tab = Browser(browser, server)
    page = tab.open()
    for lang in LANGUAGES:
        page.select_option("#lang", lang)
        words = strings(lang)
        one, pair = winner_forms(lang)
        for tid in finished.values():
            page.goto(f"{server.http}/#/table/{tid}")
            title = page.locator(".game-over h2")
            title.wait_for()
            table = httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]
            w = table["result"]["winner"]
            bot = words["seat.bot_short"]
            names = [bot.replace("{name}", n) for n in ("Alba", "Bruno", "Chiara", "Diego")]
            if table["game"] == "mus":
                both = words["pair.names"].replace("{a}", names[w]).replace("{b}", names[w + 2])
                said = pair.replace("{names}", both)
            else:
                said = one.replace("{name}", names[w])
            playwright_api.expect(title).to_have_text(said)
            if lang == "en":
                tab.accessible(f"{table['game']}: game over, watched")
        if lang == "it":
            tab.shot("newcomer-winner-it")
    page.select_option("#lang", "en")
    tab.close()


# ----------------------------------------------------------- item 16: the official mark


def test_official_tables_wear_the_sword(browser: Any, server: Server) -> None:
    """The Mus seed: official games are shown "with a boxing glove or a sword". The mark
    (named for screen readers) in the lobby, at the table, in the histories."""
    en = strings("en")
    ana = Member(server, "Ana", "10.62.0.1")
    bea = Member(server, "Bea", "10.62.0.2")
    open_table = ana.create("mus", seats=4, official=True, stake=50)["id"]
    ana.sit(open_table, 0)
    done = ana.create("dominoes", seats=2, official=True, stake=100, settings={"target": 30})["id"]
    ana.sit(done, 0)
    bea.sit(done, 1)
    ana.start(done)
    play_out(done, ana, bea)
    wait_finished(server, done)

    tab = member_tab(browser, server, ana)
    page = tab.open()
    mark = f"svg.official-mark[role=img][aria-label='{en['official.mark']}']"
    card = page.locator(f".table-card[data-id='{open_table}']")
    playwright_api.expect(card.locator(mark)).to_have_count(1)
    playwright_api.expect(card.get_by_role("img", name=en["official.mark"])).to_have_count(1)
    playwright_api.expect(card.locator(".official")).to_contain_text(
        en["set.stake_n"].replace("{n}", "50")
    )
    assert "official ·" not in card.inner_text()  # no longer a text chip
    history = page.locator(f".hist-row[data-id='{done}']")
    playwright_api.expect(history.locator(mark)).to_have_count(1)
    tab.shot("newcomer-official-lobby")

    page.goto(f"{server.http}/#/table/{open_table}")
    head = page.locator(".table-head")
    playwright_api.expect(head.locator(mark)).to_have_count(1)
    tab.shot("newcomer-official-table")
    tab.accessible("an official table waiting for players")

    page.goto(f"{server.http}/players/{ana.name}")
    row = page.locator("main table").last.locator("tbody tr").first
    playwright_api.expect(row.locator(mark)).to_have_count(1)
    tab.shot("newcomer-official-profile")
    page.select_option("#lang", "es")
    es = strings("es")
    playwright_api.expect(row.get_by_role("img", name=es["official.mark"])).to_have_count(1)
    page.select_option("#lang", "en")
    tab.close()
