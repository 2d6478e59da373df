"""Who owns a table, as Redis holds it (docs/scaling.md): the keys, the lease values
and the scripts that take, renew and give up a lease atomically.

A table's lease is ``taverna:lease:<table>`` = ``"<node>|<token>"``, expiring unless its
owner renews it; its token comes from a counter that only grows
(``taverna:fence:<table>``). Each node listens on ``taverna:node:<node>``; every node
hears ``taverna:lobby``.
"""

from __future__ import annotations

PREFIX = "taverna"
#: milliseconds a lease lasts unless renewed: an owner that died is replaced within
#: this and one scan (:data:`SCAN_SECONDS`)
LEASE_MS = 5000
#: how often an owner renews its leases (and says it is alive)
RENEW_SECONDS = 1.0
#: how often a node looks for tables nobody owns, and edges check their owners
SCAN_SECONDS = 1.0

#: take a table if nobody holds its lease: its new token, or nil
ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return false end
local token = redis.call('incr', KEYS[2])
redis.call('set', KEYS[1], ARGV[1] .. '|' .. token, 'PX', ARGV[2])
return token
"""
#: renew a lease that is still this one
RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
#: :data:`RENEW` for many leases in one call (KEYS the leases, ARGV their values, then the
#: milliseconds): 1 for each one renewed, 0 for each one that is not this node's any more
RENEW_MANY = """
local ms = ARGV[#KEYS + 1]
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[i] then
    out[i] = redis.call('pexpire', key, ms)
  else
    out[i] = 0
  end
end
return out
"""
#: leases renewed or looked up per call: one script or MGET, not one command a table each
#: second (40,000 a second for a node at the scale of docs/scaling.md's 100,000 players),
#: in chunks that keep Redis from being busy with one call for long
BATCH = 1000
#: a table's token counter at least ARGV[1] (a Redis that lost its data counts anew:
#: the tokens stored in the database must stay behind the next one)
RAISE = """
local now = tonumber(redis.call('get', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1]) end
return 1
"""
#: give a lease up, if it is still this one
RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def lease_key(table_id: str) -> str:
    """The key of a table's lease."""
    return f"{PREFIX}:lease:{table_id}"


def fence_key(table_id: str) -> str:
    """The key of a table's token counter."""
    return f"{PREFIX}:fence:{table_id}"


def node_channel(node: str) -> str:
    """The channel a node listens on."""
    return f"{PREFIX}:node:{node}"


LOBBY_CHANNEL = f"{PREFIX}:lobby"
NODES_KEY = f"{PREFIX}:nodes"


def owner_of(lease: str | None) -> str | None:
    """The node named in a lease's value ``"<node>|<token>"``."""
    return lease.rpartition("|")[0] if lease else None
