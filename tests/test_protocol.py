"""One conformance suite for every registered game (the game protocol, docs/games.md):
what each game's own property file used to repeat, said once. A game that plugs in
must pass it unchanged.

For random seeded games of every game, seat count and table the game declares
(settings drawn from its ``settings_declared``), at every step:
- a replay of the record reproduces the game (result, events, views, record);
- an action the rules refuse changes nothing a seat or a spectator can see;
- a seat's view and events show it no other seat's private part, a spectator's none;
- a copy, with a generator of its own or without, is independent of its original;
- a sample drawn from a seat's view shows that seat the very same view;
- deals go to their record form and back unchanged;
- the legal actions of every acting seat together are those of each;
- a step (no events made) leaves the very state an apply leaves, refusals too.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.games import GAMES
from taverna.games.base import (
    Event,
    IllegalAction,
    InvalidAction,
    Setting,
    SettingsError,
    State,
    _all_slots,
    event_for,
    event_json,
)
from taverna.games.record import replay_text


def a_value(setting: Setting) -> st.SearchStrategy[Any]:
    """Any value a declared setting may take (a whole number up to 300 when unbounded)."""
    if setting.kind == "bool":
        return st.booleans()
    if setting.kind == "choice":
        return st.sampled_from(setting.choices)
    low = 0 if setting.minimum is None else setting.minimum
    return st.integers(low, 300 if setting.maximum is None else setting.maximum)


def tables(name: str) -> st.SearchStrategy[dict[str, Any]]:
    """A game of ``name``: its seats, a table of settings it allows, a seed."""
    cls = GAMES[name]

    def allowed(g: dict[str, Any]) -> bool:
        try:
            cls.check_settings(g["seats"], g["settings"])
        except SettingsError:  # each allowed, not together (Muggins cards)
            return False
        return True

    return st.fixed_dictionaries(
        {
            "game": st.just(name),
            "seats": st.integers(cls.min_seats, cls.max_seats),
            "settings": st.fixed_dictionaries(
                {}, optional={x.name: a_value(x) for x in cls.settings_declared}
            ),
            "seed": st.integers(0, 2**40),
        }
    ).filter(allowed)


#: the games the suite plays: every registered one, or those ``TAVERNA_TEST_GAMES``
#: names (comma-separated: tests/test_plugin_game.py runs it on a plug-in's game alone)
PLAYED = [g for g in os.environ.get("TAVERNA_TEST_GAMES", "").split(",") if g] or sorted(GAMES)
games = st.sampled_from(PLAYED).flatmap(tables)

FAST = settings(max_examples=25, deadline=None)


def play(
    g: dict[str, Any], steps: int, events: list[Event] | None = None
) -> tuple[State, random.Random]:
    """A game of ``g`` after ``steps`` random actions (fewer if it ends); its events
    are added to ``events`` if given."""
    cls = GAMES[g["game"]]
    state = cls.new(g["seats"], g["settings"], seed=g["seed"])
    if events is not None:
        events += state.initial_events
    rng = random.Random(g["seed"])
    for _ in range(steps):
        if state.over:
            break
        done = state.apply(rng.choice(state.legal_actions()))
        if events is not None:
            events += done
    return state, rng


def everyone(state: State) -> list[int | None]:
    return [None, *range(state.seats)]


@settings(max_examples=100, deadline=None)  # it stands for each game's own replay test
@given(games, st.integers(0, 600))
def test_a_replay_of_the_record_is_the_game(g: dict[str, Any], steps: int) -> None:
    events: list[Event] = []
    state, _ = play(g, steps, events)
    result, status = replay_text(json.dumps(state.record()))
    assert status == 0, result
    for key, value in state.result().items():
        assert result[key] == value, key
    assert result["events"] == json.loads(json.dumps([event_json(e) for e in events]))
    cls = type(state)
    again = cls.start(state.seats, state.settings, state.deals_used)
    for a in state.actions_played:
        again.apply(a)
    assert again.record() == state.record()
    assert [again.view(s) for s in everyone(state)] == [state.view(s) for s in everyone(state)]


@FAST
@given(games, st.integers(0, 200))
def test_a_refused_action_changes_nothing(g: dict[str, Any], steps: int) -> None:
    state, _ = play(g, steps)
    cls = type(state)
    before = [state.view(s) for s in everyone(state)]
    for s in range(state.seats):
        if s in state.to_act:
            continue
        # every action on offer to another seat, made by this one
        for a in state.legal_actions()[:6]:
            try:
                action = cls.parse_action({**a.to_json(), "seat": s}, state.seats)
            except InvalidAction:
                continue
            try:
                state.clone(rng=random.Random(0)).apply(action)
            except IllegalAction:
                try:
                    state.apply(action)
                except IllegalAction as e:
                    assert str(e) and e.reason
                else:
                    raise AssertionError(f"{action} refused by a copy, taken by the game")
    assert [state.view(s) for s in everyone(state)] == before


def _items(fields: dict[str, Any]) -> set[str]:
    """The tiles or cards a private part names (lists of notation strings)."""
    out: set[str] = set()
    for value in fields.values():
        if isinstance(value, list):
            out.update(x for x in value if isinstance(x, str))
        elif isinstance(value, str):
            out.add(value)
    return out


@FAST
@given(games, st.integers(1, 250))
def test_nobody_sees_another_seats_private_part(g: dict[str, Any], steps: int) -> None:
    """Right after a deal nothing of it is public: a seat's view names none of the tiles
    or cards dealt to the others, a spectator's none at all; and no event as a seat
    receives it carries another seat's private part."""
    cls = GAMES[g["game"]]
    state = cls.new(g["seats"], g["settings"], seed=g["seed"])
    rng = random.Random(g["seed"])
    events = list(state.initial_events)
    for step in range(steps + 1):
        for e in events:
            private = e.get("private") or {}
            for seat in everyone(state):
                seen = event_for(e, seat)
                assert "private" not in seen
                theirs = set().union(*(_items(f) for s, f in private.items() if s != seat))
                mine = _items(private.get(seat, {})) if seat is not None else set()
                assert not (theirs - mine) & _items(seen), (e["type"], seat)
            if e["type"] == "deal":
                for seat in everyone(state):
                    view = {k: v for k, v in state.view(seat).items() if k != "last_hand"}
                    text = json.dumps(view)
                    theirs = set().union(*(_items(f) for s, f in private.items() if s != seat))
                    leaked = [x for x in theirs if f'"{x}"' in text]
                    assert not leaked, (seat, leaked)
            json.dumps(event_json(e))  # every event is plain JSON in its omniscient form
        if state.over or step == steps:
            break
        events = state.apply(rng.choice(state.legal_actions()))
    spectator = state.view(None)
    assert "hand" not in spectator and "legal" not in spectator


