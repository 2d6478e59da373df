"""One bot decision as a value: a request in JSON, an answer in JSON.

A strong bot's decision takes up to a second of CPU, so the server makes it away from
its event loop: in a process of its own, or in a bot worker on another machine
(``taverna worker``, docs/scaling.md). Either way it is the same function of the same
request, so where it was made changes nothing::

    >>> from taverna.games import get_game
    >>> from taverna.bots import make_bot
    >>> Cards = get_game("cards")
    >>> state = Cards.new(2, seed=4)
    >>> seat = state.to_act[0]
    >>> bot = make_bot("greedy", Cards, seat)
    >>> request = ask(bot, state.view(seat), seed=12)
    >>> decide(request) == decide(request)
    True

A request names a level, never a class or a module: whoever decides it makes only the
club's own bots, and runs no code a message could send (JSON, never pickle). It carries
the bot's memory (:meth:`Bot.remember`), and the answer the memory after the decision,
which the asker gives its bot back (:meth:`Bot.recall`) if it takes the decision.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..games import get_game
from ..games.base import TavernaError, View
from .base import Bot, UnknownBot
from .catalog import make_bot
from .levels import level_of


class BadRequest(TavernaError, ValueError):
    """A decision request that is not one: the message says which field and why."""


def ask(
    bot: Bot, view: View, seed: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The request for ``bot``'s decision on ``view``, with a fresh ``seed`` (the asker
    draws it from its own generator, so decisions are reproducible from its seed) and
    ``options`` beside the bot's own (the bot's win)."""
    return {
        "level": bot.label,
        "game": bot.game.game,
        "seat": bot.seat,
        "options": {**(options or {}), **bot.options},
        "memory": bot.remember(),
        "seed": seed,
        "view": view,
    }


def follow_parent(parent: int, seconds: float = 1.0) -> None:
    """A process pool's initializer: the process ends when ``parent`` (the process that
    made the pool, its pid given by it: a node killed while the process was starting is
    already gone when this runs) is no longer its parent. A node killed, or stopped
    before its pool was shut down, left its thinking processes behind, waiting forever
    on the pool's queue."""
    import os
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(seconds)
        os._exit(0)

    threading.Thread(target=watch, name="follow-parent", daemon=True).start()


def decide(request: Mapping[str, Any]) -> dict[str, Any]:
    """Make the bot a request names and let it choose: ``{"action": JSON or None,
    "memory": JSON}``, and ``"capped": true`` when the safety cap stopped its search
    (taverna.bots.budget). Raises :class:`BadRequest` for a malformed request, and the
    bot's own errors (``BotOptionError``, ``UnknownGame``) as they are."""
    try:
        level = level_of(request_field(request, "level", str))
    except UnknownBot as e:
        raise BadRequest(f"level must be a bot level: {e}") from None
    game = get_game(request_field(request, "game", str))
    seat = request_field(request, "seat", int)
    options = request_field(request, "options", dict)
    if not all(isinstance(k, str) for k in options):
        raise BadRequest("options must be an object")
    bot = make_bot(level, game, seat, seed=request_field(request, "seed", int), **options)
    bot.recall(request_field(request, "memory", dict))
    action = bot.choose(request_field(request, "view", dict))
    answer: dict[str, Any] = {
        "action": None if action is None else action.to_json(),
        "memory": bot.remember(),
    }
    if getattr(bot, "capped", False):
        answer["capped"] = True
    return answer


def request_field(request: Mapping[str, Any], key: str, kind: type[Any]) -> Any:
    """The field ``key`` of a decision request, of type ``kind``; raises BadRequest."""
    value = request.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRequest(f"{key} must be {kind.__name__}, not {value!r}")
    return value
