"""Where deals come from (docs/rules.md §4.2, PLATFORM.md Durability), for every game.

A live game's deal ``k`` comes from a generator derived from its seed and ``k``
alone, so nothing done to a copy changes what the game deals, and a game
rebuilt from its record (its deals and actions) deals on exactly as it would
have. A copy has no generator of the game's: it stops at the next deal unless
it is given one of its own.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.games import GAMES, get_game
from taverna.games.base import Dealer, State, deal_below, deal_shuffle, event_for
from taverna.games.mus import Mus

#: small targets, so that a few hundred random actions see several hands and an end
SMALL = {"muggins-dominoes": {"target": 60}, "muggins-cards": {"target": 31}, "mus": {}}

games = st.sampled_from(sorted(GAMES)).flatmap(
    lambda name: st.fixed_dictionaries(
        {
            "game": st.just(name),
            "seats": st.integers(GAMES[name].min_seats, GAMES[name].max_seats),
            "seed": st.integers(0, 2**62),
            "small": st.booleans(),
        }
    )
)

FAST = settings(max_examples=30, deadline=None)


def new(g: dict[str, Any]) -> State:
    cls = get_game(g["game"])
    table = SMALL[g["game"]] if g["small"] else {}
    return cls.new(g["seats"], table, seed=g["seed"])


def deals_json(state: State) -> list[dict[str, Any]]:
    return [state.deal_json(d) for d in state.deals_used]


def views(state: State) -> list[Any]:
    return [state.view(s) for s in (None, *range(state.seats))]


def seen(events: list[Any], seats: int) -> list[Any]:
    return [[event_for(e, s) for s in (None, *range(seats))] for e in events]


@FAST
@given(games, st.integers(0, 2**32))
def test_a_trial_copy_before_every_move_changes_no_deal(g: dict[str, Any], moves: int) -> None:
    """The server tries each move on a copy first: the deals must not notice."""
    tried, plain = new(g), new(g)
    assert deals_json(tried) == deals_json(plain)
    rng = random.Random(moves)
    n = 0
    while not plain.over and n < 500:
        action = rng.choice(plain.legal_actions())
        tried.clone().apply(action)
        tried.clone(rng=random.Random(n)).apply(action)
        assert seen(tried.apply(action), g["seats"]) == seen(plain.apply(action), g["seats"])
        n += 1
    assert deals_json(tried) == deals_json(plain)
    assert views(tried) == views(plain)
    assert tried.record() == plain.record()


@FAST
@given(games, st.integers(0, 2**32), st.integers(0, 400))
def test_a_game_rebuilt_from_its_record_deals_on_as_it_would_have(
    g: dict[str, Any], moves: int, cut: int
) -> None:
    """start(deals so far, seed) plus the actions so far is the same game from then on."""
    live = new(g)
    rng = random.Random(moves)
    n = 0
    while not live.over and n < cut:
        live.apply(rng.choice(live.legal_actions()))
        n += 1
    cls = type(live)
    rebuilt = cls.start(g["seats"], live.settings, live.deals_used, seed=g["seed"])
    for action in live.actions_played:
        rebuilt.apply(action)
    assert views(rebuilt) == views(live)
    while not live.over and n < cut + 300:
        action = rng.choice(live.legal_actions())
        assert seen(rebuilt.apply(action), g["seats"]) == seen(live.apply(action), g["seats"])
        n += 1
    assert deals_json(rebuilt) == deals_json(live)
    assert views(rebuilt) == views(live)


@FAST
@given(games, st.integers(0, 2**32))
def test_a_copy_stops_at_the_next_deal_unless_given_a_generator(
    g: dict[str, Any], moves: int
) -> None:
    live = new(g)
    rng = random.Random(moves)
    stops = 0
    n = 0
    while not live.over and n < 500:
        action = rng.choice(live.legal_actions())
        copy = live.clone()
        own = live.clone(rng=random.Random(n))
        hand = live.hand_no
        copy.apply(action)
        own.apply(action)
        live.apply(action)
        if live.hand_no != hand:  # that action ended the hand and the game dealt the next
            stops += 1
            assert copy.awaiting_deal and copy.to_act == () and copy.legal_actions() == []
            assert not own.awaiting_deal and own.to_act
            copy.deal(live.deals_used[-1])
            assert views(copy) == views(live)
        else:
            assert views(copy) == views(live) == views(own)
        n += 1


def test_deal_generators_depend_on_the_seed_and_the_deal_only() -> None:
    a, b = Dealer(seed=11), Dealer(seed=11)
    first = [a.for_deal(k).random() for k in range(5)]
    assert first == [b.for_deal(k).random() for k in reversed(range(5))][::-1]
    assert len(set(first)) == 5
    assert a.for_deal(2, 0).random() not in first
    assert Dealer(seed=12).for_deal(0).random() != first[0]
    shared = random.Random(3)
    assert Dealer(rng=shared).for_deal(4) is shared  # one generator for every deal
    assert "11" not in repr(a)  # a seed is a secret: never in a log line


@pytest.mark.parametrize("name", sorted(GAMES))
def test_another_seed_changes_no_stored_deal(name: str) -> None:
    """A resumed game's hands come from its record; the seed only deals what is to come."""
    cls = get_game(name)
    long = {"target": 500} if name == "muggins-cards" else {}
    live = cls.new(cls.min_seats, long, seed=5)
    rng = random.Random(2)
    hands = 0
    while not live.over and hands < 2:
        before = live.hand_no
        live.apply(rng.choice(live.legal_actions()))
        hands += live.hand_no != before
    assert hands == 2, "two deals seen: the second hand is the one that matters"
    other = cls.start(live.seats, live.settings, live.deals_used, seed=6)
    for action in live.actions_played:
        other.apply(action)
    assert views(other) == views(live)


