"""Accounts, chips, official tables and the ranking: the HTTP API and the room hooks.

- ``POST /api/register``, ``/api/login``, ``/api/logout``; ``GET /api/me``,
  ``/api/me/ledger`` (the owner only), ``/api/players/{name}`` (public profile
  and history), ``/api/ranking/{game}``. See ``docs/accounts.md``.
- :class:`ClubHub` is the room hub with the hooks that hold the stakes when an
  official game starts, count an abandonment at once, and settle chips and
  points when it ends (the rules are in :mod:`taverna.store.accounts`).

Passwords are hashed with argon2id (``argon2-cffi``), in a worker thread so
the event loop never waits for one. Failed logins are limited per username
and per client address (in memory, per server process).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
import unicodedata
from collections import OrderedDict, deque
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Cookie, Depends, Query, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse
from pydantic import BaseModel, Field, field_validator
from starlette.datastructures import Headers
from zxcvbn import zxcvbn

from ..games import GAMES, get_game
from ..store.accounts import AccountStore, NameTaken
from ..store.chips import WELCOME_CHIPS
from ..store.repo import Store
from ..store.settlement import WHY_OF_NOTE
from ..store.tables import TableInfo
from . import text
from .config import Config
from .errors import Refused, answer, game_named
from .figures import FigureBook
from .logs import TableLog
from .names import name_keys, seat_name
from .pages import page
from .rooms import RoomHub

log = logging.getLogger("taverna.accounts")
COOKIE = "taverna_session"

USERNAME_RULE = (
    "a username has 3 to 20 characters: letters, digits, '.', '-' or '_', "
    "starting with a letter or a digit"
)
PASSWORD_RULE = (
    "a password needs at least 10 characters (at most 128), must not contain the username, "
    "and must be hard to guess: not a common password, word, name, date or keyboard pattern "
    "(a few words of your own, or a longer phrase, will do)"
)
#: zxcvbn's score a password needs: 3, "safely unguessable" (about 10^8 guesses or more)
STRENGTH = 3
HASHER = PasswordHasher()  # argon2id, RFC 9106's second recommended parameters


# ------------------------------------------------------------- the rules


#: words a password should not be made of: the club's name and its games' names
CLUB_WORDS = sorted(
    {"taverna"}
    | {w.casefold() for cls in GAMES.values() for w in (cls.game, *cls.aliases, *cls.title.split())}
)


def username_key(name: str) -> str:
    """How usernames compare: NFKC and casefolded ("Ana" and "ANA" are one name)."""
    return unicodedata.normalize("NFKC", name).casefold()


def check_username(name: str) -> str:
    """The username as it will show (NFKC); raises ValueError with the rule.

    A name first (``text.name``: nothing that does not show, such as a Hangul filler,
    which is a letter); then letters of one script: a name that mixes Latin with
    Cyrillic or Greek letters is how look-alikes of other names are made ("Аdmin").
    """
    name = text.name(name, "a username")
    ok = 3 <= len(name) <= 20 and name[0].isalnum() and all(c.isalnum() or c in "._-" for c in name)
    if not ok:
        raise ValueError(USERNAME_RULE)
    scripts = {_script(c) for c in name if c.isalpha()}
    if len(scripts) > 1:
        raise ValueError(
            f"{USERNAME_RULE}, all of one alphabet (this one mixes {' and '.join(sorted(scripts))})"
        )
    return name


def _script(c: str) -> str:
    """The alphabet of a letter, as the first word of its Unicode name says ("LATIN")."""
    return unicodedata.name(c, "OTHER").split()[0].title()


def password_problem(username: str, password: str) -> tuple[str, str] | None:
    """Why a password is too weak, as a short kind and a sentence that says what is
    required too; None if it will do.

    >>> password_problem("ana", "short")[0]
    'too_short'
    """
    if len(password) < 10:
        why = f"the password is too short ({len(password)} characters)"
        return "too_short", f"{why}: {PASSWORD_RULE}"
    if len(password) > 128:
        why = f"the password is too long ({len(password)} characters)"
        return "too_long", f"{why}: {PASSWORD_RULE}"
    folded = password.casefold()
    if username_key(username) in folded:
        return "has_username", f"the password contains the username: {PASSWORD_RULE}"
    estimate = zxcvbn(password, user_inputs=[username, *CLUB_WORDS])
    if estimate["score"] < STRENGTH:
        hint = estimate["feedback"].get("warning") or "it is easy to guess"
        return (
            "too_common",
            f"the password is too easy to guess ({hint.rstrip('.')}): {PASSWORD_RULE}",
        )
    return None


# ---------------------------------------------------- client address, limits


def client_address(config: Config, headers: Headers, peer: Any) -> str:
    """The client's address: the socket's peer, or a trusted proxy's header when configured.

    With ``TAVERNA_TRUSTED_PROXY_HEADER=X-Forwarded-For`` the right-most
    address counts: the one our own proxy added (those left of it come from
    the client and could say anything).
    """
    name = config.trusted_proxy_header
    if name:
        value = headers.get(name)
        if value:
            last = value.split(",")[-1].strip()
            if last:
                return last[:64]
    host = getattr(peer, "host", None)
    return str(host) if host else "unknown"


class RateLimit:
    """At most ``count`` hits per key within ``window`` seconds (a sliding window)."""

    def __init__(self, spec: str) -> None:
        count, _, seconds = spec.partition("/")
        self.count = int(count)
        self.window = float(seconds or 60)
        self.hits: dict[str, deque[float]] = {}

    def _fresh(self, key: str) -> deque[float] | None:
        q = self.hits.get(key)
        if q is None:
            return None
        cutoff = time.monotonic() - self.window
        while q and q[0] <= cutoff:
            q.popleft()
        if not q:
            del self.hits[key]
            return None
        return q

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may try again; 0 if it may now."""
        if self.count <= 0:
            return 0.0
        q = self._fresh(key)
        if q is None or len(q) < self.count:
            return 0.0
        return max(0.0, q[-self.count] + self.window - time.monotonic())

    def hit(self, key: str) -> None:
        if len(self.hits) > 10_000:  # forget idle keys rather than grow without bound
            for k in list(self.hits):
                self._fresh(k)
        self.hits.setdefault(key, deque()).append(time.monotonic())

    def reset(self, key: str) -> None:
        self.hits.pop(key, None)

    def holds(self, key: str) -> bool:
        """Whether ``key`` has any hit within the window."""
        return self._fresh(key) is not None

    def refund(self, key: str) -> None:
        """Take back the newest hit of ``key`` (a try counted up front that succeeded)."""
        q = self._fresh(key)
        if q:
            q.pop()
            if not q:
                del self.hits[key]


