"""What a newcomer found at the tables, in a real browser (Playwright driving Debian's
Chromium, as tests/test_web_browser.py does).

- the Mus hand summary: every stone where it came from, adding up to the change of
  stones, and why each lance was won;
- a move made by the timer is said as the stand-in's, in all three games;
- an opponent who is away is shown, with a live countdown, and then the bot that takes
  the seat;
- Spanish Mus says "de punto" for a hand without juego; the Italian page speaks the
  Italian seed's words;
- an accepted órdago shows the four hands on the table;
- the dominoes line is a snake that turns at the edge: both ends in sight, no tile under
  24 px, at 390 and 1366 px wide.

Where a test needs a hand dealt just so (a Mus hand, a long line of dominoes), the
table's socket is answered by the test itself (``Scripted``): the engine's own events and
views, numbered and cut for the seat as the server sends them, to a page loaded from
the real server. The rest plays against the real server. Screenshots go to
``test-artifacts/tables-*.png``.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from taverna.games import get_game
from taverna.games.base import Action, State, event_for
from taverna.games.mus import Mus

from .browser_helpers import assert_accessible, chromium, screenshot, strings
from .mus_helpers import action, deal, start
from .server_helpers import Person, Server, database_url

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
#: seconds an away player keeps the seat on this module's server
GRACE = 12
NAMES = ["Ana", "Bea", "Carla", "Dani"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(
        database_url("sqlite", tmp_path_factory.mktemp("tables")),
        TAVERNA_BOT_DELAY="0.05",
        TAVERNA_GRACE_SECONDS=str(GRACE),
    ).start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium(playwright_api) as b:
        yield b


class Tab:
    """One browser tab, as a guest of its own or as ``person`` (their session cookie)."""

    def __init__(
        self,
        browser: Any,
        server: Server,
        person: Person | None = None,
        locale: str = "en-US",
        viewport: dict[str, int] | None = None,
    ) -> None:
        self.server = server
        self.context = browser.new_context(
            locale=locale, viewport=viewport or {"width": 1280, "height": 900}
        )
        if person is not None:
            token = person.cookie.split("=", 1)[1]
            self.context.add_cookies(
                [{"name": "taverna_session", "value": token, "url": server.http}]
            )
        self.page = self.context.new_page()
        self.page.set_default_timeout(20000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def table(self, tid: str) -> Any:
        self.page.goto(f"{self.server.http}/#/table/{tid}")
        self.page.wait_for_selector(".felt")
        return self.page

    def shot(self, name: str, full_page: bool = True) -> None:
        screenshot(self.page, f"tables-{name}", full_page=full_page)

    def close(self) -> None:
        self.context.close()
        assert not self.errors, self.errors


class Scripted:
    """The server's side of one page's table socket, played by the test.

    The updates are the engine's own: update 1 is the first deal, update k + 1 the
    events of action k, each event cut for ``seat`` (``event_for``) and sent with the
    seat's view, as ``Room`` numbers and sends them. The page is welcomed with the
    first ``shown`` updates (all of them by default); ``send_next`` sends the next one.
    """

    def __init__(self, page: Any, table: dict[str, Any], state: State, seat: int | None) -> None:
        self.table = table
        self.state = state
        self.seat = seat
        self.history = [state.initial_events]
        self.views = [state.view(seat)]
        self.shown: int | None = None
        self.ws: Any = None
        page.route_web_socket(re.compile(r"/ws/tables/"), self._route)

    def apply(self, act: Action) -> None:
        self.history.append(self.state.apply(act))
        self.views.append(self.state.view(self.seat))

    def _route(self, ws: Any) -> None:
        self.ws = ws
        ws.on_message(self._message)

    def _message(self, raw: str | bytes) -> None:
        msg = json.loads(raw)
        if msg.get("type") == "ping":
            self.ws.send(json.dumps({"type": "pong", "id": msg.get("id")}))
        elif msg.get("type") == "hello":
            self.ws.send(json.dumps(self._welcome(msg.get("last_seq") or 0)))

    def _updates(self, first: int, last: int) -> list[dict[str, Any]]:
        return [
            {"seq": k, "events": [event_for(e, self.seat) for e in self.history[k - 1]]}
            for k in range(first, last + 1)
        ]

    def _welcome(self, last_seq: int) -> dict[str, Any]:
        if self.shown is None:
            self.shown = len(self.history)
        n = self.shown
        return {
            "type": "welcome",
            "table": self.table,
            "seat": self.seat,
            "seq": n,
            "deadline": None,
            "paused": False,
            "presence": [],
            "view": self.views[n - 1],
            "missed": self._updates(last_seq + 1, n),
        }

    def send_next(self) -> None:
        assert self.shown is not None and self.shown < len(self.history)
        self.shown += 1
        k = self.shown
        update = self._updates(k, k)[0]
        self.ws.send(
            json.dumps({"type": "update", **update, "view": self.views[k - 1], "deadline": None})
        )


def table_json(person: Person, game: str, state: State) -> dict[str, Any]:
    """A real (open) table of ``person`` for the page to find, as the playing table of
    ``NAMES`` that the socket then describes."""
    base = person.create(game, seats=state.seats)
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
    return {
        **base,
        "status": "playing",
        "settings": state.settings,
        "seating": seating,
        "free_seats": [],
    }


def mus_table(
    page: Any,
    person: Person,
    deals: list[dict[str, Any]],
    moves: list[str],
    seat: int = 0,
    settings: dict[str, Any] | None = None,
) -> Scripted:
    state = start(*deals, settings=settings)
    script = Scripted(page, table_json(person, "mus", state), state, seat)
    for m in moves:
        script.apply(Mus.parse_action(action(m), 4))
    return script


# Mus hands, worked out in tests/test_mus_summary.py
#: nobody holds pares or juego; Grande and Chica won on no quiero, Punto refused
REFUSED = ["12o 11o 7o 1o", "3c 10c 6c 4c", "12e 11e 5e 2e", "3b 10b 6b 2b"]
REFUSED_MOVES = [
    "0 no_mus",
    *("0 bet 3", "1 raise 2", "2 reject", "0 reject"),
    *("0 pass", "1 bet 2", "2 reject", "0 reject"),
    *("0 bet 2", "1 reject", "3 reject"),
]
#: duples beat medias, 31 beats 32: the bonuses per player
BONUSES = ["12o 12c 11o 11c", "7o 7c 7e 4o", "10o 11e 10c 1o", "10e 11b 6o 6c"]
#: a later card, a pair's rank and a tie (dealt second: mano 1)
TIES = ["12o 12c 7o 4o", "12e 10o 10c 5o", "4c 5e 6o 7c", "4e 5b 6c 7e"]
#: D1 of test_mus_rules: pares all round, juego for pair 1 alone
D1 = ["12o 12c 4e 5b", "11o 11c 10e 1b", "1o 2c 4c 6b", "7o 7c 10o 3b"]
PASS4 = ["0 pass", "1 pass", "2 pass", "3 pass"]


def summary_rows(page: Any) -> list[tuple[str, str, str, str]]:
    """Each row of the tally: (lance, where from, pair A's stones, pair B's stones)."""
    rows = page.locator(".hand-summary .tally tbody tr")
    out = []
    for i in range(rows.count()):
        row = rows.nth(i)
        cells = row.locator("td")
        out.append(
            (
                row.get_attribute("data-lance") or "",
                row.get_attribute("data-for") or "",
                cells.nth(1).inner_text().strip(),
                cells.nth(2).inner_text().strip(),
            )
        )
    return out


def stones_of(text: str) -> int:
    return int(text.strip("+") or 0)


def assert_adds_up(page: Any, before: list[int], after: list[int]) -> None:
    """The rows' stones, pair by pair, take the stones before the hand to those after."""
    rows = summary_rows(page)
    got = [sum(stones_of(r[2]) for r in rows), sum(stones_of(r[3]) for r in rows)]
    assert [b + g for b, g in zip(before, got, strict=True)] == after, rows
    foot = page.locator(".hand-summary .tally tfoot td")
    assert [foot.nth(i).inner_text() for i in range(2)] == [f"+{got[0]}", f"+{got[1]}"]
    en = strings("en")
    text = page.locator(".hand-summary").inner_text()
    assert en["mus.before_hand"].format(a=before[0], b=before[1]) in text
    assert en["mus.after_hand"].format(a=after[0], b=after[1]) in text


