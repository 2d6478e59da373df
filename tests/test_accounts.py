"""Accounts over HTTP on SQLite and PostgreSQL: registration, login, sessions, privacy, limits."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from .accounts_helpers import ACCOUNT_ENV, PASSWORD, Member, unique
from .server_helpers import Person, Server, database_url, drop_database

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("db"))
    limits = {
        "TAVERNA_LOGIN_LIMIT_NAME": "3/60",
        "TAVERNA_LOGIN_LIMIT_ADDRESS": "6/60",
        "TAVERNA_REGISTER_LIMIT": "3/60",
        "TAVERNA_LOGIN_LIMIT_ACCOUNT": "8/3600",
        "TAVERNA_LOGIN_DELAY_MAX": "2",
    }
    srv = Server(url, **{**ACCOUNT_ENV, **limits}).start()
    yield srv
    srv.stop()
    drop_database(url)


def client(server: Server, address: str) -> httpx.Client:
    return httpx.Client(base_url=server.http, timeout=10, headers={"X-Forwarded-For": address})


def test_register_log_out_and_in(server: Server) -> None:
    ana = Member(server, "Ana", "10.1.0.1")
    assert ana.player["registered"] and ana.player["chips"] == 1000
    assert ana.player["name"] == ana.name
    me = ana.me()
    assert me["chips"] == 1000 and me["ratings"] == {}
    [welcome] = ana.ledger()
    assert welcome["delta"] == 1000 and welcome["balance"] == 1000
    assert welcome["reason"] == "welcome"

    # the cookie: HTTP-only, SameSite; logout ends the session on the server too
    r = client(server, "10.1.0.1").post(
        "/api/login", json={"username": ana.name.upper(), "password": PASSWORD}
    )
    assert r.status_code == 200 and r.json()["player"]["chips"] == 1000
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie
    old = ana.cookie
    assert ana.http.post("/api/logout").status_code == 200
    stale = httpx.get(f"{server.http}/api/me", headers={"Cookie": old})
    assert stale.status_code == 401  # a copy of the old cookie is worth nothing now
    assert ana.http.get("/api/me").status_code == 401

    r = ana.http.post("/api/login", json={"username": ana.name, "password": PASSWORD})
    assert r.status_code == 200
    assert ana.me()["id"] == ana.player["id"]
    assert r.json()["player"]["id"] == ana.player["id"]


def test_wrong_credentials_do_not_say_which_part_was_wrong(server: Server) -> None:
    bea = Member(server, "Bea", "10.1.0.2")
    c = client(server, "10.1.0.3")
    wrong_password = c.post("/api/login", json={"username": bea.name, "password": "x" * 12})
    no_such_name = c.post("/api/login", json={"username": unique("Nobody"), "password": PASSWORD})
    assert wrong_password.status_code == no_such_name.status_code == 401
    assert (
        wrong_password.json()
        == no_such_name.json()
        == {"detail": "wrong username or password", "code": "wrong_credentials", "params": {}}
    )


def test_a_taken_name_case_and_width_blind(server: Server) -> None:
    first = Member(server, "Carla", "10.1.0.4")
    c = client(server, "10.1.0.5")
    for name in (first.name, first.name.upper(), first.name.lower()):
        r = c.post("/api/register", json={"username": name, "password": PASSWORD})
        assert r.status_code == 409 and "taken" in r.json()["detail"], r.text
    # already logged in: one account per browser at a time
    r = first.http.post("/api/register", json={"username": unique("Other"), "password": PASSWORD})
    assert r.status_code == 409 and "log out first" in r.json()["detail"]


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("short", "too short (5 characters)"),
        ("NAME and more", "contains the username"),
        ("password123", "too easy to guess"),
        ("aaaaaaaaaaaa", "too easy to guess"),
    ],
)
def test_a_weak_password_says_what_is_required(server: Server, password: str, why: str) -> None:
    name = unique("Dario")
    password = password.replace("NAME", name.lower())
    r = client(server, "10.1.0.6").post(
        "/api/register", json={"username": name, "password": password}
    )
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert why in detail and "at least 10 characters" in detail


@pytest.mark.parametrize("name", ["ab", "x" * 21, "-dash", "with space", "semi;colon"])
def test_a_bad_username_says_the_rule(server: Server, name: str) -> None:
    r = client(server, "10.1.0.7").post(
        "/api/register", json={"username": name, "password": PASSWORD}
    )
    assert r.status_code == 422 and "3 to 20 characters" in r.json()["detail"]


def test_a_guest_who_registers_keeps_their_player(server: Server) -> None:
    guest = Person(server, "Elena")
    assert guest.player.get("registered") is False
    name = unique("Elena")
    r = guest.http.post("/api/register", json={"username": name, "password": PASSWORD})
    assert r.status_code == 201
    assert r.json()["player"]["id"] == guest.player["id"]
    assert r.json()["player"]["name"] == name
    # the guest cookie was replaced by the login's, and no longer works
    stale = httpx.get(f"{server.http}/api/session", headers={"Cookie": guest.cookie})
    assert stale.status_code == 200 and stale.json() == {"player": None}
    assert "taverna_session=" in stale.headers["set-cookie"]  # the stale cookie is cleared
    assert httpx.get(f"{server.http}/api/me", headers={"Cookie": guest.cookie}).status_code == 401
    assert guest.http.get("/api/session").json()["player"]["registered"] is True


def test_a_guest_cannot_take_a_registered_name(server: Server) -> None:
    owner = Member(server, "Nora", "10.1.0.40")
    guest = httpx.Client(base_url=server.http, timeout=10)
    for name in (owner.name, owner.name.upper(), f"  {owner.name.lower()} "):
        r = guest.post("/api/session", json={"name": name})
        assert r.status_code == 409, name
        body = r.json()
        assert body["code"] == "name_registered" and body["params"] == {"name": name.strip()}
        assert "registered player" in body["detail"] and "log in" in body["detail"]
        assert "taverna_session" not in guest.cookies
    # any other name is fine, and so is a registered name's neighbour
    r = guest.post("/api/session", json={"name": f"{owner.name} jr"})
    assert r.status_code == 200 and r.json()["player"]["registered"] is False


def test_private_data_is_refused_to_others(server: Server) -> None:
    fede = Member(server, "Fede", "10.1.0.8")
    gina = Member(server, "Gina", "10.1.0.9")
    anon = httpx.Client(base_url=server.http)
    guest = Person(server, "Guest")
    assert anon.get("/api/me").status_code == 401
    assert anon.get("/api/me/ledger").status_code == 401
    assert anon.get(f"/api/players/{fede.name}/ledger").status_code == 401
    r = guest.http.get("/api/me/ledger")
    assert r.status_code == 403 and "register" in r.json()["detail"]
    assert guest.http.get("/api/me").json()["player"]["registered"] is False
    r = gina.http.get(f"/api/players/{fede.name}/ledger")
    assert r.status_code == 403 and "private" in r.json()["detail"]
    r = fede.http.get(f"/api/players/{fede.name}/ledger")
    assert r.status_code == 200 and r.json()["chips"] == 1000

    # the public profile: no chips, no ledger, no address
    profile = anon.get(f"/api/players/{fede.name}").json()
    assert profile["player"]["name"] == fede.name
    assert "chips" not in str(profile["player"]) and "10.1.0.8" not in str(profile)
    assert profile["history"] == []
    assert anon.get(f"/api/players/{unique('Nobody')}").status_code == 404


def test_failed_logins_are_limited_per_name_and_per_address(server: Server) -> None:
    hugo = Member(server, "Hugo", "10.2.0.1")
    wrong = {"username": hugo.name, "password": "not the password"}
    right = {"username": hugo.name, "password": PASSWORD}
    for k in range(3):  # TAVERNA_LOGIN_LIMIT_NAME=3/60, each from another address
        assert client(server, f"10.2.1.{k}").post("/api/login", json=wrong).status_code == 401
    # the name has failed too often: an address that failed for it waits, even with the
    # right password (it may be the attacker's, who guessed right) ...
    r = client(server, "10.2.1.0").post("/api/login", json=right)
    assert r.status_code == 429
    assert "this username" in r.json()["detail"] and "try again in" in r.json()["detail"]
    assert 0 < int(r.headers["Retry-After"]) <= 60
    assert r.json()["retry_after"] == int(r.headers["Retry-After"])
    # ... but the owner, from an address with no failures, is never locked out
    assert client(server, "10.2.1.9").post("/api/login", json=right).status_code == 200
    assert hugo.http.get("/api/me").status_code == 200  # an open session is not affected

    # one address trying many names: TAVERNA_LOGIN_LIMIT_ADDRESS=6/60
    c = client(server, "10.2.2.1")
    for _ in range(6):
        body = {"username": unique("Ghost"), "password": "not the password"}
        assert c.post("/api/login", json=body).status_code == 401
    r = c.post("/api/login", json={"username": unique("Ghost"), "password": "whatever123"})
    assert r.status_code == 429 and "your address" in r.json()["detail"]
    assert "Retry-After" in r.headers
    # another address is not held back by it
    ivo = Member(server, "Ivo", "10.2.3.1")
    r = client(server, "10.2.3.2").post(
        "/api/login", json={"username": ivo.name, "password": PASSWORD}
    )
    assert r.status_code == 200
    # and logging in right is not a failure: the same address may do it again and again
    for _ in range(8):
        r = client(server, "10.2.3.3").post(
            "/api/login", json={"username": ivo.name, "password": PASSWORD}
        )
        assert r.status_code == 200


def test_logins_at_once_are_counted_before_the_hash(server: Server) -> None:
    """61 logins at once for one name from one address (60 wrong, the right one last),
    and 100 at once for 100 names: the limits hold however many arrive together."""
    jo = Member(server, "Jo", "10.5.0.1")
    wrong = {"username": jo.name, "password": "not the password"}
    right = {"username": jo.name, "password": PASSWORD}

    async def burst(address: str, bodies: list[dict[str, str]]) -> list[int]:
        headers = {"X-Forwarded-For": address}
        async with httpx.AsyncClient(base_url=server.http, timeout=60, headers=headers) as c:
            answers = await asyncio.gather(*(c.post("/api/login", json=b) for b in bodies))
        return [a.status_code for a in answers]

    codes = asyncio.run(burst("10.5.1.1", [wrong] * 60 + [right]))
    assert codes.count(401) <= 3 and codes.count(429) >= 57, codes  # NAME limit 3/60
    assert codes[-1] == 429  # the right password from the attacker's address waits too
    names = [{"username": unique("Nobody"), "password": "not the password"} for _ in range(100)]
    codes = asyncio.run(burst("10.5.2.1", names))
    assert codes.count(401) <= 6 and codes.count(429) >= 94, codes  # ADDRESS limit 6/60
    # the owner, elsewhere, is not held back by any of it
    assert client(server, "10.5.3.1").post("/api/login", json=right).status_code == 200


def test_guesses_from_many_addresses_are_slowed_down_never_locked(server: Server) -> None:
    """60 wrong passwords for one account at once, each from its own address: the name
    and address limits see one failure each; the account's own count slows them down
    (TAVERNA_LOGIN_LIMIT_ACCOUNT=8/3600 here, then one try a delay of up to 2 s)."""
    zoe = Member(server, "Zoe", "10.7.0.1")  # registered: her browser has its device cookie
    assert zoe.http.cookies.get("taverna_device")
    wrong = {"username": zoe.name, "password": "not the password"}
    right = {"username": zoe.name, "password": PASSWORD}

    async def from_many(body: dict[str, str], first: int, count: int) -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server.http, timeout=60) as c:
            return await asyncio.gather(
                *(
                    c.post("/api/login", json=body, headers={"X-Forwarded-For": f"10.7.{n}.1"})
                    for n in range(first, first + count)
                )
            )

    answers = asyncio.run(from_many(wrong, 1, 60))
    codes = [a.status_code for a in answers]
    # 8 free, and perhaps one more if a delay of 1 s passed while they arrived
    assert codes.count(401) <= 9 and codes.count(429) >= 51, codes
    slowed = [a for a in answers if a.status_code == 429]
    assert all(
        a.json()["detail"].startswith("too many failed logins for this username;") for a in slowed
    )
    assert all(0 < int(a.headers["Retry-After"]) <= 2 for a in slowed)
    # the owner's browser (its device cookie) is never slowed down by others' failures
    assert zoe.http.post("/api/login", json=right).status_code == 200
    # the owner elsewhere (a new browser, a new address) waits at most the longest delay
    fresh = client(server, "10.7.200.1")
    for _ in range(5):
        r = fresh.post("/api/login", json=right)
        if r.status_code != 429:
            break
        assert int(r.headers["Retry-After"]) <= 2
        time.sleep(int(r.headers["Retry-After"]))
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("shared", [False, True], ids=["one node", "two nodes, Redis"])
def test_a_device_cookie_passes_for_its_own_account_only(shared: bool) -> None:
    """The gate itself (no HTTP): an account slowed down lets through the browsers of
    its owner, and only them; the delay doubles with each failure up to its longest.
    Shared: two nodes' gates on one Redis, each try on the other node."""
    import redis.asyncio as aioredis

    from taverna.server.config import Config
    from taverna.server.gate import Gate, SharedGate, TooMany

    from .redis_helpers import OwnRedis

    config = Config(login_limit_account="2/3600", login_delay_max=60)
    assert [Gate(config).delay(n) for n in (0, 1, 2, 3, 4, 9, 20)] == [0, 0, 1, 2, 4, 60, 60]
    own = OwnRedis().start() if shared else None

    async def go() -> None:
        if own is not None:
            client = aioredis.Redis.from_url(own.url, decode_responses=True)
            gates: list[Gate] = [SharedGate(config, client), SharedGate(config, client)]
        else:
            gates = [Gate(config)] * 2
        zoe, yan = await gates[0].trust("zoe"), await gates[1].trust("yan")
        for k in range(2):
            await gates[k].login(f"10.0.0.{k}", "yan")  # two failures: the next waits 1 s
        with pytest.raises(TooMany, match="for this username;") as slowed:
            await gates[0].login("10.0.1.1", "yan")
        assert 0 < slowed.value.seconds <= 1
        with pytest.raises(TooMany):
            await gates[1].login("10.0.1.1", "yan", zoe)  # Zoe's browser: not Yan's
        with pytest.raises(TooMany):
            await gates[0].login("10.0.1.1", "yan", "forged")
        await gates[1].login("10.0.1.1", "yan", yan)  # Yan's own browser: at once
        await gates[0].login("10.0.1.1", "zoe", zoe)
        if own is not None:
            await client.aclose()

    try:
        asyncio.run(go())
    finally:
        if own is not None:
            own.stop()