class TooMany(Exception):
    def __init__(self, what: str, seconds: float) -> None:
        self.seconds = max(1, math.ceil(seconds))
        super().__init__(f"too many {what}; try again in {self.seconds} s")


class Gate:
    """The login and registration limits of the club, counted on this node alone.

    Every try is counted before its password is hashed (many at once cannot all slip
    past the limits while the first ones hash), and given back if it succeeds. An
    address that failed too often waits. A username that failed too often waits only
    for addresses with failures of their own: an attacker cannot lock its owner out,
    and the owner's right password from a clean address gets in. An account that
    failed too often from any addresses at all (``TAVERNA_LOGIN_LIMIT_ACCOUNT``) is
    slowed down, not locked: each further try waits a delay that doubles with every
    failure, up to ``TAVERNA_LOGIN_DELAY_MAX`` seconds, so that guesses from many
    addresses get one try a delay between them — except from a browser its owner has
    logged in with (its device cookie, :meth:`trust`), which is never slowed. Several
    nodes count in Redis instead (:class:`SharedGate`), so the limits hold across them.
    """

    def __init__(self, config: Config) -> None:
        self.config = config
        self.login_by_name = RateLimit(config.login_limit_name)
        self.login_by_address = RateLimit(config.login_limit_address)
        self.login_by_account = RateLimit(config.login_limit_account)
        self.registrations = RateLimit(config.register_limit)
        #: an account slowed down: the monotonic time its next try may be checked
        self.next_try: dict[str, float] = {}
        #: the devices its owner logged in with: a token's digest -> (name, until)
        self.devices: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def delay(self, failures: int) -> float:
        """Seconds an account waits between tries after ``failures`` failures."""
        free = self.login_by_account.count
        if failures < free:
            return 0.0
        return min(self.config.login_delay_max, 2.0 ** (failures - free))

    async def login(self, address: str, name: str, device: str | None = None) -> str:
        """Count a login try (a ticket to give it back), or TooMany."""
        wait = self.login_by_address.retry_after(address)
        if wait:
            raise TooMany("failed logins from your address", wait)
        wait = self.login_by_name.retry_after(name)
        if wait and self.login_by_address.holds(address):
            raise TooMany("failed logins for this username from your address", wait)
        known = await self.trusted(name, device)
        now = time.monotonic()
        if not known:
            wait = self.next_try.get(name, now) - now
            if wait > 0:
                raise TooMany("failed logins for this username", wait)
        self.login_by_address.hit(address)
        self.login_by_name.hit(name)
        self.login_by_account.hit(name)
        delay = self.delay(len(self.login_by_account.hits[name]))
        if delay:
            self.next_try[name] = now + delay
        elif len(self.next_try) > 10_000:  # the accounts no longer slowed down, forgotten
            self.next_try = {k: t for k, t in self.next_try.items() if t > now}
        return f"{address}\n{name}"

    async def succeeded(self, ticket: str) -> None:
        """A login that got in: its try is given back."""
        address, _, name = ticket.partition("\n")
        self.login_by_address.refund(address)
        self.login_by_name.refund(name)
        self.login_by_account.refund(name)

    async def trust(self, name: str) -> str:
        """A device token for a browser that logged in as ``name`` (its cookie)."""
        token = secrets.token_urlsafe(24)
        self.devices[_digest(token)] = (name, time.time() + DEVICE_DAYS * 86400)
        while len(self.devices) > 100_000:
            self.devices.popitem(last=False)
        return token

    async def trusted(self, name: str, device: str | None) -> bool:
        """Whether ``device`` (a cookie's token) logged in as ``name`` before."""
        if not device:
            return False
        known = self.devices.get(_digest(device))
        return known is not None and known[0] == name and known[1] > time.time()

    async def register(self, address: str) -> None:
        """Count a registration (every one that costs a hash), or TooMany."""
        wait = self.registrations.retry_after(address)
        if wait:
            raise TooMany("registrations from your address", wait)
        self.registrations.hit(address)


