"""Mus señas at a live table (docs/rules.md §3.8; docs/protocol.md ``signal``): the
partner sees one at once, an opponent only if it caught it, the maker who caught it,
a spectator none while the hand is played; a false one or one at the wrong moment is
refused with its reason and changes nothing; stored, they survive a restart with the
same catches, and the record lists them and replays."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from taverna.bots import make_bot
from taverna.games import get_game
from taverna.games.mus.senas import REASONS, SIGNS, draw_catches
from taverna.games.record import load_record, replay

from .restart_helpers import sql
from .server_helpers import Person, Seat, Server, database_url, drop_database, own_server
from .test_server import check_messages_against_record

BACKENDS = ["sqlite", "postgres"]
Mus = get_game("mus")


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, TAVERNA_GRACE_SECONDS="60").start()
    yield srv
    srv.stop()
    drop_database(url)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


class Four:
    """Four people at a Mus table (seats 0 and 2 partners), each on a socket, moved by
    local greedy bots one move at a time, and perhaps a spectator."""

    def __init__(self, server: Server, settings: dict[str, Any], watch: bool = True) -> None:
        self.server = server
        self.people = [Person(server, name) for name in ("Ana", "Bruno", "Carla", "Dario")]
        game = {"cows": 1, "games_per_cow": 1, **settings}
        self.tid: str = self.people[0].create("mus", settings=game)["id"]
        for seat, p in enumerate(self.people):
            p.sit(self.tid, seat)
        self.people[0].start(self.tid)
        self.seats = [Seat(server, self.tid, p.cookie) for p in self.people]
        self.spectator = Seat(server, self.tid) if watch else None
        self.bots = [make_bot("greedy", Mus, s, seed=10 + s) for s in range(4)]

    @property
    def everybody(self) -> list[Seat]:
        return [*self.seats, *([self.spectator] if self.spectator else [])]

    async def connect(self) -> None:
        for s in self.everybody:
            await s.connect()

    async def step(self) -> None:
        """The seat to act makes its greedy move; everybody hears the update."""
        view = self.seats[0].view
        assert view is not None and not view["over"]
        actor = view["to_act"][0]
        action = self.bots[actor].choose(self.seats[actor].view)
        assert action is not None
        await self.seats[actor].send({"type": "act", "action": action.to_json()})
        for s in self.everybody:
            await s.expect("update")

    async def until(self, cond: Callable[[], bool], limit: int = 400) -> None:
        for _ in range(limit):
            if cond():
                return
            await self.step()
        raise AssertionError("the moment never came")

    async def sign(self, seat: int, sign: str, mid: int = 1) -> dict[str, Any]:
        """Make a seña; the answer to it (an ack or an error)."""
        me = self.seats[seat]
        await me.send({"type": "signal", "sign": sign, "id": mid})
        while True:
            msg = await me.recv()
            if msg["type"] in ("ack", "error") and msg.get("id") == mid:
                return msg

    async def quiet(self) -> None:
        """Every socket has read what was sent to it so far (a ping answered)."""
        for s in self.everybody:
            await s.send({"type": "ping", "id": "quiet"})
            while (await s.recv())["type"] != "pong":
                pass

    def signals_heard(self, who: Seat) -> list[dict[str, Any]]:
        return [m for m in who.messages if m["type"] == "signal"]

    async def close(self) -> None:
        for s in self.everybody:
            await s.close()


def may(four: Four, seat: int) -> list[str]:
    view = four.seats[seat].view
    assert view is not None
    return list(view.get("may_signal", []))


def test_a_sena_reaches_the_partner_and_no_opponent_at_catch_0(server: Server) -> None:
    four = Four(server, {"catch": 0})

    async def go() -> None:
        await four.connect()
        await four.until(lambda: bool(may(four, 0)))
        sign = may(four, 0)[0]
        seq = four.seats[0].seq
        answer = await four.sign(0, sign)
        assert answer == {"type": "ack", "id": 1, "seq": seq}  # no update: not a move
        await four.quiet()
        mine = four.signals_heard(four.seats[0])
        assert len(mine) == 1 and mine[0]["signal"]["caught_by"] == []
        assert mine[0]["signal"]["seat"] == 0 and mine[0]["signal"]["sign"] == sign
        assert sign not in mine[0]["may_signal"]
        partner = four.signals_heard(four.seats[2])
        assert [m["signal"] for m in partner] == [
            {"seat": 0, "sign": sign, "after": mine[0]["signal"]["after"]}
        ]
        for other in (four.seats[1], four.seats[3], four.spectator):
            assert other is not None
            assert four.signals_heard(other) == []
        # the next update's views say the same: the partner's has it, the opponents' not
        await four.step()
        assert any(x["sign"] == sign for x in four.seats[2].view["signals"])  # type: ignore[index]
        for other in (four.seats[1], four.seats[3], four.spectator):
            assert other is not None and other.view is not None
            assert other.view["signals"] == [] or all(x["seat"] != 0 for x in other.view["signals"])
        await four.close()

    run(go())


def test_at_catch_1_the_opponents_catch_it_and_the_maker_hears_who(server: Server) -> None:
    four = Four(server, {"catch": 1})

    async def go() -> None:
        await four.connect()
        await four.until(lambda: bool(may(four, 1)))
        sign = may(four, 1)[0]
        assert (await four.sign(1, sign))["type"] == "ack"
        await four.quiet()
        (mine,) = four.signals_heard(four.seats[1])
        assert mine["signal"]["caught_by"] == [2, 0]  # in seat order after the maker
        for seat in (0, 2, 3):  # the partner, and both opponents who caught it
            (heard,) = four.signals_heard(four.seats[seat])
            assert heard["signal"] == {"seat": 1, "sign": sign, "after": mine["signal"]["after"]}
            assert "may_signal" not in heard
        assert four.spectator is not None and four.signals_heard(four.spectator) == []
        await four.close()

    run(go())


def test_wrong_senas_are_refused_with_their_reason_and_change_nothing(server: Server) -> None:
    four = Four(server, {"catch": 1})

    async def go() -> None:
        await four.connect()
        # before the mus is cut: no seña at all
        answer = await four.sign(0, "ciego")
        assert answer["code"] == "illegal" and answer["reason"] == "sign_before_mus_cut"
        assert answer["params"] == {"sign": "ciego"}
        answer = await four.sign(0, "tres_reyes", 2)
        assert (answer["code"], answer["reason"]) == ("illegal", "unknown_sign")
        await four.seats[0].send({"type": "signal", "id": 3})
        assert (await four.seats[0].expect("error"))["code"] == "bad_message"
        assert four.spectator is not None
        await four.spectator.send({"type": "signal", "sign": "ciego", "id": 4})
        assert (await four.spectator.expect("error"))["code"] == "spectator"

        await four.until(lambda: bool(may(four, 0)))
        wrong = [x for x in SIGNS if x not in may(four, 0)]
        before = [len(four.signals_heard(s)) for s in four.everybody]
        for k, sign in enumerate(wrong):
            answer = await four.sign(0, sign, 10 + k)
            assert answer["code"] == "illegal", answer
            assert answer["reason"] in REASONS and answer["reason"] != "sign_repeated", answer
            assert answer["params"]["sign"] == sign
        right = may(four, 0)[0]
        assert (await four.sign(0, right, 30))["type"] == "ack"
        answer = await four.sign(0, right, 31)
        assert (answer["code"], answer["reason"]) == ("illegal", "sign_repeated")
        await four.quiet()
        after = [len(four.signals_heard(s)) for s in four.everybody]
        # the one seña made reached the maker, the partner and both opponents (catch 1)
        assert [b - a for a, b in zip(before, after, strict=True)] == [1, 1, 1, 1, 0]
        await four.close()

    run(go())
    tid = four.tid
    ana = four.people[0]
    r = ana.http.get(f"/api/tables/{tid}")
    assert r.status_code == 200


def test_a_game_without_senas_says_so(server: Server) -> None:
    ana = Person(server, "Ana")
    dominoes = ana.play_at("dominoes", bots={1: "greedy"})
    mus = ana.play_at(
        "mus", settings={"senas": False}, bots={1: "greedy", 2: "greedy", 3: "greedy"}
    )

    async def go() -> None:
        for tid, reason in ((dominoes, "no_signals"), (mus, "senas_off")):
            me = Seat(server, tid, ana.cookie)
            await me.connect()
            await me.send({"type": "signal", "sign": "ciego", "id": 1})
            answer = await me.expect("error")
            assert (answer["code"], answer["reason"]) == ("illegal", reason), answer
            await me.close()

    run(go())


def test_a_bot_partner_makes_senas_and_nobody_hears_one_not_theirs(server: Server) -> None:
    """A person with a greedy bot as partner, against two greedy bots, to the end of the
    game: the bots make their señas; every seña frame the person's socket got is one its
    seat may see (its partner's, or an opponent's it caught), and it got each of those;
    the record lists them and replays, and every view matches the record."""
    ana = Person(server, "Ana")
    tid = ana.play_at(
        "mus",
        settings={"cows": 1, "games_per_cow": 1, "catch": 0.5},
        bots={1: "greedy", 2: "greedy", 3: "greedy"},
    )

    async def go() -> Seat:
        me = Seat(server, tid, ana.cookie)
        await me.connect()
        await me.play("greedy", seed=5)
        await me.close()
        return me

    me = run(go())
    record = httpx.get(f"{server.http}/api/games/{tid}/record").json()["record"]
    signals = record.get("signals", [])
    assert any(x["seat"] == 2 for x in signals), "the bot partner made no seña"
    assert replay(load_record(json.dumps(record))).ok
    # who caught each was drawn from the table's seed and the seña's number alone
    (seed,) = sql(server.url, "SELECT seed FROM tables WHERE id = :t", t=tid)[0]
    for k, x in enumerate(signals):
        assert x["caught_by"] == draw_catches(seed, k, x["seat"], 0.5)
    welcome = next(m for m in me.messages if m["type"] == "welcome")
    heard = welcome["view"]["signals"] + [m["signal"] for m in me.messages if m["type"] == "signal"]
    meant = [
        {"seat": x["seat"], "sign": x["sign"], "after": x["after"]}
        for x in signals
        if x["seat"] != 0 and (x["seat"] == 2 or 0 in x["caught_by"])
    ]
    assert heard == meant  # each seña of the partner's or caught, and nothing else
    assert heard  # the partner's at least
    check_messages_against_record(me, record, 0)  # every view as the record's señas say
    steps = httpx.get(f"{server.http}/api/games/{tid}/replay").json()
    assert steps["signals"] == signals  # the replay page shows every seña


@pytest.mark.parametrize("kind", BACKENDS)
def test_senas_are_stored_and_come_back_after_a_kill(kind: str, tmp_path: Any) -> None:
    with own_server(kind, tmp_path) as srv:
        four = Four(srv, {"catch": 0.5}, watch=False)

        async def first() -> dict[str, Any]:
            await four.connect()
            await four.until(lambda: bool(may(four, 0)) and bool(may(four, 3)))
            assert (await four.sign(0, may(four, 0)[0]))["type"] == "ack"
            assert (await four.sign(3, may(four, 3)[0], 2))["type"] == "ack"
            await four.quiet()
            # its own, and seat 3's if it caught it
            (mine,) = [m for m in four.signals_heard(four.seats[0]) if m["signal"]["seat"] == 0]
            await four.close()
            return mine

        mine = run(first())
        srv.kill()  # SIGKILL: no shutdown
        srv.start()

        async def second() -> None:
            again = Seat(srv, four.tid, four.people[0].cookie)
            welcome = await again.connect()
            shown = welcome["view"]["signals"]
            assert mine["signal"] in shown  # the same seña, caught by the same seats
            assert mine["signal"]["sign"] not in welcome["view"]["may_signal"]
            partner = Seat(srv, four.tid, four.people[2].cookie)
            assert mine["signal"]["sign"] in [
                x["sign"] for x in (await partner.connect())["view"]["signals"]
            ]
            await again.close()
            await partner.close()

        run(second())
