"""Server settings, from the environment (``TAVERNA_*``) or arguments."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any


def _env(name: str, default: str) -> str:
    return os.environ.get(f"TAVERNA_{name}", default)


def _bot_options() -> dict[str, dict[str, Any]]:
    """``TAVERNA_BOT_OPTIONS``: a JSON object of bot options by level, a number or an
    alias (ValueError if not; ``taverna serve`` checks the levels and options)."""
    text = _env("BOT_OPTIONS", "").strip()
    options = json.loads(text) if text else {}
    if not isinstance(options, dict) or not all(isinstance(v, dict) for v in options.values()):
        raise ValueError(
            "TAVERNA_BOT_OPTIONS must be a JSON object of options by level, e.g. "
            '{"8": {"iterations": 3000}}'
        )
    return options


@dataclass
class Config:
    database_url: str = field(default_factory=lambda: _env("DATABASE_URL", "sqlite:///taverna.db"))
    #: seconds a bot waits before it moves, to feel human (tests use 0)
    bot_delay: float = field(default_factory=lambda: float(_env("BOT_DELAY", "0.8")))
    #: seconds the bots of a table resumed after a restart (or taken over from another
    #: node) wait before they move, so the people coming back see the table as they left
    #: it first
    resume_hold: float = field(default_factory=lambda: float(_env("RESUME_HOLD", "0")))
    #: seconds a disconnected player keeps the seat before a bot takes it
    grace_seconds: float = field(default_factory=lambda: float(_env("GRACE_SECONDS", "60")))
    #: the largest WebSocket message a client may send, in bytes
    max_message: int = field(default_factory=lambda: int(_env("MAX_MESSAGE", "8192")))
    #: the level of the bot that moves for a seat whose timer ran out or that was left
    stand_in_bot: str = field(default_factory=lambda: _env("STAND_IN_BOT", "4"))
    #: cookies only over HTTPS (set behind TLS)
    secure_cookies: bool = field(default_factory=lambda: _env("SECURE_COOKIES", "0") == "1")
    #: the header a trusted reverse proxy sets to the client's address (e.g. X-Forwarded-For);
    #: empty: the socket's peer address is the client's (never trust a header by default)
    trusted_proxy_header: str = field(default_factory=lambda: _env("TRUSTED_PROXY_HEADER", ""))
    #: failed logins allowed per username, as "count/seconds"
    login_limit_name: str = field(default_factory=lambda: _env("LOGIN_LIMIT_NAME", "5/300"))
    #: failed logins allowed per client address, as "count/seconds"
    login_limit_address: str = field(default_factory=lambda: _env("LOGIN_LIMIT_ADDRESS", "20/300"))
    #: failed logins per account, from any address, before its tries are slowed down, as
    #: "count/seconds"; past it, each try of the account waits a delay that doubles with
    #: each failure, up to login_delay_max seconds (a delay, never a lock)
    login_limit_account: str = field(default_factory=lambda: _env("LOGIN_LIMIT_ACCOUNT", "10/3600"))
    #: the longest delay between two tries of an account slowed down, in seconds
    login_delay_max: float = field(default_factory=lambda: float(_env("LOGIN_DELAY_MAX", "60")))
    #: registrations allowed per client address, as "count/seconds"
    register_limit: str = field(default_factory=lambda: _env("REGISTER_LIMIT", "10/3600"))
    #: days a login session lasts
    session_days: float = field(default_factory=lambda: float(_env("SESSION_DAYS", "30")))
    #: pages of other origins allowed to change things here (comma-separated, e.g.
    #: "https://club.example"); the host a request was sent to is always allowed
    allowed_origins: str = field(default_factory=lambda: _env("ALLOWED_ORIGINS", ""))
    #: the largest HTTP request body, in bytes (larger: 413)
    max_body: int = field(default_factory=lambda: int(_env("MAX_BODY", "65536")))
    #: seconds a client has to send a request's headers whole
    header_timeout: float = field(default_factory=lambda: float(_env("HEADER_TIMEOUT", "10")))
    #: WebSockets at once from one address, and for one session (the benches set more)
    sockets_per_address: int = field(default_factory=lambda: int(_env("SOCKETS_PER_ADDRESS", "60")))
    sockets_per_session: int = field(default_factory=lambda: int(_env("SOCKETS_PER_SESSION", "12")))
    #: messages a WebSocket may send, as "count/seconds" (a hello counts as ten)
    socket_rate: str = field(default_factory=lambda: _env("SOCKET_RATE", "60/10"))
    #: bytes waiting to be sent to one WebSocket before a client that does not read is cut off
    socket_queue_bytes: int = field(
        default_factory=lambda: int(_env("SOCKET_QUEUE_BYTES", str(4 << 20)))
    )
    #: the most missed updates a welcome replays; beyond, it sends the state alone
    max_catch_up: int = field(default_factory=lambda: int(_env("MAX_CATCH_UP", "500")))
    #: the server's keepalive on every WebSocket: a ping of the protocol's own every
    #: ws_ping_interval seconds, and a client whose pong does not come within
    #: ws_ping_timeout seconds (or that does not read what it is sent) is cut off. A
    #: network gone silent closes nothing, so this is how the server learns that a
    #: player is gone: the seat is away 10-15 s after the silence began, a few seconds
    #: after the page itself has seen it. A browser answers these pings itself, whatever
    #: its page is doing (docs/protocol.md, Keepalive)
    ws_ping_interval: float = field(default_factory=lambda: float(_env("WS_PING_INTERVAL", "5")))
    ws_ping_timeout: float = field(default_factory=lambda: float(_env("WS_PING_TIMEOUT", "10")))
    #: the web client's keepalive, told to it by GET /api/games: a ping message every
    #: client_ping_every seconds; a socket that does not answer within client_pong_within
    #: seconds is given up and a new one opened (the page says "Connection lost" 5-10 s
    #: after the network went silent). Its pings count in TAVERNA_SOCKET_RATE
    client_ping_every: float = field(default_factory=lambda: float(_env("CLIENT_PING_EVERY", "5")))
    client_pong_within: float = field(
        default_factory=lambda: float(_env("CLIENT_PONG_WITHIN", "5"))
    )
    #: WebSocket messages compressed (permessage-deflate) when a client offers it: a
    #: table's messages are small JSON, and compressing each cost a tenth of the
    #: server's CPU under load (docs/operations.md), so it is off unless asked for
    ws_compression: bool = field(default_factory=lambda: _env("WS_COMPRESSION", "0") == "1")
    #: this server's name among the club's nodes (its heartbeat in the database)
    node: str = field(default_factory=lambda: _env("NODE", "main"))
    #: log every HTTP request and WebSocket (uvicorn's access log), as `taverna serve --access-log`
    access_log: bool = field(default_factory=lambda: _env("ACCESS_LOG", "0") == "1")
    #: the Redis of a club of several nodes (redis://HOST:PORT/DB), as `taverna serve
    #: --redis`: the nodes share the tables through it, and strong bots' decisions go to
    #: the bot workers (docs/scaling.md); none: this node serves the club alone
    redis_url: str | None = field(default_factory=lambda: _env("REDIS_URL", "") or None)
    #: seconds a node waits for a bot worker's answer before it thinks itself
    bot_deadline: float = field(default_factory=lambda: float(_env("BOT_DEADLINE", "5")))
    #: options of the tables' bots by level (1 to 8, or an alias: random, greedy, expert),
    #: e.g. {"8": {"iterations": 3000}}: each bot is made with them, and a decision
    #: request carries them to the worker
    bot_options: dict[str, dict[str, Any]] = field(default_factory=_bot_options)
    #: seconds between two hints to one connection (each is a strong bot's search)
    hint_every: float = field(default_factory=lambda: float(_env("HINT_EVERY", "3")))
    #: the strong bot's thinking one account (or guest) may ask for, across all its
    #: sockets, and one client address, across all its accounts: "count/seconds" of
    #: hints, a review counting as several (docs/operations.md, Hints and reviews)
    hint_limit_account: str = field(default_factory=lambda: _env("HINT_LIMIT_ACCOUNT", "15/45"))
    hint_limit_address: str = field(default_factory=lambda: _env("HINT_LIMIT_ADDRESS", "30/30"))
    #: hints waiting for the node's hint process at most; beyond, one is refused at once
    hint_queue: int = field(default_factory=lambda: int(_env("HINT_QUEUE", "8")))
    #: "play now": seconds a new table waits for people before bots take its empty seats
    play_now_wait: float = field(default_factory=lambda: float(_env("PLAY_NOW_WAIT", "20")))
    #: "play again": seconds each person's seat of the new table is kept for them
    again_hold: float = field(default_factory=lambda: float(_env("AGAIN_HOLD", "300")))
    #: minutes a guest's name stays theirs after they were last in the club (or while
    #: they sit at an unfinished table): nobody else may take it or a look-alike of it;
    #: 0: guests' names are not held (only accounts' are)
    guest_name_minutes: float = field(
        default_factory=lambda: float(_env("GUEST_NAME_MINUTES", "60"))
    )
    #: how the log is written on stderr: "text" (readable lines) or "json" (one object a
    #: line), as `taverna serve --log-format`
    log_format: str = field(default_factory=lambda: _env("LOG_FORMAT", "text"))

    def __post_init__(self) -> None:
        # a page told to ping every 0 s would ping as fast as the server answers
        for name in ("client_ping_every", "client_pong_within"):
            if not getattr(self, name) > 0:
                raise ValueError(f"TAVERNA_{name.upper()} must be a number of seconds above 0")
        for name in ("ws_ping_interval", "ws_ping_timeout"):
            if not getattr(self, name) >= 0:
                raise ValueError(f"TAVERNA_{name.upper()} must be 0 (off) or more seconds")
