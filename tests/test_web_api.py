"""The server's help for the web client: a finished game replayed step by step,
and practice tables whose bots forget to claim (so people can call Muggins!)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from functools import partial
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect as ws_connect

from taverna.bots import make_bot
from taverna.games import SettingsError, get_game
from taverna.games.record import load_record

from .server_helpers import Person, Seat, Server, database_url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(database_url("sqlite", tmp_path_factory.mktemp("db"))).start()
    yield srv
    srv.stop()


def finished(person: Person, tid: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        table = person.http.get(f"/api/tables/{tid}").json()["table"]
        if table["status"] == "finished":
            return table
        time.sleep(0.1)
    raise AssertionError(f"table {tid} did not finish")


@pytest.mark.parametrize(
    ("game", "seats", "settings"),
    [
        ("muggins-dominoes", 3, {"target": 40}),
        ("muggins-cards", 2, {"target": 20}),
        ("mus", 4, {"cows": 1, "games_per_cow": 1}),
    ],
)
def test_replay_reveals_every_hand_step_by_step(
    server: Server, game: str, seats: int, settings: dict[str, Any]
) -> None:
    ana = Person(server, "Ana")
    bots = {str(s): "greedy" for s in range(seats)}
    table = ana.create(game, seats=seats, settings=settings, bots=bots)
    tid = table["id"]
    assert ana.http.get(f"/api/games/{tid}/replay").status_code == 409  # not finished
    ana.start(tid)
    finished(ana, tid)
    r = ana.http.get(f"/api/games/{tid}/replay")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["table"]["id"] == tid
    steps = body["steps"]
    record = ana.http.get(f"/api/games/{tid}/record").json()["record"]
    assert len(steps) == len(record["actions"]) + 1
    assert steps[0]["action"] is None and steps[0]["events"][0]["type"] == "deal"
    assert [s["action"] for s in steps[1:]] == record["actions"]
    # step k is the state after k actions, every seat's hand revealed
    rec = load_record(json.dumps(record))
    state = rec.game.start(rec.seats, rec.settings, rec.deals)
    for k, step in enumerate(steps):
        if k:
            state.apply(rec.actions[k - 1])
        view = step["view"]
        assert view["seat"] is None and "legal" not in view
        assert view["hands"] == [state.view(s)["hand"] for s in range(seats)]
        if k in (0, len(steps) // 2):
            # the first deal shows every private part (JSON keys are strings)
            for e in step["events"]:
                if e["type"] == "deal":
                    assert sorted(e["private"]) == [str(s) for s in range(seats)]
    assert steps[-1]["view"]["over"] is True
    if game == "mus":
        assert len(steps[-1]["view"]["discarded_by"]) == 4
    assert ana.http.get("/api/games/nosuchtable/replay").status_code == 404


def test_practice_table_bots_forget_every_claim(server: Server) -> None:
    ana = Person(server, "Ana")
    r = ana.http.post("/api/tables", json={"game": "muggins-cards", "bot_forget": 2})
    assert r.status_code == 422
    table = ana.create(
        "muggins-cards", seats=2, settings={"target": 15}, bots={"1": "1"}, bot_forget=1
    )
    assert table["options"]["bot_forget"] == 1
    ana.sit(table["id"], 0)
    ana.start(table["id"])

    async def claim_everything() -> None:  # Ana's claims end the game: the bot's never do
        seat = Seat(server, table["id"], ana.cookie)
        await seat.connect()
        await seat.play(bot=make_bot("greedy", get_game("cards"), 0, seed=1, forget=0.0))
        await seat.close()

    asyncio.run(claim_everything())
    finished(ana, table["id"])
    record = ana.http.get(f"/api/games/{table['id']}/record").json()["record"]
    bots = [a for a in record["actions"] if a["seat"] == 1]
    # a forgetful bot never claims, with a play or after it, nor calls Muggins!
    assert bots and not [a for a in bots if a["type"] in ("claim", "muggins") or a.get("claim")]
    plain = Person(server, "Bea").create("muggins-cards")
    assert "bot_forget" not in plain["options"]


def test_every_page_links_the_favicon_the_app_serves(server: Server) -> None:
    with httpx.Client(base_url=server.http, timeout=10) as http:
        for path in ("/favicon.svg", "/favicon.ico"):
            r = http.get(path)
            assert r.status_code == 200, path
            assert r.headers["content-type"].startswith("image/svg+xml")
            assert r.text.lstrip().startswith("<svg") and "</svg>" in r.text
        for page in ("/", "/account", "/ranking/mus", "/players/anybody", "/docs"):
            html = http.get(page).text
            assert '<link rel="icon" type="image/svg+xml" href="/favicon.svg">' in html, page


def test_a_first_visit_has_no_session_and_that_is_not_an_error(server: Server) -> None:
    with httpx.Client(base_url=server.http, timeout=10) as anon:
        r = anon.get("/api/session")
        assert r.status_code == 200 and r.json() == {"player": None}
        assert "set-cookie" not in r.headers
        assert anon.get("/api/me").status_code == 401  # the account itself still needs one


def test_the_games_tell_a_form_what_each_setting_may_be(server: Server) -> None:
    """GET /api/games lists each setting's kind and bounds; check_settings agrees."""
    info = httpx.get(f"{server.http}/api/games").json()
    assert info["table_limits"]["stake"] == {"type": "int", "min": 1, "max": 1_000_000}
    assert info["table_limits"]["muggins_wait"] == {"type": "number", "min": 0, "max": 30}
    for g in info["games"]:
        cls = get_game(g["game"])
        seats = cls.min_seats
        specs = g["settings"]
        assert set(specs) == set(g["defaults"][str(seats)]), g["game"]
        for name, spec in specs.items():
            ok = partial(_accepts, cls, seats, name)
            if spec["type"] == "int":
                assert ok(spec["min"]) and not ok(spec["min"] - 1), name
                assert "max" not in spec or (ok(spec["max"]) and not ok(spec["max"] + 1)), name
            elif spec["type"] == "choice":
                assert all(ok(v) for v in spec["choices"]) and not ok(max(spec["choices"]) + 1)
            elif spec["type"] == "number":  # a real number within its bounds (Mus' catch)
                assert ok(spec["min"]) and ok(spec["max"]), name
                assert ok((spec["min"] + spec["max"]) / 2), name
                assert not ok(spec["min"] - 0.01) and not ok(spec["max"] + 0.01), name
                assert not ok("half"), name
            else:
                assert spec["type"] == "bool" and not ok(1), name


