"""A hint: the move the strong bot would make from one seat's view, and why.

The hint is the bot of level :data:`LEVEL` (the top level, ISMCTS) asked on the seat's
view — the same JSON the player's page has, never the state — with a budget of its
own (:data:`BUDGET`), so it answers in well under a second. Like a bot's decision it
is a value made from a request in JSON (:func:`taverna.bots.decision.ask`), so the
server makes it in a process of its own::

    >>> from taverna.games import get_game
    >>> from taverna.bots.hint import hint, request
    >>> Dominoes = get_game("dominoes")
    >>> state = Dominoes.new(2, seed=3)
    >>> seat = state.to_act[0]
    >>> answer = hint(request(Dominoes, seat, state.view(seat), seed=5))
    >>> sorted(answer)
    ['action', 'why']

``why`` is a few words a client says in its own language: a ``key`` and its facts,
told by the game's :meth:`Strategy.explain` (``{"key": "scores", "points": 15}``,
``{"key": "keeps_double", "tile": "6-6"}``, ``{"key": "pair_wins", "lance": "grande",
"chance": 72}``), else ``only_move`` (one move takes the turn), ``best_estimate`` with
the search's mean reward of the move (``value``: the game's reward, from -1 to 1 but in
Mus, where it is a gain in games won) and what it is worth as players count
(``amount`` in ``unit``, :meth:`Strategy.worth`: the hand's points, yours less the best
other side's, or in Mus the pair's share of a game), or ``policy`` (the
move of the game's rule of thumb, kept by the search).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..games import get_game
from ..games.base import Action, Event, State, TavernaError, View
from .base import UnknownBot
from .catalog import make_bot
from .decision import BadRequest, ask, request_field
from .expert import ExpertBot
from .heuristics import explain, strategy, turn_actions
from .levels import TOP, level_of

#: the level whose bot gives the hints: the top level's play (in Mus the other pair
#: answers on its own cards, docs/bots.md, Level 8 in Mus) at the expert's budget
LEVEL = TOP
#: the hint's budget on top of its level's (and of the server's options for that level):
#: the iterations of the expert's decision (level 7's, not twice them); in Mus a pool of
#: 175 samples, what the 0.05 s cut of wall time that hints had before kept on an idle
#: machine on average (docs/bots.md,
#: Budgets) — a count, like every budget: the same hint on any machine; and a safety
#: cap of 3 s (taverna.bots.budget), which a hint never comes near
BUDGET: dict[str, Any] = {"pool": 175, "seconds": 3.0}


def request(
    game: type[State], seat: int, view: View, seed: int, options: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The request for a hint to ``seat`` on ``view`` (``options``, the server's for the
    hint's level, under the budget)."""
    budget = strategy(game).budget(1.0)
    bot = make_bot(LEVEL, game, seat, seed=seed, **{**budget, **(options or {}), **BUDGET})
    return ask(bot, view, seed)


def hint(request: Mapping[str, Any]) -> dict[str, Any]:
    """``{"action": JSON or None, "why": {"key": …, …}}`` for a request of
    :func:`request`; raises :class:`BadRequest` for a malformed one."""
    try:
        level = level_of(request_field(request, "level", str))
    except UnknownBot as e:
        raise BadRequest(f"level must be a bot level: {e}") from None
    game = get_game(request_field(request, "game", str))
    seat = request_field(request, "seat", int)
    options = request_field(request, "options", dict)
    seed = request_field(request, "seed", int)
    view = request_field(request, "view", dict)
    bot = make_bot(level, game, seat, seed=seed, **options)
    if not isinstance(bot, ExpertBot):
        raise BadRequest(f"a hint is a searching level's, not level {level}'s")
    action = bot.choose(view)
    if action is None:
        return {"action": None, "why": {"key": "wait"}}
    return {"action": action.to_json(), "why": why(bot, view, action, seed)}


def why(bot: ExpertBot, view: View, action: Action, seed: int) -> dict[str, Any]:
    """Why the expert chose ``action``: the game's words for it, else the search's."""
    events = _events(bot, view, action, seed)
    said = explain(bot, view, action, events)
    if said is not None:
        return said
    turn = turn_actions(bot, bot.legal(view))
    if len(turn) == 1:
        return {"key": "only_move"}
    estimate = bot.estimates.get(action)
    if estimate is None:
        return {"key": "policy"}
    strat = strategy(bot.game)
    return {
        "key": "best_estimate",
        "value": round(estimate, 2),
        "unit": strat.unit,
        "amount": round(strat.worth(estimate), 3),
    }


def _events(bot: ExpertBot, view: View, action: Action, seed: int) -> list[Event] | None:
    """What ``action`` does on a state sampled from the view (the search's own way of
    seeing the table): its events, with no more than the view holds behind them."""
    try:
        state = bot.game.sample(view, random.Random(seed))
        return state.apply(action)
    except TavernaError:
        return None
