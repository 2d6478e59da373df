"""The tables on a phone, as a newcomer found them (issue 29), in a real browser
(Playwright driving Debian's Chromium) at 390×844, touch and all:

- the table's head whole: the game's title, every setting and every tool readable,
  nothing cut, clipped or off the screen, in four languages;
- a dominoes tile that fits two ends alike is placed with one tap, and only a choice
  that matters (a double's end against a plain one) is asked for;
- a touch screen is told "tap", and shows no keyboard badges until a key is pressed;
- a notice (a toast) never covers the controls the player needs, in every game;
- a hint by estimate is said in points, or in Mus in a share of a game (a review's
  moment, costs and counts: tests/test_review_browser.py).

Where a position is dealt just so, the table's socket is answered by the test itself
(``Scripted``, tests/test_web_tables.py): the engine's own events and views. Geometry is
checked from the page's boxes, never from screenshots (saved to test-artifacts/ to
look at). Positions are checked with the page at rest (reduced motion).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from taverna.games.base import Action, State
from taverna.games.dominoes import Dominoes
from taverna.games.mus import Mus

from .browser_helpers import PHONE, chromium, screenshot, strings
from .cards_helpers import deal as cards_deal
from .cards_helpers import start as cards_start
from .dominoes_helpers import deal as dominoes_deal
from .dominoes_helpers import start as dominoes_start
from .mus_helpers import action as mus_action
from .mus_helpers import deal as mus_deal
from .mus_helpers import start as mus_start
from .server_helpers import Person, Server, database_url
from .test_web_tables import NAMES, Scripted

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

LANGUAGES = {"en": "en-US", "it": "it-IT", "nl": "nl-NL", "es": "es-ES"}
GAMES = ("muggins-dominoes", "muggins-cards", "mus")
#: a small phone
SMALL = {"width": 360, "height": 640}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("phone")), TAVERNA_BOT_DELAY="0.05"
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


class Phone:
    """A browser tab: a phone (390×844, touch) unless told otherwise."""

    def __init__(
        self, browser: Any, server: Server, lang: str = "en", touch: bool = True, **context: Any
    ) -> None:
        self.server = server
        device = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if touch else {}
        self.context = browser.new_context(locale=LANGUAGES[lang], **{**device, **context})
        self.page = self.context.new_page()
        self.page.set_default_timeout(20000)
        # at rest: no motion half done when a box is measured
        self.page.emulate_media(reduced_motion="reduce")
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def table(self, tid: str) -> Any:
        self.page.goto(f"{self.server.http}/#/table/{tid}")
        self.page.wait_for_selector(".felt")
        return self.page

    def shot(self, name: str) -> None:
        screenshot(self.page, f"phone-{name}")

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


class Recording(Scripted):
    """A scripted table that also keeps what the page asks to play, and can tell the
    page of a seña (Mus) as the server does."""

    def __init__(self, page: Any, table: dict[str, Any], state: State, seat: int | None) -> None:
        super().__init__(page, table, state, seat)
        self.acts: list[dict[str, Any]] = []
        #: the strong bot's answer to a hint asked ({"action", "why"}), as the server's
        self.hint: dict[str, Any] | None = None

    def _message(self, raw: str | bytes) -> None:
        msg = json.loads(raw)
        if msg.get("type") == "act":
            self.acts.append(msg["action"])
        elif msg.get("type") == "hint" and self.hint is not None:
            self.ws.send(
                json.dumps({"type": "hint", "id": msg["id"], "seq": self.shown, **self.hint})
            )
        super()._message(raw)

    def signal(self, entry: dict[str, Any]) -> None:
        self.ws.send(json.dumps({"type": "signal", "signal": entry}))


def scripted(
    page: Any, person: Person, state: State, seat: int, moves: list[Action], **options: Any
) -> Recording:
    """The page's table: a real (open) table of ``person`` with these options, said by
    the socket to be the playing table of ``NAMES``, at the position after ``moves``."""
    base = person.create(state.game, seats=state.seats, settings=state.settings, **options)
    seating = [
        {
            "seat": i,
            "player": NAMES[i],
            "player_id": f"player-{i}",
            "bot": None,
            "replaced": False,
            "left": False,
            "empty": False,
        }
        for i in range(state.seats)
    ]
    table = {**base, "status": "playing", "seating": seating, "free_seats": []}
    script = Recording(page, table, state, seat)
    for m in moves:
        script.apply(m)
    return script


def dominoes_position() -> tuple[State, list[Action]]:
    """Muggins dominoes, two seats: seat 0 to open."""
    hands = [
        ["6-5", "5-5", "2-4", "0-0", "0-1", "0-2", "0-3"],
        ["5-4", "4-1", "1-5", "5-2", "1-1", "1-2", "2-2"],
    ]
    return dominoes_start(dominoes_deal(hands, opener=0)), []


def mus_position() -> tuple[State, list[Action]]:
    """Mus with señas, seat 0 to speak at Grande: mus refused, every control out."""
    hands = ["12o 12c 1e 1b", "4o 5c 6e 7b", "4c 5e 6b 7o", "4e 5b 6o 7c"]
    state = mus_start(mus_deal(hands, mano=0), settings={"senas": True, "real_31": True})
    return state, [Mus.parse_action(mus_action("0 no_mus"), 4)]


def cards_position() -> tuple[State, list[Action]]:
    """Muggins cards, two seats: seat 0 (the dealer's left) to play first."""
    hands = [["5H", "10S", "KD", "3C", "7H"], ["5S", "10H", "QD", "3D", "7C"]]
    state = cards_start(cards_deal(hands, dealer=1), muggins_on_last=True)
    return state, []


POSITIONS = {
    "muggins-dominoes": dominoes_position,
    "muggins-cards": cards_position,
    "mus": mus_position,
}

#: every option that makes a chip of the head: practice, private, hints, the turn's time
CHIPS = {"hints": True, "bot_forget": 0.3, "public": False, "turn_seconds": 120}


# ------------------------------------------------------------- the table's head (item 7)

#: the boxes of what the head shows (its title, chips, buttons and badges): each one's
#: box, its text's own width against the room it has, and the part of it that its
#: scrolling or clipping ancestors (up to the head) leave in sight
HEAD = """() => {
  const head = document.querySelector('.table-head');
  const leaves = [...head.querySelectorAll('h1, .chip, .btn, .back-link, .badge')]
    .filter((e) => e.getClientRects().length && !e.parentElement.closest('.btn, .chip'));
  return leaves.map((e) => {
    const r = e.getBoundingClientRect();
    let seen = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.overflowX !== 'visible' || s.overflowY !== 'visible') {
        const b = a.getBoundingClientRect();
        seen = { left: Math.max(seen.left, b.left), right: Math.min(seen.right, b.right),
                 top: Math.max(seen.top, b.top), bottom: Math.min(seen.bottom, b.bottom) };
      }
    }
    return { text: e.innerText.trim(), cls: e.className, left: r.left, right: r.right,
             top: r.top, bottom: r.bottom, sw: e.scrollWidth, cw: e.clientWidth, seen };
  });
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share more than a pixel's edge."""
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 1
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 1
    )


