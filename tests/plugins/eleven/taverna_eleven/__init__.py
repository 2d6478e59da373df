"""Eleven, a small card game that plugs into Taverna (README.md): the rules engine
(:mod:`.game`), what bots know of it (:mod:`.bots`), how the terminal draws it
(:mod:`.terminal`), a minimal loop for the bench (:mod:`.bench`) and its part of the
web client (the ``web`` package: board module and language keys)."""
