"""Registered players for the server tests, each from an address of their own.

The test server trusts ``X-Forwarded-For`` (``TAVERNA_TRUSTED_PROXY_HEADER``),
so every client, though it connects from 127.0.0.1, counts as coming from the
address it names: different addresses for fair games, one for the same-IP rule.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx
import websockets

from .server_helpers import Seat, Server

PASSWORD = "correct horse battery"
ACCOUNT_ENV = {
    "TAVERNA_TRUSTED_PROXY_HEADER": "X-Forwarded-For",
    "TAVERNA_REGISTER_LIMIT": "1000/60",
}


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


class Member:
    """A registered person: an HTTP client with their session cookie and address."""

    def __init__(self, server: Server, name: str, address: str, password: str = PASSWORD) -> None:
        self.server = server
        self.name = unique(name)
        self.address = address
        self.password = password
        self.http = httpx.Client(
            base_url=server.http, timeout=10, headers={"X-Forwarded-For": address}
        )
        r = self.http.post("/api/register", json={"username": self.name, "password": password})
        assert r.status_code == 201, r.text
        self.player = r.json()["player"]

    @property
    def cookie(self) -> str:
        return f"taverna_session={self.http.cookies['taverna_session']}"

    def create(self, game: str, **body: Any) -> dict[str, Any]:
        r = self.http.post("/api/tables", json={"game": game, **body})
        assert r.status_code == 201, r.text
        return r.json()["table"]

    def sit(self, table: str, seat: int) -> dict[str, Any]:
        r = self.http.post(f"/api/tables/{table}/seats/{seat}")
        assert r.status_code == 200, r.text
        return r.json()["table"]

    def start(self, table: str) -> dict[str, Any]:
        r = self.http.post(f"/api/tables/{table}/start")
        assert r.status_code == 200, r.text
        return r.json()["table"]

    def me(self) -> dict[str, Any]:
        r = self.http.get("/api/me")
        assert r.status_code == 200, r.text
        return r.json()["player"]  # type: ignore[no-any-return]

    def chips(self) -> int:
        return int(self.me()["chips"])

    def ledger(self) -> list[dict[str, Any]]:
        r = self.http.get("/api/me/ledger")
        assert r.status_code == 200, r.text
        return r.json()["entries"]  # type: ignore[no-any-return]

    def standing(self, game: str) -> dict[str, Any] | None:
        """This player's row in the public ranking of ``game`` (None if unranked)."""
        rows = httpx.get(f"{self.server.http}/api/ranking/{game}?limit=500").json()["ranking"]
        return next((r for r in rows if r["player"] == self.name), None)

    def seat(self, table: str) -> AddressedSeat:
        return AddressedSeat(self.server, table, self.cookie, self.address)


class AddressedSeat(Seat):
    """A table WebSocket that says which address it comes from."""

    def __init__(self, server: Server, table: str, cookie: str, address: str) -> None:
        super().__init__(server, table, cookie)
        self.address = address

    async def connect(self, last_seq: int | None = None) -> dict[str, Any]:
        headers = {"Cookie": self.cookie or "", "X-Forwarded-For": self.address}
        self.ws = await websockets.connect(
            f"{self.server.ws}/ws/tables/{self.table}", additional_headers=headers, max_size=None
        )
        await self.send({"type": "hello", "last_seq": last_seq})
        welcome = await self.expect("welcome")
        self.seat = welcome["seat"]
        return welcome


def wait_finished(server: Server, table: str, timeout: float = 30) -> dict[str, Any]:
    """The table once it is finished (and so settled): its status is stored after that."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        t = httpx.get(f"{server.http}/api/tables/{table}").json()["table"]
        if t["status"] == "finished":
            return t  # type: ignore[no-any-return]
        time.sleep(0.1)
    raise AssertionError(f"table {table} did not finish")


def wait_for(check: Any, timeout: float = 10) -> Any:
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("timed out")