def assert_whole(boxes: list[dict[str, Any]], width: int, where: str) -> None:
    """Each thing wholly on the screen and in sight, its text not cut, none on another."""
    for b in boxes:
        what = (where, b["text"], b["cls"])
        assert b["left"] >= 0 and b["right"] <= width + 0.5, what
        assert b["sw"] <= b["cw"] + 1, (*what, "its text is cut", b["sw"], b["cw"])
        seen = b["seen"]
        assert seen["left"] <= b["left"] + 0.5 and seen["right"] >= b["right"] - 0.5, (
            *what,
            "clipped",
        )
        assert seen["top"] <= b["top"] + 0.5 and seen["bottom"] >= b["bottom"] - 0.5, (
            *what,
            "clipped",
        )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not overlap(a, b), (where, a["text"], b["text"])


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_table_head_is_whole_on_a_phone(browser: Any, server: Server, lang: str) -> None:
    """The title ("Muggins dominoes", not "Muggins …"), every setting's chip (practice and
    hints too) and every tool of the head: on the screen, none cut or clipped mid-word,
    none over another — at every game, in every language."""
    said = strings(lang)
    ana = Person(server, "Ana")
    phone = Phone(browser, server, lang)
    page = phone.page
    for game in GAMES:
        state, moves = POSITIONS[game]()
        script = scripted(page, ana, state, 0, moves, **CHIPS)
        phone.table(script.table["id"])
        page.wait_for_selector(".felt .controls .hand")
        boxes = page.evaluate(HEAD)
        texts = " ".join(b["text"] for b in boxes)
        assert said[f"game.{game}"] in texts
        for key in ("set.practice", "set.hints_chip", "set.private"):
            assert said[key] in texts, (game, key)
        assert_whole(boxes, PHONE["width"], f"{game} ({lang})")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        phone.shot(f"head-{game}-{lang}")
    phone.close()


