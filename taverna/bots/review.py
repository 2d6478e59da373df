"""A review of a finished game: what each of one seat's decisions cost, by the strong bot.

For every decision the seat took on its turn with more than one sensible action, the
review asks what the top level's bot would estimate from **that seat's view at that
moment** — the same JSON the player's page had, never the record's hidden deals — and
compares the player's action with the bot's best: each candidate action (the search's
actions at the root, and the player's own) is played out on the *same* sampled deals
with the same rollout seed (common random numbers, as the expert's paired search does),
so the difference between two actions' mean rewards is the difference the choice made,
not the luck of the samples. ``cost`` is that difference between the best action and
the player's, in the game's reward (:meth:`Strategy.reward`: from -1 to 1 per hand in
Muggins, a gain in games won in Mus); 0 when no action beats the player's by more than
:data:`MARGIN` standard errors of the paired difference (two moves of equal worth
differ by the noise of the samples: no mistake is made of it).

Each decision is one request in JSON (:func:`request`, answered by :func:`estimate`),
like a bot's decision: the server answers them in a process of its own, or a bot
worker does (``taverna worker``)::

    >>> from taverna.games import get_game
    >>> from taverna.bots import make_bot
    >>> from taverna.bots.match import play_game
    >>> Dominoes = get_game("dominoes")
    >>> state = Dominoes.new(2, {"target": 50}, seed=3)
    >>> _ = play_game(state, [make_bot("greedy", Dominoes, 0), make_bot("random", Dominoes, 1)])
    >>> asked = requests(state.record(), 1, seed=7, samples=8)
    >>> answer = estimate(asked[0])
    >>> sorted(answer)
    ['actions', 'best', 'cost', 'played']
    >>> answer["cost"] >= 0
    True
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator, Mapping
from typing import Any

from ..games import get_game
from ..games.base import Action, State
from ..games.record import Record, parse_record
from .catalog import make_bot
from .decision import BadRequest, follow_parent, request_field
from .expert import paired_gain, paired_values
from .heuristics import playout_sampler, search_actions, strategy
from .levels import TOP

#: the level whose bot reviews (its play: in Mus the other pair answers on its own
#: cards), at the expert's budget (Mus's pool of samples, a count); the review's budget
#: is its samples a decision (``Strategy.review_samples``), never the clock
LEVEL = TOP

#: how many standard errors of the paired difference another action must beat the
#: player's by to count as better (the expert's ``margin``: no mistake made of noise)
MARGIN = 3.0
#: the costliest moments a review marks on the replay's timeline
MARKED = 3
#: a cost below this is noise of the samples, not a mistake worth marking
NOTICEABLE = 0.01


def requests(
    record: Mapping[str, Any], seat: int, seed: int, samples: int | None = None
) -> list[dict[str, Any]]:
    """One request per decision of ``seat`` in a finished game's ``record`` that had a
    choice: the seat's view just before it, the action it took, and its index in the
    record's actions (the replay's step ``index`` shows the position it was made in,
    step ``index + 1`` the one it made)."""
    rec = parse_record(dict(record))
    game = rec.game
    # every candidate action is played out on each sampled deal: the game's own budget
    n = samples if samples is not None else strategy(game).review_samples
    rng = random.Random(seed)
    return [
        {
            "kind": "review",
            "game": game.game,
            "seat": seat,
            "index": i,
            "view": state.view(seat),
            "action": action.to_json(),
            "samples": n,
            "seed": rng.randrange(1 << 30),
        }
        for i, state, action, choice in _moves(rec, seat)
        if choice
    ]


def forced(record: Mapping[str, Any], seat: int) -> int:
    """How many of ``seat``'s moves in ``record`` took the turn without a choice (the
    only tile that fits, a draw or a pass with nothing to place, a go): the moves a
    review does not ask about, besides its :func:`requests`."""
    rec = parse_record(dict(record))
    return sum(1 for _i, _state, _action, choice in _moves(rec, seat) if not choice)


def _moves(rec: Record, seat: int) -> Iterator[tuple[int, State, Action, bool]]:
    """Each move of ``seat`` that took its turn (not an optional right: a call), with
    its index in the record's actions, the state just before it (played on once the
    next is asked for) and whether the seat had a choice then (more than one action
    that takes the turn)."""
    if not 0 <= seat < rec.seats:
        raise BadRequest(f"seat must be from 0 to {rec.seats - 1}, not {seat}")
    state = rec.game.start(rec.seats, rec.settings, rec.deals)
    optional = state.optional_actions
    signals = rec.signals
    k = 0
    for i, action in enumerate(rec.actions):
        while k < len(signals) and signals[k]["after"] == i:
            state.replay_signal(signals[k])
            k += 1
        if action.seat == seat and seat in state.to_act and action.type not in optional:
            turn = [a for a in state.legal_actions(seat) if a.type not in optional]
            yield i, state, action, len(turn) > 1
        state.apply(action)


def low_priority(parent: int) -> None:
    """A review process's initializer: it yields the processor to the node's tables and
    bots (``nice``), and ends with its node (:func:`~taverna.bots.decision.follow_parent`)."""
    import os

    with contextlib.suppress(OSError):
        os.nice(10)
    follow_parent(parent)


def estimate(request: Mapping[str, Any]) -> dict[str, Any]:
    """The expert's estimate of one decision: ``{"played", "best", "cost", "actions"}``
    (``actions``: each candidate with its mean reward, best first). Raises
    :class:`BadRequest` for a malformed request."""
    if request_field(request, "kind", str) != "review":
        raise BadRequest("kind must be 'review'")
    game = get_game(request_field(request, "game", str))
    seat = request_field(request, "seat", int)
    view = request_field(request, "view", dict)
    samples = request_field(request, "samples", int)
    if not 1 <= samples <= 1000:
        raise BadRequest(f"samples must be from 1 to 1000, not {samples}")
    seed = request_field(request, "seed", int)
    if view.get("seat") != seat:
        raise BadRequest("the view is not the seat's")
    # the top level's play at the expert's budget (its Mus pool of samples): a review costs
    # what it did
    bot = make_bot(LEVEL, game, seat, seed=seed, **strategy(game).budget(1.0))
    try:
        played = game.parse_action(request_field(request, "action", dict), view["seats"])
    except Exception as e:  # the game's own message: a malformed action
        raise BadRequest(f"action: {e}") from None
    legal = bot.legal(view)
    if played not in legal:
        raise BadRequest(f"{played.to_json()} was not legal at that moment")
    sample = playout_sampler(bot, view)
    means, gains = _values(bot.rng, sample, seat, legal, played, samples)
    ranked = sorted(means.items(), key=lambda kv: -kv[1])
    # the player's action stands unless another beats it by more than MARGIN standard
    # errors of the paired difference: two moves of the same worth differ by the noise of
    # the samples, which is no mistake (and among those that do, the surest gain wins)
    best, cost, bound = played, 0.0, 0.0
    for action, (gain, error) in gains.items():
        if gain - MARGIN * error > bound:
            best, cost, bound = action, gain, gain - MARGIN * error
    return {
        "played": played.to_json(),
        "best": best.to_json(),
        "cost": round(cost, 4),
        "actions": [{"action": a.to_json(), "value": round(v, 4)} for a, v in ranked],
    }


def _values(
    rng: random.Random,
    sample: Any,
    seat: int,
    legal: list[Action],
    played: Action,
    samples: int,
) -> tuple[dict[Action, float], dict[Action, tuple[float, float]]]:
    """Each candidate's mean reward for ``seat`` over ``samples`` sampled deals, all on
    the same deals and rollout seeds; and each one's paired gain over ``played`` with
    its standard error."""
    allowed = set(legal)
    actions: list[Action] = []
    sums: list[float] = []
    diffs: list[float] = []
    squares: list[float] = []
    mine = 0
    roll = random.Random(rng.getrandbits(64))  # the playouts' own draws
    for _ in range(samples):
        state = sample()
        if not actions:
            actions = [a for a in search_actions(state, seat) if a in allowed]
            if played not in actions:
                actions.append(played)
            mine = actions.index(played)
            sums, diffs, squares = [0.0] * len(actions), [0.0] * len(actions), [0.0] * len(actions)
        # the expert's own paired playouts
        values = paired_values(state, actions, seat, rng, strategy(state), roll)
        for j, v in enumerate(values):
            d = v - values[mine]
            sums[j] += v
            diffs[j] += d
            squares[j] += d * d
    n = samples
    means = {a: sums[j] / n for j, a in enumerate(actions)}
    gains = {a: paired_gain(diffs[j], squares[j], n) for j, a in enumerate(actions)}
    return means, gains


def summary(
    record_seat: int, answers: list[tuple[int, dict[str, Any]]], forced: int = 0
) -> dict[str, Any]:
    """A stored review: every decision's estimate (by its action ``index``), the
    ``marked`` ones, the costliest (at most :data:`MARKED`, each costing at least
    :data:`NOTICEABLE`), costliest first, and how many moves were ``forced`` (no
    decision: :func:`forced`)."""
    moments = [{"index": i, **a} for i, a in sorted(answers, key=lambda x: x[0])]
    costly = sorted(
        (m for m in moments if m["cost"] >= NOTICEABLE), key=lambda m: (-m["cost"], m["index"])
    )
    return {
        "seat": record_seat,
        "moments": moments,
        "marked": [m["index"] for m in costly[:MARKED]],
        "total_cost": round(sum(m["cost"] for m in moments), 4),
        "forced": forced,
    }


def in_units(game: str, result: Mapping[str, Any]) -> dict[str, Any]:
    """A stored review's ``result`` with its costs as players count them (the game's
    :meth:`Strategy.worth`, in its ``unit``): each moment's ``worth`` (what its best
    action is worth less what the played one is, from their mean rewards) and the
    ``total_worth``. The stored result keeps the bot's own measure; this is said on
    the way out, so a review stored before is told the same way.

    >>> told = in_units("mus", {"moments": [{"cost": 0.4, "played": 1, "best": 2,
    ...     "actions": [{"action": 2, "value": 0.3}, {"action": 1, "value": -0.1}]}]})
    >>> told["unit"], told["moments"][0]["worth"], told["total_worth"]
    ('games', 0.2, 0.2)
    """
    strat = strategy(get_game(game))
    moments = []
    for m in result["moments"]:
        worth = 0.0
        if m["cost"] > 0:
            value = {json.dumps(a["action"], sort_keys=True): a["value"] for a in m["actions"]}
            best = value[json.dumps(m["best"], sort_keys=True)]
            played = value[json.dumps(m["played"], sort_keys=True)]
            worth = strat.worth(best) - strat.worth(played)
        moments.append({**m, "worth": round(worth, 2)})
    return {
        **result,
        "moments": moments,
        "unit": strat.unit,
        "total_worth": round(sum(m["worth"] for m in moments), 2),
    }