#: the cookie of a browser its owner logged in with, and the days it is remembered
DEVICE_COOKIE = "taverna_device"
DEVICE_DAYS = 90


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


#: one login try across nodes, atomically: KEYS the address, name and account windows
#: and the account's next try; ARGV now, the limits (count, seconds) of each window, the
#: try's own id, whether its device is the owner's (1/0), and the longest delay. Returns
#: {why, wait} or {"ok", 0}. The same rules as Gate.login.
SHARED_LOGIN = """
local now = tonumber(ARGV[1])
local function fresh(key, seconds)
  redis.call('zremrangebyscore', key, '-inf', now - seconds)
  return redis.call('zcard', key)
end
local function wait(key, count, seconds)
  local nth = redis.call('zrange', key, -count, -count, 'WITHSCORES')
  return tostring(math.max(0, tonumber(nth[2]) + seconds - now))
end
local ac, aw, nc, nw = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local cc, cw = tonumber(ARGV[6]), tonumber(ARGV[7])
local known, longest = ARGV[9] == '1', tonumber(ARGV[10])
local na = fresh(KEYS[1], aw)
if ac > 0 and na >= ac then return {'address', wait(KEYS[1], ac, aw)} end
local nn = fresh(KEYS[2], nw)
if nc > 0 and nn >= nc and na > 0 then return {'name', wait(KEYS[2], nc, nw)} end
local nc_ = fresh(KEYS[3], cw)
local next_try = tonumber(redis.call('get', KEYS[4]) or '0')
if not known and next_try > now then return {'account', tostring(next_try - now)} end
redis.call('zadd', KEYS[1], now, ARGV[8])
redis.call('zadd', KEYS[2], now, ARGV[8])
redis.call('zadd', KEYS[3], now, ARGV[8])
redis.call('expire', KEYS[1], math.ceil(aw))
redis.call('expire', KEYS[2], math.ceil(nw))
redis.call('expire', KEYS[3], math.ceil(cw))
if cc > 0 and nc_ + 1 >= cc then
  local delay = math.min(longest, 2 ^ (nc_ + 1 - cc))
  redis.call('set', KEYS[4], tostring(now + delay), 'EX', math.ceil(delay) + 1)
end
return {'ok', '0'}
"""
#: one registration across nodes: KEYS the address's window; ARGV now, count, seconds, id
SHARED_REGISTER = """
local now, count, seconds = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('zremrangebyscore', KEYS[1], '-inf', now - seconds)
if count > 0 and redis.call('zcard', KEYS[1]) >= count then
  local nth = redis.call('zrange', KEYS[1], -count, -count, 'WITHSCORES')
  return tostring(math.max(0, tonumber(nth[2]) + seconds - now))
end
redis.call('zadd', KEYS[1], now, ARGV[4])
redis.call('expire', KEYS[1], math.ceil(seconds))
return '0'
"""