# ---------------------------------------------------- dominoes: no needless choice (item 8)


def play(seat: int, tile: str, end: str | None = None) -> Action:
    obj = {"seat": seat, "type": "play", "tile": tile, **({"end": end} if end else {})}
    return Dominoes.parse_action(obj, 2)


def until(page: Any, found: Any, what: str, seconds: float = 10) -> Any:
    """Poll ``found()`` (Playwright's loop runs meanwhile) until it is true."""
    for _ in range(int(seconds * 40)):
        got = found()
        if got:
            return got
        page.wait_for_timeout(25)
    raise AssertionError(f"never: {what}")


#: seat 0 opens 4-1, seat 1 puts the 5-4 on the 4, seat 0 the 1-5 on the 1: ends 5 and 5
FIVES = [
    ["4-1", "1-5", "6-5", "0-0", "0-1", "0-2", "0-3"],
    ["5-4", "5-5", "1-1", "1-2", "2-2", "2-3", "3-3"],
]
TO_FIVES = [play(0, "4-1"), play(1, "5-4", "left"), play(0, "1-5", "right")]


@pytest.mark.parametrize(
    ("hands", "opener", "moves", "seat", "tile", "asked"),
    [
        pytest.param(
            [["6-5", "0-0", "0-1", "0-2", "0-3", "0-4", "0-6"], ["5-5", *FIVES[1][2:], "2-4"]],
            1,
            [play(1, "5-5")],
            0,
            "6-5",
            False,
            id="the double alone",  # its two sides are mirror images
        ),
        # either way the ends become a double 5 and a plain 5
        pytest.param(FIVES, 0, TO_FIVES, 1, "5-5", False, id="two plain fives"),
        # 6 + 10 one way, 6 + 5 the other
        pytest.param(
            FIVES,
            0,
            [*TO_FIVES, play(1, "5-5", "left")],
            0,
            "6-5",
            True,
            id="a double five and a plain five",
        ),
    ],
)
def test_a_tile_is_placed_with_one_tap_unless_the_end_matters(
    browser: Any,
    server: Server,
    hands: list[list[str]],
    opener: int,
    moves: list[Action],
    seat: int,
    tile: str,
    asked: bool,
) -> None:
    """docs/rules.md §1.4, §1.5: only the open ends count (a double at an end
    counts both halves) and no double opens a branch. A tile that fits two ends alike —
    the same pips, both doubles or neither — leaves the same ends at either, mirror
    images: one tap places it. Ends of the same pips that are not alike (a double 5, a
    plain 5) count differently afterwards: the end is asked for."""
    ana = Person(server, "Ana")
    phone = Phone(browser, server)
    page = phone.page
    state = dominoes_start(dominoes_deal(hands, opener=opener))
    script = scripted(page, ana, state, seat, moves)
    legal = script.views[-1]["legal"]
    fits = [a for a in legal if a["type"] == "play" and sorted(a["tile"]) == sorted(tile)]
    assert len(fits) == 2, legal  # the engine lists both ends
    phone.table(script.table["id"])
    piece = page.locator(f'.hand-tile.playable[data-tile="{tile}"]')
    piece.tap()
    if asked:
        playwright_api.expect(piece).to_have_class(re.compile(r"\bselected\b"))
        assert page.locator(".end-target.fits").count() == 2
        assert script.acts == []
        page.locator('.end-target.fits[data-end="right"]').tap()
        until(page, lambda: script.acts, "the move after the end was chosen")
        assert script.acts == [next(a for a in fits if a["end"] == "right")]
    else:
        until(page, lambda: script.acts, "the move after one tap")
        assert len(script.acts) == 1 and script.acts[0] in fits, script.acts
        assert page.locator(".hand-tile.selected").count() == 0
    phone.close()