def test_registrations_are_limited_per_address(server: Server) -> None:
    c = client(server, "10.4.0.1")
    for _ in range(3):  # TAVERNA_REGISTER_LIMIT=3/60
        r = c.post("/api/register", json={"username": unique("Reg"), "password": PASSWORD})
        assert r.status_code == 201
        c.post("/api/logout")
    r = c.post("/api/register", json={"username": unique("Reg"), "password": PASSWORD})
    assert r.status_code == 429 and "registrations from your address" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) > 0


def test_official_tables_seat_registered_humans_with_the_stake(server: Server) -> None:
    jon = Member(server, "Jon", "10.3.0.1")
    kim = Member(server, "Kim", "10.3.0.2")
    guest = Person(server, "Luca")
    r = guest.http.post("/api/tables", json={"game": "dominoes", "official": True, "stake": 10})
    assert r.status_code == 403 and "registered" in r.json()["detail"]
    r = jon.http.post("/api/tables", json={"game": "dominoes", "official": True})
    assert r.status_code == 422 and "stake" in r.json()["detail"]
    r = jon.http.post("/api/tables", json={"game": "dominoes", "stake": 10})
    assert r.status_code == 422 and "only for official" in r.json()["detail"]
    r = jon.http.post(
        "/api/tables",
        json={"game": "dominoes", "official": True, "stake": 10, "bots": {1: "greedy"}},
    )
    assert r.status_code == 422 and "no bots" in r.json()["detail"]
    r = jon.http.post("/api/tables", json={"game": "dominoes", "official": True, "stake": 0})
    assert r.status_code == 422

    table = jon.create("dominoes", official=True, stake=2000)
    assert table["official"] is True and table["stake"] == 2000
    assert table["options"]["official"] is True
    tid = table["id"]
    r = guest.http.post(f"/api/tables/{tid}/seats/0")
    assert r.status_code == 403 and "registered" in r.json()["detail"]
    r = kim.http.post(f"/api/tables/{tid}/seats/0")
    assert (
        r.status_code == 409 and "the stake is 2000 chips and you have 1000" in r.json()["detail"]
    )
    r = jon.http.post(f"/api/tables/{tid}/seats/1/bot", json={"level": "greedy"})
    assert r.status_code == 409 and "humans only" in r.json()["detail"]

    listed = httpx.get(f"{server.http}/api/tables").json()["tables"]
    assert next(t for t in listed if t["id"] == tid)["official"] is True


