"""Names: what a seat is called where the server writes names down (results,
histories), and what a name a person types may be.

The tables call a bot by a name of its seat and its level in words, so that
four bots can be told apart: "Bruno (bot, medium)". The web client says the
same in the page's language (``js/ui.js`` ``botName``, ``lang/*.json``
``seat.bot`` and ``bot.*``); the server's English is for API clients and
stored results.

The levels are the library's bots (``taverna.bots.LEVELS``) under the words
people see (docs/bots.md):

>>> bot_name(1, "greedy")
'Bruno (bot, medium)'
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from importlib import resources

from ..store.repo import SeatInfo

#: one name per seat (seat 4 would be Alba again)
BOT_NAMES = ("Alba", "Bruno", "Chiara", "Diego")

#: the library's level -> the word the tables use
LEVEL_WORDS = {"random": "easy", "greedy": "medium", "expert": "strong"}


def bot_name(seat: int, level: str) -> str:
    """A bot as the tables show it (a level of one's own keeps its own name)."""
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} (bot, {LEVEL_WORDS.get(level, level)})"


def seat_name(seat: SeatInfo) -> str:
    """Who sat there: the player (also when a bot played on for them), else the bot."""
    if seat.player_name:
        return seat.player_name
    if seat.bot:
        return bot_name(seat.seat, seat.bot)
    return f"seat {seat.seat + 1}"


# ----------------------------------------------------------- names people type

#: characters a name may not hold: controls, formats (zero-width spaces and joiners,
#: direction overrides), surrogates, private use, unassigned, line and paragraph breaks
INVISIBLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: "Bruno (bot, medium)": the tables' names of bots, in any case and spacing
BOT_LIKE = re.compile(r"\(\s*bot\b", re.IGNORECASE)


class NameProblem(ValueError):
    """Why a name may not be used: ``kind`` is ``invisible`` (``char`` names the
    character), ``blank`` or ``bot``."""

    def __init__(self, message: str, kind: str, char: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.char = char


def clean_name(raw: str, what: str = "a name") -> str:
    """A name as it will show: NFKC, runs of spaces made one, trimmed; ValueError (with
    the reason) for one with a character that does not show or that moves text about,
    one left blank, or one that looks like a bot's.

    >>> clean_name("  Ana   Maria ")
    'Ana Maria'
    >>> clean_name("Admin\u200b")
    Traceback (most recent call last):
    ...
    taverna.server.names.NameProblem: a name may not hold U+200B ZERO WIDTH SPACE
    """
    name = unicodedata.normalize("NFKC", raw)
    for c in name:
        if unicodedata.category(c) in INVISIBLE:
            char = f"U+{ord(c):04X} {unicodedata.name(c, 'a character that does not show')}"
            raise NameProblem(f"{what} may not hold {char}", "invisible", char)
    name = " ".join(name.split())
    if not name:
        raise NameProblem(f"{what} must not be blank", "blank")
    if BOT_LIKE.search(skeleton(name)) or BOT_LIKE.search(name):
        raise NameProblem(
            f"{what} may not look like a bot's: '(bot …)' is how the tables name bots", "bot"
        )
    return name


def skeleton(name: str) -> str:
    """What a name looks like, to tell look-alikes apart (after Unicode's UTS #39): each
    character stands for every character it may be taken for — Unicode's confusables
    (Cyrillic "А" and Latin "A", "l" and "1") and its other case — so two names with one
    skeleton are one name to the eye, whatever their case.

    >>> skeleton("Admin") == skeleton("\u0410dm\u0456n") == skeleton("ADMlN")
    True
    >>> skeleton("Ana") == skeleton("Bea")
    False
    """
    table = _look_alike()
    return "".join(table.get(c, c) for c in unicodedata.normalize("NFKC", name))


@functools.cache
def _look_alike() -> dict[str, str]:
    """Each confusable character -> the one (the lowest code point) that stands for its
    whole class: classes joined through confusables and case, as a union-find."""
    data = json.loads(
        resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    )
    parent: dict[str, str] = {}

    def find(c: str) -> str:
        root = c
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(c, c) != root:  # path compression
            parent[c], c = root, parent[c]
        return root

    def union(a: str, b: str) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            lo, hi = (ra, rb) if ra < rb else (rb, ra)
            parent[hi] = lo

    def single(text: str) -> str | None:
        text = text.replace("\u200e", "").replace("\u200f", "")  # marks around RTL glyphs
        return text if len(text) == 1 else None

    for key, glyphs in data.items():
        a = single(key)
        if a is None:
            continue
        for g in glyphs:
            b = single(g["c"])
            if b is not None:
                union(a, b)
    for c in list(parent):
        for other in (c.lower(), c.upper()):
            if len(other) == 1:
                union(c, other)
    for cp in range(0x20, 0x250):  # and the case pairs of the Latin letters themselves
        c = chr(cp)
        for other in (c.lower(), c.upper()):
            if len(other) == 1 and other != c:
                union(c, other)
    return {c: find(c) for c in parent}
