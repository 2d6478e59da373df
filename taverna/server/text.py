"""Every text a client sends, checked in one place before it is stored or shown.

A text is one of four kinds, each with its function:

- :func:`name`: a person's name as others see it (a guest's name, an account's
  username): NFKC, one line, runs of spaces made one, trimmed, at most 40
  characters, not blank and not like a bot's name ("Bruno (bot, medium)").
- :func:`line`: any other one-line text shown to others (a tournament's name):
  NFC, one line, spaces as for a name, not blank, at most its field's length.
- :func:`prose`: free text (a chat message, a moderator's reason, a report's):
  NFC, trimmed, not blank, at most its field's length; it may break lines
  (``\\r\\n`` and ``\\r`` become ``\\n``) and hold tabs, and a zero-width joiner or
  non-joiner between two characters that show (emoji sequences, Persian and
  Indic words need them).
- :func:`word`: a word that only finds something (an id, a username to look up):
  no control character; nothing else is asked of it, since it is never kept.

What none of them may hold (a 422, or the socket's error, naming the character):

- a control character (C0 and C1, U+2028 and U+2029), other than a prose's line
  breaks and tabs; a NUL would be a server error on PostgreSQL;
- a character that does not show or that moves text about: Unicode's
  Default_Ignorable_Code_Point (zero-width spaces and joiners, the direction
  marks, embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, tag
  characters, the Hangul fillers, …) but the variation selectors (an emoji's
  U+FE0F), any other format character, U+2800 BRAILLE PATTERN BLANK, a lone
  surrogate, a private-use character, and in one-line texts an unassigned one
  (prose may hold one: an emoji newer than the server's Unicode);
- more than :data:`MAX_MARKS` combining marks on one character.

Each refusal is a :class:`TextProblem` with a ``code`` (``bad_name`` and
``blank_name`` for names, ``bad_text`` for the others) and ``params``:
``problem`` (``control``, ``invisible``, ``marks``, ``blank``, ``long``, ``bot``)
and its facts (``char``, ``marks``, ``length``, ``limit``). The HTTP models call
these functions from their validators (:func:`~.errors.invalid` answers with the
code), the socket handlers call them directly, and :class:`PlainUrls` checks every
request's path and query.

>>> prose("  two\\r\\nlines ", "a message", 300)
'two\\nlines'
>>> try:
...     line("a\\u202eb", "a name", 80)
... except TextProblem as e:
...     print(e.code, e.params)
bad_text {'problem': 'invisible', 'char': 'U+202E RIGHT-TO-LEFT OVERRIDE'}
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_plus

from .names import is_ignorable, skeleton

#: the most combining marks one character may carry: NFC text needs at most two in the
#: Latin, Greek and Cyrillic alphabets, pointed Hebrew four, Thai and Tibetan three;
#: "Zalgo" text stacks dozens
MAX_MARKS = 4
#: the longest name, in characters (``players.name``)
NAME_LENGTH = 40

#: the variation selectors (Mongolian, standard, supplementary): ignorable, but they
#: choose how the character before them shows (U+FE0F: as an emoji); counted as marks
VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
#: shows as nothing, though not ignorable
BLANK_LOOKING = frozenset({"\u2800"})
#: a prose's joiners, allowed between two characters that show
JOINERS = frozenset({"\u200c", "\u200d"})
#: a prose's own whitespace controls
PROSE_CONTROLS = frozenset({"\n", "\t"})
#: "Bruno (bot, medium)": the tables' names of bots, in any case and spacing
BOT_LIKE = re.compile(r"\(\s*bot\b", re.IGNORECASE)


def _within(cp: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(lo <= cp <= hi for lo, hi in ranges)


def describe(c: str) -> str:
    """A character as an error names it: its code point and Unicode name.

    >>> describe("\\x00"), describe("\\u200b")
    ('U+0000 (a control character)', 'U+200B ZERO WIDTH SPACE')
    """
    name = unicodedata.name(c, "")
    if not name:
        name = {
            "Cc": "(a control character)",
            "Cs": "(half of a surrogate pair)",
            "Co": "(a private-use character)",
        }.get(unicodedata.category(c), "(an unassigned character)")
    return f"U+{ord(c):04X} {name}"


class TextProblem(ValueError):
    """Why a text may not be used: ``code`` for a client to translate (``bad_name``,
    ``blank_name``, ``bad_text``) and ``params``: the ``problem`` and its facts."""

    def __init__(self, message: str, code: str, problem: str, **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.problem = problem
        self.params: dict[str, Any] = {"problem": problem, **facts}


def _refuse(c: str, what: str, code: str) -> TextProblem:
    char = describe(c)
    category = unicodedata.category(c)
    if category == "Cc" or category in ("Zl", "Zp"):
        return TextProblem(f"{what} may not hold {char}", code, "control", char=char)
    return TextProblem(
        f"{what} may not hold {char}, which does not show or moves text about",
        code,
        "invisible",
        char=char,
    )


@functools.lru_cache(maxsize=8192)
def _kind(c: str) -> str:
    """What ``c`` is to the checks (remembered: a text repeats its characters):
    ``plain``, ``mark``, ``selector`` (a variation selector: a mark that is allowed),
    ``control``, ``joiner``, ``unassigned``, ``invisible`` or ``space``."""
    category = unicodedata.category(c)
    if c in JOINERS:
        return "joiner"
    if category[0] == "M":
        if not is_ignorable(c):
            return "mark"
        return "selector" if _within(ord(c), VARIATION_SELECTORS) else "invisible"
    if category == "Cc" or category in ("Zl", "Zp"):
        return "control"
    if category == "Cn" and not is_ignorable(c):
        return "unassigned"
    if category in ("Cf", "Cs", "Co") or is_ignorable(c) or c in BLANK_LOOKING:
        return "invisible"
    return "space" if c.isspace() else "plain"


def _check(text: str, what: str, code: str, *, prose: bool) -> None:
    """Refuse ``text`` (normalised) if it holds what no text may (module doc)."""
    if text.isascii() and text.isprintable():
        return  # nothing hidden, no mark, no control: most texts
    marks = 0
    last = len(text) - 1
    for i, c in enumerate(text):
        kind = _kind(c)
        if kind in ("mark", "selector"):
            marks += 1
            if marks > MAX_MARKS:
                end = i
                while end <= last and _kind(text[end]) in ("mark", "selector"):
                    end += 1
                count = marks - 1 + (end - i)
                first = i - marks + 1
                where = f"{text[first - 1]!r} has {count}" if first else f"{count} at the start"
                raise TextProblem(
                    f"{what} may not stack more than {MAX_MARKS} combining marks on one "
                    f"character ({where})",
                    code,
                    "marks",
                    marks=count,
                    limit=MAX_MARKS,
                )
            continue
        marks = 0
        if kind in ("plain", "space") or (prose and kind == "unassigned"):
            continue
        if prose and c in PROSE_CONTROLS:
            continue
        # a prose's joiner between two characters that show: an emoji sequence, a word
        # in Persian or an Indic script (after a mark: a virama; before one: never)
        if (
            prose
            and kind == "joiner"
            and 0 < i < last
            and _kind(text[i - 1]) in ("plain", "mark", "selector")
            and _kind(text[i + 1]) == "plain"
        ):
            continue
        raise _refuse(c, what, code)


def _length(text: str, what: str, code: str, limit: int) -> None:
    if len(text) > limit:
        raise TextProblem(
            f"{what} is at most {limit} characters; this one has {len(text)}",
            code,
            "long",
            length=len(text),
            limit=limit,
        )


def name(raw: str, what: str = "a name", limit: int = NAME_LENGTH) -> str:
    """A person's name as it will show (module doc); TextProblem if it may not be one.

    >>> name("  Ana   Maria ")
    'Ana Maria'
    >>> name("Ana\\x00")
    Traceback (most recent call last):
    ...
    taverna.server.text.TextProblem: a name may not hold U+0000 (a control character)
    """
    text = unicodedata.normalize("NFKC", raw)
    _check(text, what, "bad_name", prose=False)
    text = " ".join(text.split())
    if not text:
        raise TextProblem(f"{what} must not be blank", "blank_name", "blank")
    _length(text, what, "bad_name", limit)
    if BOT_LIKE.search(text) or BOT_LIKE.search(skeleton(text)):
        raise TextProblem(
            f"{what} may not look like a bot's: '(bot …)' is how the tables name bots",
            "bad_name",
            "bot",
        )
    return text


def line(raw: str, what: str, limit: int) -> str:
    """A one-line text others see (module doc); TextProblem if it may not be one.

    >>> line(" Winter   Cup ", "the name", 80)
    'Winter Cup'
    """
    text = unicodedata.normalize("NFC", raw)
    _check(text, what, "bad_text", prose=False)
    text = " ".join(text.split())
    if not text:
        raise TextProblem(f"{what} must not be blank", "bad_text", "blank")
    _length(text, what, "bad_text", limit)
    return text


def prose(raw: str, what: str, limit: int) -> str:
    """Free text (module doc); TextProblem if it may not be said.

    >>> prose("ok 👩\\u200d💻", "a message", 300)
    'ok 👩\\u200d💻'
    >>> prose("a\\x07", "a message", 300)
    Traceback (most recent call last):
    ...
    taverna.server.text.TextProblem: a message may not hold U+0007 (a control character)
    """
    text = unicodedata.normalize("NFC", raw.replace("\r\n", "\n").replace("\r", "\n"))
    _check(text, what, "bad_text", prose=True)
    text = text.strip()
    if not text:
        raise TextProblem(f"{what} must not be blank", "bad_text", "blank")
    _length(text, what, "bad_text", limit)
    return text


def word(raw: str, what: str) -> str:
    """A word that finds something, as it is; TextProblem if it holds a control
    character (no stored word has one, and PostgreSQL refuses a NUL outright).

    >>> word("table1", "a table's id")
    'table1'
    """
    for c in raw:
        if unicodedata.category(c) in ("Cc", "Cs"):
            raise _refuse(c, what, "bad_text")
    return raw


# ------------------------------------------------------------------ URLs

Scope = MutableMapping[str, Any]
ASGIApp = Callable[..., Awaitable[None]]


def url_problem(path: str, query: bytes) -> TextProblem | None:
    """Why a request's path (as decoded) or query may not be read, or None."""
    decoded = unquote_plus(query.decode("latin-1"), errors="replace")
    for part, value, what in (("path", path, "a path"), ("query", decoded, "a query")):
        try:
            word(value, what)
        except TextProblem as e:
            e.params["fields"] = [part]
            return e
    return None


class PlainUrls:
    """ASGI middleware: a request whose path or query holds a control character (an id
    ``ab%00c``) is refused before any route reads it: 422 ``bad_text`` for HTTP, a
    refused handshake for a WebSocket."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            problem = url_problem(scope.get("path", ""), scope.get("query_string", b""))
            if problem is not None:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4422, "reason": "bad_text"})
                    return
                body = json.dumps(
                    {"detail": str(problem), "code": problem.code, "params": problem.params}
                ).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 422,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