# ------------------------------------------------------------ item 2


def test_the_mus_summary_shows_every_stone_where_it_came_from(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    page = tab.page
    ana = Person(server, "Ana")
    next_hand = deal(BONUSES, None)
    script = mus_table(page, ana, [deal(REFUSED), next_hand], REFUSED_MOVES)
    script.shown = len(script.history) - 1  # the hand's last answer comes live
    tab.table(script.table["id"])
    page.wait_for_selector(".mus-table")
    script.send_next()
    page.wait_for_selector(".hand-summary .tally")
    # Grande: 3 to pair B at once (a refused raise), Chica 1 (a refused first bet),
    # Pares: nobody; Punto: 1 to pair A at once and its extra stone at the showdown
    assert summary_rows(page) == [
        ("grande", "refused", "", "+3"),
        ("chica", "refused", "", "+1"),
        ("pares", "", "", ""),
        ("punto", "refused", "+1", ""),
        ("punto", "punto", "+1", ""),
    ]
    assert_adds_up(page, [0, 0], [2, 4])
    # the scores agree: 2 and 4 stones
    nums = page.locator(".scores .score-num")
    assert [nums.nth(i).inner_text() for i in range(2)] == ["2/40", "4/40"]
    en = strings("en")
    assert en["mus.from.refused"] in page.locator(".hand-summary").inner_text()
    # no juego: each hand's total is for Punto
    reveal = page.locator(".hand-summary .reveal-seat").first.inner_text()
    assert en["mus.points_punto"].format(n=28) in reveal
    tab.shot("mus-summary-refused")
    assert_accessible(page, "mus: a hand summed up, its stones row by row")
    tab.close()


def test_the_mus_summary_says_why_each_lance_was_won(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    page = tab.page
    ana = Person(server, "Ana")
    bonuses = ["0 no_mus", "0 bet 2", "1 accept", *PASS4, *PASS4, "0 pass", "2 pass", "3 pass"]
    # the second hand: mano 1, so everyone speaks from seat 1
    ties = ["1 no_mus", *(["1 pass", "2 pass", "3 pass", "0 pass"] * 2), "1 pass", "0 pass"]
    ties += ["1 pass", "0 pass"]
    script = mus_table(
        page, ana, [deal(BONUSES), deal(TIES, None), deal(REFUSED, None)], bonuses + ties
    )
    script.shown = len(bonuses)  # the first hand's last pass comes live
    tab.table(script.table["id"])
    page.wait_for_selector(".mus-table")
    script.send_next()
    page.wait_for_selector(".hand-summary .tally")
    assert summary_rows(page) == [
        ("grande", "stake", "+2", ""),
        ("chica", "pass", "+1", ""),
        ("pares", "pares", "+3", ""),
        ("pares", "pares", "+1", ""),
        ("juego", "juego", "+2", ""),
        ("juego", "juego", "+3", ""),
    ]
    assert_adds_up(page, [0, 0], [12, 0])
    why = page.locator(".hand-summary .why").all_inner_texts()
    assert why == [
        "Ana over Dani: king beats caballo (highest card)",
        "Carla over Bea: ace beats 4 (lowest card)",
        "Ana over Bea: duples beat medias",
        "Carla over Dani: 31 beats 32",
    ]
    text = page.locator(".hand-summary").inner_text()
    assert "Ana: duples" in text and "Carla: par" in text and "Carla: juego of 31" in text
    tab.shot("mus-summary-why")

    for _ in ties:
        script.send_next()
    page.wait_for_function(
        "() => document.querySelector('.hand-summary h3')?.textContent.includes('Hand 2')"
    )
    why = page.locator(".hand-summary .why").all_inner_texts()
    assert why == [
        "Ana over Bea: king beats sota (second card)",
        "Carla over Dani: tie: closer to mano",
        "Ana over Bea: par: kings beat sotas",
        "Ana over Bea: 31 beats 35",
    ]
    assert_adds_up(page, [12, 0], [18, 0])
    tab.shot("mus-summary-tie")
    tab.close()


# ------------------------------------------------------------ item 9


def test_an_accepted_ordago_shows_the_four_hands_on_the_table(browser: Any, server: Server) -> None:
    tab = Tab(browser, server)
    page = tab.page
    ana = Person(server, "Ana")
    # Grande: mano calls órdago, seat 1 accepts; seat 0's kings win the game, the match
    script = mus_table(
        page,
        ana,
        [deal(D1)],
        ["0 no_mus", "0 ordago", "1 accept"],
        settings={"cows": 1, "games_per_cow": 1},
    )
    script.shown = len(script.history) - 1
    tab.table(script.table["id"])
    page.wait_for_selector(".mus-table")
    assert page.locator(".mus-table .card.back").count() == 12  # three others, face down
    script.send_next()
    page.wait_for_selector(".game-over")
    page.click("[data-close-over]")
    board = page.locator(".mus-table")
    assert board.locator(".card.back").count() == 0
    for seat in (1, 2, 3):
        assert board.locator(f".mus-seat[data-seat='{seat}'] .card.spanish").count() == 4
    assert page.locator(".mus-hand .hand-card").count() == 4  # and mine, below
    tab.shot("mus-ordago-shown")
    assert_accessible(page, "mus: an accepted órdago, the four hands shown")
    tab.close()


# ------------------------------------------------------------ item 8

#: the Mus terms of es.json, against docs/rules.md §3 and the Spanish federation's names
SPANISH = {
    "mus.mus": "Mus",
    "mus.no_mus": "No hay mus",
    "mus.paso": "Paso",
    "mus.envido_n": "Envido {n}",
    "mus.raise_n": "{n} más",
    "mus.ordago": "¡Órdago!",
    "mus.quiero": "Quiero",
    "mus.no_quiero": "No quiero",
    "mus.mano": "mano",
    "mus.lance": "Lance",
    "mus.lance.grande": "Grande",
    "mus.lance.chica": "Chica",
    "mus.lance.pares": "Pares",
    "mus.lance.juego": "Juego",
    "mus.lance.punto": "Punto",
    "mus.pares_kind.1": "par",
    "mus.pares_kind.2": "medias",
    "mus.pares_kind.3": "duples",
    "mus.has.pares": "pares sí",
    "mus.hasnt.pares": "pares no",
    "mus.has.juego": "juego sí",
    "mus.hasnt.juego": "juego no",
    "mus.status.pass": "en paso",
    "mus.status.accepted": "querido, {n}",
    "mus.status.refused": "no querido",
    "mus.stake_n": "envite de {n}",
    "mus.points_juego": "{n} de juego",
    "mus.points_punto": "{n} de punto",
    "mus.stones": "Piedras",
    "mus.amarracos_n_one": "{n} amarraco",
    "mus.games": "Juegos",
    "mus.cows": "Vacas",
    "mus.set.real_31": "31 real",
}

#: the Italian Mus seed's own words (seeds/mus.it.txt)
ITALIAN = {
    "mus.quiero": "Voglio",
    "mus.no_quiero": "Non voglio",
    "mus.envido_n": "Scommessa {n}",
    "mus.no_mus": "Non mus",
    "mus.lance.grande": "Grande",
    "mus.lance.chica": "Piccola",
    "mus.lance.pares": "Coppia",
    "mus.lance.juego": "Gioco",
    "mus.lance.punto": "Punti",
    "mus.cows": "Mucche",
    "mus.games": "Giochi",
    "mus.stones": "Pietre",
    "mus.mano": "primo di mano",
    "mus.set.real_31": "31 reale",
}


def test_the_mus_words_of_spanish_and_italian() -> None:
    es, it = strings("es"), strings("it")
    assert {k: es[k] for k in SPANISH} == SPANISH
    assert {k: it[k] for k in ITALIAN} == ITALIAN


#: Spanish Mus words the Italian page must not say (it has its own)
SPANISH_WORDS = re.compile(
    r"\b(quiero|piedras?|vacas?|chica|pares|juegos?|envido|paso)\b", re.IGNORECASE
)


def test_spanish_says_de_punto_and_italian_its_own_words(browser: Any, server: Server) -> None:
    es = Tab(browser, server, locale="es-ES")
    ana = Person(server, "Ana")
    script = mus_table(es.page, ana, [deal(REFUSED), deal(BONUSES, None)], REFUSED_MOVES)
    script.shown = len(script.history) - 1
    es.table(script.table["id"])
    es.page.wait_for_selector(".mus-table")
    script.send_next()
    summary = es.page.locator(".hand-summary")
    summary.locator(".tally").wait_for()
    seats = summary.locator(".reveal-seat").all_inner_texts()
    for seat, total in zip(seats, (28, 30, 26, 27), strict=True):
        assert f"{total} de punto" in seat, seat
    assert "de juego" not in summary.inner_text()
    es.shot("mus-es-summary")
    es.close()

    it = Tab(browser, server, locale="it-IT")
    # seat 1 answers seat 0's bet in Grande
    script = mus_table(it.page, ana, [deal(D1)], ["0 no_mus", "0 bet 2"], seat=1)
    it.table(script.table["id"])
    page = it.page
    page.wait_for_selector("[data-act=accept]")
    words = strings("it")
    assert page.locator("[data-act=accept]").inner_text() == "Voglio"
    assert page.locator("[data-act=reject]").inner_text() == "Non voglio"
    assert page.locator("[data-act=raise]").inner_text() == words["mus.raise_n"].format(n=2)
    lances = page.locator(".lances .lance-name").all_inner_texts()
    assert lances == ["Grande", "Piccola", "Coppia", "Gioco"]
    assert page.locator(".mus-seat .tag.mano").inner_text() == "primo di mano"
    # the señas keep the federation's Spanish names in every language (docs/rules.md §3.8.1),
    # marked as Spanish (lang="es"): the rest of the page speaks Italian
    text = page.evaluate(
        """() => { const app = document.querySelector('#app').cloneNode(true);
          app.querySelectorAll('[lang=es]').forEach((el) => el.remove());
          document.body.append(app); const said = app.innerText; app.remove(); return said; }"""
    )
    assert "Mucche" in text and "Giochi" in text and "pietre" in text
    assert not SPANISH_WORDS.search(text), SPANISH_WORDS.findall(text)
    # and before the game: the settings chips
    it.shot("mus-it")
    assert_accessible(page, "mus in Italian: answering a bet")
    it.close()


# ------------------------------------------------------------ item 6


@pytest.mark.parametrize(
    ("game", "seats"), [("muggins-dominoes", 2), ("muggins-cards", 2), ("mus", 4)]
)
def test_a_move_the_timer_made_is_said_as_the_bots(
    browser: Any, server: Server, game: str, seats: int
) -> None:
    ana = Person(server, "Ana")
    tid = ana.play_at(
        game, seats=seats, turn_seconds=5, bots={s: "greedy" for s in range(1, seats)}
    )
    tab = Tab(browser, server, person=ana)
    page = tab.table(tid)
    en = strings("en")
    said = en["log.timeout"].format(name="Ana")
    line = page.locator(".log-list li.stand-in").first
    line.wait_for(timeout=40000)  # nobody plays for Ana: her 5 seconds run out
    text = " ".join(line.inner_text().split())
    assert text.startswith(f"{said} {en['log.a_bot']} "), text
    assert not text.startswith("Ana "), text
    page.locator(".toast", has_text=en["table.you_timed_out"]).wait_for()
    tab.shot(f"timeout-{game}")
    # told the same when the whole game so far is replayed to a page that comes anew
    page.reload()
    page.wait_for_selector(".felt")
    again = page.locator(".log-list li.stand-in").first
    again.wait_for()
    assert " ".join(again.inner_text().split()).startswith(f"{said} {en['log.a_bot']} ")
    tab.close()


# ------------------------------------------------------------ item 7


def _seconds(text: str) -> int:
    m = re.search(r"(\d+):(\d\d)", text)
    assert m, text
    return int(m.group(1)) * 60 + int(m.group(2))


def test_an_away_player_is_shown_with_a_countdown_then_the_bot(
    browser: Any, server: Server
) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("muggins-dominoes", seats=2, turn_seconds=600)["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)
    a = Tab(browser, server, person=ana)
    b = Tab(browser, server, person=bea)
    page = a.table(tid)
    b.table(tid)
    page.wait_for_timeout(500)
    assert page.locator(".presence li.away").count() == 0  # both at the table
    b.close()  # Bea's tab goes: her seat is away

    away = page.locator(".presence li.away[data-seat='1']")
    away.wait_for()
    en = strings("en")
    assert en["presence.away"].format(name="Bea") in away.inner_text()
    first = _seconds(away.locator(".away-left").inner_text())
    assert 0 < first <= GRACE

    # somebody who comes now (well within the grace) is told at once, in the welcome
    watcher = Tab(browser, server)
    watcher.table(tid)
    watcher.page.locator(".presence li.away[data-seat='1']").wait_for()
    watcher.close()

    later = _seconds(away.locator(".away-left").inner_text())
    if later == first:  # the watcher came within the second: let the countdown tick
        page.wait_for_timeout(1100)
        later = _seconds(away.locator(".away-left").inner_text())
    assert later < first  # the countdown runs on the page
    a.shot("presence-away")
    assert_accessible(page, "dominoes: an opponent away, the countdown running")

    # the grace period ends: a bot takes Bea's seat, and the table says so
    taken = page.locator(".presence li.replaced[data-seat='1']")
    taken.wait_for(timeout=(GRACE + 10) * 1000)
    assert taken.inner_text() == en["presence.replaced"].format(name="Bea")
    assert page.locator(".presence li.away").count() == 0
    log = page.locator(".log-list li[data-event=replaced]")
    assert log.inner_text().startswith(en["log.replaced"].format(name="Bea").split(":")[0])
    a.shot("presence-replaced")
    a.close()


# ----------------------------------------------------------- item 10


def long_line(min_tiles: int = 22) -> tuple[State, list[Action]]:
    """A new two-player dominoes game, and the random moves of its first hand that make
    its line ``min_tiles`` long with seat 0 to play."""
    cls = get_game("muggins-dominoes")
    for seed in range(5000):
        rng = random.Random(seed)
        state = cls.new(2, {"target": 1000}, seed=seed)
        acts: list[Action] = []
        while not state.over and state.hand_no == 0:
            if len(state.view(0)["line"]) >= min_tiles and tuple(state.to_act) == (0,):
                return cls.new(2, {"target": 1000}, seed=seed), acts
            a = rng.choice(state.legal_actions())
            acts.append(a)
            state.apply(a)
    raise AssertionError("no random hand reached a long line")


SNAKE = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height }; };
  const line = document.querySelector('.line');
  return {
    tiles: [...document.querySelectorAll('.line .line-tile')].map(box),
    ends: [...document.querySelectorAll('.line .end-target')].map(box),
    edges: ['left', 'right'].map((e) => box(document.querySelector(`.line [data-edge=${e}]`))),
    view: { w: innerWidth, h: innerHeight, sx: scrollX, sy: scrollY },
    page: document.documentElement.scrollWidth,
    line: { scroll: line.scrollWidth, client: line.clientWidth },
  };
}"""


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1366, 768)])
def test_the_dominoes_line_turns_at_the_edge_and_both_ends_stay_in_sight(
    browser: Any, server: Server, width: int, height: int
) -> None:
    tab = Tab(browser, server, viewport={"width": width, "height": height})
    page = tab.page
    ana = Person(server, "Ana")
    state, acts = long_line()
    script = Scripted(page, table_json(ana, "muggins-dominoes", state), state, 0)
    for a in acts:
        script.apply(a)
    tab.table(script.table["id"])
    page.wait_for_selector(".line .line-tile")
    # laid out for the width it was measured at
    page.wait_for_function(
        "() => { const b = document.querySelector('.snake-board');"
        " return b && Math.abs(b.clientWidth - Number(b.dataset.width)) < 2; }"
    )
    got = page.evaluate(SNAKE)
    tiles, view = got["tiles"], got["view"]
    assert len(tiles) >= 20
    assert view["sx"] == 0 and view["sy"] == 0
    # no tile under 24 px
    assert min(min(t["w"], t["h"]) for t in tiles) >= 24, tiles
    # both open ends (the end tiles and their targets) in sight without scrolling
    for b in got["edges"] + got["ends"]:
        assert b["x"] >= 0 and b["x"] + b["w"] <= view["w"], (b, view)
        assert b["y"] >= 0 and b["y"] + b["h"] <= view["h"], (b, view)
    assert got["page"] <= view["w"] and got["line"]["scroll"] <= got["line"]["client"]

    # a snake: each tile touches the next; the line runs along, turns and comes back
    def touch(p: dict[str, float], q: dict[str, float]) -> bool:
        return (
            p["x"] <= q["x"] + q["w"] + 1.5
            and q["x"] <= p["x"] + p["w"] + 1.5
            and p["y"] <= q["y"] + q["h"] + 1.5
            and q["y"] <= p["y"] + p["h"] + 1.5
        )

    apart = [i for i in range(1, len(tiles)) if not touch(tiles[i - 1], tiles[i])]
    assert not apart, apart
    backwards = [i for i in range(1, len(tiles)) if tiles[i]["x"] < tiles[i - 1]["x"] - 1]
    downwards = [i for i in range(1, len(tiles)) if tiles[i]["y"] > tiles[i - 1]["y"] + 1]
    assert backwards and downwards
    tab.shot(f"dominoes-snake-{width}", full_page=False)
    # at this size only: the line is laid out for it
    assert_accessible(page, f"dominoes: a long line at {width} px", sizes=(tab.page.viewport_size,))
    tab.close()