# ---------------------------------------------------- a touch screen's words (item 10)

#: seat 1 opened with the 6-6 and seat 0 holds no six: seat 0 must draw
NO_SIX = [
    ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "1-1"],
    ["6-6", "1-2", "1-3", "1-4", "2-2", "2-3", "2-4"],
]

#: how many keyboard badges are drawn on the screen (each a box of its own)
BADGES = """() => [...document.querySelectorAll('.felt kbd')]
  .filter((k) => k.getClientRects().length).length"""


@pytest.mark.parametrize("touch", [True, False], ids=["touch", "mouse"])
def test_a_touch_screen_says_tap_and_shows_no_key_badges(
    browser: Any, server: Server, touch: bool
) -> None:
    """On a phone: "Tap a tile…", "tap the end", and no badges of keys (D, P; M, G in
    cards) — until a key is pressed, which shows there is a keyboard. With a mouse:
    "Click a tile…" and the badges."""
    en = strings("en")
    ana = Person(server, "Ana")
    phone = Phone(browser, server, touch=touch)
    page = phone.page
    hint = page.locator(".felt .controls .hint")
    # a tile to play, then one that fits two ends that are not alike: the end is asked
    state = dominoes_start(dominoes_deal(FIVES, opener=0))
    script = scripted(page, ana, state, 0, [*TO_FIVES, play(1, "5-5", "left")])
    phone.table(script.table["id"])
    words = {k: en[f"{k}_touch" if touch else k] for k in ("dom.hint_play", "dom.hint_end")}
    playwright_api.expect(hint).to_have_text(words["dom.hint_play"])
    tile = page.locator('.hand-tile.playable[data-tile="6-5"]')
    tile.tap() if touch else tile.click()
    playwright_api.expect(hint).to_have_text(words["dom.hint_end"])
    # nothing fits: a button to draw, with its key's badge on a keyboard's screen only
    state = dominoes_start(dominoes_deal(NO_SIX, opener=1))
    script = scripted(page, ana, state, 0, [play(1, "6-6")])
    phone.table(script.table["id"])
    page.locator('[data-act="draw"]').wait_for()
    assert page.evaluate(BADGES) == (0 if touch else 1)
    page.keyboard.press("Shift")  # a keyboard after all
    assert page.evaluate(BADGES) == 1
    phone.shot(f"touch-{touch}")
    phone.close()


# ----------------------------------------------- notices off the controls (item 11)

#: the toast's box, and the boxes of every control the player may need: the table's
#: head, the hand, the actions and what to do with them, the señas, the hint (those
#: drawn, in the viewport)
NOTICE = """() => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: e.innerText.trim() };
  };
  const toast = document.getElementById('toast');
  const controls = [...document.querySelectorAll(
      '.table-head .btn, .table-head a, .felt .controls button, .felt .controls .hint,'
      + ' .felt .hint-bar button')]
    .filter((e) => e.getClientRects().length && (e.matches('button, a') || e.innerText.trim()))
    .map(box)
    .filter((r) => r.bottom > 0 && r.top < innerHeight);
  return { toast: box(toast), shown: toast.classList.contains('show'), controls,
           screen: { width: innerWidth, height: innerHeight } };
}"""

#: where the page is scrolled to when the notice comes: the top; the controls at the
#: bottom of the screen; the controls at the top of the screen
SCROLLS = {
    "top": "0",
    "controls at the bottom": "end.getBoundingClientRect().bottom + scrollY - innerHeight + 8",
    "controls at the top": "el.getBoundingClientRect().top + scrollY - 60",
}