class SharedGate(Gate):
    """:class:`Gate`'s limits counted in the cluster's Redis: they hold across nodes."""

    def __init__(self, config: Config, redis: Any) -> None:
        super().__init__(config)
        self.redis = redis
        self._login = redis.register_script(SHARED_LOGIN)
        self._register = redis.register_script(SHARED_REGISTER)

    @staticmethod
    def _limit(spec: str) -> tuple[int, float]:
        count, _, seconds = spec.partition("/")
        return int(count), float(seconds or 60)

    async def login(self, address: str, name: str, device: str | None = None) -> str:
        ticket = secrets.token_hex(8)
        keys = [
            f"taverna:login:address:{address}",
            f"taverna:login:name:{name}",
            f"taverna:login:account:{name}",
            f"taverna:login:next:{name}",
        ]
        (ac, aw), (nc, nw), (cc, cw) = (
            self._limit(self.config.login_limit_address),
            self._limit(self.config.login_limit_name),
            self._limit(self.config.login_limit_account),
        )
        known = "1" if await self.trusted(name, device) else "0"
        args = [time.time(), ac, aw, nc, nw, cc, cw, ticket, known, self.config.login_delay_max]
        why, wait = await self._login(keys=keys, args=args)
        if why == "address":
            raise TooMany("failed logins from your address", float(wait))
        if why == "name":
            raise TooMany("failed logins for this username from your address", float(wait))
        if why == "account":
            raise TooMany("failed logins for this username", float(wait))
        return "\n".join([ticket, *keys[:3]])

    async def succeeded(self, ticket: str) -> None:
        member, *keys = ticket.split("\n")
        for key in keys:
            await self.redis.zrem(key, member)

    async def trust(self, name: str) -> str:
        token = secrets.token_urlsafe(24)
        key = f"taverna:login:device:{_digest(token)}"
        await self.redis.set(key, name, ex=DEVICE_DAYS * 86400)
        return token

    async def trusted(self, name: str, device: str | None) -> bool:
        if not device:
            return False
        known = await self.redis.get(f"taverna:login:device:{_digest(device)}")
        return bool(known == name)

    async def register(self, address: str) -> None:
        count, seconds = self._limit(self.config.register_limit)
        wait = await self._register(
            keys=[f"taverna:register:{address}"],
            args=[time.time(), count, seconds, secrets.token_hex(8)],
        )
        if float(wait):
            raise TooMany("registrations from your address", float(wait))


# ------------------------------------------------------------------ the hub


