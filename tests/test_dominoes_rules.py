"""One test per rule of docs/rules.md §1 (Muggins dominoes), each able to fail if the rule breaks.

Positions are built by hand with :func:`deal`; expected counts are worked
out in the comments from the rule text.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from taverna.games import IllegalAction, MalformedRecord, SettingsError
from taverna.games.dominoes import MATCH, Dominoes, round_to_five, tile_id
from taverna.games.record import load_record, replay

from .dominoes_helpers import act, credits, deal, start

GOLDEN = Path(__file__).parent / "records" / "muggins-dominoes"


def golden_state(name: str, upto: int | None = None) -> Dominoes:
    record = json.loads((GOLDEN / f"{name}.json").read_text())["record"]
    if upto is not None:
        record["actions"] = record["actions"][:upto]
    state = replay(load_record(json.dumps(record))).state
    assert isinstance(state, Dominoes)
    return state


# ----------------------------------------------------------------- set and deal


def test_set_has_28_tiles_written_either_way() -> None:
    ids = {tile_id(f"{a}-{b}") for a in range(7) for b in range(7)}
    assert len(ids) == 28
    assert tile_id("5-3") == tile_id("3-5")
    with pytest.raises(ValueError):
        tile_id("7-1")


@pytest.mark.parametrize(("seats", "size", "target"), [(2, 7, 250), (3, 5, 200), (4, 5, 200)])
def test_deal_size_and_target_by_seat_count(seats: int, size: int, target: int) -> None:
    state = Dominoes.new(seats, seed=3)
    assert state.target == target
    assert [bin(h).count("1") for h in state.hands] == [size] * seats
    # every undealt tile lies in the boneyard, drawable
    assert len(state.bone) == 28 - seats * size


def test_target_may_be_overridden_and_is_checked() -> None:
    assert Dominoes.new(2, {"target": 100}, seed=1).target == 100
    with pytest.raises(SettingsError, match="positive"):
        Dominoes.new(2, {"target": 0}, seed=1)
    with pytest.raises(SettingsError, match="unknown setting"):
        Dominoes.new(2, {"limit": 31}, seed=1)
    with pytest.raises(SettingsError, match="2 to 4"):
        Dominoes.new(5, seed=1)


def test_deal_hand_sizes_are_checked() -> None:
    with pytest.raises(MalformedRecord, match="5 tiles"):
        start(
            deal(
                [
                    ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"],
                    ["1-1", "1-2", "1-3", "1-4", "1-5"],
                    ["2-2", "2-3", "2-4", "2-5", "2-6"],
                ]
            )
        )


# --------------------------------------------------------------------- opener


def test_first_opener_is_a_neutral_draw() -> None:
    openers = Counter(Dominoes.new(3, seed=seed).opener for seed in range(600))
    assert set(openers) == {0, 1, 2}
    assert min(openers.values()) > 150  # about 200 each


def test_opener_plays_any_tile_and_nobody_else_moves_first() -> None:
    hands = [
        ["3-6", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
        ["6-6", "4-4", "4-5", "5-5", "0-4", "1-4", "2-4"],
    ]
    state = start(deal(hands, opener=1))
    assert state.to_act == (1,)
    assert sorted(a.tile for a in state.legal_actions(1)) == sorted(tile_id(t) for t in hands[1])
    with pytest.raises(IllegalAction, match="seat 0 cannot play: it is seat 1's turn"):
        act(state, 0, "play", "3-6")


def test_first_tile_as_written_sets_the_ends() -> None:
    state = start(
        deal(
            [
                ["3-6", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
                ["6-6", "4-4", "4-5", "5-5", "0-4", "1-4", "2-4"],
            ]
        )
    )
    act(state, 0, "play", "6-3")
    assert (state.left, state.right) == (6, 3)


def test_winner_of_the_hand_opens_the_next() -> None:
    state = golden_state("domino-and-next-opener", upto=13)
    assert state.hand_no == 1 and state.opener == 0 and state.to_act == (0,)
    # live games too: after every domino the next deal is opened by its winner
    rng = random.Random(5)
    seen = 0
    for seed in range(40):
        s = Dominoes.new(2, seed=seed)
        while not s.over and s.hand_no < 30:
            for e in s.apply(rng.choice(s.legal_actions())):
                if e["type"] == "hand_end" and e["winner"] is not None and not s.over:
                    assert s.opener == e["winner"]
                    seen += 1
    assert seen > 50


def test_after_a_blocked_hand_the_opener_is_drawn_again() -> None:
    # Live games: the opener after a blocked hand is a fresh draw, not a fixed seat.
    rng = random.Random(11)
    after_blocked: Counter[int] = Counter()
    for seed in range(300):
        s = Dominoes.new(2, seed=seed)
        while not s.over and s.hand_no < 20:
            for e in s.apply(rng.choice(s.legal_actions())):
                if e["type"] == "hand_end" and e["reason"] == "blocked" and not s.over:
                    after_blocked[s.opener] += 1
    assert set(after_blocked) == {0, 1}
    # Records: such a deal must name the opener (golden blocked-hand-next-deal-without-opener).


# ----------------------------------------------------------------------- play


def test_turns_go_to_the_next_seat() -> None:
    state = start(
        deal(
            [
                ["1-2", "0-0", "0-3", "0-4", "0-5"],
                ["2-2", "1-1", "1-3", "1-4", "1-5"],
                ["2-3", "3-3", "3-4", "3-5", "3-6"],
            ],
            opener=2,
        )
    )
    act(state, 2, "play", "2-3")
    assert state.to_act == (0,)  # after seat 2 comes seat 0
    act(state, 0, "play", "1-2")  # only the left end (2) fits: no end needed
    assert state.to_act == (1,)


def test_placement_needs_a_matching_end_and_the_other_half_becomes_the_end() -> None:
    state = start(
        deal(
            [
                ["3-6", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
                ["6-6", "4-4", "4-5", "5-5", "0-4", "1-4", "6-4"],
            ]
        )
    )
    act(state, 0, "play", "3-6")
    before = state.view(1)
    with pytest.raises(IllegalAction, match="matches neither end"):
        act(state, 1, "play", "4-5")
    with pytest.raises(IllegalAction, match="on the left end: it shows 3"):
        act(state, 1, "play", "6-4", "left")
    with pytest.raises(IllegalAction, match="does not hold"):
        act(state, 1, "play", "3-3", "left")
    assert state.view(1) == before
    act(state, 1, "play", "6-4")
    assert (state.left, state.right) == (3, 4)


def test_end_must_be_named_when_both_ends_fit() -> None:
    state = start(
        deal(
            [
                ["4-4", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
                ["4-5", "3-3", "3-5", "5-5", "0-3", "1-3", "2-3"],
            ]
        )
    )
    act(state, 0, "play", "4-4")
    with pytest.raises(IllegalAction, match="fits both"):
        act(state, 1, "play", "4-5")
    act(state, 1, "play", "4-5", "left")
    assert (state.left, state.right) == (5, 4)
    assert state.count() == 5 + 8  # the 4-4 still ends the line on the right


def test_no_double_opens_a_branch_not_even_the_first() -> None:
    state = start(
        deal(
            [
                ["6-6", "6-2", "0-0", "0-3", "3-3", "0-4", "4-4"],
                ["6-1", "6-5", "5-5", "0-5", "3-5", "4-5", "3-4"],
            ]
        )
    )
    act(state, 0, "play", "6-6")
    act(state, 1, "play", "6-1", "right")
    act(state, 0, "play", "6-2", "left")
    assert (state.left, state.right) == (2, 1)
    # 6-5 would fit a branch off the 6-6; there is none, so seat 1 must draw
    assert [a.type for a in state.legal_actions(1)] == ["draw"]
    with pytest.raises(IllegalAction, match="matches neither end"):
        act(state, 1, "play", "6-5")


def test_must_place_when_able_and_may_not_draw_or_pass() -> None:
    state = start(
        deal(
            [
                ["3-6", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
                ["6-6", "4-4", "4-5", "5-5", "0-4", "1-4", "2-4"],
            ]
        )
    )
    act(state, 0, "play", "3-6")
    with pytest.raises(
        IllegalAction, match="seat 1 cannot draw: 6-6 can be placed on the right end"
    ):
        act(state, 1, "draw")
    with pytest.raises(IllegalAction, match="seat 1 cannot pass: 6-6 can be placed"):
        act(state, 1, "pass")


def test_draw_one_at_a_time_and_place_the_first_playable_at_once() -> None:
    state = start(
        deal(
            [
                ["3-6", "0-0", "0-2", "2-2", "1-1", "1-2", "2-4"],
                ["0-4", "1-4", "4-4", "4-5", "5-5", "1-5", "0-5"],
            ],
            top=["0-1", "2-6"],
        )
    )
    act(state, 0, "play", "3-6")
    assert [a.type for a in state.legal_actions(1)] == ["draw"]
    events = act(state, 1, "draw")
    assert events[0]["private"] == {1: {"tile": "1-0"}}
    assert [a.type for a in state.legal_actions(1)] == ["draw"]  # 0-1 does not fit: draw again
    act(state, 1, "draw")
    legal = state.legal_actions(1)
    assert [(a.type, a.tile, a.end) for a in legal] == [("play", tile_id("2-6"), 1)]
    with pytest.raises(IllegalAction, match="must place the drawn tile 6-2"):
        act(state, 1, "draw")
    with pytest.raises(IllegalAction, match="must place the drawn tile 6-2"):
        act(state, 1, "pass")
    act(state, 1, "play", "6-2")
    assert state.to_act == (0,)
    assert len(state.bone) == 28 - 14 - 2


def test_no_pass_while_a_tile_can_be_drawn() -> None:
    state = start(
        deal(
            [
                ["3-6", "0-0", "0-2", "2-2", "1-1", "1-2", "2-4"],
                ["0-4", "1-4", "4-4", "4-5", "5-5", "1-5", "0-5"],
            ]
        )
    )
    act(state, 0, "play", "3-6")
    with pytest.raises(IllegalAction, match="the boneyard still has 14 tiles"):
        act(state, 1, "pass")


def test_pass_only_when_the_boneyard_is_empty_and_nothing_fits() -> None:
    state = golden_state("blocked-hand", upto=21)  # seat 1 to act, ends 0 and 0, no 0 in hand
    assert not state.bone
    assert [a.type for a in state.legal_actions(1)] == ["pass"]
    with pytest.raises(IllegalAction, match="the boneyard is empty, it must pass"):
        act(state, 1, "draw")
    act(state, 1, "pass")
    assert state.to_act == (0,)


def test_blocked_hand_ends_at_the_blocking_placement_without_passes() -> None:
    state = golden_state("blocked-hand", upto=24)
    events = act(state, 0, "play", "6-0", "right")
    assert [e["type"] for e in events] == ["play", "hand_end"]
    assert events[1]["reason"] == "blocked" and events[1]["winner"] is None
    assert state.to_act == ()


def test_blocked_hand_can_end_at_a_draw() -> None:
    # Search random games for the case where a draw empties the boneyard and nobody fits.
    rng = random.Random(2)
    found = 0
    for seed in range(400):
        s = Dominoes.new(4, seed=seed)
        while not s.over and s.hand_no < 3 and not found:
            events = s.apply(rng.choice(s.legal_actions()))
            if events[0]["type"] == "draw" and len(events) > 1 and events[1]["type"] == "hand_end":
                assert events[1]["reason"] == "blocked"
                assert events[0]["boneyard"] == 0
                found += 1
        if found:
            break
    assert found


# ---------------------------------------------------------------------- count


def test_lone_first_tile_is_counted_once() -> None:
    for opening, expected in (("5-5", 10), ("6-4", 10), ("6-6", 12), ("3-3", 6)):
        hands = [
            ["5-5", "6-4", "6-6", "3-3", "0-0", "0-1", "0-2"],
            ["3-4", "1-1", "1-2", "1-3", "2-2", "2-3", "0-3"],
        ]
        state = start(deal(hands))
        events = act(state, 0, "play", opening)
        assert events[0]["count"] == expected
        assert state.scores[0] == (expected if expected % 5 == 0 else 0)
    # 3-3 then 3-4 counts 6 + 4 = 10
    state = start(deal(hands))
    act(state, 0, "play", "3-3")
    assert credits(act(state, 1, "play", "3-4", "right")) == [10]


def test_double_at_an_end_counts_both_halves() -> None:
    # The seed's example: one end shows 3, a 6-6 is laid at the other: 3 + 12 = 15.
    state = start(
        deal(
            [
                ["3-6", "0-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
                ["6-6", "4-4", "4-5", "5-5", "0-4", "1-4", "2-4"],
            ]
        )
    )
    act(state, 0, "play", "3-6")
    assert credits(act(state, 1, "play", "6-6")) == [15]
    assert state.scores == [0, 15]


def test_internal_double_counts_nothing() -> None:
    state = start(
        deal(
            [
                ["6-6", "6-1", "0-0", "0-2", "2-2", "0-3", "3-3"],
                ["6-4", "1-1", "1-2", "1-3", "5-5", "2-5", "3-5"],
            ]
        )
    )
    act(state, 0, "play", "6-6")
    assert act(state, 1, "play", "6-4", "right")[0]["count"] == 12 + 4
    # 6-1 on the left makes the 6-6 internal: only 1 and 4 count
    assert credits(act(state, 0, "play", "6-1")) == [5]
    assert state.scores == [5, 0]


def test_only_positive_multiples_of_five_are_credited() -> None:
    state = start(
        deal(
            [
                ["0-0", "4-0", "0-1", "0-2", "1-1", "1-2", "2-2"],
                ["0-3", "3-3", "3-4", "4-4", "4-5", "5-5", "5-6"],
            ]
        )
    )
    assert act(state, 0, "play", "0-0")[0]["credit"] == 0  # count 0 is not positive
    ev = act(state, 1, "play", "0-3", "right")[0]
    assert (ev["count"], ev["credit"]) == (3, 0)
    ev = act(state, 0, "play", "4-0", "left")[0]
    assert (ev["count"], ev["credit"]) == (7, 0)
    assert state.scores == [0, 0]


# ---------------------------------------------------------------- end of hand


def test_domino_last_tile_is_credited_before_the_count() -> None:
    state = golden_state("domino-and-next-opener", upto=12)
    events = act(state, 0, "play", "4-0", "right")
    assert [e["type"] for e in events][:2] == ["play", "hand_end"]
    assert events[0]["credit"] == 10
    assert events[1]["reason"] == "domino" and events[1]["winner"] == 0


@pytest.mark.parametrize(
    ("pips", "subtracted"),
    [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 5),
        (4, 5),
        (5, 5),
        (7, 5),
        (8, 10),
        (12, 10),
        (13, 15),
        (114, 115),
    ],
)
def test_subtraction_rounds_to_the_nearest_five(pips: int, subtracted: int) -> None:
    assert round_to_five(pips) == subtracted


def test_each_player_loses_only_their_own_pips() -> None:
    state = golden_state("domino-and-next-opener", upto=13)
    end = state.last_hand
    assert end is not None
    assert end["pips"] == [0, 8] and end["subtract"] == [0, 10]
    assert state.scores == [45, 0]  # seat 0 is not credited with seat 1's 8 pips


def test_scores_may_go_below_zero() -> None:
    state = golden_state("blocked-hand")
    assert state.scores == [0, -115]


def test_reaching_the_target_ends_the_game_at_once() -> None:
    state = golden_state("immediate-win-target-25")
    assert state.over and state.winner == 0 and state.scores == [35, 10]
    assert state.to_act == () and state.legal_actions() == []
    for seat in (0, 1):  # the winner too, who played last
        with pytest.raises(IllegalAction, match="the game is over") as e:
            act(state, seat, "play", "5-6", "right")
        assert e.value.reason == "game_over"


def test_nobody_acts_before_the_next_hand_is_dealt() -> None:
    state = Dominoes.start(2, {}, [])  # a replay or a server that deals later
    assert state.awaiting_deal and state.to_act == () and state.legal_actions() == []
    before = state.view(None)
    for seat in (0, 1):
        with pytest.raises(IllegalAction, match="the next hand has not been dealt") as e:
            state.apply(Dominoes.parse_action({"seat": seat, "type": "draw"}, 2))
        assert e.value.reason == "not_dealt"
    assert state.view(None) == before


def test_blocking_check_uses_every_hand() -> None:
    # Invariant over random games: an unfinished hand always has a move somewhere.
    rng = random.Random(8)
    for seed in range(60):
        s = Dominoes.new(3, seed=seed)
        while not s.over and s.hand_no < 5:
            s.apply(rng.choice(s.legal_actions()))
            if s.over or s.awaiting or s.left < 0:
                continue
            ends = MATCH[s.left] | MATCH[s.right]
            assert s.bone or any(h & ends for h in s.hands)