@settings(max_examples=75, deadline=None)
@given(games, st.integers(0, 250))
def test_a_copy_is_independent(g: dict[str, Any], steps: int) -> None:
    """A copy shows what its original shows, and nothing done to it changes the
    original: one with a generator of its own, and one without (it stops at a deal)."""
    state, rng = play(g, steps)
    before = [state.view(s) for s in everyone(state)]
    record = state.record()
    for copy in (state.clone(), state.clone(rng=random.Random(1))):
        assert [copy.view(s) for s in everyone(state)] == before
        for _ in range(40):
            if copy.over or not copy.to_act:
                break
            copy.apply(rng.choice(copy.legal_actions()))
        assert [state.view(s) for s in everyone(state)] == before
        assert state.record() == record


@FAST
@given(games, st.integers(0, 250), st.integers(0, 2**32))
def test_a_sample_shows_the_seat_what_it_saw(g: dict[str, Any], steps: int, r: int) -> None:
    state, _ = play(g, steps)
    if state.over or not state.to_act:
        return
    for seat in range(state.seats):
        view = state.view(seat)
        sample = type(state).sample(view, random.Random(r))
        assert sample.view(seat) == view
        assert {a.to_json()["type"] for a in sample.legal_actions(seat)} == {
            a.to_json()["type"] for a in state.legal_actions(seat)
        }


