"""Hypothesis properties of Muggins dominoes: invariants that hold in every game.
(What every game must do — replays, copies — is tests/test_protocol.py's.)"""

from __future__ import annotations

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.games import IllegalAction, event_for
from taverna.games.dominoes import (
    ALL_TILES,
    N_TILES,
    PIP_MASK,
    TILES,
    DominoAction,
    Dominoes,
    tile_id,
    tiles_of,
)

games = st.tuples(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 4]))


def random_game(seed: int, seats: int, max_actions: int = 400, state: Dominoes | None = None):
    """Yield (state, action, events) along a random game (of ``state`` if given)."""
    rng = random.Random(seed)
    if state is None:
        state = Dominoes.new(seats, seed=seed)
    for _ in range(max_actions):
        if state.over:
            return
        action = rng.choice(state.legal_actions())
        yield state, action, state.apply(action)


def every_action(seats: int) -> list[DominoAction]:
    out = []
    for s in range(seats):
        out += [DominoAction(s, "draw"), DominoAction(s, "pass")]
        for a, b in TILES:
            for end in (None, 0, 1):
                out.append(DominoAction(s, "play", a, b, end))
                if a != b:
                    out.append(DominoAction(s, "play", b, a, end))
    return out


def snapshot(state: Dominoes) -> str:
    views = [state.view(s) for s in range(state.seats)] + [state.view(None)]
    return json.dumps(
        {"views": views, "record": state.record(), "bone": state.bone, "hands": state.hands}
    )


@settings(max_examples=40, deadline=None)
@given(games)
def test_all_28_tiles_are_accounted_for_at_every_step(game: tuple[int, int]) -> None:
    seed, seats = game
    for state, _, _ in random_game(seed, seats):
        if state.awaiting or state.over:
            continue
        placed = 0
        for x in state.line_left + state.line_right:
            placed |= 1 << tile_id(f"{x // 7}-{x % 7}")
        bone = 0
        for t in state.bone:
            bone |= 1 << t
        parts = [*state.hands, placed, bone]
        assert sum(bin(p).count("1") for p in parts) == N_TILES
        union = 0
        for p in parts:
            union |= p
        assert union == ALL_TILES


@settings(max_examples=40, deadline=None)
@given(games)
def test_scores_equal_credits_minus_subtractions(game: tuple[int, int]) -> None:
    seed, seats = game
    total = [0] * seats
    state = None
    for state, _, events in random_game(seed, seats, max_actions=600):
        for e in events:
            if e["type"] == "play":
                total[e["seat"]] += e["credit"]
            elif e["type"] == "hand_end":
                for s, x in enumerate(e["subtract"]):
                    total[s] -= x
        assert state.scores == total


@settings(max_examples=25, deadline=None)
@given(games, st.integers(0, 300))
def test_every_illegal_action_leaves_the_state_unchanged(game: tuple[int, int], stop: int) -> None:
    seed, seats = game
    state = Dominoes.new(seats, seed=seed)
    for _ in random_game(seed, seats, max_actions=stop, state=state):
        pass
    legal = {(a.seat, a.type, a.tile, a.end) for a in state.legal_actions()}
    legal_tiles = {a.tile for a in state.legal_actions() if a.type == "play"}
    before = snapshot(state)
    refused = 0
    candidates = every_action(seats)
    random.Random(seed).shuffle(candidates)
    for action in candidates[:80]:
        key = (action.seat, action.type, action.tile, action.end)
        if key in legal:
            continue
        probe = state.clone()
        try:
            probe.apply(action)
        except IllegalAction:
            pass
        else:
            # the same move written otherwise: the end omitted where only one fits,
            # or named for the opening tile (where it means nothing)
            assert action.type == "play" and action.tile in legal_tiles
            assert action.end is None or state.left < 0
            continue
        try:
            state.apply(action)
        except IllegalAction as e:
            assert str(e).startswith(f"seat {action.seat} cannot")
            refused += 1
        else:
            raise AssertionError(f"{action} should have been refused")
        assert snapshot(state) == before
    assert refused > 0


def _tile_patterns(tiles: list[int]) -> re.Pattern[str] | None:
    if not tiles:
        return None
    forms = []
    for t in tiles:
        a, b = TILES[t]
        forms += [f"{a}-{b}", f"{b}-{a}"]
    return re.compile(r"(?<![\d-])(" + "|".join(forms) + r")(?!\d)")


@settings(max_examples=15, deadline=None)
@given(games)
def test_views_and_events_never_show_another_seats_tiles(game: tuple[int, int]) -> None:
    seed, seats = game
    for state, _, events in random_game(seed, seats, max_actions=300):
        if state.over:
            break
        for seat in [*range(seats), None]:
            hidden = [t for t in state.bone]
            for s in range(seats):
                if s != seat:
                    hidden += tiles_of(state.hands[s])
            pattern = _tile_patterns(hidden)
            view = state.view(seat)
            view.pop("last_hand")  # the previous hand's reveal is public
            text = json.dumps(view)
            assert pattern is None or not pattern.search(text), (seat, text)
            for e in events:
                seen = event_for(e, seat)
                assert "private" not in seen
                if e["type"] == "deal":
                    # each seat sees its own new hand and nothing of the others'
                    own = e["private"][seat]["tiles"] if seat is not None else None
                    assert seen.get("tiles") == own
                elif e["type"] == "draw":
                    assert ("tile" in seen) == (seat == e["seat"])


def _slots_hold(hand: int, masks: list[int]) -> bool:
    """Hall's condition for nested masks: the k most constrained slots fit k tiles."""
    tiles = tiles_of(hand)
    if len(tiles) != len(masks):
        return False
    for k, m in enumerate(sorted(masks, key=lambda m: -bin(m).count("1")), start=1):
        if sum(1 for t in tiles if not PIP_MASK[t] & m) < k:
            return False
    return True


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_sample_is_consistent_with_the_view(game: tuple[int, int], sample_seed: int) -> None:
    seed, seats = game
    rng = random.Random(sample_seed)
    for state, _, _ in random_game(seed, seats, max_actions=200):
        if state.over or state.awaiting:
            continue
        # what everybody knows about each hand holds for the true hands
        for s in range(seats):
            assert _slots_hold(state.hands[s], state.slots[s]), (s, state.slots[s])
        seat = state.to_act[0]
        view = state.view(seat)
        sample = Dominoes.sample(view, rng)
        assert sample.view(seat) == view
        for s in range(seats):
            assert _slots_hold(sample.hands[s], sample.slots[s])
        # the sample is a full, playable state
        if sample.legal_actions(seat):
            sample.apply(rng.choice(sample.legal_actions(seat)))


def test_sample_does_not_copy_the_true_hidden_tiles() -> None:
    rng = random.Random(1)
    state = Dominoes.new(2, seed=4)
    seat = state.to_act[0]
    other = 1 - seat
    samples = {Dominoes.sample(state.view(seat), rng).hands[other] for _ in range(30)}
    assert len(samples) > 20  # hidden tiles are redrawn, not read from the real state
