"""Properties of Mus that must hold in every game (hypothesis over seeds and play styles).

Games are played by random legal actions; ``mus_bias`` makes the mus phase
long (many discards, reshuffles) or short.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from taverna.games.base import Event, IllegalAction, event_for, event_json
from taverna.games.mus import ANSWER, SPEAK, Mus, MusAction
from taverna.games.mus.hands import CARD_STR, card_id
from taverna.games.record import replay_text

from .mus_helpers import cards_in, snapshot

SETTINGS = st.fixed_dictionaries(
    {
        "cows": st.integers(1, 2),
        "games_per_cow": st.integers(1, 2),
        "real_31": st.booleans(),
    }
)
SEEDS = st.integers(0, 2**31)
BIAS = st.sampled_from([0.2, 0.6, 0.95])


def steps(
    seed: int, bias: float, table: dict[str, Any], limit: int = 400
) -> Iterator[tuple[Mus, MusAction, list[Event]]]:
    """Play a live game by random legal actions, yielding after each one."""
    rng = random.Random(seed ^ 0x5EED)
    state = Mus.new(4, table, seed=seed)
    for _ in range(limit):
        if state.over:
            return
        acts = state.legal_actions()
        if acts[0].type == "mus":
            a = acts[0] if rng.random() < bias else acts[1]
        elif acts[0].type in ("pass", "accept"):
            # fewer órdagos than uniform play, so that games last
            a = rng.choice([x for x in acts if x.type != "ordago"] * 4 + acts)
        else:
            a = rng.choice(acts)
        assert isinstance(a, MusAction)
        yield state, a, state.apply(a)


def accounted(state: Mus) -> None:
    every = [c for h in state.hands for c in h] + state.deck + [c for p in state.piles for c in p]
    assert sorted(every) == list(range(40)), "40 cards, each once"
    assert all(len(h) == 4 for h in state.hands)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, bias=BIAS, table=SETTINGS)
def test_forty_cards_are_accounted_for_at_every_step(
    seed: int, bias: float, table: dict[str, Any]
) -> None:
    for state, _, _ in steps(seed, bias, table):
        accounted(state)


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, bias=BIAS, table=SETTINGS)
def test_stones_equal_their_credits(seed: int, bias: float, table: dict[str, Any]) -> None:
    total = [0, 0]
    last = None
    for state, _, events in steps(seed, bias, table):
        last = state
        for e in events:
            if e["type"] == "credit":
                assert e["stones"] > 0
                total[e["team"]] += e["stones"]
                assert e["total"] == total
            elif e["type"] == "game_end":
                assert e["stones"] == total
                if e["reason"] == "stones":
                    assert max(total) >= 40 and total[e["team"]] >= 40
                else:
                    assert max(total) < 40
                total = [0, 0]
        if last is not None and not last.over:
            assert last.stones == total
    if last is not None and last.over:
        assert last.stones == last.last_hand["stones"] if last.last_hand else True


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, bias=BIAS, table=SETTINGS)
def test_replaying_the_record_reproduces_the_game(
    seed: int, bias: float, table: dict[str, Any]
) -> None:
    events: list[Event] = []
    last = None
    for st_, _, evs in steps(seed, bias, table):
        events.extend(evs)
        last = st_
    assert last is not None
    state = last
    first = Mus.new(4, table, seed=seed).initial_events
    rec = state.record()
    result, status = replay_text(json.dumps(rec))
    assert status == 0, result
    assert result["events"] == json.loads(json.dumps([event_json(e) for e in first + events]))
    assert result["scores"] == state.stones and result["games"] == state.games
    assert result["cows"] == state.cows and result["over"] == state.over
    assert result["winner"] == state.winner and result["to_act"] == list(state.to_act)
    # the record is stable under a second round trip
    replayed = Mus.start(
        4, table, [Mus.parse_deal(d, 4, state.settings, i) for i, d in enumerate(rec["deals"])]
    )
    for a in rec["actions"]:
        replayed.apply(Mus.parse_action(a, 4))
    assert replayed.record() == rec
    assert [replayed.view(s) for s in (None, 0, 1, 2, 3)] == [
        state.view(s) for s in (None, 0, 1, 2, 3)
    ]


def candidate_actions(state: Mus) -> list[MusAction]:
    """Actions of every seat and kind, legal or not."""
    out = []
    for seat in range(4):
        for kind in ("mus", "no_mus", "pass", "ordago", "accept", "reject"):
            out.append(Mus.parse_action({"seat": seat, "type": kind}, 4))
        for kind in ("bet", "raise"):
            for n in (2, 3, 9):
                out.append(Mus.parse_action({"seat": seat, "type": kind, "amount": n}, 4))
        held = state.hand_cards(seat)
        out.append(Mus.parse_action({"seat": seat, "type": "discard", "cards": held[:2]}, 4))
        other = next(c for c in CARD_STR if c not in held)
        out.append(Mus.parse_action({"seat": seat, "type": "discard", "cards": [other]}, 4))
    return out


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, bias=BIAS, table=SETTINGS)
def test_illegal_actions_change_nothing_and_legal_ones_apply(
    seed: int, bias: float, table: dict[str, Any]
) -> None:
    for n, (state, _, _) in enumerate(steps(seed, bias, table, limit=150)):
        if n % 3:
            continue
        legal = state.legal_actions()
        legal_kinds = {(a.seat, a.type) for a in legal}
        before = snapshot(state)
        for a in candidate_actions(state):
            if (a.seat, a.type) in legal_kinds and (
                a.type != "discard" or set(a.cards) <= set(state.hands[a.seat])
            ):
                state.clone().apply(a)  # legal: applies (any amount >= 2 is legal)
                continue
            try:
                state.apply(a)
            except IllegalAction as e:
                assert str(e).startswith(f"seat {a.seat} cannot ")
            else:
                raise AssertionError(f"{a} was applied but is not legal")
            assert snapshot(state) == before


@settings(max_examples=20, deadline=None)
@given(seed=SEEDS, bias=BIAS, table=SETTINGS)
def test_views_and_events_never_show_another_seats_hidden_cards(
    seed: int, bias: float, table: dict[str, Any]
) -> None:
    state = Mus.new(4, table, seed=seed)
    known = [set(state.hand_cards(s)) for s in range(4)]
    hand_no = state.hand_no
    for state, _, events in steps(seed, bias, table):
        if state.hand_no != hand_no:
            hand_no = state.hand_no
            known = [set(state.hand_cards(s)) for s in range(4)]
        else:
            for s in range(4):
                known[s] |= set(state.hand_cards(s))
        for e in events:
            if e["type"] == "hand_end":
                continue  # the showdown shows every hand to everybody
            assert cards_in(event_for(e, None)) == set()
            for s in range(4):
                assert cards_in(event_for(e, s)) <= known[s], (e, s)
        for s in range(4):
            v = state.view(s)
            v.pop("last_hand")
            own = set(state.hand_cards(s)) | {CARD_STR[c] for c in state.piles[s]}
            assert cards_in(v) <= own
        spectator = state.view(None)
        spectator.pop("last_hand")
        assert cards_in(spectator) == set()


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, bias=BIAS, table=SETTINGS, pick=st.integers(0, 10**6))
def test_sample_is_consistent_with_the_view(
    seed: int, bias: float, table: dict[str, Any], pick: int
) -> None:
    rng = random.Random(pick)
    for n, (state, _, _) in enumerate(steps(seed, bias, table, limit=200)):
        if (n + pick) % 7:
            continue
        for seat in range(4):
            view = state.view(seat)
            sampled = Mus.sample(view, rng)
            accounted(sampled)
            assert sampled.view(seat) == view
            assert sampled.hands[seat] == state.hands[seat]
            announced = view["announced"]
            for x in range(4):
                v = sampled.vals if sampled.vals is not None else None
                if v is None:
                    break
                if announced["pares"] is not None:
                    assert bool(v[x].pares_kind) == (x in announced["pares"])
                if announced["juego"] is not None:
                    assert bool(v[x].juego) == (x in announced["juego"])
            # the sampled game plays on
            for _ in range(20):
                if sampled.over:
                    break
                sampled.apply(rng.choice(sampled.legal_actions()))


def test_sample_respects_announcements_while_betting() -> None:
    """A focused check: in Pares and Juego betting, sampled hands match the announcements."""
    checked = 0
    for seed in range(60):
        for state, _, _ in steps(seed, 0.3, {}, limit=60):
            if state.phase in (SPEAK, ANSWER) and state.lance >= 2:
                seat = state.turn
                view = state.view(seat)
                sampled = Mus.sample(view, random.Random(seed))
                assert sampled.vals is not None
                for x in range(4):
                    assert bool(sampled.vals[x].pares_kind) == (x in view["announced"]["pares"])
                    if view["announced"]["juego"] is not None:
                        assert bool(sampled.vals[x].juego) == (x in view["announced"]["juego"])
                checked += 1
                break
    assert checked > 20


def test_card_ids_and_notation_agree() -> None:
    assert [card_id(c) for c in CARD_STR] == list(range(40))
