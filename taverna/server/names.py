"""What a seat is called where the server writes names down (results, histories).

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