@FAST
@given(games, st.integers(0, 300))
def test_deals_go_to_record_form_and_back(g: dict[str, Any], steps: int) -> None:
    state, _ = play(g, steps)
    cls = type(state)
    for i, deal in enumerate(state.deals_used):
        text = cls.deal_json(deal)
        again = cls.parse_deal(json.loads(json.dumps(text)), state.seats, state.settings, i)
        assert cls.deal_json(again) == text


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 200))
def test_the_legal_actions_of_all_are_those_of_each_acting_seat(
    g: dict[str, Any], steps: int
) -> None:
    """``legal_actions()`` is every acting seat's ``legal_actions(seat)``; a seat not in
    ``to_act`` has none (Muggins cards: several seats act at once)."""
    state, rng = play(g, steps)
    for _ in range(30):
        every = state.legal_actions()
        per_seat = [a for s in state.to_act for a in state.legal_actions(s)]
        assert sorted(map(repr, every)) == sorted(map(repr, per_seat))
        assert {a.seat for a in every} == set(state.to_act)
        for s in range(state.seats):
            if s not in state.to_act:
                assert state.legal_actions(s) == []
        if state.over or not every:
            break
        state.apply(rng.choice(every))


def slots(state: State) -> dict[str, Any]:
    """Everything a state holds, by slot, but its dealer (an object without equality,
    dealing the same on both sides of the test); the step's flag too (false after it)."""
    return {
        name: getattr(state, name)
        for name in _all_slots(type(state))
        if name != "_dealer" and hasattr(state, name)
    }


def both(loud: State, quiet: State, action: Any) -> bool:
    """``action`` applied to ``loud`` and stepped in ``quiet``: taken by both, or refused
    by both with the same message and nothing changed. True when taken."""
    try:
        loud.apply(action)
    except IllegalAction as e:
        with pytest.raises(IllegalAction) as told:
            quiet.step(action)
        assert str(told.value) == str(e)
        assert slots(quiet) == slots(loud)
        return False
    assert quiet.step(action) is None
    assert slots(quiet) == slots(loud)
    return True


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 2**32))
def test_a_step_leaves_the_state_an_apply_leaves(g: dict[str, Any], r: int) -> None:
    """Two copies of a game, one played with ``apply`` and one with ``step``, hold the
    same in every slot (hands, scores, record, what the next deal draws from the
    generator) after every action, through new deals, to the end of the game; and an
    action the rules refuse — by a seat not acting, or one played earlier in the game
    (a card no longer held, a phase gone by...) — is refused by ``step`` with the same
    message, changing nothing. A replay that steps through the record, its deals given
    and not dealt, does the same beside one that applies."""
    cls = GAMES[g["game"]]
    loud = cls.new(g["seats"], g["settings"], rng=random.Random(g["seed"]))
    quiet = cls.new(g["seats"], g["settings"], rng=random.Random(g["seed"]))
    rng = random.Random(r)
    played: list[Any] = []
    for _ in range(1500):
        if loud.over:
            break
        assert slots(quiet) == slots(loud)
        legal = loud.legal_actions()
        action = rng.choice(legal)
        idle = [s for s in range(loud.seats) if s not in loud.to_act]
        if idle and rng.random() < 0.1:  # now and then, the action by a seat not acting
            try:
                bad = cls.parse_action({**action.to_json(), "seat": idle[0]}, loud.seats)
            except InvalidAction:
                bad = None
            if bad is not None:
                assert not both(loud, quiet, bad)
        if played and rng.random() < 0.2 and both(loud, quiet, rng.choice(played)):
            continue  # an earlier action that is legal again: played by both
        assert both(loud, quiet, action)
        played.append(action)
    assert slots(quiet) == slots(loud)
    assert quiet.record() == loud.record()
    again_loud = cls.start(loud.seats, loud.settings, loud.deals_used)
    again = cls.start(loud.seats, loud.settings, loud.deals_used)
    for a in loud.actions_played:
        old = rng.choice(played)
        if rng.random() < 0.2:
            try:  # an earlier action the rules refuse here (tried on a copy first)
                again_loud.clone(rng=random.Random(0)).apply(old)
            except IllegalAction:
                assert not both(again_loud, again, old)
        assert both(again_loud, again, a)
    assert again.record() == loud.record()
    assert [again.view(s) for s in everyone(loud)] == [loud.view(s) for s in everyone(loud)]