class ClubHub(RoomHub):
    """The room hub with accounts: stakes at the start, abandonments, settlements."""

    def __init__(self, store: Store, config: Config) -> None:
        super().__init__(store, config)
        self.accounts = AccountStore(store)
        #: the login and registration limits (several nodes: counted in Redis)
        self.gate = Gate(config)
        # argon2 takes 64 MiB and some CPU per hash: a few at a time, whatever the load
        self.hashing = asyncio.Semaphore(2)
        #: each game's own figures of the finished games profiles list, remembered
        self.figures = FigureBook(store)

    async def open(self) -> int:
        filled = await self.accounts.fill_keys(name_keys)
        if filled:
            log.info("%d name(s) in use given their look-alike keys", filled)
        resumed = await super().open()
        if self.cluster is not None:
            self.gate = SharedGate(self.config, self.cluster.redis)
        return resumed

    async def hash_password(self, password: str) -> str:
        async with self.hashing:
            return await asyncio.to_thread(HASHER.hash, password)

    async def verify_password(self, stored: str, password: str) -> bool:
        async with self.hashing:
            return await asyncio.to_thread(_verify, stored, password)

    async def before_start(self, table: TableInfo) -> None:
        if table.options.get("official"):
            await self.accounts.hold_stakes(table.id)

    async def on_replaced(self, table: TableInfo, seat: int, reason: str) -> None:
        player_id = table.seats[seat].player_id
        if not table.options.get("official") or player_id is None:
            return
        about = TableLog(log, table.id)
        try:
            counted = await self.accounts.abandon(table.id, table.game, player_id)
        except Exception:  # the settlement counts it then
            about.exception("could not count the abandonment", seat=seat)
            return
        about.info("%s (abandonment counted: %s)", reason, counted, seat=seat)

    async def on_finished(self, table: TableInfo, result: dict[str, Any]) -> None:
        if not table.options.get("official"):
            return
        cls = get_game(table.game)
        winner = result.get("winner")
        winners = (
            None
            if winner is None
            else {s.player_id for s in table.seats if s.player_id and cls.side_of(s.seat) == winner}
        )
        try:
            done = await self.accounts.settle(table.id, table.game, winners, result)
        except Exception:
            TableLog(log, table.id).exception("could not settle the official game")
            return
        result["settlement"] = {
            "ranked": done["ranked"],
            "note": done["note"],
            "why": done["why"],
            "seats": [
                {
                    "seat": s.seat,
                    "player": s.player_name,
                    "points": done["points"].get(s.player_id, 0),
                    "chips": done["chips"].get(s.player_id, 0),
                }
                for s in table.seats
                if s.player_id
            ],
        }


# ------------------------------------------------- hooks for the lobby routes


def official_options(
    official: bool, stake: int | None, bots: dict[int, str], player: dict[str, Any]
) -> dict[str, Any]:
    """The options an official table adds (none for a casual one); HTTPException if refused."""
    if not official:
        if stake is not None:
            raise Refused(
                422, "stake_casual", "a stake is only for official tables (official: true)"
            )
        return {}
    if not player.get("registered"):
        raise Refused(
            403, "not_registered", "only registered players may open an official table: log in"
        )
    if stake is None:
        raise Refused(422, "stake_needed", "an official table needs a stake (chips, at least 1)")
    if bots:
        raise Refused(
            422, "official_humans_only", "an official table seats registered humans only: no bots"
        )
    return {"official": True, "stake": stake}


async def check_official_seat(request: Request, table_id: str, player: dict[str, Any]) -> None:
    """Official tables seat registered players with at least the stake in chips."""
    hub: ClubHub = request.app.state.hub
    table = await hub.store.table(table_id)
    if not table.options.get("official"):
        return
    if not player.get("registered"):
        raise Refused(
            403, "not_registered", "an official table seats registered players only: log in"
        )
    stake = int(table.options.get("stake") or 0)
    chips = await hub.accounts.chips(player["id"]) or 0
    if chips < stake:
        raise Refused(
            409,
            "not_enough_chips",
            f"the stake is {stake} chips and you have {chips}",
            stake=stake,
            chips=chips,
        )


def guests_since(config: Config) -> datetime | None:
    """Since when a guest must have been in the club for their name to be in use (None:
    guests' names are not held, ``TAVERNA_GUEST_NAME_MINUTES=0``)."""
    minutes = config.guest_name_minutes
    return datetime.now(UTC) - timedelta(minutes=minutes) if minutes > 0 else None


async def new_guest(request: Request, name: str) -> tuple[dict[str, Any], str]:
    """A guest called ``name`` (as ``text.name`` made it) and its session's token. A
    guest may not take a name in use, nor one that looks like it (UTS #39: Cyrillic
    "Hаrdy" beside "Hardy"; compared without case): a registered player's, or another
    guest's in the club (409)."""
    hub, config = _hub(request), _config(request)
    try:
        return await hub.accounts.create_guest(name, name_keys(name), guests_since(config))
    except NameTaken as e:
        if e.registered:
            raise Refused(
                409,
                "name_registered",
                f"the name {name!r} belongs to a registered player ({e.like}): choose "
                "another, or log in if it is yours",
                name=name,
            ) from None
        raise Refused(
            409,
            "name_in_use",
            f"the name {name!r} looks like {e.like!r}, the name of a guest in the club "
            "now: choose another",
            name=name,
            like=e.like,
        ) from None


