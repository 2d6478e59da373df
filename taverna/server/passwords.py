"""Usernames and passwords: the rules a username and a password follow, and how a
password is hashed (argon2id, ``argon2-cffi``) and checked. See ``docs/accounts.md``."""

from __future__ import annotations

import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from zxcvbn import zxcvbn

from ..games import GAMES
from . import text

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


def dummy_hash() -> str:
    """A hash of nobody's password: an unknown name costs a login the time a wrong
    password does."""
    global _DUMMY
    if _DUMMY is None:
        _DUMMY = HASHER.hash("not anybody's password")
    return _DUMMY


_DUMMY: str | None = None


def verify(stored: str, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` is the hash of."""
    try:
        return HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False