def _accepts(cls: Any, seats: int, name: str, value: Any) -> bool:
    try:
        cls.check_settings(seats, {name: value})
    except SettingsError:
        return False
    return True


def test_a_guest_who_registers_is_shown_by_the_new_name(server: Server) -> None:
    """docs/accounts.md: a guest who registers keeps their player, id and games; their
    tables (live ones too), their results and their history say the name they chose.
    Bots are named as the tables show them."""
    gus = Person(server, "Gus")
    # a finished game: Gus leaves it and a bot plays his seat to the end
    done = gus.create("muggins-dominoes", seats=2, settings={"target": 30}, bots={"1": "greedy"})
    gus.sit(done["id"], 0)
    gus.start(done["id"])
    assert gus.http.delete(f"/api/tables/{done['id']}/seats/0").status_code == 200
    assert finished(gus, done["id"])["result"]["names"] == ["Gus", "Bruno (bot, Level 4)"]
    live = gus.play_at("muggins-dominoes", seats=2, bots={"1": "random"})

    name = f"Gustavo{time.time_ns() % 1_000_000}"
    r = gus.http.post("/api/register", json={"username": name, "password": "a long enough secret"})
    assert r.status_code == 201, r.text
    assert r.json()["player"]["id"] == gus.player["id"]
    session = gus.http.get("/api/session").json()["player"]
    assert (session["name"], session["chips"]) == (name, 1000)  # the top bar's chips

    # the lobby knows the seat by its player's id, and names it as it is now
    (seat,) = [
        s
        for t in gus.http.get("/api/tables").json()["tables"]
        if t["id"] == live
        for s in t["seating"]
        if s["player_id"] == gus.player["id"]
    ]
    assert seat["player"] == name
    with ws_connect(f"{server.ws}/ws/tables/{live}") as ws:  # the live room says it too
        ws.send(json.dumps({"type": "hello", "last_seq": None}))
        welcome = json.loads(ws.recv(timeout=10))
        assert welcome["table"]["seating"][0]["player"] == name
    table = gus.http.get(f"/api/tables/{done['id']}").json()["table"]
    assert table["seating"][0]["player"] == name
    assert table["result"]["names"] == [name, "Bruno (bot, Level 4)"]
    (game,) = gus.http.get(f"/api/players/{name}").json()["history"]
    assert game["players"] == [name, "Bruno (bot, Level 4)"]
    assert [(s["player"], s["bot"]) for s in game["seating"]] == [
        (name, "4"),  # the stand-in: level 4 (greedy)
        (None, "4"),
    ]


def test_a_page_nobody_has_is_the_sites_404_page_in_a_browser(server: Server) -> None:
    """A browser gets the site's page, which says so (404); API clients keep JSON."""
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    with httpx.Client(base_url=server.http, timeout=10) as http:
        for path in ("/nonsense", "/nonsense/deeper", "/static/nothing.html"):
            page = http.get(path, headers=browser)
            assert page.status_code == 404, path
            assert page.headers["content-type"].startswith("text/html"), path
            assert "/static/js/app.js" in page.text
        for path, headers in (("/nonsense", {}), ("/api/nonsense", browser)):
            r = http.get(path, headers=headers)
            assert r.status_code == 404 and r.json()["code"] == "not_found", path
        assert http.get("/api/tables/nope", headers=browser).json()["code"] == "no_table"


def test_bot_levels_are_named_by_number(server: Server) -> None:
    """Issue 30: levels 1 to 8 by number (as text or not), the old names as aliases, a
    table keeping the number; anything else refused with a 422 that says the choices."""
    ana = Person(server, "Ana")
    games = ana.http.get("/api/games").json()
    assert games["bots"] == ["1", "2", "3", "4", "5", "6", "7", "8"]
    assert games["bot_default"] == "4"
    assert games["bot_aliases"] == {"random": "1", "greedy": "4", "expert": "7"}
    table = ana.create("dominoes", seats=4, bots={"1": "5", "2": 8, "3": "expert"})
    assert [s["bot"] for s in table["seating"]] == [None, "5", "8", "7"]
    tid = ana.create("dominoes", seats=2)["id"]
    r = ana.http.post(f"/api/tables/{tid}/seats/1/bot", json={"level": 6})
    assert r.status_code == 200 and r.json()["table"]["seating"][1]["bot"] == "6"
    for bad in (0, 9, "0", "9", "x", "os:system"):
        refusals = [
            ana.http.post("/api/tables", json={"game": "dominoes", "bots": {"1": bad}}),
            ana.http.post(f"/api/tables/{tid}/seats/1/bot", json={"level": bad}),
            ana.http.post("/api/play-now", json={"game": "dominoes", "level": bad}),
        ]
        for r in refusals:
            assert r.status_code == 422 and r.json()["code"] == "unknown_bot", (bad, r.text)
            assert "choose 1 to 8, or random, greedy, expert" in r.json()["detail"], r.text