async def note_seated(
    hub: RoomHub, config: Config, table: TableInfo, player_id: str, headers: Headers, peer: Any
) -> None:
    """Remember the address a player sits or connects from at an official table."""
    if table.options.get("official") and isinstance(hub, ClubHub):
        await hub.accounts.note_address(table.id, player_id, client_address(config, headers, peer))


def refuse_bots_at_official(table: TableInfo) -> None:
    if table.options.get("official"):
        raise Refused(
            409,
            "official_humans_only",
            "an official table seats registered humans only: a bot only stands in",
        )


# ------------------------------------------------------------------- the API


class Credentials(BaseModel):
    username: str = Field(max_length=100, description="3–20 letters, digits, '.', '-', '_'")
    password: str = Field(max_length=1024, description="at least 10 characters")

    @field_validator("username")
    @classmethod
    def _plain(cls, value: str) -> str:
        # registering checks it further (check_username); logging in only looks it up
        return text.word(value, "a username")


def _hub(request: Request) -> ClubHub:
    return request.app.state.hub  # type: ignore[no-any-return]


def _config(request: Request) -> Config:
    return request.app.state.config  # type: ignore[no-any-return]


async def _session_player(
    request: Request, taverna_session: Annotated[str | None, Cookie()] = None
) -> dict[str, Any] | None:
    if not taverna_session:
        return None
    return await _hub(request).store.player_by_token(taverna_session)


async def _signed_in(
    player: Annotated[dict[str, Any] | None, Depends(_session_player)],
) -> dict[str, Any]:
    if player is None:
        raise Refused(401, "not_logged_in", "log in first: POST /api/login")
    return player


SessionPlayer = Annotated[dict[str, Any] | None, Depends(_session_player)]
SignedIn = Annotated[dict[str, Any], Depends(_signed_in)]


def _set_cookie(response: Response, config: Config, token: str, days: float) -> None:
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=config.secure_cookies,
        max_age=int(days * 86400),
    )


async def _trust_device(hub: ClubHub, request: Request, response: Response, name: str) -> None:
    """Give a browser that logged in as ``name`` its device cookie (kept if it has one for
    that account): its owner's logins are never slowed down by others' failures."""
    if await hub.gate.trusted(name, request.cookies.get(DEVICE_COOKIE)):
        return
    config = _config(request)
    response.set_cookie(
        DEVICE_COOKIE,
        await hub.gate.trust(name),
        httponly=True,
        samesite="lax",
        secure=config.secure_cookies,
        max_age=DEVICE_DAYS * 86400,
    )


def _dummy_hash() -> str:
    global _DUMMY
    if _DUMMY is None:
        _DUMMY = HASHER.hash("not anybody's password")
    return _DUMMY


_DUMMY: str | None = None


def _verify(stored: str, password: str) -> bool:
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


router = APIRouter()


@router.post(
    "/api/register", tags=["accounts"], status_code=201, summary="Make an account (1,000 chips)"
)
async def register(
    body: Credentials, request: Request, response: Response, player: SessionPlayer
) -> dict[str, Any]:
    """A guest who registers keeps their player (and their casual games)."""
    hub, config = _hub(request), _config(request)
    if player is not None and player.get("registered"):
        raise Refused(
            409,
            "logged_in",
            f"you are logged in as {player['name']}: log out first",
            name=player["name"],
        )
    try:
        name = check_username(body.username)
    except ValueError as e:
        raise Refused(422, "bad_username", str(e)) from None
    weak = password_problem(name, body.password)
    if weak:
        raise Refused(422, "weak_password", weak[1], problem=weak[0], length=len(body.password))
    address = client_address(config, request.headers, request.client)
    await hub.gate.register(address)  # every attempt that costs a hash counts
    password_hash = await hub.hash_password(body.password)
    try:
        me = await hub.accounts.register(
            name,
            username_key(name),
            password_hash,
            player["id"] if player else None,
            name_keys(name),
            guests_since(config),
        )
    except NameTaken as e:
        if e.like is None:
            taken = "is taken"
        elif e.registered:
            taken = f"looks like {e.like!r}, which is taken"
        else:
            taken = f"looks like {e.like!r}, the name of a guest in the club now"
        raise Refused(
            409, "name_taken", f"the username {name!r} {taken}: choose another", name=name
        ) from None
    hub.renamed(me["id"], me["name"])  # a guest's tables now say the name they chose
    old = request.cookies.get(COOKIE)
    if old:
        await hub.accounts.end_session(old)  # the guest's cookie: replaced by the login's
    token = await hub.accounts.new_session(me["id"], config.session_days)
    _set_cookie(response, config, token, config.session_days)
    await _trust_device(hub, request, response, username_key(name))
    return {"player": me}


