"""What the store refuses: a request the data's state does not allow, or names
nothing. The server turns them into HTTP 409 and 404 (``taverna.server.errors``)."""

from __future__ import annotations

from typing import Any


class Conflict(Exception):
    """A request that the table's current state does not allow (HTTP 409).

    ``code`` and ``params`` tell a client what kind of conflict it is, so that
    it can say so in its own language (``taverna.server.errors``).
    """

    def __init__(self, message: str, code: str = "conflict", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class NotFound(Exception):
    """Nothing by that name or number (HTTP 404); ``code`` and ``params`` as for Conflict."""

    def __init__(self, message: str, code: str = "not_found", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
