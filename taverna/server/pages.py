"""The web client's pages and files (static, no build step)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from ..games import ALIASES, GAMES

WEB = Path(__file__).parent.parent / "web" / "static"

router = APIRouter(include_in_schema=False)


@router.get("/docs", include_in_schema=False)
async def api_docs() -> FileResponse:
    return FileResponse(WEB / "api-docs.html")


# "How to play" (issue 14): one page for every game, in the visitor's language
@router.get("/rules", include_in_schema=False)
@router.get("/rules/{game}", include_in_schema=False)
async def rules_page(game: str | None = None) -> FileResponse:
    known = game is None or game in GAMES or game in ALIASES
    page = WEB / "rules" / "rules.html"
    if not page.exists():  # an install without the rules pages: the site's "not found"
        return FileResponse(WEB / "index.html", status_code=404)
    return FileResponse(page, status_code=200 if known else 404)


@router.get("/", include_in_schema=False)
async def index() -> FileResponse:
    return FileResponse(WEB / "index.html")


# every page links /favicon.svg; /favicon.ico is what browsers and tools ask for unbidden
@router.get("/favicon.svg", include_in_schema=False)
@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(
        WEB / "favicon.svg",
        media_type="image/svg+xml",
        headers={"Cache-Control": "public, max-age=86400"},
    )
