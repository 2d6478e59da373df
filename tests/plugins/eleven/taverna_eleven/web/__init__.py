"""Eleven's part of the web client: ``board.js`` (its board, controls and words),
``board.css`` and ``lang/*.json`` (its strings, in the club's four languages)."""
