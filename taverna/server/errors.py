"""What the HTTP API answers when it refuses a request.

Every error body has the English ``detail``, a stable ``code`` that a client
can translate, and the facts the translation needs in ``params``::

    409 {"detail": "the username 'Ana' is taken: choose another",
         "code": "name_taken", "params": {"name": "Ana"}}

A refusal with a code of its own is a :class:`Refused`; any other HTTP error
gets a code from its status (``invalid`` for 422, ``not_found`` for 404, …).
The codes are listed in ``docs/protocol.md`` (Errors).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from ..bots import ALIASES, LEVELS
from ..bots.base import UnknownBot
from ..bots.levels import level_of
from ..games import UnknownGame, get_game
from ..games.base import State
from .text import TextProblem

BY_STATUS = {
    400: "bad_request",
    401: "no_session",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    422: "invalid",
    429: "too_many",
}


class Refused(HTTPException):
    """An HTTP refusal with its own ``code`` and ``params``.

    >>> e = Refused(409, "seat_taken", "seat 1 is taken", seat=1)
    >>> e.status_code, e.code, e.params
    (409, 'seat_taken', {'seat': 1})
    """

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        headers: Mapping[str, str] | None = None,
        **params: Any,
    ) -> None:
        super().__init__(status, detail, dict(headers) if headers else None)
        self.code = code
        self.params = params


def game_named(name: str, status: int = 404) -> type[State]:
    """The game called ``name`` (a record name or an alias), or the one refusal every
    endpoint gives for a game that is none of ours: ``unknown_game``, 404 where the
    game names what is asked for (a path or a query), 422 in a request body.

    >>> game_named("dominoes").game
    'muggins-dominoes'
    """
    try:
        return get_game(name)
    except UnknownGame as e:
        raise Refused(status, "unknown_game", str(e), game=name) from None


def answer(
    status: int,
    code: str,
    detail: str,
    params: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    body = {"detail": detail, "code": code, "params": dict(params or {}), **extra}
    return JSONResponse(body, status_code=status, headers=dict(headers) if headers else None)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = getattr(exc, "code", None) or BY_STATUS.get(exc.status_code, "error")
    return answer(exc.status_code, code, str(exc.detail), getattr(exc, "params", None), exc.headers)


async def coded(request: Request, exc: Exception, status: int) -> JSONResponse:
    """A lower layer's exception with an optional ``code`` and ``params`` (the store's)."""
    code = getattr(exc, "code", None) or BY_STATUS.get(status, "error")
    return answer(status, code, str(exc), getattr(exc, "params", None))


async def invalid(request: Request, exc: Exception) -> JSONResponse:
    """Validation errors: one readable sentence per problem, naming the field."""
    assert isinstance(exc, RequestValidationError)
    problems = []
    fields = []
    text: TextProblem | None = None  # a text's own refusal: its code and params
    for err in exc.errors():
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, TextProblem):
            where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("body", "query"))
            problems.append(f"{where}: {cause}")
            fields.append(where)
            text = text or cause
            continue
        if err.get("type") == "json_invalid":
            # FastAPI's own words would be "0: JSON decode error" (the 0 is a character position)
            loc = err.get("loc", ())
            at = f" at character {loc[-1]}" if loc and isinstance(loc[-1], int) else ""
            why = (err.get("ctx") or {}).get("error") or "JSON decode error"
            problems.append(f"the request body is not valid JSON: {why}{at}")
            continue
        if tuple(err.get("loc", ())) == ("body",):
            # the body as a whole: absent, or JSON that is not an object ([1], "x", a form)
            missing = err.get("type") == "missing"
            problems.append(
                "the request needs a JSON object as its body"
                if missing
                else "the request body must be a JSON object"
            )
            continue
        where = ".".join(str(x) for x in err.get("loc", ()) if x not in ("body", "query"))
        problems.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        if where:
            fields.append(where)
    if text is not None:
        return answer(422, text.code, "; ".join(problems), {**text.params, "fields": fields})
    return answer(422, "invalid", "; ".join(problems), {"fields": fields})


class ErrorBody(BaseModel):
    """Every refused HTTP request (docs/protocol.md, HTTP errors)."""

    detail: str = Field(description="what went wrong, in English")
    code: str = Field(description="the kind of refusal, stable, for a client to translate")
    params: dict[str, Any] = Field(description="the facts a translation needs")
    retry_after: int | None = Field(default=None, description="429: seconds to wait")


#: what any call may answer besides its own success (the schema says so, truly)
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": why}
    for status, why in {
        400: "the request body could not be read as JSON text",
        401: "no session, or not logged in",
        403: "not yours to do, or a page of another origin (bad_origin)",
        404: "no such table, seat, player or game",
        409: "the table's or the account's state does not allow it",
        413: "the request body is too large",
        415: "the request body is not JSON",
        422: "a field, a setting or a value is not allowed (params.fields names them)",
        429: "too many tries: wait retry_after seconds",
        503: "the club's database does not answer: try again in a moment",
    }.items()
}


def bot_level(level: str | int) -> str:
    """The level a request names (``5``, ``"5"``, ``"expert"``), as a table keeps it: its
    number (``"7"``). Refused (422) for anything else: only our own levels, so that a
    remote user never makes the server import a module."""
    try:
        return str(level_of(level))
    except UnknownBot:
        choose = f"choose {LEVELS[0]} to {LEVELS[-1]}, or {', '.join(ALIASES)}"
        raise Refused(
            422, "unknown_bot", f"unknown bot level {level!r} ({choose})", level=str(level)
        ) from None
