"""The web client's pages and files (static, no build step), and how they reach a
browser: compressed, and checked again on every use.

The client's files keep their names from one release to the next (no hash in them),
so a browser must never run a stale copy after a deploy: every page and file is
served with ``Cache-Control: no-cache`` and its ``ETag`` and ``Last-Modified``, and a
browser that has it already asks again and gets ``304 Not Modified`` (no body) while
it is the same. No URL changes when its file does, so no file gets a long
``max-age``; only the favicon, an image that runs nothing, may be a day old.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..games import ALIASES, GAMES
from ..registry import PluginError, parts

WEB = Path(__file__).parent.parent / "web" / "static"
#: the club's own pages (accounts, rankings, tournaments, moderation)
CLUB = WEB / "club"
#: the client's languages: one file of strings each
LANGUAGES = tuple(sorted(p.stem for p in (WEB / "js" / "lang").glob("*.json")))

#: use the stored copy only once the server says it is still the same (a 304)
NO_CACHE = "no-cache"
#: bodies smaller than one TCP segment arrive in one packet anyway: not compressed
MIN_COMPRESSED = 1400
#: zlib's level: 6 makes the client's files as small as 9 does within a few percent,
#: in a fraction of the time
GZIP_LEVEL = 6

router = APIRouter(include_in_schema=False)


class ClientFiles(StaticFiles):
    """``/static``: StaticFiles (ETag, Last-Modified, 304, ranges) with ``no-cache``."""

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = FileResponse(
            full_path,
            status_code=status_code,
            stat_result=stat_result,
            headers={"Cache-Control": NO_CACHE},
        )
        if status_code == 200 and self.is_not_modified(response.headers, Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response


_FILES = ClientFiles(directory=WEB, check_dir=False)


def game_parts() -> dict[str, Path]:
    """Each installed game's part of the web client, by record name: the folder of the
    package its entry point in the group ``taverna.web`` names, which holds its board
    module ``board.js``, and may hold ``board.css``, its strings ``lang/<code>.json`` and
    its "How to play" ``rules/<code>.json`` (``{summary, sections}``, as /rules draws).
    The server serves it at ``/games/<name>/``; a game without one has no board."""
    found: dict[str, Path] = {}
    for name, module in parts("taverna.web").items():
        if name not in GAMES:
            continue  # the web part of a game that is not installed
        where = getattr(module, "__file__", None) if isinstance(module, ModuleType) else None
        if where is None:
            raise PluginError(f"entry point {name!r} of taverna.web is not a package")
        folder = Path(where).parent
        if not (folder / "board.js").is_file():
            raise PluginError(f"the web part of {name!r} ({folder}) has no board.js")
        found[name] = folder
    return found


def web_facts(name: str, folder: Path | None) -> dict[str, Any] | None:
    """Where a page finds a game's part (``/api/games``: ``web``), or None if it has none."""
    if folder is None:
        return None
    base = f"/games/{name}"
    return {
        "board": f"{base}/board.js",
        "css": f"{base}/board.css" if (folder / "board.css").is_file() else None,
        **{
            kind: {
                code: f"{base}/{kind}/{code}.json"
                for code in LANGUAGES
                if (folder / kind / f"{code}.json").is_file()
            }
            for kind in ("lang", "rules")
        },
    }


def page(
    request: Request,
    path: Path,
    status_code: int = 200,
    media_type: str | None = None,
    cache: str = NO_CACHE,
) -> Response:
    """A file of the client as a page: validators, ``cache``, and 304 when the browser's
    copy is still the same (a page answered with another status never is)."""
    response = FileResponse(
        path,
        status_code=status_code,
        media_type=media_type,
        stat_result=os.stat(path),
        headers={"Cache-Control": cache},
    )
    if status_code == 200 and _FILES.is_not_modified(response.headers, request.headers):
        return NotModifiedResponse(response.headers)
    return response


class Compressed:
    """ASGI middleware: gzip for every HTTP answer worth it, through Starlette's
    GZipMiddleware (at least :data:`MIN_COMPRESSED` bytes; not one already encoded,
    a part of a file, nor an image); WebSockets pass untouched. A compressed answer's
    ``ETag`` is made weak: its bytes are not the file's (as nginx does).

    Brotli would save a little more on text, through a middleware of another project;
    gzip is what every browser and tool reads, and a browser that has the files gets
    304s, not bodies.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=MIN_COMPRESSED, compresslevel=GZIP_LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def weak_etag(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(raw=message["headers"])
                etag = headers.get("etag")
                if headers.get("content-encoding") and etag and not etag.startswith("W/"):
                    headers["etag"] = f"W/{etag}"
            await send(message)

        await self.gzip(scope, receive, weak_etag)


@router.get("/docs", include_in_schema=False)
async def api_docs(request: Request) -> Response:
    return page(request, WEB / "api-docs.html")


# "How to play" (issue 14): one page for every game, in the visitor's language
@router.get("/rules", include_in_schema=False)
@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(request: Request, game: str | None = None) -> Response:
    known = game is None or game in GAMES or game in ALIASES
    rules = WEB / "rules" / "rules.html"
    if not rules.exists():  # an install without the rules pages: the site's "not found"
        return page(request, WEB / "index.html", status_code=404)
    return page(request, rules, status_code=200 if known else 404)


@router.get("/", include_in_schema=False)
async def index(request: Request) -> Response:
    return page(request, WEB / "index.html")


# every page links /favicon.svg; /favicon.ico is what browsers and tools ask for unbidden
@router.get("/favicon.svg", include_in_schema=False)
@router.get("/favicon.ico", include_in_schema=False)
async def favicon(request: Request) -> Response:
    return page(
        request, WEB / "favicon.svg", media_type="image/svg+xml", cache="public, max-age=86400"
    )
