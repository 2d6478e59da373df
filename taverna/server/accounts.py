"""Accounts, chips and the ranking: the HTTP API and the pages.

- ``POST /api/register``, ``/api/login``, ``/api/logout``; ``GET /api/me``,
  ``/api/me/ledger`` (the owner only), ``/api/players/{name}`` (public profile
  and history), ``/api/ranking/{game}``. See ``docs/accounts.md``.
- The rules of usernames and passwords are in :mod:`.passwords`; the login and
  registration limits in :mod:`.gate`; the stakes and settlements of official games
  in :class:`~.club.ClubHub` (and :mod:`taverna.store.accounts`).

Passwords are hashed with argon2id, in a worker thread so the event loop never waits
for one. Failed logins are limited per username and per client address.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Cookie, Depends, Query, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, Field, field_validator

from ..games import get_game
from ..store.accounts import NameTaken
from ..store.chips import WELCOME_CHIPS
from ..store.settlement import WHY_OF_NOTE
from . import text
from .club import ClubHub, club_of, guests_since
from .config import Config
from .deps import COOKIE, config_of
from .errors import Refused, game_named
from .gate import DEVICE_COOKIE, DEVICE_DAYS, client_address
from .names import name_keys, seat_name
from .pages import CLUB, page
from .passwords import HASHER, check_username, dummy_hash, password_problem, username_key


class Credentials(BaseModel):
    username: str = Field(max_length=100, description="3–20 letters, digits, '.', '-', '_'")
    password: str = Field(max_length=1024, description="at least 10 characters")

    @field_validator("username")
    @classmethod
    def _plain(cls, value: str) -> str:
        # registering checks it further (check_username); logging in only looks it up
        return text.word(value, "a username")


async def _session_player(
    request: Request, taverna_session: Annotated[str | None, Cookie()] = None
) -> dict[str, Any] | None:
    if not taverna_session:
        return None
    return await club_of(request).store.player_by_token(taverna_session)


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
    config = config_of(request)
    response.set_cookie(
        DEVICE_COOKIE,
        await hub.gate.trust(name),
        httponly=True,
        samesite="lax",
        secure=config.secure_cookies,
        max_age=DEVICE_DAYS * 86400,
    )


router = APIRouter()


@router.post(
    "/api/register", tags=["accounts"], status_code=201, summary="Make an account (1,000 chips)"
)
async def register(
    body: Credentials, request: Request, response: Response, player: SessionPlayer
) -> dict[str, Any]:
    """A guest who registers keeps their player (and their casual games)."""
    hub, config = club_of(request), config_of(request)
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
    hub, config = club_of(request), config_of(request)
    key = username_key(body.username.strip())
    address = client_address(config, request.headers, request.client)
    # counted before the password is hashed, given back if it gets in (Gate)
    ticket = await hub.gate.login(address, key, request.cookies.get(DEVICE_COOKIE))
    found = await hub.accounts.credentials(key)
    # an unknown name costs the same time as a wrong password: no telling which it was
    stored = found[1] if found else dummy_hash()
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
        await club_of(request).accounts.end_session(token)
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=config_of(request).secure_cookies
    )
    return {"ok": True}


@router.get("/api/me", tags=["accounts"], summary="Who am I: account, chips, standings")
async def me(request: Request, player: SignedIn) -> dict[str, Any]:
    if not player.get("registered"):
        return {"player": {**player, "chips": None, "ratings": {}}}
    # the role ("moderator" or null) as the session has it: the pages link what it may do
    return {
        "player": {**await club_of(request).accounts.me(player["id"]), "role": player.get("role")}
    }


async def _ledger(request: Request, player: dict[str, Any], limit: int) -> dict[str, Any]:
    if not player.get("registered"):
        raise Refused(
            403, "guest_no_chips", f"guests have no chips: register to get {WELCOME_CHIPS:,}"
        )
    accounts = club_of(request).accounts
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
    hub = club_of(request)
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
    accounts = club_of(request).accounts
    if by == "rating":
        total, rows = await accounts.skill_ranking(cls.game, limit, offset)
    else:
        total, rows = await accounts.ranking(cls.game, limit, offset)
    return {"game": cls.game, "by": by, "total": total, "offset": offset, "ranking": rows}


# ------------------------------------------------------------------ the pages


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
