"""The login and registration limits (docs/accounts.md): the client's address, rate
limits over a sliding window, and the :class:`Gate` that counts every try before its
password is hashed; several nodes count in Redis (:class:`SharedGate`)."""

from __future__ import annotations

import hashlib
import math
import secrets
import time
from collections import OrderedDict, deque
from typing import Any

from fastapi import Request
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers

from .config import Config
from .errors import answer


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


async def too_many(request: Request, exc: Exception) -> JSONResponse:
    """The answer to :class:`TooMany`: 429, with when to try again."""
    assert isinstance(exc, TooMany)
    return answer(
        429,
        "too_many",
        str(exc),
        {"seconds": exc.seconds},
        {"Retry-After": str(exc.seconds)},
        retry_after=exc.seconds,
    )