def _all_say_mus_and_discard(state: Mus, upto: int) -> int:
    """Everybody says mus, then discards four cards, ``upto`` discards in all."""
    done = 0
    while done < upto:
        seat = state.to_act[0]
        if state.phase == 0:  # the mus phase
            state.apply(Mus.parse_action({"seat": seat, "type": "mus"}, 4))
        else:
            cards = state.view(seat)["hand"]
            state.apply(Mus.parse_action({"seat": seat, "type": "discard", "cards": cards}, 4))
            done += 1
    return done


@pytest.mark.parametrize("cut", range(4, 9))
def test_mus_reshuffles_come_out_the_same_after_a_rebuild(cut: int) -> None:
    """24 cards in the deck serve 6 discards of four; the 7th reshuffles (docs/rules.md §3.4).

    Rebuilt before the reshuffle, the game reshuffles from its seed as the live one
    did; rebuilt after it, from the stored order.
    """
    live = Mus.new(4, {}, seed=99)
    _all_say_mus_and_discard(live, cut)
    rebuilt = Mus.start(4, live.settings, live.deals_used, seed=99)
    for action in live.actions_played:
        rebuilt.apply(action)
    assert views(rebuilt) == views(live)
    _all_say_mus_and_discard(live, 9 - cut)
    _all_say_mus_and_discard(rebuilt, 9 - cut)
    assert live.reshuffled == rebuilt.reshuffled == 1
    assert deals_json(rebuilt) == deals_json(live)
    assert len(deals_json(live)[0]["reshuffles"]) == 1
    assert views(rebuilt) == views(live)


@FAST
@given(games, st.integers(0, 2**32))
def test_a_recording_copy_is_the_game_once_its_move_is_kept(g: dict[str, Any], moves: int) -> None:
    """A server plays each move on clone(rng=its dealer, record=True) and keeps the copy:
    it must be the game the move makes, record included, and leave the original alone."""
    live = new(g)
    dealer = Dealer(seed=g["seed"])
    rng = random.Random(moves)
    n = 0
    while not live.over and n < 300:
        action = rng.choice(live.legal_actions())
        before = live.record()
        trial = live.clone(rng=dealer, record=True)
        trial.apply(action)
        assert live.record() == before  # the original does not move
        live.apply(action)
        assert trial.record() == live.record()
        assert views(trial) == views(live)
        live = trial  # and the copy goes on as the game
        n += 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64), st.integers(0, 130))
def test_a_deal_shuffles_exactly_as_the_generator_does(seed: int, n: int) -> None:
    """Deals shuffle with :func:`deal_shuffle` (compiled, it costs a quarter of
    ``random.shuffle``): the same order from the same generator and the same state left
    behind, so that a seed deals what it always dealt — on both builds (make test-pure)."""
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(n)), list(range(n))
    deal_shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b
    assert ours.getrandbits(64) == theirs.getrandbits(64)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**64), st.integers(1, 200), st.integers(1, 20))
def test_a_deal_draws_exactly_as_randrange(seed: int, n: int, times: int) -> None:
    """The first dealer, opener or mano is drawn with :func:`deal_below`: the numbers
    ``randrange`` draws from the same generator, with the same state left behind (past
    the table's sizes, it is randrange) — on both builds."""
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [deal_below(ours, n) for _ in range(times)] == [
        theirs.randrange(n) for _ in range(times)
    ]
    assert ours.getrandbits(64) == theirs.getrandbits(64)


def test_a_generator_of_another_kind_shuffles_itself() -> None:
    class Floats(random.Random):
        """A generator whose integers come from random(): Random draws them otherwise."""

        def random(self) -> float:
            return super().random()

    a, b = list(range(40)), list(range(40))
    deal_shuffle(Floats(5), a)
    Floats(5).shuffle(b)
    assert a == b
    ours, theirs = Floats(6), Floats(6)
    assert [deal_below(ours, 37) for _ in range(20)] == [theirs.randrange(37) for _ in range(20)]
