"""The ids and tokens the store makes: table and player ids, and session tokens kept
as their hashes only."""

from __future__ import annotations

import hashlib
import secrets


def hash_token(token: str) -> str:
    """What is stored of a session token: its SHA-256, in hex (the token itself never is)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_id(n: int = 10) -> str:
    """A random id of ``n`` letters and digits, none that reads like another (no l, o, 0, 1)."""
    alphabet = "abcdefghijkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(n))
