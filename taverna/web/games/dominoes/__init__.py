"""Muggins dominoes in the web client: ``board.js`` (its board, controls and words at the
table, in the lobby and in replays) and ``lang/*.json`` (its strings in the club's four
languages), served at ``/games/muggins-dominoes/`` (entry point group ``taverna.web``)."""
