"""Every text a client sends goes through one validator (taverna/server/text.py; issue 27,
items 2 and 3), on SQLite and PostgreSQL.

- A NUL, BEL or ESC in a tournament's name, a silence's, ban's or unban's reason, the
  name in a ban, a chat report's reason, a login's username, an id in a path or a query
  is a clear 422 and changes nothing (a NUL was a server error on PostgreSQL, and was
  stored as it was on SQLite).
- Chat refuses what hides or reorders text: bidi overrides and isolates, zero-width
  characters, tag characters, a letter under 299 combining marks; it keeps what it
  accepts in NFC, and an emoji's joiner.
- Whatever string the validator is given, it refuses it with a clear message or gives
  it back clean (a hypothesis property).
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.server import text
from taverna.server.names import is_ignorable
from taverna.server.text import MAX_MARKS, TextProblem

from .accounts_helpers import ACCOUNT_ENV, Member
from .restart_helpers import sql
from .server_helpers import Person, Seat, Server, database_url, drop_database
from .test_chat import heard, say
from .test_tournaments import grant

BACKENDS = ["sqlite", "postgres"]
CONTROLS = ["\x00", "\x07", "\x1b"]  # NUL, BEL, ESC
#: what hides or reorders text, each refused in a chat message
HIDDEN = [
    *(chr(c) for c in range(0x202A, 0x202F)),  # embeddings and overrides
    *(chr(c) for c in range(0x2066, 0x206A)),  # isolates
    "\u200b",  # zero width space
    "\u2060",  # word joiner
    "\ufeff",  # zero width no-break space
    "\u200e",  # left-to-right mark
    "\U000e0041\U000e0042",  # tag characters: hidden letters
    "\u3164",  # Hangul filler: a letter that shows as nothing
]


# ------------------------------------------------------------------ the validator


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ("a\x00b", "control"),
        ("a\x07b", "control"),
        ("a\x1b[31mb", "control"),
        ("a\x85b", "control"),  # a C1 control
        ("a\u2028b", "control"),  # a line separator
        ("a\u202eb", "invisible"),
        ("a\u2067b", "invisible"),
        ("a\u200bb", "invisible"),
        ("a\U000e0041", "invisible"),
        ("a\ud800", "invisible"),  # a lone surrogate: no database stores it
        ("a\ue000", "invisible"),  # private use
        ("a" + "\u0301" * 299, "marks"),
        ("   ", "blank"),
        ("x" * 81, "long"),
    ],
)
def test_a_title_refuses_what_does_not_show_as_it_is(raw: str, problem: str) -> None:
    with pytest.raises(TextProblem) as e:
        text.line(raw, "a title", 80)
    assert e.value.code == "bad_text" and e.value.problem == problem
    assert str(e.value).startswith("a title ")


def test_prose_keeps_line_breaks_joined_emoji_and_joined_words() -> None:
    assert text.prose("one\r\ntwo\rthree\tfour", "a message", 300) == "one\ntwo\nthree\tfour"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert text.prose(f"hi {family}", "a message", 300) == f"hi {family}"
    persian = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # می‌خواهم, a non-joiner
    assert text.prose(persian, "a message", 300) == persian
    assert text.prose("e\u0301", "a message", 300) == "\u00e9"  # NFC
    assert text.prose("\u2764\ufe0f", "a message", 300) == "\u2764\ufe0f"  # an emoji heart
    for lonely in ("\u200da", "a\u200d", "a \u200d b", "a\u200d\u200db", "a\u200d\u0301"):
        with pytest.raises(TextProblem):
            text.prose(lonely, "a message", 300)
    with pytest.raises(TextProblem) as e:
        text.prose("a\x00b", "a message", 300)
    assert e.value.params == {"problem": "control", "char": "U+0000 (a control character)"}


def test_marks_on_a_letter_are_counted() -> None:
    assert text.line("q" + "\u0302\u0303\u0304\u0305", "a title", 80)  # four: kept
    with pytest.raises(TextProblem) as e:
        text.line("q" + "\u0302\u0303\u0304\u0305\u0306", "a title", 80)
    assert e.value.params == {"problem": "marks", "marks": 5, "limit": MAX_MARKS}
    hebrew = "\u05e9\u05bc\u05c1\u05b8\u0591"  # shin, dagesh, shin dot, qamats, etnahta
    assert text.line(hebrew, "a title", 80)


def test_a_word_that_finds_something_is_only_refused_a_control_character() -> None:
    assert text.word("Hаrdy\u200b", "a username") == "Hаrdy\u200b"  # nothing it could find
    with pytest.raises(TextProblem):
        text.word("a\x00", "a username")


#: characters that make the property's strings interesting
TRICKY = (
    "\x00\x07\x1b\n\t\r \u00a0\u3000\u200b\u200c\u200d\u202e\u2066\ufe0f"
    "\u0301\u0308\u05bc\U000e0041\u3164\u2800\u00e9e\U0001f469\ud800\ue000"
)
KINDS: dict[str, Callable[[str], str]] = {
    "name": text.name,
    "line": lambda s: text.line(s, "a title", 80),
    "prose": lambda s: text.prose(s, "a message", 300),
}


@settings(max_examples=600, deadline=None)
@given(
    raw=st.text(
        alphabet=st.one_of(st.characters(exclude_categories=()), st.sampled_from(TRICKY)),
        max_size=50,
    ),
    kind=st.sampled_from(sorted(KINDS)),
)
def test_any_text_is_refused_clearly_or_kept_clean(raw: str, kind: str) -> None:
    """Any string: refused with a code, a problem and a sentence; or accepted normalised
    (NFC; a name NFKC), trimmed and not blank, with no control (a prose's line breaks
    and tabs aside), no character that does not show (the variation selectors and a
    prose's joiners between two characters aside) and at most MAX_MARKS marks on a
    character; and cleaning it again changes nothing."""
    clean = KINDS[kind]
    try:
        out = clean(raw)
    except TextProblem as e:
        assert e.code in ("bad_text", "bad_name", "blank_name")
        assert e.problem in ("control", "invisible", "marks", "blank", "long", "bot")
        assert str(e) and "\x00" not in str(e)
        if e.problem in ("control", "invisible"):
            assert e.params["char"].startswith("U+")
        return
    assert unicodedata.is_normalized("NFKC" if kind == "name" else "NFC", out)
    assert out and out == out.strip()
    marks = 0
    for i, c in enumerate(out):
        category = unicodedata.category(c)
        marks = marks + 1 if category[0] == "M" else 0
        assert marks <= MAX_MARKS
        if kind == "prose" and c in "\n\t":
            continue
        assert category not in ("Cc", "Cs", "Co", "Zl", "Zp"), (i, c)
        joiner = kind == "prose" and c in "\u200c\u200d" and 0 < i < len(out) - 1
        if category == "Cf" or is_ignorable(c):
            assert joiner or unicodedata.name(c, "").startswith("VARIATION SELECTOR"), (i, c)
        if kind != "prose":
            assert category != "Cn" and c not in "\n\t"
    assert clean(out) == out


# ------------------------------------------------------------------ for real


@pytest.fixture(scope="module", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    url = database_url(request.param, tmp_path_factory.mktemp("text"))
    srv = Server(url, **ACCOUNT_ENV).start()
    yield srv
    srv.stop()
    drop_database(url)


def moderator(server: Server, address: str) -> Member:
    mod = Member(server, "Mod", address)
    grant(server.url, mod.name)
    return mod


def fresh(member: Member, method: str, path: str, **kw: Any) -> httpx.Response:
    """A request on a connection of its own (a server error closes the one it came on)."""
    with httpx.Client(
        base_url=member.server.http,
        timeout=10,
        cookies=member.http.cookies,
        headers=member.http.headers,
    ) as c:
        return c.request(method, path, **kw)


def refused(r: httpx.Response, field: str, problem: str = "control") -> None:
    assert r.status_code == 422, r.text
    body = r.json()
    assert body["code"] == "bad_text", body
    assert body["params"]["problem"] == problem and field in body["params"]["fields"], body
    assert body["detail"].startswith(f"{field}: ")


def test_control_characters_in_moderation_are_refused_and_change_nothing(server: Server) -> None:
    mod, ana = moderator(server, "10.70.0.1"), Member(server, "Ana", "10.70.0.2")
    for c in CONTROLS:
        for path in ("ban", "silence"):
            r = fresh(
                mod,
                "POST",
                f"/api/moderation/{path}",
                json={"player": ana.name, "minutes": 5, "reason": f"spam{c}"},
            )
            refused(r, "reason")
            r = fresh(
                mod,
                "POST",
                f"/api/moderation/{path}",
                json={"player": f"{ana.name}{c}", "minutes": 5, "reason": "spam"},
            )
            refused(r, "player")
        for path in ("unban", "unsilence"):
            r = fresh(
                mod,
                "POST",
                f"/api/moderation/{path}",
                json={"player": ana.name, "reason": f"sorry{c}"},
            )
            refused(r, "reason")
    me = ana.me()
    assert me.get("banned") is None and me.get("silenced") is None
    log = fresh(mod, "GET", "/api/moderation/log").json()["entries"]
    assert [e for e in log if e["target"] == ana.name] == []
    # a reason may still say what it must on two lines
    r = fresh(
        mod,
        "POST",
        "/api/moderation/silence",
        json={"player": ana.name, "minutes": 5, "reason": " spam,\r\nagain "},
    )
    assert r.status_code == 200, r.text
    assert r.json()["player"]["silence_reason"] == "spam,\nagain"


def test_control_and_hidden_characters_in_a_tournament_name_are_refused(server: Server) -> None:
    mod = moderator(server, "10.71.0.1")
    starts = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    before = fresh(mod, "GET", "/api/tournaments").json()["tournaments"]
    for bad in [*CONTROLS, "\u202e", "\u2066", "\u200b"]:
        r = fresh(
            mod,
            "POST",
            "/api/tournaments",
            json={"game": "cards", "name": f"Cup{bad}", "starts_at": starts},
        )
        refused(r, "name", "control" if bad in CONTROLS else "invisible")
    assert fresh(mod, "GET", "/api/tournaments").json()["tournaments"] == before


def test_a_control_character_in_a_reports_reason_is_refused(server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("dominoes")["id"]
    ana.sit(tid, 0)

    async def go() -> int:
        a = Seat(server, tid, ana.cookie)
        await a.connect()
        ack = await say(a, 1, text="something rude")
        await a.close()
        return int(ack["chat"])

    mid = asyncio.run(go())
    for c in CONTROLS:
        with httpx.Client(base_url=server.http, timeout=10, cookies=bea.http.cookies) as h:
            r = h.post(f"/api/tables/{tid}/chat/{mid}/report", json={"reason": f"rude{c}"})
        refused(r, "reason")
    assert sql(server.url, "SELECT count(*) FROM chat_reports WHERE message_id = :m", m=mid) == [
        (0,)
    ]


def test_an_id_or_a_name_to_find_with_a_control_character_is_refused(server: Server) -> None:
    for path in (
        "/api/tables/ab%00c",
        "/api/tables/ab%07c/chat",
        "/api/players/an%00a",
        "/api/tournaments/t%1b1",
        "/api/games/ab%00c/record",
        "/api/tables?game=dominoes%00",
    ):
        with httpx.Client(base_url=server.http, timeout=10) as h:
            r = h.get(path)
        assert r.status_code == 422, (path, r.text)
        assert r.json()["code"] == "bad_text" and r.json()["params"]["problem"] == "control"
    with httpx.Client(base_url=server.http, timeout=10) as h:
        r = h.post("/api/login", json={"username": "ana\x00", "password": "x" * 12})
    refused(r, "username")

    async def socket() -> None:
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(f"{server.ws}/ws/tables/ab%00c")

    asyncio.run(socket())


def test_chat_refuses_what_hides_or_reorders_text(server: Server) -> None:
    ana, bea = Person(server, "Ana"), Person(server, "Bea")
    tid = ana.create("dominoes")["id"]
    ana.sit(tid, 0)
    bea.sit(tid, 1)
    ana.start(tid)

    async def go() -> None:
        a, b = Seat(server, tid, ana.cookie), Seat(server, tid, bea.cookie)
        await a.connect()
        await b.connect()
        attempts = [*(f"pay{h}me" for h in HIDDEN), *(f"hi{c}" for c in CONTROLS)]
        attempts.append("Z" + "\u0301" * 299)
        for i, attempt in enumerate(attempts):
            got = await say(a, 10 + i, text=attempt)
            assert got["type"] == "error" and got["code"] == "bad_text", (attempt, got)
            assert got["params"]["problem"] in ("invisible", "control", "marks")
            assert got["message"].startswith("a message may not ")
        assert await heard(b) == []  # nothing was said
        family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
        ok = await say(a, 1, text=f"cafe\u0301 {family}")
        assert ok["type"] == "ack", ok
        assert [m["text"] for m in await heard(b)] == [f"caf\u00e9 {family}"]
        await a.close()
        await b.close()

    asyncio.run(go())
