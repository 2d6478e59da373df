"""Names: what a seat is called where the server writes names down (results,
histories), and what a name looks like (its skeleton, to find look-alikes).

The tables call a bot by a name of its seat and its level, so that four bots
can be told apart: "Bruno (bot, Level 4)". The web client says the same in the
page's language (``js/ui.js`` ``botName``, ``lang/*.json`` ``seat.bot`` and
``bot.level``); the server's English is for API clients and stored results.

The levels are the library's (``taverna.bots.levels``, 1 to 8); a seat stored
with the name a level had before levels were numbered is called by its number:

>>> bot_name(1, "4"), bot_name(1, "greedy")
('Bruno (bot, Level 4)', 'Bruno (bot, Level 4)')
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from importlib import resources

from ..bots.base import UnknownBot
from ..bots.levels import level_of
from ..store.tables import SeatInfo

#: one name per seat (seat 4 would be Alba again)
BOT_NAMES = ("Alba", "Bruno", "Chiara", "Diego")


def bot_name(seat: int, level: str) -> str:
    """A bot as the tables show it (a bot that is no level keeps its own name)."""
    try:
        said = f"Level {level_of(level)}"
    except UnknownBot:
        said = level
    return f"{BOT_NAMES[seat % len(BOT_NAMES)]} (bot, {said})"


def seat_name(seat: SeatInfo) -> str:
    """Who sat there: the player (also when a bot played on for them), else the bot."""
    if seat.player_name:
        return seat.player_name
    if seat.bot:
        return bot_name(seat.seat, seat.bot)
    return f"seat {seat.seat + 1}"


# ----------------------------------------------------------------- look-alikes

#: Unicode's confusables (UTS #39, the version in its header): each character that may
#: be taken for another, and the prototype it maps to; shipped with its licence
CONFUSABLES = resources.files("taverna.server") / "data" / "confusables.txt"


#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, stable since
#: Unicode 5.1): characters a renderer shows as nothing
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def is_ignorable(c: str) -> bool:
    """Whether ``c`` is Default_Ignorable_Code_Point (shows as nothing).

    >>> is_ignorable("\u200b"), is_ignorable("a")
    (True, False)
    """
    cp = ord(c)
    return any(lo <= cp <= hi for lo, hi in DEFAULT_IGNORABLE)


def skeleton(text: str) -> str:
    """What a text looks like: Unicode's skeleton (UTS #39, 4 Confusable Detection) as
    it is written: NFD, without the default-ignorable characters, each character
    replaced by its prototype in ``confusables.txt``, NFD again. Two texts with one
    skeleton look alike; a skeleton is never shown.

    >>> skeleton("H\u0430rdy") == skeleton("Hardy")  # a Cyrillic а
    True
    >>> skeleton("abcy12") == skeleton("abcz12")
    False
    >>> skeleton("m")
    'rn'
    """
    table = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not is_ignorable(c))
    return unicodedata.normalize("NFD", mapped)


def name_keys(name: str) -> list[str]:
    """The keys under which a name is kept to find its look-alikes: the SHA-256 of the
    skeleton of the name as it is written, in small letters and in capitals (names
    compare without case: "ADMlN" looks like "ADMIN", which is "Admin"'s).

    >>> name_keys("Hardy") == name_keys("H\u0430rdy")
    True
    >>> set(name_keys("abcy12")) & set(name_keys("abcz12"))
    set()
    """
    forms = dict.fromkeys((name, name.casefold(), name.upper()))
    keys = (hashlib.sha256(skeleton(f).encode("utf-8", "surrogatepass")).hexdigest() for f in forms)
    return sorted(set(keys))


@functools.cache
def _prototypes() -> dict[str, str]:
    """``confusables.txt`` as a map: each source character -> its prototype (lines
    ``source ; prototype ; MA # comment``, code points in hexadecimal)."""
    table: dict[str, str] = {}
    for raw in CONFUSABLES.read_text("utf-8").splitlines():
        data = raw.split("#", 1)[0].strip()
        if not data:
            continue
        source, prototype = (field.strip() for field in data.split(";")[:2])
        table[chr(int(source, 16))] = "".join(chr(int(h, 16)) for h in prototype.split())
    return table
