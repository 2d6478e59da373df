"""Small builders for hand-made dominoes positions."""

from __future__ import annotations

from typing import Any

from taverna.games.dominoes import N_TILES, Dominoes, tile_id, tile_str


def deal(
    hands: list[list[str]],
    opener: int | None = 0,
    boneyard: list[str] | None = None,
    top: list[str] = (),  # type: ignore[assignment]
) -> dict[str, Any]:
    """A deal in record form; the boneyard defaults to ``top`` then every other tile."""
    if boneyard is None:
        used = {tile_id(t) for h in hands for t in h} | {tile_id(t) for t in top}
        boneyard = list(top) + [tile_str(t) for t in range(N_TILES) if t not in used]
    out: dict[str, Any] = {"hands": hands, "boneyard": boneyard}
    if opener is not None:
        out["opener"] = opener
    return out


def start(*deals: dict[str, Any], target: int | None = None) -> Dominoes:
    seats = len(deals[0]["hands"])
    settings = {} if target is None else {"target": target}
    full = Dominoes.check_settings(seats, settings)
    parsed = [Dominoes.parse_deal(d, seats, full, i) for i, d in enumerate(deals)]
    return Dominoes.start(seats, settings, parsed)


def act(
    state: Dominoes, seat: int, kind: str, tile: str | None = None, end: str | None = None
) -> list[dict[str, Any]]:
    obj: dict[str, Any] = {"seat": seat, "type": kind}
    if tile is not None:
        obj["tile"] = tile
    if end is not None:
        obj["end"] = end
    return state.apply(Dominoes.parse_action(obj, state.seats))


def credits(events: list[dict[str, Any]]) -> list[int]:
    return [e["credit"] for e in events if e["type"] == "play"]