@router.post("/api/login", tags=["accounts"], summary="Log in")
async def login(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
    hub, config = _hub(request), _config(request)
    key = username_key(body.username.strip())
    address = client_address(config, request.headers, request.client)
    # counted before the password is hashed, given back if it gets in (Gate)
    ticket = await hub.gate.login(address, key, request.cookies.get(DEVICE_COOKIE))
    found = await hub.accounts.credentials(key)
    # an unknown name costs the same time as a wrong password: no telling which it was
    stored = found[1] if found else _dummy_hash()
    ok = await hub.verify_password(stored, body.password)
    if not ok or found is None:
        raise Refused(401, "wrong_credentials", "wrong username or password")
    await hub.gate.succeeded(ticket)
    player_id = found[0]
    if HASHER.check_needs_rehash(stored):
        await hub.accounts.set_password_hash(player_id, await hub.hash_password(body.password))
    old = request.cookies.get(COOKIE)
    if old:
        await hub.accounts.end_session(old)
    token = await hub.accounts.new_session(player_id, config.session_days)
    _set_cookie(response, config, token, config.session_days)
    await _trust_device(hub, request, response, key)
    return {"player": await hub.accounts.me(player_id)}


@router.post("/api/logout", tags=["accounts"], summary="Log out (ends this session)")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    token = request.cookies.get(COOKIE)
    if token:
        await _hub(request).accounts.end_session(token)
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=_config(request).secure_cookies
    )
    return {"ok": True}


@router.get("/api/me", tags=["accounts"], summary="Who am I: account, chips, standings")
async def me(request: Request, player: SignedIn) -> dict[str, Any]:
    if not player.get("registered"):
        return {"player": {**player, "chips": None, "ratings": {}}}
    # the role ("moderator" or null) as the session has it: the pages link what it may do
    return {"player": {**await _hub(request).accounts.me(player["id"]), "role": player.get("role")}}


async def _ledger(request: Request, player: dict[str, Any], limit: int) -> dict[str, Any]:
    if not player.get("registered"):
        raise Refused(
            403, "guest_no_chips", f"guests have no chips: register to get {WELCOME_CHIPS:,}"
        )
    accounts = _hub(request).accounts
    me = await accounts.me(player["id"])
    return {"chips": me["chips"], "entries": await accounts.ledger(player["id"], limit)}


@router.get("/api/me/ledger", tags=["accounts"], summary="My chip ledger, newest first")
async def my_ledger(
    request: Request, player: SignedIn, limit: Annotated[int, Query(ge=1, le=1000)] = 200
) -> dict[str, Any]:
    return await _ledger(request, player, limit)


