"""Properties of Muggins cards that hold in every game (hypothesis).

Random games under every combination of settings: the 52 cards are all
accounted for, the running total never passes the limit, scores are the sum
of their credits, illegal actions change nothing, views and events hide other
hands and the stock, and a state sampled from a view shows that same view and
keeps what gos showed. (What every game must do — replays, copies, the legal
actions of several acting seats — is tests/test_protocol.py's.)
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.games import IllegalAction, event_for
from taverna.games.base import Event
from taverna.games.cards import _CLAIM, _GO, _MUGGINS, _PLAY, CARD_STR, Cards

TABLES = [
    {},
    {"limit": 21},
    {"hand_size": 7},
    {"muggins": False},
    {"muggins_on_last": True},
    {"limit": 21, "hand_size": 7, "muggins_on_last": True},
    {"target": 15},
]

games = st.fixed_dictionaries(
    {
        "seats": st.integers(2, 4),
        "table": st.sampled_from(TABLES),
        "seed": st.integers(0, 2**32 - 1),
    }
)

FAST = settings(max_examples=40, deadline=None)


def new_game(g: dict[str, Any]) -> tuple[Cards, random.Random]:
    table = {"target": 100, **g["table"]}
    return Cards.new(g["seats"], table, seed=g["seed"]), random.Random(g["seed"] ^ 0x5EED)


def walk(state: Cards, rng: random.Random, max_actions: int = 400) -> list[Event]:
    events = list(state.initial_events)
    n = 0
    while not state.over and state.to_act and n < max_actions:  # a clone stops at a deal
        events += state.apply(rng.choice(state.legal_actions()))
        n += 1
    return events


def hidden_from(state: Cards, seat: int | None) -> set[str]:
    """The cards ``seat`` must not see: other hands and the stock."""
    out = {CARD_STR[c] for c in state.stock}
    for s in range(state.seats):
        if s != seat:
            out |= {CARD_STR[c] for c in state.hands[s]}
    return out


def mentions(obj: Any, cards: set[str]) -> set[str]:
    text = json.dumps(obj)
    return {c for c in cards if f'"{c}"' in text}


def snapshot(state: Cards) -> str:
    return json.dumps([state.view(s) for s in (None, *range(state.seats))]) + json.dumps(
        state.record()
    )


def all_actions(seats: int) -> list[Any]:
    out: list[Any] = []
    for s in range(seats):
        out += [_GO[s], _CLAIM[s], _MUGGINS[s]]
        out += [a for pair in _PLAY[s] for a in pair]
    return out


# ------------------------------------------------------------------ properties


@FAST
@given(games)
def test_cards_accounted_and_total_within_the_limit(g: dict[str, Any]) -> None:
    state, rng = new_game(g)
    full = (1 << 52) - 1
    while not state.over:
        seen = 0
        count = 0
        for h in state.hands:
            assert h == sorted(h)
            for c in h:
                seen |= 1 << c
            count += len(h)
        for c in state.stock + state.pile + state.discards:
            seen |= 1 << c
            count += 1
        assert seen == full and count == 52
        assert 0 <= state.total <= state.limit
        assert state.total == sum(min(c // 4 + 1, 10) for c in state.pile)
        assert state.held == count - len(state.stock) - len(state.pile) - len(state.discards)
        state.apply(rng.choice(state.legal_actions()))


@FAST
@given(games)
def test_scores_equal_the_sum_of_their_credits(g: dict[str, Any]) -> None:
    state, rng = new_game(g)
    events = walk(state, rng)
    credited = [0] * state.seats
    for e in events:
        if e.get("credit"):
            credited[e["seat"]] += e["credit"]
    assert credited == state.scores
    if state.over:
        assert state.winner is not None
        assert state.scores[state.winner] >= state.settings["target"]
        assert events[-1] == {"type": "game_end", "winner": state.winner, "scores": state.scores}
        others = [x for i, x in enumerate(state.scores) if i != state.winner]
        assert all(x < state.settings["target"] for x in others)


@FAST
@given(games)
def test_illegal_actions_change_nothing(g: dict[str, Any]) -> None:
    state, rng = new_game(g)
    everything = all_actions(state.seats)
    steps = 0
    while steps < 120:
        legal = set(state.legal_actions())
        illegal = [a for a in everything if a not in legal]
        before = snapshot(state)
        for a in rng.sample(illegal, min(12, len(illegal))):
            try:
                state.apply(a)
            except IllegalAction as e:
                assert str(e).startswith(f"seat {a.seat} cannot"), str(e)
            else:
                raise AssertionError(f"{a} was applied but is not in legal_actions")
            assert snapshot(state) == before
        if state.over:
            break
        # every listed action is accepted
        state.apply(rng.choice(sorted(legal, key=repr)))
        steps += 1


@FAST
@given(games)
def test_views_and_events_hide_other_hands_and_the_stock(g: dict[str, Any]) -> None:
    state, rng = new_game(g)
    seats = (None, *range(state.seats))
    for e in state.initial_events:
        for seat in seats:
            assert not mentions(event_for(e, seat), hidden_from(state, seat))
    steps = 0
    while not state.over and steps < 150:
        before = {seat: hidden_from(state, seat) for seat in seats}
        events = state.apply(rng.choice(state.legal_actions()))
        played = {e["card"] for e in events if e["type"] == "play"}
        for seat in seats:
            after = hidden_from(state, seat)
            assert not mentions(state.view(seat), after)
            for e in events:
                # a deal starts afresh; anything else may show the card just played
                # and, to its seat, the card it drew
                own = set() if seat is None else set(state.hand_cards(seat))
                hidden = after if e["type"] == "deal" else before[seat] - played - own
                assert not mentions(event_for(e, seat), hidden), (e, seat)
        steps += 1


@FAST
@given(games)
def test_sample_is_consistent_with_the_view(g: dict[str, Any]) -> None:
    state, rng = new_game(g)
    steps = 0
    while not state.over and steps < 150:
        if rng.random() < 0.3:
            seat = rng.randrange(state.seats)
            view = state.view(seat)
            sampled = Cards.sample(view, random.Random(steps))
            assert sampled.view(seat) == view
            # a whole deck, and a game that plays on
            seen = 0
            for h in sampled.hands:
                assert h == sorted(h)
                for c in h:
                    seen |= 1 << c
            for c in sampled.stock + sampled.pile + sampled.discards:
                seen |= 1 << c
            assert seen == (1 << 52) - 1
            for s in range(state.seats):
                assert len(sampled.hands[s]) == len(state.hands[s])
                if s != seat:
                    # what a go showed holds for the sampled cards too
                    values = sorted(min(c // 4 + 1, 10) for c in sampled.hands[s])
                    bounds = sorted(view["min_values"][s])
                    assert all(v >= m for v, m in zip(values, bounds, strict=True))
            walk(sampled, random.Random(steps), max_actions=20)
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
