"""Hints (issue 19, the strong bot as a coach): the move the expert would make from a
seat's view, and why — at casual tables with the option on, never at official ones.

The hint searches from the seat's view only: a snooping player who asks for one at
every turn of a whole hand gets no card of another seat's hand, checked against the
hands of the stored record at the end.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from taverna.bots import make_bot
from taverna.bots.hint import hint, request, why
from taverna.bots.mus import explain as mus_explain
from taverna.games import get_game
from taverna.games.cards import Cards
from taverna.games.dominoes import Dominoes, tile_id
from taverna.games.mus import Mus
from taverna.games.record import load_record

from .accounts_helpers import ACCOUNT_ENV, Member
from .cards_helpers import deal as cards_deal
from .cards_helpers import play as cards_play
from .cards_helpers import start as cards_start
from .dominoes_helpers import act, deal, start
from .mus_helpers import deal as mus_deal
from .mus_helpers import play as mus_play
from .mus_helpers import start as mus_start
from .server_helpers import Person, Seat, Server, database_url, drop_database, own_server
from .test_server import check_messages_against_record


def run(coro: Any) -> Any:
    return asyncio.run(coro)


# ---------------------------------------------------------------- the bot's side


def scoring_position() -> Dominoes:
    """Seat 0 opened with the double six (12 at the ends); seat 1 holds four sixes, and
    only the 6-3 makes the ends a multiple of five: 12 + 3 = 15 (docs/rules.md §1.5)."""
    state = start(
        deal(
            [
                ["6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5"],
                ["6-3", "6-1", "6-2", "6-4", "1-1", "1-2", "2-2"],
            ],
            opener=0,
        )
    )
    act(state, 0, "play", "6-6")
    return state


def test_the_hint_is_the_play_that_scores() -> None:
    state = scoring_position()
    assert state.to_act == (1,)
    view = state.view(1)
    for seed in range(3):
        answer = hint(request(Dominoes, 1, view, seed=seed))
        # written as it lies on the line: the 3 outward
        assert answer["action"]["type"] == "play" and tile_id(answer["action"]["tile"]) == tile_id(
            "6-3"
        )
        assert answer["why"] == {"key": "scores", "points": 15}


def test_a_hint_answers_in_well_under_a_second_in_every_game() -> None:
    for name, seats in (("dominoes", 2), ("cards", 2), ("mus", 4)):
        cls = get_game(name)
        state = cls.new(seats, seed=11)
        seat = state.turn_seat if state.turn_seat is not None else state.to_act[0]
        started = time.perf_counter()
        answer = hint(request(cls, seat, state.view(seat), seed=3))
        assert time.perf_counter() - started < 0.8, name
        assert answer["action"] in state.view(seat)["legal"], name
        assert isinstance(answer["why"]["key"], str)


# ---------------------------------------------------------------- the server's side


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    url = database_url("sqlite", tmp_path_factory.mktemp("hints"))
    # hints as often as asked: the snooping client asks at every turn
    srv = Server(url, TAVERNA_HINT_EVERY="0", **ACCOUNT_ENV).start()
    yield srv
    srv.stop()
    drop_database(url)


async def ask(seat: Seat, mid: int) -> dict[str, Any]:
    """Ask for a hint; its answer (a hint or an error), every message before it kept."""
    await seat.send({"type": "hint", "id": mid})
    while True:
        msg = await seat.recv()
        if msg["type"] in ("hint", "error") and msg.get("id") == mid:
            return msg


def test_hints_are_refused_at_official_tables(server: Server) -> None:
    ana = Member(server, "Ana", "10.19.0.1")
    r = ana.http.post(
        "/api/tables", json={"game": "dominoes", "official": True, "stake": 10, "hints": True}
    )
    assert r.status_code == 422 and r.json()["code"] == "hints_official", r.text
    table = ana.create("dominoes", official=True, stake=10)
    assert "hints" not in table["options"]
    bea = Member(server, "Bea", "10.19.0.2")
    ana.sit(table["id"], 0)
    bea.sit(table["id"], 1)
    ana.start(table["id"])

    async def go() -> None:
        seats = [Seat(server, table["id"], p.cookie) for p in (ana, bea)]
        for s in seats:
            await s.connect()
        for k, s in enumerate(seats):
            answer = await ask(s, 10 + k)
            assert answer["type"] == "error" and answer["code"] == "hints_official", answer
            await s.close()

    run(go())


def test_hints_are_refused_when_off_to_spectators_and_off_turn(server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    plain = ana.play_at("dominoes", bots={"1": "greedy"})
    tid = ana.create("dominoes", hints=True)["id"]
    assert ana.http.get(f"/api/tables/{tid}").json()["table"]["options"]["hints"] is True
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)

    async def go() -> None:
        off = Seat(server, plain, ana.cookie)
        await off.connect()
        assert (await ask(off, 1))["code"] == "hints_off"
        await off.close()
        watcher = Seat(server, tid)
        await watcher.connect()
        assert (await ask(watcher, 2))["code"] == "spectator"
        await watcher.close()
        seats = [Seat(server, tid, p.cookie) for p in (ana, bea)]
        for s in seats:
            await s.connect()
        view = seats[0].view
        assert view is not None
        turn = view["turn"]
        waiting = seats[1 - turn]
        answer = await ask(waiting, 3)
        assert answer["type"] == "error" and answer["code"] == "not_your_turn", answer
        answer = await ask(seats[turn], 4)
        assert answer["type"] == "hint" and answer["action"] in seats[turn].view["legal"]
        assert answer["seq"] == seats[turn].seq and answer["why"]["key"]
        # to that connection only: the other player heard nothing of it
        await asyncio.sleep(0.3)
        assert not any(m["type"] == "hint" for m in waiting.messages)
        for s in seats:
            await s.close()

    run(go())


def test_one_hint_every_few_seconds(tmp_path: Any) -> None:
    with own_server("sqlite", tmp_path) as srv:  # the default: one every 3 s
        ana = Person(srv, "Ana")
        tid = ana.play_at("dominoes", bots={"1": "greedy"}, hints=True)

        async def go() -> None:
            seat = Seat(srv, tid, ana.cookie)
            await seat.connect()
            while seat.view is None or seat.view["turn"] != 0:
                await seat.recv()
            assert (await ask(seat, 1))["type"] == "hint"
            again = await ask(seat, 2)
            assert again["code"] == "hint_too_fast" and 0 < again["params"]["seconds"] <= 3
            await seat.close()

        run(go())


# ------------------------------------------------------------- the snooping client


HAND_ENDS = ("hand_end", "round_end")
#: one game to 40 stones: the bots play it out quickly once the player has left
MUS_QUICK = {"cows": 1, "games_per_cow": 1}
MUS_QUICK = {"cows": 1, "games_per_cow": 1}


async def snoop(seat: Seat) -> int:
    """Ask for a hint whenever this seat may act, and make the hinted move, until a hand
    has ended after three hints at least (the first, unless it left this seat little to
    do); the hints received."""
    mid, hints = 100, 0
    await seat.connect()
    while True:
        ended = any(
            e["type"] in HAND_ENDS
            for m in seat.messages
            if m["type"] == "update"
            for e in m["events"]
        )
        view = seat.view
        if (ended and hints >= 3) or view is None or view.get("over"):
            return hints
        if not (view.get("legal") and seat.seat in view.get("to_act", [])):
            await seat.recv()
            continue
        mid += 1
        answer = await ask(seat, mid)
        assert answer["type"] == "hint", answer
        hints += 1
        if answer["action"] is None or answer["seq"] != seat.seq:
            await seat.recv()  # the table moved on while the bot thought
            continue
        await seat.send({"type": "act", "action": answer["action"], "id": mid})
        while (await seat.recv())["type"] not in ("update", "error"):
            pass


def hands_by_seq(record: dict[str, Any], me: int) -> dict[int, set[str]]:
    """At each update number, the tiles or cards the other seats hold and ``me`` does
    not, by the engine replaying the stored record."""
    rec = load_record(json.dumps(record))
    state = rec.game.start(rec.seats, rec.settings, rec.deals)

    def theirs() -> set[str]:
        mine = set(state.view(me).get("hand") or [])
        others = [set(state.view(s).get("hand") or []) for s in range(rec.seats) if s != me]
        return set().union(*others) - mine

    out = {1: theirs()}
    made = 0
    for k, action in enumerate(rec.actions, start=2):
        while made < len(rec.signals) and rec.signals[made]["after"] == k - 2:
            state.replay_signal(rec.signals[made])
            made += 1
        state.apply(action)
        out[k] = theirs()
    return out


def finished(server: Server, tid: str, seconds: float = 180) -> None:
    deadline = time.time() + seconds
    while time.time() < deadline:
        if httpx.get(f"{server.http}/api/tables/{tid}").json()["table"]["status"] == "finished":
            return
        time.sleep(0.3)
    raise AssertionError(f"table {tid} did not finish")


@pytest.mark.parametrize(
    ("game", "body"),
    [
        ("mus", {"bots": dict.fromkeys("123", "greedy"), "settings": MUS_QUICK}),
        ("cards", {"bots": {"1": "greedy"}, "settings": {"target": 31}}),
    ],
)
def test_a_snooping_client_never_gets_another_seats_cards(
    server: Server, game: str, body: dict[str, Any]
) -> None:
    """A hand asked hint by hint: no frame names a card of another seat's hand at the
    moment it was sent (a hint's action, its why), and every update is the seat's own
    view; then the player leaves, a bot plays on, and the stored record says whose
    cards were whose."""
    ana = Person(server, "Ana")
    tid = ana.play_at(game, hints=True, **body)

    async def go() -> Seat:
        seat = Seat(server, tid, ana.cookie)
        hints = await snoop(seat)
        assert hints >= 3 or (seat.view and seat.view["over"]), hints
        if not seat.view or not seat.view["over"]:
            r = ana.http.delete(f"/api/tables/{tid}/seats/0")  # a bot plays on to the end
            assert r.status_code == 200, r.text
        await seat.close()
        return seat

    seat = run(go())
    finished(server, tid)
    record = httpx.get(f"{server.http}/api/games/{tid}/record").json()["record"]
    check_messages_against_record(seat, record, 0)
    theirs = hands_by_seq(record, 0)
    seq = 0
    for msg in seat.messages:
        seq = msg.get("seq", seq) if msg["type"] in ("welcome", "update", "hint") else seq
        if msg["type"] in ("welcome", "update"):
            continue  # each the seat's own view and events: checked against the record
        text = json.dumps(msg)
        leaked = [x for x in theirs[max(seq, 1)] if f'"{x}"' in text]
        assert not leaked, (msg, leaked)
    told = [m for m in seat.messages if m["type"] == "hint"]
    assert told and all(m["action"] is None or m["action"]["seat"] == 0 for m in told)


def thirty_position() -> Cards:
    """At 20, the king makes 30 (30 points, and only an ace scores after it); every
    other card of seat 0 scores nothing and leaves the next player a multiple of five."""
    state = cards_start(
        cards_deal(
            [["KD", "2C", "3C", "4D", "6D"], ["10S", "8H", "4H", "7H", "9H"]],
            stock_top=["2D", "6H"],
            dealer=0,
        )
    )
    cards_play(state, 1, "10S", claim=True)
    cards_play(state, 0, "2C")
    cards_play(state, 1, "8H", claim=True)
    assert state.to_act == (0,) and state.view(0)["total"] == 20
    return state


def test_a_cards_hint_scores_what_the_play_makes() -> None:
    state = thirty_position()
    for seed in range(2):
        answer = hint(request(Cards, 0, state.view(0), seed=seed))
        assert answer["action"] == {"seat": 0, "type": "play", "card": "KD", "claim": True}
        assert answer["why"] == {"key": "scores", "points": 30}


def test_a_mus_hint_says_the_pairs_chance_in_the_lance() -> None:
    """Four kings at Grande: a bet counts on a likely win; four aces: a pass keeps out of
    a likely loss (the strength tables, from the seat's hand alone)."""
    for hand, move, key in (
        ("12o 12c 12e 12b", "bet", "pair_wins"),
        ("1o 1c 1e 1b", "pass", "pair_loses"),
    ):
        others = ["4o 5c 6e 7b", "4c 5e 6b 7o", "4e 5b 6o 7c"]
        state = mus_start(mus_deal([hand, *others], mano=0))
        mus_play(state, "0 no_mus")
        view = state.view(0)
        assert view["phase"] == "speak" and view["lance"] == "grande"
        amount = {"amount": 2} if move == "bet" else {}
        action = Mus.parse_action({"seat": 0, "type": move, **amount}, 4)
        bot = make_bot("expert", Mus, 0)
        why = mus_explain(bot, view, action)
        assert why is not None and why["key"] == key and why["lance"] == "grande", why
        assert (why["chance"] >= 50) == (key == "pair_wins")


def test_a_hint_by_estimate_says_it_in_points_or_in_a_share_of_a_game() -> None:
    """Not "best estimate (-0.62)": the search's mean reward said as players count — in
    Muggins the hand's points, yours less the other's, that the reward stands for
    (-0.62 is about 18 behind: 25 · atanh(-0.62)); in Mus the pair's share of a game
    (half the reward: one pair's gain is the other's loss)."""
    state = scoring_position()
    view = state.view(1)
    bot = make_bot("expert", Dominoes, 1)
    dull = next(a for a in bot.legal(view) if a.to_json()["tile"] in ("6-1", "1-6"))
    bot.estimates = {dull: -0.62}
    said = why(bot, view, dull, seed=1)
    assert said["key"] == "best_estimate" and said["unit"] == "points"
    assert said["amount"] == pytest.approx(25 * math.atanh(-0.62), abs=1e-3)
    assert round(said["amount"]) == -18

    hands = ["12o 12c 1e 1b", "4o 5c 6e 7b", "4c 5e 6b 7o", "4e 5b 6o 7c"]
    view = mus_start(mus_deal(hands, mano=0)).view(0)
    bot = make_bot("expert", Mus, 0)
    mus = next(a for a in bot.legal(view) if a.type == "mus")
    bot.estimates = {mus: 0.3}
    assert why(bot, view, mus, seed=1) == {
        "key": "best_estimate",
        "value": 0.3,
        "unit": "games",
        "amount": 0.15,
    }
