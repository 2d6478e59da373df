"""Moderation for real (issue 18), on SQLite and PostgreSQL: a banned account is refused
everywhere it could act and told why and until when; a silenced one only in the chat; a
non-moderator's try is refused (403) and logged; reported messages and suspicious pairs
are listed for moderators."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from .accounts_helpers import ACCOUNT_ENV, Member
from .server_helpers import Server, database_url, drop_database
from .test_tournaments import grant


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    srv = Server(url, **ACCOUNT_ENV).start()
    yield srv
    srv.stop()
    drop_database(url)


def mod_of(server: Server) -> Member:
    mod = Member(server, "Mod", "10.90.0.1")
    grant(server.url, mod.name)
    return mod


def test_a_non_moderator_is_refused_and_logged(server: Server) -> None:
    mod, eve, ana = (
        mod_of(server),
        Member(server, "Eve", "10.90.0.2"),
        Member(server, "A", "10.90.0.3"),
    )
    for path, body in (
        ("/api/moderation/ban", {"player": ana.name, "minutes": 5, "reason": "x"}),
        ("/api/moderation/silence", {"player": ana.name, "minutes": 5, "reason": "x"}),
        ("/api/moderation/unban", {"player": ana.name, "reason": "x"}),
    ):
        r = eve.http.post(path, json=body)
        assert r.status_code == 403 and r.json()["code"] == "not_moderator", r.text
    for path in ("/api/moderation/reports", "/api/moderation/suspicious", "/api/moderation/log"):
        assert eve.http.get(path).status_code == 403
    assert ana.me().get("banned") is None  # nothing changed
    entries = mod.http.get("/api/moderation/log").json()["entries"]
    refused = [e for e in entries if e["moderator"] == eve.name]
    assert {e["action"] for e in refused} >= {"ban", "silence", "lift_ban", "see_log"}
    assert all(e["allowed"] is False for e in refused)


def test_a_banned_account_is_refused_everywhere_it_could_act(server: Server) -> None:
    mod, ana, bea = (
        mod_of(server),
        Member(server, "Ana", "10.91.0.1"),
        Member(server, "Bea", "10.91.0.2"),
    )
    table = ana.create("dominoes", settings={"target": 100})
    ana.sit(table["id"], 0)
    bea.sit(table["id"], 1)
    ana.start(table["id"])
    open_table = ana.create("cards")["id"]
    starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    tour = mod.http.post(
        "/api/tournaments", json={"game": "cards", "name": "T", "starts_at": starts}
    ).json()["tournament"]["id"]

    async def go() -> None:
        seat = bea.seat(table["id"])
        await seat.connect()
        before = seat.seq
        r = mod.http.post(
            "/api/moderation/ban", json={"player": bea.name, "minutes": 30, "reason": "insults"}
        )
        assert r.status_code == 200, r.text
        # on the socket already open: no move, no seña, no chat
        for msg in (
            {"type": "act", "action": {"type": "pass"}, "id": 1},
            {"type": "chat", "text": "hello", "id": 2},
            {"type": "signal", "sign": "ciego", "id": 3},
        ):
            await seat.send(msg)
            err = await seat.expect("error")
            assert err["code"] == "banned" and err["params"]["reason"] == "insults", err
            assert err["id"] == msg["id"]
        assert seat.seq == before  # the table did not move
        await seat.close()

    asyncio.run(go())
    # HTTP: everything that acts is refused, with the reason and the end
    attempts = [
        ("POST", "/api/tables", {"game": "dominoes"}),
        ("POST", f"/api/tables/{open_table}/seats/1", None),
        ("POST", "/api/play-now", {"game": "cards"}),
        ("POST", f"/api/tables/{table['id']}/again", None),
        ("POST", f"/api/tournaments/{tour}/entries", {}),
        ("DELETE", f"/api/tables/{table['id']}/seats/1", None),
    ]
    for method, path, body in attempts:
        r = bea.http.request(method, path, json=body)
        assert r.status_code == 403, (path, r.text)
        got = r.json()
        assert got["code"] == "banned" and got["params"]["reason"] == "insults", got
        assert datetime.fromisoformat(got["params"]["until"]) > datetime.now(UTC)
    me = bea.me()  # looking is still allowed, and says why
    assert me["name"] == bea.name
    session = bea.http.get("/api/session").json()["player"]
    assert session["banned"]["reason"] == "insults"
    # lifted: she may sit again
    r = mod.http.post("/api/moderation/unban", json={"player": bea.name, "reason": "apologised"})
    assert r.status_code == 200
    assert bea.http.post(f"/api/tables/{open_table}/seats/1").status_code == 200
    actions = [
        (e["action"], e["target"]) for e in mod.http.get("/api/moderation/log").json()["entries"]
    ]
    assert ("ban", bea.name) in actions and ("lift_ban", bea.name) in actions


def test_a_silenced_account_plays_but_does_not_chat(server: Server) -> None:
    mod, ana, bea = (
        mod_of(server),
        Member(server, "Ana", "10.92.0.1"),
        Member(server, "Bea", "10.92.0.2"),
    )
    table = ana.create("dominoes", settings={"target": 100})
    ana.sit(table["id"], 0)
    bea.sit(table["id"], 1)
    ana.start(table["id"])

    async def go() -> None:
        a, b = ana.seat(table["id"]), bea.seat(table["id"])
        await a.connect()
        await b.connect()
        await a.send({"type": "chat", "text": "you play like a <b>goat</b>", "id": 7})
        said = await a.expect("chat")
        message = said["message"]["id"]
        r = bea.http.post(
            f"/api/tables/{table['id']}/chat/{message}/report", json={"reason": "rude"}
        )
        assert r.status_code in (200, 201), r.text
        r = mod.http.post(
            "/api/moderation/silence", json={"player": ana.name, "minutes": 10, "reason": "rude"}
        )
        assert r.status_code == 200
        await a.send({"type": "chat", "text": "again", "id": 8})
        err = await a.expect("error")
        assert err["code"] == "silenced" and err["params"]["reason"] == "rude"

        # still plays: a move of hers is taken. Each side plays until it has seen her
        # move in its own messages (not in the other's: a draw leaves her the turn, and a
        # side that looked at the other's messages before they arrived would wait forever)
        def she_moved(conn: Any) -> Callable[[object], bool]:
            since = len(conn.messages)

            def seen(_: object) -> bool:
                return any(
                    e.get("seat") == a.seat and e.get("type") not in ("deal", "timeout")
                    for m in conn.messages[since:]
                    if m["type"] == "update"
                    for e in m["events"]
                )

            return seen

        hers, seen_by_b = she_moved(a), she_moved(b)
        await asyncio.gather(a.play("greedy", until=hers), b.play("greedy", until=seen_by_b))
        assert hers(None) and seen_by_b(None)
        await a.close()
        await b.close()

    asyncio.run(go())
    reports = mod.http.get("/api/moderation/reports").json()["reports"]
    mine = [r for r in reports if r["name"] == ana.name]
    assert (
        mine and mine[0]["text"] == "you play like a <b>goat</b>" and mine[0]["reasons"] == ["rude"]
    )


def test_accounts_on_one_address_at_many_tables_are_listed(server: Server) -> None:
    mod = mod_of(server)
    twin_a, twin_b = Member(server, "TwA", "10.93.0.7"), Member(server, "TwB", "10.93.0.7")
    for _ in range(3):
        t = twin_a.create("dominoes", official=True, stake=10)
        twin_a.sit(t["id"], 0)
        twin_b.sit(t["id"], 1)
    pairs = mod.http.get("/api/moderation/suspicious").json()["pairs"]
    found = [p for p in pairs if set(p["players"]) == {twin_a.name, twin_b.name}]
    assert found and found[0]["why"] == "shared_address" and found[0]["tables"] == 3


def test_reports_count_reporters_not_reports(server: Server) -> None:
    """Thirty throw-away guests from one address report one message: one reporter. Each
    account counts for itself, and guests of another address as one more."""
    from .server_helpers import Person

    mod, ana = mod_of(server), Member(server, "Ana", "10.94.0.1")
    table = ana.create("dominoes")

    async def said() -> int:
        seat = ana.seat(table["id"])
        await seat.connect()
        await seat.send({"type": "chat", "text": "report me", "id": 1})
        message: int = (await seat.expect("chat"))["message"]["id"]
        await seat.close()
        return message

    message = asyncio.run(said())
    path = f"/api/tables/{table['id']}/chat/{message}/report"

    def guest(address: str) -> Person:
        person = Person(server, "Throwaway")
        person.http.headers["X-Forwarded-For"] = address
        return person

    for _ in range(30):
        r = guest("10.94.1.1").http.post(path, json={"reason": "spam"})
        assert r.status_code == 200 and r.json()["new"] is True, r.text
    reports = mod.http.get("/api/moderation/reports").json()["reports"]
    [found] = [r for r in reports if r["message"] == message]
    assert found["reporters"] == 1 and found["reports"] == 30, found
    # accounts, even from that very address, each count; another address's guest too
    for _ in range(2):
        r = Member(server, "Rep", "10.94.1.1").http.post(path, json={})
        assert r.status_code == 200
    assert guest("10.94.2.2").http.post(path, json={}).status_code == 200
    reports = mod.http.get("/api/moderation/reports").json()["reports"]
    [found] = [r for r in reports if r["message"] == message]
    assert found["reporters"] == 4 and found["reports"] == 33, found