def assert_clear(page: Any, where: str) -> None:
    got = until(page, lambda: (n := page.evaluate(NOTICE))["shown"] and n, "a notice")
    toast, screen = got["toast"], got["screen"]
    assert toast["left"] >= 0 and toast["right"] <= screen["width"], (where, toast)
    assert toast["top"] >= 0 and toast["bottom"] <= screen["height"], (where, toast)
    assert got["controls"], where
    covered = [c["text"] for c in got["controls"] if overlap(toast, c)]
    assert not covered, (where, toast["text"], covered)


@pytest.mark.parametrize("size", [PHONE, SMALL], ids=["390x844", "360x640"])
@pytest.mark.parametrize("game", GAMES)
def test_a_notice_never_covers_the_controls(
    browser: Any, server: Server, game: str, size: dict[str, int]
) -> None:
    """A notice ("Link copied", "Chiara signals ciego", a refusal) came at the bottom of
    the screen, over the señas of a phone's Mus table: it goes where it covers none of
    the controls the player needs, wherever the page is scrolled to, on a phone and on
    a small one."""
    en = strings("en")
    ana = Person(server, "Ana")
    phone = Phone(browser, server, viewport=size)
    page = phone.page
    state, moves = POSITIONS[game]()
    script = scripted(page, ana, state, 0, moves, hints=True)
    phone.table(script.table["id"])
    page.wait_for_selector(".felt .hint-bar [data-hint]")
    for where, y in SCROLLS.items():
        page.evaluate(
            "() => { const el = document.querySelector('.felt .controls');"
            f" const end = document.querySelector('.felt .hint-bar'); scrollTo(0, {y}); }}"
        )
        page.evaluate("() => document.querySelector('[data-invite]').click()")
        playwright_api.expect(page.locator("#toast")).to_have_text(en["table.link_copied"])
        assert_clear(page, f"{game}, {where}: the link copied")
        if game == "mus":
            # a bot's seña, told as a notice, as the server tells it
            script.signal({"seat": 1, "sign": "ciego", "after": len(moves)})
            playwright_api.expect(page.locator("#toast")).to_contain_text("ciego")
            assert_clear(page, f"{game}, {where}: a seña")
        phone.shot(f"notice-{game}-{size['height']}-{where.replace(' ', '-')}")
    phone.close()


# --------------------------------------------- a hint's estimate in points (item 9)


@pytest.mark.parametrize(
    ("game", "why", "said"),
    [
        pytest.param(
            "muggins-dominoes",
            {"key": "best_estimate", "value": -0.62, "unit": "points", "amount": -18.125},
            "by its estimate, about 18 points against you by the end of the hand",
            id="points behind",
        ),
        pytest.param(
            "muggins-cards",
            {"key": "best_estimate", "value": 0.1, "unit": "points", "amount": 1.003},
            "by its estimate, about 1 point in your favour by the end of the hand",
            id="one point ahead",
        ),
        pytest.param(
            "mus",
            {"key": "best_estimate", "value": 0.33, "unit": "games", "amount": 0.165},
            "by its estimate, about 17 % of a game in your favour by the end of the hand",
            id="a share of a game",
        ),
    ],
)
def test_a_hint_by_estimate_is_said_in_points_or_in_a_share_of_a_game(
    browser: Any, server: Server, game: str, why: dict[str, Any], said: str
) -> None:
    """Not "its best estimate (-0.62)": what the move is worth by the end of the hand,
    as players count (the server's unit: taverna.bots.hint), singular or plural."""
    ana = Person(server, "Ana")
    phone = Phone(browser, server)
    page = phone.page
    state, moves = POSITIONS[game]()
    script = scripted(page, ana, state, 0, moves, hints=True)
    script.hint = {"action": script.views[-1]["legal"][0], "why": why}
    phone.table(script.table["id"])
    page.locator(".felt [data-hint]").tap()
    playwright_api.expect(page.locator(".hint-line")).to_contain_text(said)
    phone.close()