@router.get(
    "/api/players/{name}/ledger", tags=["accounts"], summary="A chip ledger (its owner only)"
)
async def player_ledger(
    name: str,
    request: Request,
    player: SignedIn,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> dict[str, Any]:
    if not player.get("registered") or username_key(player["name"]) != username_key(name):
        raise Refused(403, "private_ledger", "a chip ledger is private to its owner")
    return await _ledger(request, player, limit)


@router.get("/api/players/{name}", tags=["accounts"], summary="A player's profile and history")
async def profile(
    name: str,
    request: Request,
    viewer: SessionPlayer,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Public: standings per game and finished games (private tables only for the player)."""
    hub = _hub(request)
    accounts = hub.accounts
    found = await accounts.player_by_username(username_key(name))
    if found is None:
        raise Refused(404, "no_player", f"no registered player named {name!r}", name=name)
    own = viewer is not None and viewer["id"] == found["id"]
    history = []
    for h in await accounts.history(found["id"], limit):
        if not (h["public"] or own):
            continue
        result = h.pop("result") or {}
        seating = h.pop("seating")
        cls = get_game(h["game"])
        winner = result.get("winner")
        if h["abandoned"] and h["official"]:
            outcome = "abandoned"
        elif winner is None:
            outcome = "draw"
        else:
            outcome = "won" if cls.side_of(h["seat"]) == winner else "lost"
        history.append(
            {
                **h,
                "outcome": outcome,
                # what the tables show: the names players have now, bots as "Bruno (bot, medium)"
                "players": [seat_name(x) for x in seating],
                "seating": [x.public() for x in seating],
                "scores": result.get("scores"),
                "settlement": result.get("settlement"),
                # PLATFORM.md: two players from one address: it counted for nobody
                "voided": WHY_OF_NOTE.get((result.get("settlement") or {}).get("note", ""))
                == "shared_address",
                "record": f"/api/games/{h['table']}/record",
            }
        )
    return {
        "player": {
            "name": found["name"],
            "registered_at": found["registered_at"],
            "ratings": found["ratings"],
            # the Glicko-2 rating per game, with its history (a plot on the page)
            "skills": await accounts.skills(found["id"]),
            # each game's own figures summed over the games listed (at most 200)
            "stats": _stats(history, await hub.figures.summed(history)),
        },
        "history": history,
    }


def _stats(
    history: list[dict[str, Any]], figures: dict[str, dict[str, int]]
) -> dict[str, dict[str, Any]]:
    """Per game, from the finished games listed: games, wins, win rate, average score,
    and the game's own ``figures`` summed (:class:`~.figures.FigureBook`)."""
    out: dict[str, dict[str, Any]] = {}
    for h in history:
        cls = get_game(h["game"])
        st = out.setdefault(h["game"], {"games": 0, "wins": 0, "scores": []})
        st["games"] += 1
        st["wins"] += h["outcome"] == "won"
        scores = h.get("scores")
        side = cls.side_of(h["seat"])
        if isinstance(scores, list) and side < len(scores):
            st["scores"].append(scores[side])
    for st in out.values():
        scores = st.pop("scores")
        st["win_rate"] = round(st["wins"] / st["games"], 3) if st["games"] else None
        st["average_score"] = round(sum(scores) / len(scores), 1) if scores else None
    for game, st in out.items():
        st["figures"] = figures.get(game, {})
    return out


@router.get("/api/ranking/{game}", tags=["accounts"], summary="The ranking (classifica) of a game")
async def ranking(
    game: str,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    by: Annotated[str, Query(pattern="^(points|rating)$")] = "points",
) -> dict[str, Any]:
    """``by``: the seed's points (``points``, the default) or the Glicko-2 skill rating
    (``rating``; established ratings before provisional ones)."""
    cls = game_named(game)
    accounts = _hub(request).accounts
    if by == "rating":
        total, rows = await accounts.skill_ranking(cls.game, limit, offset)
    else:
        total, rows = await accounts.ranking(cls.game, limit, offset)
    return {"game": cls.game, "by": by, "total": total, "offset": offset, "ranking": rows}


# ------------------------------------------------------------------ the pages

CLUB = Path(__file__).parent.parent / "web" / "static" / "club"


@router.get("/account", include_in_schema=False)
async def account_page(request: Request) -> Response:
    return page(request, CLUB / "account.html")


@router.get("/ranking", include_in_schema=False)
async def ranking_first_page(request: Request) -> Response:
    return page(request, CLUB / "ranking.html")


@router.get("/ranking/{game}", include_in_schema=False)
async def ranking_page(game: str, request: Request) -> Response:
    """The page of a game's ranking; an alias goes to the game's own name, and an
    unknown game gets the page (which says so) with a 404, never another game's."""
    try:
        cls = get_game(game)
    except KeyError:
        return page(request, CLUB / "ranking.html", status_code=404)
    if cls.game != game:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/ranking/{cls.game}{query}", status_code=308)
    return page(request, CLUB / "ranking.html")


@router.get("/players/{name}", include_in_schema=False)
async def player_page(request: Request) -> Response:
    return page(request, CLUB / "player.html")


async def too_many(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TooMany)
    return answer(
        429,
        "too_many",
        str(exc),
        {"seconds": exc.seconds},
        {"Retry-After": str(exc.seconds)},
        retry_after=exc.seconds,
    )
