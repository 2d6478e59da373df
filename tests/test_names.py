"""Names people type (issue 13, items 6 and 7; issue 27, item 6): no invisible
characters, no look-alike of a name in use (Unicode's UTS #39 skeleton, an account's or a
guest's in the club), bots' names for bots; passwords hard to guess."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from taverna.server.names import name_keys, skeleton
from taverna.server.passwords import check_username, password_problem
from taverna.server.text import TextProblem
from taverna.server.text import name as clean_name

from .accounts_helpers import ACCOUNT_ENV, PASSWORD
from .restart_helpers import sql
from .server_helpers import Server, database_url, drop_database

CYRILLIC_A = "\u0410"  # А
CYRILLIC_I = "\u0456"  # і


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        ("Admin\u200b", "invisible"),  # a zero-width space at the end
        ("\u200b", "invisible"),  # nothing but
        ("Ana\u202eoB", "invisible"),  # a right-to-left override
        ("Ana\u0000", "control"),
        ("Ana\nBea", "control"),
        ("\u3164\u3164", "invisible"),  # Hangul fillers: letters that show as nothing
        ("Bruno (bot, medium)", "bot"),
        ("Eve ( BOT )", "bot"),
        ("   ", "blank"),
    ],
)
def test_names_that_do_not_show_what_they_are_are_refused(raw: str, kind: str) -> None:
    with pytest.raises(TextProblem) as e:
        clean_name(raw)
    assert e.value.problem == kind


def test_names_are_shown_as_normalised() -> None:
    assert clean_name("  Ana   Maria ") == "Ana Maria"
    assert clean_name("\uff21na") == "Ana"  # NFKC: fullwidth A
    assert clean_name("José") == "José"
    assert clean_name("Bot Lover") == "Bot Lover"  # only the tables' "(bot" is the bots'


def alike(a: str, b: str) -> bool:
    return bool(set(name_keys(clean_name(a))) & set(name_keys(clean_name(b))))


def test_look_alikes_share_a_key() -> None:
    for other in (f"{CYRILLIC_A}dmin", f"Adm{CYRILLIC_I}n", "ADMIN", "ADMlN", "\uff21dmin"):
        assert alike(other, "Admin"), other
    assert alike("Opa", "\u041e\u0440\u0430")  # Latin "Opa", Cyrillic "Ора"
    assert alike("0pa", "Opa")  # a zero for an O
    assert alike("H\u0430rdy", "Hardy")  # a Cyrillic а
    assert not alike("Ana", "Ann") and not alike("Ana", "Bea")
    assert not alike("Müller", "Muller")  # the diaeresis shows


def test_the_skeleton_is_unicodes_as_written() -> None:
    """UTS #39: one skeleton per string, no union of look-alike letters: "y" and "z" are
    not alike, though each looks like letters that look like letters of the other."""
    assert skeleton("abcy12") != skeleton("abcz12")
    assert not alike("abcy12", "abcz12")
    assert skeleton("H\u0430rdy") == "Hardy"
    assert skeleton("rn") == skeleton("m") == "rn"  # confusables.txt: m → rn
    assert skeleton("A\u200bdmin") == skeleton("Admin")  # the ignorables do not count
    assert skeleton(skeleton("\u041e\u0440\u0430")) == skeleton("\u041e\u0440\u0430")


def test_usernames_are_of_one_alphabet() -> None:
    assert check_username("Müller") == "Müller"
    assert check_username("Ελένη") == "Ελένη"
    for mixed in (f"{CYRILLIC_A}dmin", f"Adm{CYRILLIC_I}n"):
        with pytest.raises(ValueError, match="all of one alphabet"):
            check_username(mixed)
    with pytest.raises(ValueError, match="HANGUL"):
        check_username("\u3164\u3164\u3164")  # letters, but they show as nothing


@pytest.mark.parametrize("weak", ["abcabcabca", "1231231231", "qwertyuiop12", "password2024"])
def test_passwords_easy_to_guess_are_refused(weak: str) -> None:
    problem = password_problem("ana", weak)
    assert problem is not None and problem[0] == "too_common", weak


def test_passwords_hard_to_guess_pass() -> None:
    for strong in (PASSWORD, "Sesame-street-42", "a good long passphrase"):
        assert password_problem("ana", strong) is None


# ----------------------------------------------------------------- over HTTP


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("names"))
    env = {**ACCOUNT_ENV, "TAVERNA_REGISTER_LIMIT": "100/60", "TAVERNA_GUEST_NAME_MINUTES": "60"}
    srv = Server(url, **env).start()
    yield srv
    srv.stop()
    drop_database(url)


def _register(server: Server, name: str, password: str = PASSWORD) -> httpx.Response:
    with httpx.Client(base_url=server.http, timeout=10) as c:
        return c.post("/api/register", json={"username": name, "password": password})


def _guest(server: Server, name: str) -> httpx.Response:
    with httpx.Client(base_url=server.http, timeout=10) as c:
        return c.post("/api/session", json={"name": name})


def _guest_client(server: Server, name: str) -> httpx.Client:
    c = httpx.Client(base_url=server.http, timeout=10)
    r = c.post("/api/session", json={"name": name})
    assert r.status_code == 200, r.text
    return c


def test_look_alikes_of_an_account_are_refused(server: Server) -> None:
    tag = server.port % 1000  # module servers share nothing but this process
    assert _register(server, f"Opa{tag}").status_code == 201
    r = _register(server, f"\u041e\u0440\u0430{tag}")  # Cyrillic О, р, а
    assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
    assert f"looks like 'Opa{tag}'" in r.json()["detail"]
    r = _register(server, f"{CYRILLIC_A}dmin{tag}")
    assert r.status_code == 422 and "one alphabet" in r.json()["detail"]
    # a guest may not take it either, in any case or disguise
    for disguise in (f"OPA{tag}", f"\u041e\u0440\u0430{tag}", f"0pa{tag}"):
        r = _guest(server, disguise)
        assert r.status_code == 409 and r.json()["code"] == "name_registered", disguise


def test_guest_names_that_hide_something_are_refused(server: Server) -> None:
    for raw, problem in (
        ("Admin\u200b", "invisible"),
        ("\u200b", "invisible"),
        ("Ana\u202eoB", "invisible"),
        ("Ana\x00", "control"),
        ("\u3164\u3164", "invisible"),
        ("Zo" + "\u0301" * 9, "marks"),
        ("Bruno (bot, medium)", "bot"),
    ):
        r = _guest(server, raw)
        assert r.status_code == 422 and r.json()["code"] == "bad_name", raw
        assert r.json()["params"]["problem"] == problem
    assert _guest(server, "  Ana   Maria  ").json()["player"]["name"] == "Ana Maria"


def test_names_alike_only_to_a_letter_union_are_not_refused(server: Server) -> None:
    """ "abcy12" and "abcz12" have different skeletons: both may be taken (the union of
    look-alike letters made them one name)."""
    tag = server.port % 1000
    assert _register(server, f"abcy{tag}").status_code == 201
    r = _register(server, f"abcz{tag}")
    assert r.status_code == 201, r.text
    assert _guest(server, f"abcz{tag}x").status_code == 200


def test_a_guest_in_the_club_holds_their_name(server: Server) -> None:
    """While a guest named Hardy is in the club, nobody else is called Hardy, HARDY or
    Hаrdy (a Cyrillic а), as a guest or as an account; Hardy may register it."""
    tag = server.port % 1000
    hardy = _guest_client(server, f"Hardy{tag}")
    try:
        for other in (f"H{CYRILLIC_A.lower()}rdy{tag}", f"HARDY{tag}", f"Hardy{tag}"):
            r = _guest(server, other)
            assert r.status_code == 409, (other, r.text)
            assert r.json()["code"] == "name_in_use"
            assert r.json()["params"]["like"] == f"Hardy{tag}"
        r = _register(server, f"HARDY{tag}")
        assert r.status_code == 409 and r.json()["code"] == "name_taken", r.text
        assert "a guest in the club" in r.json()["detail"]
        # the guest themself may make it their username
        r = hardy.post("/api/register", json={"username": f"Hardy{tag}", "password": PASSWORD})
        assert r.status_code == 201, r.text
        r = _guest(server, f"H{CYRILLIC_A.lower()}rdy{tag}")
        assert r.status_code == 409 and r.json()["code"] == "name_registered"
    finally:
        hardy.close()


def test_a_guest_who_left_the_club_frees_their_name(server: Server) -> None:
    """A guest's name is theirs while they use their session (TAVERNA_GUEST_NAME_MINUTES)
    or sit at an unfinished table; then another may take it."""
    tag = server.port % 1000
    name = f"Gone{tag}"
    gone = _guest_client(server, name)
    me = gone.get("/api/session").json()["player"]
    two_hours_ago = datetime.now(UTC) - timedelta(hours=2)
    sql(server.url, "UPDATE players SET seen_at = :t WHERE id = :p", t=two_hours_ago, p=me["id"])
    r = gone.post("/api/tables", json={"game": "dominoes"})  # sits at a table it opens
    assert r.status_code == 201, r.text
    assert gone.post(f"/api/tables/{r.json()['table']['id']}/seats/0").status_code == 200
    sql(server.url, "UPDATE players SET seen_at = :t WHERE id = :p", t=two_hours_ago, p=me["id"])
    assert _guest(server, name).json()["code"] == "name_in_use"  # seated: still here
    assert gone.delete(f"/api/tables/{r.json()['table']['id']}/seats/0").status_code == 200
    sql(server.url, "UPDATE players SET seen_at = :t WHERE id = :p", t=two_hours_ago, p=me["id"])
    r = _guest(server, name)
    assert r.status_code == 200, r.text
    gone.close()


def test_weak_passwords_are_refused_when_registering(server: Server) -> None:
    for weak in ("abcabcabca", "1231231231", "qwertyuiop12"):
        r = _register(server, f"Weak{server.port % 1000}", weak)
        assert r.status_code == 422 and r.json()["params"]["problem"] == "too_common", weak


def test_accounts_that_already_look_alike_keep_their_names_and_are_listed(tmp_path: Any) -> None:
    """Made before look-alikes were refused (no skeleton stored): both keep their names
    and log in as ever; `taverna admin look-alikes` lists them for the operators."""
    url = database_url("sqlite", tmp_path)
    srv = Server(url, **ACCOUNT_ENV).start()
    try:
        assert _register(srv, "Opa").status_code == 201
        assert _register(srv, "Zed").status_code == 201
        # as the old server stored them: another account, and no skeletons at all
        sql(url, "DELETE FROM name_keys")
        sql(
            url,
            "UPDATE players SET name = :n, username = :u WHERE username = 'zed'",
            n="\u041e\u0440\u0430",
            u="\u043e\u0440\u0430",
        )
    finally:
        srv.stop()
    srv = Server(url, **ACCOUNT_ENV).start()  # fills the skeletons in
    try:
        for name in ("Opa", "\u041e\u0440\u0430"):
            with httpx.Client(base_url=srv.http, timeout=10) as c:
                r = c.post("/api/login", json={"username": name, "password": PASSWORD})
                assert r.status_code == 200, name
        out = subprocess.run(
            [sys.executable, "-m", "taverna", "admin", "look-alikes", "--database", url, "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        assert json.loads(out.stdout) == [["Opa", "\u041e\u0440\u0430"]]
    finally:
        srv.stop()