def test_the_ranking_of_an_unknown_game(server: Server) -> None:
    r = httpx.get(f"{server.http}/api/ranking/chess")
    assert r.status_code == 404 and "unknown game 'chess'" in r.json()["detail"]
    assert r.json()["code"] == "unknown_game" and r.json()["params"] == {"game": "chess"}
    r = httpx.get(f"{server.http}/api/ranking/mus")
    assert r.status_code == 200 and r.json()["game"] == "mus"
    # the page: an unknown game is a 404 (the page says so), an alias goes to the game
    page = httpx.get(f"{server.http}/ranking/chess")
    assert page.status_code == 404 and "ranking.js" in page.text
    alias = httpx.get(f"{server.http}/ranking/dominoes?offset=50")
    assert alias.status_code == 308
    assert alias.headers["location"] == "/ranking/muggins-dominoes?offset=50"
    assert httpx.get(f"{server.http}/ranking/mus").status_code == 200


def test_every_refusal_carries_a_code_a_client_can_translate(server: Server) -> None:
    """docs/protocol.md, Errors: the English detail, a stable code and its facts."""
    c = client(server, "10.1.0.30")
    r = c.post("/api/register", json={"username": unique("Ivo"), "password": "short"})
    assert r.status_code == 422 and r.json()["code"] == "weak_password"
    assert r.json()["params"] == {"problem": "too_short", "length": 5}
    assert "at least 10 characters" in r.json()["detail"]  # the English stays the detail
    r = c.post("/api/register", json={"username": "a", "password": PASSWORD})
    assert r.status_code == 422 and r.json()["code"] == "bad_username"

    ivo = Member(server, "Ivo", "10.1.0.31")
    r = c.post("/api/register", json={"username": ivo.name.upper(), "password": PASSWORD})
    assert r.status_code == 409 and r.json()["code"] == "name_taken"
    assert r.json()["params"] == {"name": ivo.name.upper()}
    r = c.post("/api/login", json={"username": ivo.name, "password": "not the password"})
    assert r.status_code == 401 and r.json()["code"] == "wrong_credentials"
    assert httpx.get(f"{server.http}/api/me").json()["code"] == "not_logged_in"

    # an official table whose stake is more than a player has
    table = ivo.create("muggins-dominoes", official=True, stake=5000)
    r = ivo.http.post(f"/api/tables/{table['id']}/seats/0")
    assert r.status_code == 409 and r.json()["code"] == "not_enough_chips"
    assert r.json()["params"] == {"stake": 5000, "chips": 1000}
    guest = Person(server, "Guest")
    r = guest.http.post(f"/api/tables/{table['id']}/seats/1")
    assert r.status_code == 403 and r.json()["code"] == "not_registered"
